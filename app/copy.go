package main

import (
	"io"
	"strings"

	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// renderExport offers the link and the table for copying. The copied text also appears in a
// read-only box, for browsers that refuse the clipboard.
func (p *page) renderExport() app.UI {
	status := ""
	if p.copiedFrom == "export" {
		status = p.status
	}
	return app.Div().ID("export").Body(
		app.Button().ID("copy-link").Type("button").Text("Copy link").OnClick(p.recovering(func(ctx app.Context, e app.Event) {
			u := *ctx.Page().URL() // the address bar may not show the last edit yet (startWork)
			u.RawQuery = p.query
			p.copy(ctx, "export", "link", u.String())
		})),
		app.Button().ID("copy-csv").Type("button").Text("Copy as CSV").OnClick(p.recovering(func(ctx app.Context, e app.Event) {
			p.copy(ctx, "export", "CSV", exportText(writeCSV, *p.report, p.herdDone(), p.overloadDone())+p.compareText(writeCompareCSV))
		})),
		app.Button().ID("copy-md").Type("button").Text("Copy as Markdown").OnClick(p.recovering(func(ctx app.Context, e app.Event) {
			p.copy(ctx, "export", "Markdown", exportText(writeMarkdown, *p.report, p.herdDone(), p.overloadDone())+p.compareText(writeCompareMarkdown))
		})),
		app.Span().ID("copy-status").Aria("live", "polite").Text(status),
		app.If(status != "" && p.export != "", app.Textarea().ID("export-text").ReadOnly(true).Rows(6).Text(p.export)),
	)
}

func exportText(write func(io.Writer, calc.Report, []calc.HerdRun, ...calc.OverloadRun) error, r calc.Report, herd []calc.HerdRun, over []calc.OverloadRun) string {
	var b strings.Builder
	write(&b, r, herd, over...)
	return b.String()
}

// copy puts text on the clipboard and says whether that worked, next to the buttons of from
// (the id of the part they are in), where the person who clicked is looking.
func (p *page) copy(ctx app.Context, from, what, text string) {
	p.copiedFrom = from
	p.export = text
	p.status = "Copying the " + what + "…"
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		p.status = "This browser gives no clipboard here: the " + what + " is in the box below."
		return
	}
	var done, fail app.Func
	settle := func(msg string) {
		ctx.Dispatch(func(ctx app.Context) { p.status = msg })
		done.Release()
		fail.Release()
	}
	done = app.FuncOf(func(app.Value, []app.Value) any { settle("Copied the " + what + "."); return nil })
	fail = app.FuncOf(func(app.Value, []app.Value) any {
		settle("The browser refused the clipboard: the " + what + " is in the box below.")
		return nil
	})
	clip.Call("writeText", text).Call("then", done, fail)
}
