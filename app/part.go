package main

import (
	"sync/atomic"

	"backoffcalc/app/internal/imported"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Sections as components (docs/layout.md): the page owns the inputs, the link, the report and
// the routing of an edit (load, edit, startWork); a section's component (part) owns its view
// state and its behaviour, gets from the page what it shows through host, and reports through
// host's callbacks. The page reaches a component through the hooks below, called for every
// section that has them, in the list's order, and by name (partOf) only where an order matters
// (startWork's herd, then B's herd headline; the copy's list of what is still computed); a new
// section is its file and its entry in sections.

// host is what the page passes down to its sections' components: what they show, and the
// callbacks through which they report. Every field is the page's; a component never writes the
// page's state but through them.
type host struct {
	report   func() *calc.Report // the last valid inputs' report; nil before the first
	vsReport func() *calc.Report // policy B's, beside report's; nil without B
	workGen  *atomic.Int64       // the current work: a newer report stops older work (yielder)
	inInput  func() bool         // the report is an input's, shown in its task (page.apply)

	lib    func() string                   // the library the export panel shows (libs.ExportKey)
	value  func(key string) string         // an input as the form shows it
	errs   func() []*policy.FieldError     // the inputs' errors the page shows
	linkOf func(params calc.Params) string // the query of a link to params, its policy's and models' keys: B's copy of A

	// setInputs sets inputs as if each were typed, in order: one edit of the link. It reports
	// whether the inputs were valid (edit).
	setInputs func(ctx app.Context, values [][2]string) bool
	// dropB removes policy B: its input and its report.
	dropB func()
	// setExport sets the library the export panel shows, an input: shown gets it when it is
	// another; the link follows when every input is valid.
	setExport func(ctx app.Context, lib string, shown func(lib string))
	// fieldError is the error of one input, nil when it has none.
	fieldError func(key string) *policy.FieldError

	// copy puts text on the clipboard, saying so beside from's buttons (copy.go); copied is
	// what the last copy said and copied, when from's buttons made it.
	copy   func(ctx app.Context, from, what, text string)
	copied func(from string) (status, text string)

	// callEngine hands the engine workers one piece of work (engine_js.go); importInputs sets
	// the inputs an import read, as an edit, and returns the defaults it applied that changed
	// an input and whether the inputs were valid.
	callEngine   func(ctx app.Context, kind, input string, done func(ctx app.Context, reply string, err error))
	importInputs func(ctx app.Context, r imported.Reply) ([]string, bool)

	// herd is the herd section's runs, whose own mode's is A's herd headline in the compare
	// section; herdShown says that new ones are shown.
	herd      func() *herdView
	herdShown func()

	// The page's recover (recover.go): survive deferred around work off the input path,
	// recovering around an event handler, guarded around an island's content.
	survive    func(params *calc.Params, show func(*policy.FieldError))
	recovering func(h app.EventHandler) app.EventHandler
	guarded    func(render func() app.UI) func() app.UI
}

// current reports whether gen is still the current work.
func (h *host) current(gen int64) bool { return h.workGen.Load() == gen }

// part is a section's component: what is under its heading, the same structure whatever the
// inputs (go-app matches children by position, and the islands must keep theirs).
type part interface {
	body() []app.UI
}

// The hooks a component may have; the page calls each for every component that has it.
type (
	// numbered: the islands of body that show the report's own numbers, which the hand-over
	// keeps (keptNumbers).
	numbered interface{ numbers() []*island }

	// reporter: a new report, whose numbers body's islands show now, in the input's task
	// (showReport).
	reporter interface{ onReport() }

	// nearer: the section has come near the viewport (whenNear), once.
	nearer interface{ near(ctx app.Context) }

	// starter: startWork's new inputs, before its work, which is gen.
	starter interface{ start(params calc.Params) }

	// readier: the rest of gen's work is done (the sampling, the herd): what waited for it may
	// start.
	readier interface {
		ready(ctx app.Context, gen int64)
	}

	// catcher: the paint of an input's numbers is over: what waited for it while off the screen
	// shows (island.catchUp).
	catcher interface{ catchUp() }

	// inputser: new inputs, whose report is on the page (refresh): what follows the paint is
	// marked as being updated.
	inputser interface{ onInputs() }

	// laterer: the paint of new inputs is over (showLeftForLater): what waited for it shows.
	laterer interface{ later(ctx app.Context) }

	// committer: the section's state as it shows the committed inputs, as a function that shows
	// it again, for an edit that ends invalid (typing.go).
	committer interface{ commitment() func() }

	// restorer: an edit that ends invalid shows the committed results again (typing.go).
	restorer interface{ restore() }

	// waiter: a keystroke's inputs, params, whose long work waits for the typing to pause:
	// results of other inputs are marked as waiting, and kept for restore.
	waiter interface{ wait(params calc.Params) }
)

// newParts makes the sections' components, by sections' index (nil for a section the page
// draws itself), and the form's Import control, with the page as their host.
func (p *page) newParts() ([]part, *importControl) {
	h := &host{
		report:    func() *calc.Report { return p.report },
		vsReport:  func() *calc.Report { return p.vsReport },
		workGen:   &p.workGen,
		inInput:   func() bool { return p.inInput },
		lib:       func() string { return p.lib },
		value:     p.value,
		errs:      func() []*policy.FieldError { return p.errs },
		linkOf:    func(params calc.Params) string { return params.Values().Encode() }, // B has no fit to open
		setInputs: p.setInputs,
		dropB: func() {
			p.raw.Del(libs.VsKey)
			p.vsReport = nil
		},
		callEngine:   p.callEngine,
		importInputs: p.importInputs,
		setExport:    p.setExport,
		fieldError:   p.fieldError,
		copy:         p.copy,
		copied: func(from string) (string, string) {
			if p.copiedFrom != from {
				return "", ""
			}
			return p.status, p.export
		},
		herd:       func() *herdView { return &partOf[*herdSection](p).herdView },
		herdShown:  func() { partOf[*compareSection](p).showRuns() },
		survive:    p.survive,
		recovering: p.recovering,
		guarded:    p.guarded,
	}
	parts := make([]part, len(sections))
	for i, s := range sections {
		if s.part != nil {
			parts[i] = s.part(h)
		}
	}
	return parts, &importControl{h: h}
}

// reportSection is a section that shows the report's numbers alone, as one island: a new
// report writes it (onReport), off the screen after an input's paint, and the hand-over keeps
// it (numbers).
type reportSection struct {
	island  *island
	inInput func() bool
}

// reportPart makes a reportSection whose island id shows content of the report; empty before
// the first valid inputs.
func reportPart(id string, content func(r calc.Report) app.UI) func(h *host) part {
	return func(h *host) part {
		return &reportSection{island: newIsland(id, h.guarded(func() app.UI {
			r := h.report()
			if r == nil {
				return app.Text("")
			}
			return content(*r)
		})).patched().waitsOffScreen(), inInput: h.inInput}
	}
}

func (s *reportSection) body() []app.UI     { return []app.UI{s.island} }
func (s *reportSection) numbers() []*island { return []*island{s.island} }
func (s *reportSection) catchUp()           { s.island.catchUp() }

func (s *reportSection) onReport() { s.island.refreshFor(s.inInput()) }

// partOf is the page's component of type T; T's zero value when no section has one.
func partOf[T part](p *page) T {
	for _, c := range p.parts {
		if t, ok := c.(T); ok {
			return t
		}
	}
	var none T
	return none
}

// setInputs sets inputs as if each were typed, the last as an edit (host.setInputs).
func (p *page) setInputs(ctx app.Context, values [][2]string) bool {
	last := len(values) - 1
	for _, kv := range values[:last] {
		p.raw.Set(kv[0], kv[1])
	}
	return p.edit(ctx, values[last][0], values[last][1])
}

// eachPart calls f with every component that is a T, in the list's order.
func eachPart[T any](p *page, f func(T)) {
	for _, c := range p.parts {
		if t, ok := c.(T); ok {
			f(t)
		}
	}
}
