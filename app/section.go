package main

import (
	"strings"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// section is one of the results' parts, under a heading of its own that the table of contents
// links to. What depends on which sections there are, and in which order, is drawn from
// sections: the table of contents, the page's order, the islands a new report writes and the
// hand-over keeps, and what waits for a section to come into view.
type section struct {
	id      string // the link's fragment; the heading's is id+"-h"
	toc     string // the entry in the table of contents
	heading string

	// firstScreen: the section is rendered whole from the first render; the others follow the
	// paint (later).
	firstScreen bool

	// part makes the section's component, which owns its state and draws its body (part); nil
	// for a section the page draws itself from the report (body). An open system's section
	// (open) is drawn by the same component.
	part func(h *host) part

	// body is what is under the heading, for a section without a part. Its structure is the
	// same whatever the inputs: go-app matches children by position, and the islands must keep
	// theirs.
	body func(p *page) []app.UI

	// numbers are the islands of body that show the report's own numbers, sampled ones
	// included: the hand-over keeps the server's markup of them until sampling's
	// (keepServerNumbers).
	numbers func(p *page) []*island

	// onReport writes body's islands for a new report, in the input's task (showReport); nil
	// when the work after the paint writes them (startWork).
	onReport func(p *page)

	// open is shown in the section's place for an open system (calc.Params.Open), whose
	// model is another: the same body shows it.
	open *section
}

// sections are the results' parts, in the page's order. They are set in init: their bodies
// reach code that reads sections, which a package-level initializer may not.
var sections []section

func init() {
	sections = []section{
		{
			id: "schedule-section", toc: "Schedule", heading: "Schedule", firstScreen: true,
			body: (*page).renderScheduleSection,
			numbers: func(p *page) []*island {
				return append([]*island{p.summary, p.results, p.chart, p.fit.head}, p.fit.groups...)
			},
			onReport: func(p *page) {
				p.summary.refresh()
				p.results.refresh()
				p.chart.refreshFor(p.inInput) // below the window on a phone's, or a small one
				p.fit.refresh(p.report)
			},
		},
		{
			id: "modes-section", toc: "Jitter modes", heading: "Jitter modes",
			part: reportPart("modes-numbers", func(r calc.Report) app.UI {
				return scrollBox("modes-box", "Every jitter mode (scrolls)", renderModes(r))
			}),
		},
		{
			id: "compare-section", toc: "Compare", heading: "Compare two policies",
			part: newCompareSection,
		},
		{
			id: "layers-section", toc: "Layers", heading: "Retries across layers",
			part: reportPart("layers-numbers", func(r calc.Report) app.UI { return app.P().ID("layers").Text(report.LayersLine(r)) }),
		},
		{
			id: "herd-section", toc: "Herd", heading: "Herd: many clients through an outage",
			part: newHerdSection,
			open: &overloadSection,
		},
		{
			id: "contention-section", toc: "Contention", heading: "Contention: the AWS post's experiment",
			part: newContentionSection,
		},
		{
			id: "export-section", toc: "Export", heading: "Export as library configuration",
			part: newExportSection,
		},
	}
}

// overloadSection is the herd's section for an open system: new requests keep arriving, and
// the herd's body shows that model, not the closed herd's.
var overloadSection = section{
	id: "overload-section", toc: "Overload", heading: "Overload: new requests keep arriving through an outage",
}

// overloadNoStreamHeading is the overload section's heading when no stream runs.
const overloadNoStreamHeading = "Overload: many clients through an outage, and no stream of new requests"

// sectionByID is the section of sections, or an open system's in its place, whose id is id.
func sectionByID(id string) (section, bool) {
	for _, s := range sections {
		switch {
		case s.id == id:
			return s, true
		case s.open != nil && s.open.id == id:
			return *s.open, true
		}
	}
	return section{}, false
}

// shownFor is s as the page shows it for params. An open system without a stream (an error
// rate, a limiter or a queue alone) has no new requests to keep arriving: its heading says so.
func (s section) shownFor(params calc.Params) section {
	if s.open != nil && params.Open() {
		open := *s.open
		if !params.HasStream() {
			open.heading = overloadNoStreamHeading
		}
		return open
	}
	return s
}

// bodyOf is the body of the section at sections' index i, s as shown: its component's, or the
// page's.
func (p *page) bodyOf(i int, s section) []app.UI {
	if c := p.parts[i]; c != nil {
		return c.body()
	}
	return s.body(p)
}

// shown is the part shown at sections' index i for the current inputs.
func (p *page) shown(i int) section {
	if p.report == nil {
		return sections[i]
	}
	return sections[i].shownFor(p.report.Params)
}

// fragment is the id that a link's fragment id names now: a section's other id (#herd-section
// for the overload section, or the reverse) is the id it shows for these inputs, so that a link
// whose inputs moved the herd to the overload model still opens at that section.
func (p *page) fragment(id string) string {
	for i, s := range sections {
		if s.open != nil && (id == s.id || id == s.open.id) {
			return p.shown(i).id
		}
	}
	return id
}

// renderSection is the results' part at sections' index i, under its heading: whole, or for a
// section below the first screen as later has it.
func (p *page) renderSection(i int) app.UI {
	s := p.shown(i)
	if s.firstScreen {
		return s.render(p.bodyOf(i, s))
	}
	return p.later(i, s)
}

// render is the section's element: its heading, then body.
func (s section) render(body []app.UI) app.UI {
	return app.Section().ID(s.id).Aria("labelledby", s.id+"-h").Body(
		append([]app.UI{app.H2().ID(s.id + "-h").TabIndex(-1).Text(s.heading)}, body...)...,
	)
}

// later is a section below the first screen. In the browser the first render gives it its
// heading only, or the server's copy of it (keepServerNumbers), and its live body follows the
// first paint (showLeftForLater): every function called for the first time is compiled then, on
// the main thread, and creating its elements goes through syscall/js one call at a time, so that
// the first screen's numbers would wait for all the page's code and elements.
func (p *page) later(i int, s section) app.UI {
	switch {
	case p.rest:
		return s.render(p.bodyOf(i, s))
	case i < len(p.keptSections) && p.keptSections[i] != "":
		return app.Raw(p.keptSections[i])
	}
	return s.render(nil)
}

// keepSections keeps the server's markup of the sections below the first screen, whose live
// parts follow the first paint (later), until then, inert: they show what they showed, and take
// no input that their live parts would not see.
func (p *page) keepSections() {
	p.keptSections = make([]string, len(sections))
	for i := range sections {
		s := p.shown(i)
		if s.firstScreen {
			continue
		}
		if el := app.Window().GetElementByID(s.id); el.Truthy() {
			p.keptSections[i] = strings.Replace(el.Get("outerHTML").String(), "<section", "<section inert", 1)
		}
	}
}

// keptNumbers are the islands of every section that show the report's own numbers (numbers).
func (p *page) keptNumbers() []*island {
	var out []*island
	for i, s := range sections {
		if s.numbers != nil {
			out = append(out, s.numbers(p)...)
		}
		if c, ok := p.parts[i].(numbered); ok {
			out = append(out, c.numbers()...)
		}
	}
	return out
}
