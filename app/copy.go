package main

import (
	"encoding/json"
	"errors"
	"strings"

	"backoffcalc/app/internal/report"
	"backoffcalc/app/internal/work"

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
			u.RawQuery = p.queryText()
			p.copy(ctx, "export", "link", u.String())
		})),
		app.Button().ID("copy-csv").Type("button").Text("Copy as CSV").OnClick(p.recovering(func(ctx app.Context, e app.Event) {
			p.copyReport(ctx, "CSV", "csv")
		})),
		app.Button().ID("copy-md").Type("button").Text("Copy as Markdown").OnClick(p.recovering(func(ctx app.Context, e app.Event) {
			p.copyReport(ctx, "Markdown", "md")
		})),
		app.Span().ID("copy-status").Aria("live", "polite").Text(status),
		app.If(status != "" && p.export != "", app.Textarea().ID("export-text").ReadOnly(true).Rows(6).Text(p.export)),
	)
}

// exported is what a copy of the page's report holds: what is computed of the current inputs, as
// table -contention writes it, and in words what is not in yet. A clipboard write needs the
// click's own task, so the copy cannot wait for the rest: it says what it left out.
type exported struct {
	report.Results
	missing []string
}

func (p *page) exported() exported {
	r := *p.report
	e := exported{Results: report.Results{Report: r, Cont: report.Contention{Params: r.Params}, Solve: p.fit.open}}
	if !r.Sampled() || !fitSampled(r) {
		e.missing = append(e.missing, "the sampled numbers (still being sampled)")
	}
	what := "the herd"
	if r.Params.Open() {
		what = "the overload runs"
	}
	switch h := partOf[*herdSection](p); {
	case h.params != r.Params:
		e.missing = append(e.missing, what+" (still being computed)")
	case h.err != nil:
		e.missing = append(e.missing, what+" (not simulated: "+strings.TrimPrefix(h.err.Error(), "calc: ")+")")
	default:
		if e.Herd, e.Over, e.Fluid = h.runsDone(), h.overloadDone(), h.fluidDone(); e.Herd == nil && e.Over == nil && e.Fluid == nil {
			e.missing = append(e.missing, what+" (still being computed)")
		}
	}
	switch c := partOf[*contentionSection](p); {
	case c.table != nil && c.key == contentionKey(r.Params):
		e.Cont.Table = c.table
	case c.err != nil:
		e.missing = append(e.missing, "the contention experiment (not simulated: "+strings.TrimPrefix(c.err.Error(), "calc: ")+")")
	case c.seen:
		e.missing = append(e.missing, "the contention experiment (still being computed)")
	default:
		e.missing = append(e.missing, "the contention experiment (it runs when its section comes into view)")
	}
	compare := partOf[*compareSection](p)
	if e.Cmp = compare.comparison(); e.Cmp != nil {
		e.Cmp.HerdA = report.OwnHerd(r.Params, e.Herd, e.Over...)
		switch v := &compare.vs; {
		case !v.herdIn || v.herdFor != p.vsReport.Params:
			e.missing = append(e.missing, "B's herd headline (still being computed)")
		case v.herd != nil:
			e.Cmp.HerdB = v.herd
		case v.over != nil:
			e.Cmp.HerdB = &v.over.HerdRun
		}
		keys := [2]contentionInputs{contentionKey(r.Params), contentionKey(p.vsReport.Params)}
		switch v := &compare.vs; {
		case v.contGen == 0 && v.contFor == keys && v.contErr != nil:
			e.missing = append(e.missing, "the contention headlines of A and B (not simulated: "+strings.TrimPrefix(v.contErr.Error(), "calc: ")+")")
		case v.contGen == 0 && v.contFor == keys && v.cont[0] != nil && v.cont[1] != nil:
			e.Cmp.ContA, e.Cmp.ContB = v.cont[0], v.cont[1]
		case v.contGen != 0 && v.contGen == p.workGen.Load():
			e.missing = append(e.missing, "the contention headlines of A and B (still being computed)")
		default:
			e.missing = append(e.missing, "the contention headlines of A and B (their button in the compare section computes them)")
		}
	}
	return e
}

