package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"backoffcalc/app/internal/work"
	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The library panel (Export as library configuration): one retry library at a time, picked in a
// list and kept in the link (export=grpc), with the configuration that package libs writes for
// the policy and what libs says the library will do differently. Every number in it comes from
// libs or calc; this file only lays them out. In the browser the engine's worker writes them
// (work.Export): the page's wasm links no exporter (docs/layout.md); natively they are written
// in place (exportNow), as the server's pre-render shows them.

// exportSection is the panel's component: the snippets island and what it shows. The library
// is one of the page's inputs (host.lib, the link's export key), and the copy buttons' status
// the page's, shared with the bar's (host.copy, host.copied).
type exportSection struct {
	h        *host
	snippets *island
	shows    work.ExportIn // what the panel shows, or is being updated to show
	due      bool          // the panel still shows older inputs: it follows the paint (later)
	asks     bool          // the engine may be asked: the load's own work is done, or the panel came near

	// The engine's last replies, the newest last, each for its inputs: the panel shows the
	// current inputs' reply, and nothing until it is in (the island is pending), never another
	// inputs' as if it were theirs. A few are kept: an edit that ends invalid shows the
	// committed inputs' again, whose reply may have come after a newer one was asked for.
	replies []exportReply
	asked   *work.ExportIn // the inputs of the last request not answered yet
}

type exportReply struct {
	in    work.ExportIn
	reply work.Reply[work.ExportOut]
}

// keptReplies is how many replies the panel keeps.
const keptReplies = 4

func newExportSection(h *host) part {
	// In the browser the panel has nothing to show until the engine's first reply, which
	// follows the load's first paint (later) and its own work (ready).
	s := &exportSection{h: h, due: true}
	s.snippets = newIsland("snippets", h.guarded(s.render))
	s.snippets.pending()
	if app.IsClient {
		// The page's HTML (the server's, or the static site's for another link) has a panel:
		// it stays in place, hidden as pending (app.css), until the first reply. Emptied, the
		// panel would shorten the page by its height, and a reader who followed a link of the
		// table of contents to a section above it would land where the shorter page ended.
		if el := app.Window().GetElementByID("snippets"); el.Truthy() {
			s.snippets.keep(el.Get("innerHTML").String())
		}
	}
	return s
}

// render is the snippets island: the chosen library's code and differences for the current
// inputs, once their reply is in; until then nothing, the island marked as being updated.
func (s *exportSection) render() app.UI {
	r := s.h.report()
	if r == nil {
		return app.Text("")
	}
	reply, ok := s.replyFor(work.ExportOf(r.Params, s.h.lib()))
	switch {
	case !ok:
		return app.Raw(s.snippets.markup) // what it showed, hidden as pending until the reply
	case reply.Panic != "":
		panic(reply.Panic) // the guard shows it, with the link to report
	case reply.Err != "":
		return app.P().Text(reply.Err)
	}
	return renderSnippets(reply.Out)
}

// replyFor is the reply for in, when it is in; natively it is written in place (exportNow).
func (s *exportSection) replyFor(in work.ExportIn) (work.Reply[work.ExportOut], bool) {
	for _, r := range s.replies {
		if r.in == in {
			return r.reply, true
		}
	}
	r, ok := exportNow(in)
	if ok {
		s.keep(in, r)
	}
	return r, ok
}

// keep keeps reply, the one for in, with the newest.
func (s *exportSection) keep(in work.ExportIn, reply work.Reply[work.ExportOut]) {
	s.replies = slices.DeleteFunc(s.replies, func(r exportReply) bool { return r.in == in })
	if len(s.replies) == keptReplies {
		s.replies = slices.Delete(s.replies, 0, 1)
	}
	s.replies = append(s.replies, exportReply{in, reply})
}

