package main

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The library panel (Export as library configuration): one retry library at a time, picked in a
// list and kept in the link (export=grpc), with the configuration that package libs writes for
// the policy and what libs says the library will do differently. Every number in it comes from
// libs or calc; this file only lays them out.

// exportSection is the panel's component: the snippets island and what it shows. The library
// is one of the page's inputs (host.lib, the link's export key), and the copy buttons' status
// the page's, shared with the bar's (host.copy, host.copied).
type exportSection struct {
	h        *host
	snippets *island
	shows    exportView // what the panel shows
	due      bool       // the panel still shows older inputs: it follows the paint (later)
}

func newExportSection(h *host) part {
	s := &exportSection{h: h}
	s.snippets = newIsland("snippets", h.guarded(func() app.UI {
		r := h.report()
		if r == nil {
			return app.Text("")
		}
		return renderSnippets(r.Params, h.lib())
	}))
	return s
}

// onInputs marks the panel as being updated when the new inputs change what it shows: long and
// below the table, it follows after the paint (later).
func (s *exportSection) onInputs() {
	if key := (exportView{exportKey(s.h.report().Params), s.h.lib()}); key != s.shows {
		s.shows = key
		s.due = true
		s.snippets.pending()
	}
}

// later shows the panel for the current inputs, after the paint (showLeftForLater).
func (s *exportSection) later() {
	if s.due {
		s.due = false
		s.snippets.refresh()
	}
}

// commitment is the panel as it shows the committed inputs, which an edit that ends invalid
// shows again (typing.go).
func (s *exportSection) commitment() func() {
	shows, due := s.shows, s.due
	return func() {
		s.shows, s.due = shows, due
		if !s.due {
			s.snippets.refresh()
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
	s.h.setExport(ctx, lib, func(lib string) {
		s.shows.lib = lib
		s.snippets.refresh()
	})
}

// copySnippet copies the code of the copy button clicked in the panel: exactly the text of that
// snippet of the library shown.
func (s *exportSection) copySnippet(ctx app.Context, e app.Event) {
	button := e.Get("target").Call("closest", "[data-copy]")
	r := s.h.report()
	if !button.Truthy() || r == nil {
		return
	}
	i, err := strconv.Atoi(button.Call("getAttribute", "data-copy").String())
	ex, ok := libExportOnce(r.Params, s.h.lib())
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
		p.query = linkQuery(link, p.fit.open)
		p.showQuery(ctx)
	}
}

// snippetName names snippet i of ex in the copy's status: "Copied the python code of tenacity
// (Python)."
func snippetName(ex libs.Export, i int) string {
	return ex.Snippets[i].Lang + " code of " + ex.Title
}

// renderSnippets is the chosen library's part of the panel for p: a heading, the code with a
// copy button per block, and the list of differences (empty when the library does exactly what
// the policy says). It reports; it does not grade: no colours, no ranking.
func renderSnippets(p calc.Params, lib string) app.UI {
	e, ok := libExportOnce(p, lib)
	if !ok {
		return app.Text("")
	}
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

// exportView is what the panel shows: a library, for the policy (the exportKey of the inputs).
type exportView struct {
	in  exportInputs
	lib string
}

// libLast keeps the export last rendered: the page renders far more often than its inputs
// change, and a policy of 1000 attempts takes a millisecond or so to compare. The server
// pre-renders pages concurrently, hence the lock.
var libLast struct {
	sync.Mutex
	view   exportView
	export libs.Export
	ok     bool
}

func libExportOnce(p calc.Params, lib string) (libs.Export, bool) {
	view := exportView{exportKey(p), lib}
	libLast.Lock()
	defer libLast.Unlock()
	if !libLast.ok || libLast.view != view {
		libLast.export, libLast.ok = libs.ExportOf(view.in.params(), lib)
		libLast.view = view
	}
	return libLast.export, libLast.ok
}

// exportInputs are what the Export panel reads of the inputs: the policy, the calls' time (in the
// schedule's starts) and the preset's name; not the herd, the sampling, the layers or the other
// models', whose edits then leave the panel as it is.
type exportInputs struct {
	policy calc.Policy
	call   time.Duration
	preset string
}

func exportKey(p calc.Params) exportInputs { return exportInputs{p.Policy, p.Call, p.Preset} }

// params are the inputs the panel is written for: the defaults with in's.
func (in exportInputs) params() calc.Params {
	p := calc.Default()
	p.Policy, p.Call, p.Preset = in.policy, in.call, in.preset
	return p
}