// without says what a copy leaves out: "" for nothing, else " without a, b and c".
func without(missing []string) string {
	switch n := len(missing); n {
	case 0:
		return ""
	case 1:
		return " without " + missing[0]
	default:
		return " without " + strings.Join(missing[:n-1], ", ") + " and " + missing[n-1]
	}
}

// copyReport copies the report in format, "csv" or "md", as table -format writes it. The
// engine's worker writes the text (work.Copy): the page's wasm links no report writer
// (docs/layout.md). A browser lets a page write the clipboard only inside a click, so the write
// is asked for here, with the text to come (backoffcalcCopyLater, app.js).
func (p *page) copyReport(ctx app.Context, what, format string) {
	e := p.exported()
	what += without(e.missing)
	n := p.startCopy("export", what, "") // the box shows the text once it is written
	in, err := json.Marshal(work.CopyIn{Results: e.Results, Format: format})
	if err != nil {
		panic(err) // the results are numbers and words: a bug, which recovering reports
	}
	later := app.Window().Call("backoffcalcCopyLater") // null without a clipboard (not a secure context)
	wrote := true                                      // else the copy's own message stands
	if later.Truthy() {
		p.settleCopy(ctx, n, what, later.Get("done"), func() bool { return wrote })
	}
	p.callEngine(ctx, work.Copy, string(in), func(ctx app.Context, reply string, err error) {
		defer p.survive(nil, p.addError)
		var r work.Reply[string]
		if err == nil {
			err = json.Unmarshal([]byte(reply), &r)
		}
		if err == nil && r.Err != "" {
			err = errors.New(r.Err)
		}
		if r.Panic != "" || err != nil || n != p.copies {
			wrote = false // nothing of this copy reaches the clipboard, or its status
			if later.Truthy() {
				later.Call("fail", "not written")
			}
		}
		switch {
		case r.Panic != "":
			panic(r.Panic) // the worker's bug is the page's: survive asks for the link to be reported
		case n != p.copies: // a later copy's status and box stand
		case err != nil:
			p.status = "The " + what + " could not be written: " + err.Error() + "."
		case !later.Truthy():
			p.export, p.status = r.Out, noClipboard(what)
		default:
			p.export = r.Out
			later.Call("give", r.Out)
		}
	})
}

// copy puts text on the clipboard and says whether that worked, next to the buttons of from
// (the id of the part they are in), where the person who clicked is looking.
func (p *page) copy(ctx app.Context, from, what, text string) {
	p.copyWithout(ctx, from, what, "", text)
}

// copyWithout is copy of a text that leaves out what left says ("" for nothing), in every
// message.
func (p *page) copyWithout(ctx app.Context, from, what, left, text string) {
	what += left
	n := p.startCopy(from, what, text)
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		p.status = noClipboard(what)
		return
	}
	p.settleCopy(ctx, n, what, clip.Call("writeText", text), func() bool { return true })
}

// startCopy starts copy number n of what, from the part from, with text in the box ("" until
// it is written), and says it is being copied. A copy still being written when a later one
// starts reaches neither the clipboard nor the status nor the box (copyReport).
func (p *page) startCopy(from, what, text string) (n int) {
	p.copies++
	p.copiedFrom, p.export, p.status = from, text, "Copying the "+what+"…"
	return p.copies
}

// settleCopy says whether the clipboard took copy n of what once written, the write's promise,
// settles: unless a later copy started since, or stands says the copy's own message stands.
func (p *page) settleCopy(ctx app.Context, n int, what string, written app.Value, stands func() bool) {
	var done, fail app.Func
	settle := func(msg string) {
		ctx.Dispatch(func(ctx app.Context) {
			if n == p.copies && stands() {
				p.status = msg
			}
		})
		done.Release()
		fail.Release()
	}
	done = app.FuncOf(func(app.Value, []app.Value) any { settle("Copied the " + what + "."); return nil })
	fail = app.FuncOf(func(app.Value, []app.Value) any {
		settle("The browser refused the clipboard: the " + what + " is in the box below.")
		return nil
	})
	written.Call("then", done, fail)
}

// noClipboard is the status of a copy of what where the browser gives no clipboard.
func noClipboard(what string) string {
	return "This browser gives no clipboard here: the " + what + " is in the box below."
}