// ask has the engine write the panel for what it shows, unless its reply is in or asked for
// already; the panel shows the reply when it comes, if it still shows those inputs. Natively
// the reply is in before ask returns (callEngine).
func (s *exportSection) ask(ctx app.Context) {
	in := s.shows
	if s.h.report() == nil {
		return
	}
	if _, ok := s.replyFor(in); ok || s.asked != nil && *s.asked == in {
		return
	}
	s.asked = &in
	b, err := json.Marshal(in)
	if err != nil {
		panic(err) // a policy is numbers and strings
	}
	s.h.callEngine(ctx, work.Export, string(b), func(ctx app.Context, reply string, err error) {
		if s.asked != nil && *s.asked == in {
			s.asked = nil
		}
		var r work.Reply[work.ExportOut]
		if err != nil {
			r.Err = err.Error() // the engine could not start: said where the panel would be
		} else if err := json.Unmarshal([]byte(reply), &r); err != nil {
			r = work.Reply[work.ExportOut]{Panic: "the engine's reply: " + err.Error()} // render panics with it
		}
		s.keep(in, r)
		if in == s.shows && !s.due {
			s.snippets.refresh()
		}
	})
}

// show shows the panel for the current inputs: at once when their reply is in, else marked as
// being updated until the reply comes (ask, once the engine may be asked).
func (s *exportSection) show(ctx app.Context) {
	if s.h.report() == nil {
		return
	}
	s.shows = s.current()
	if !s.showKnown() && s.asks {
		s.ask(ctx)
	}
}

// showKnown shows the panel for what it shows now when the reply is in, else marks it as being
// updated; it reports whether the reply was in.
func (s *exportSection) showKnown() bool {
	if _, ok := s.replyFor(s.shows); ok {
		s.snippets.refresh()
		return true
	}
	s.snippets.pending()
	return false
}

// onInputs marks the panel as being updated when the new inputs change what it shows: long and
// below the table, it follows after the paint (later).
func (s *exportSection) onInputs() {
	if in := s.current(); in != s.shows {
		s.shows = in
		s.due = true
		s.snippets.pending()
	}
}

// current is the panel's input for the current inputs.
func (s *exportSection) current() work.ExportIn {
	return work.ExportOf(s.h.report().Params, s.h.lib())
}

// later shows the panel for the current inputs, after the paint (showLeftForLater).
func (s *exportSection) later(ctx app.Context) {
	if s.due {
		s.due = false
		s.show(ctx)
	}
}

// ready is startWork's word that the load's own work (the sampling, the herd) is done: the
// engine may be asked for the panel now, and is, if its reply is not in.
func (s *exportSection) ready(ctx app.Context, gen int64) {
	if s.h.current(gen) {
		s.mayAsk(ctx)
	}
}

// near is whenNear's word that the panel is near the viewport: the engine may be asked now,
// before the load's own work is done.
func (s *exportSection) near(ctx app.Context) { s.mayAsk(ctx) }

// mayAsk lets the panel ask the engine from now on, and asks for what it shows unless that
// waits for the paint (later).
func (s *exportSection) mayAsk(ctx app.Context) {
	s.asks = true
	if !s.due {
		s.ask(ctx)
	}
}

// commitment is the panel as it shows the committed inputs, which an edit that ends invalid
// shows again (typing.go).
func (s *exportSection) commitment() func() {
	shows, due := s.shows, s.due
	return func() {
		s.shows, s.due = shows, due
		if !s.due {
			s.showKnown() // else the work that follows (ready) asks for it
		}
	}
}

// body is the panel: its heading first (the page's outline may reuse it), the picker, then the
// chosen library's code and differences (the snippets island, which follows the paint) and
// what its copy buttons did.
func (s *exportSection) body() []app.UI {
	var values, labels []string
	for _, lib := range libs.Libraries() {
		values, labels = append(values, lib.Lib), append(labels, lib.Title)
	}
	problem, class, shown := "", "field export-pick", s.h.lib()
	if fe := s.h.fieldError(libs.ExportKey); fe != nil {
		// As the form's fields: go-app pre-renders aria-invalid="true" as a bare attribute.
		// The picker shows the value given, not the library shown below it (see stale note).
		problem, class, shown = fieldMessage(fe), class+" invalid", fe.Value
	}
	options := selectOptions(values, labels, shown)
	status, copied := s.h.copied("export-code")
	// The copy buttons are inside the island, which has no handlers of its own: their clicks
	// come up to the section.
	return []app.UI{app.Div().ID("export-code").OnClick(s.h.recovering(s.copySnippet)).Body(
		app.P().Text("A library's configuration for these inputs, and what it will do differently from them. An empty list means the library waits exactly as the policy does (to the nanosecond)."),
		app.Div().Class(class).Body(
			app.Label().For("export-lib").Text("Library"),
			app.Select().ID("export-lib").Name(libs.ExportKey).
				Aria("invalid", fmt.Sprint(problem != "")).Aria("describedby", "export-lib-error"). // aria-invalid takes words
				OnChange(s.h.recovering(func(ctx app.Context, e app.Event) {
					s.choose(ctx, ctx.JSSrc().Get("value").String())
				})).Body(options...),
			app.Span().ID("export-lib-error").Class("error").Text(problem),
		),
		s.snippets,
		app.P().ID("export-copy-status").Aria("live", "polite").Text(status),
		app.If(status != "" && copied != "", app.Textarea().ID("export-code-text").Aria("label", "The copied text").ReadOnly(true).Rows(6).Text(copied)),
	)}
}

// choose shows another library's configuration. The policy is the same: nothing is computed
// again, and the link gets the choice at once (host.setExport).
func (s *exportSection) choose(ctx app.Context, lib string) {
	s.h.setExport(ctx, lib, func(string) {
		s.asks = true
		s.show(ctx)
	})
}

// copySnippet copies the code of the copy button clicked in the panel: exactly the text of that
// snippet of the library shown, the reply the panel shows, inside the click (the clipboard
// takes text only there). While the panel is being updated its buttons are hidden.
func (s *exportSection) copySnippet(ctx app.Context, e app.Event) {
	button := e.Get("target").Call("closest", "[data-copy]")
	if !button.Truthy() || s.h.report() == nil || s.due {
		return
	}
	i, err := strconv.Atoi(button.Call("getAttribute", "data-copy").String())
	reply, ok := s.replyFor(s.current())
	ex := reply.Out
	if err != nil || !ok || i < 0 || i >= len(ex.Snippets) {
		return
	}
	s.h.copy(ctx, "export-code", snippetName(ex, i), ex.Snippets[i].Code)
}

// setExport sets the export key, the library the panel shows (host.setExport): shown gets the
// library when it is another, and the link gets the choice at once when all its keys are valid.
func (p *page) setExport(ctx app.Context, lib string, shown func(lib string)) {
	p.raw.Set(libs.ExportKey, lib)
	link, err := libs.DecodeLinkValues(p.raw)
	valid := p.formErrors(err)
	if p.fieldError(libs.ExportKey) == nil && link.Export != p.lib {
		p.lib = link.Export
		shown(p.lib)
	}
	if valid {
		p.setQuery(linkQuery(link, p.fit.open))
		p.showQuery(ctx)
	}
}

// snippetName names snippet i of ex in the copy's status: "Copied the python code of tenacity
// (Python)."
func snippetName(ex work.ExportOut, i int) string {
	return ex.Snippets[i].Lang + " code of " + ex.Title
}

// renderSnippets is the chosen library's part of the panel, e: a heading, the code with a copy
// button per block, and the list of differences (empty when the library does exactly what the
// policy says). It reports; it does not grade: no colours, no ranking.
func renderSnippets(e work.ExportOut) app.UI {
	status := "No differences: it does exactly what the policy says."
	switch {
	case len(e.Snippets) == 0:
		status = "It cannot express this policy:"
	case len(e.Diffs) > 0:
		status = "What it will do differently:"
	}
	return app.Div().Class("export-lib").DataSet("lib", e.Lib).Body(
		app.H3().Text(e.Title),
		app.Range(e.Snippets).Slice(func(i int) app.UI {
			s := e.Snippets[i]
			return app.Div().Class("snippet").Body(
				app.Button().Type("button").Class("copy-snippet").DataSet("copy", i).Text("Copy the "+s.Lang),
				// A long line scrolls the block, never the page: a keyboard must reach it.
				app.Pre().TabIndex(0).Role("region").Aria("label", e.Title+", "+s.Lang).Body(app.Code().DataSet("lib", e.Lib).DataSet("lang", s.Lang).Text(s.Code)),
			)
		}),
		app.P().Text(status),
		app.Ul().DataSet("lib-diff", e.Lib).Body(app.Range(e.Diffs).Slice(func(i int) app.UI {
			return app.Li().Text(e.Diffs[i])
		})),
	)
}
