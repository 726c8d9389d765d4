package main

import (
	"html"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"backoffcalc/calc/policy"
)

// The first screen written as markup before go-app starts. HTML made for another query (the
// static site's, or the service worker's copy) shows no numbers until the wasm's first render,
// which costs about 600 ms cold: V8 compiles go-app's mount code on first call, and go-app
// creates the page element by element. The page's own code computes the link's first screen
// before that, as the server's pre-render would, and writes it into the HTML in one call
// (prewrite_js.go); go-app's first render then takes over the same page, whose islands keep that
// markup (keepServerNumbers).

// prewritten is the page prewrite loaded for the link: go-app's first route takes it over, with
// its report, samples and markup, rather than compute them again.
var prewritten *page

// firstScreen is a page loaded with query as the wasm's first render loads it (OnInit: the
// policy's own paths sampled when that is small, the schedule's and the totals' percentiles; the
// other modes', which the first screen does not show, follow the paint), with what its first
// screen shows: parts, the id of each of the first screen's islands (and of the attempts hint) followed by its
// markup, which each island keeps for the first render; fields, the name of each input of the
// form followed by its value; open, the answer groups the link opens. ok is false for a link
// with errors (the page then shows no numbers of its own before go-app's render) or a panic.
func firstScreen(query string) (p *page, parts, fields, open []any, ok bool) {
	p = newPage()
	defer p.survive(nil, func(*policy.FieldError) { ok = false })
	p.load(query)
	if p.report == nil || len(p.errs) > 0 {
		return p, nil, nil, nil, false
	}
	if p.sampleSmall() {
		p.report.AddPolicySample(nil)
	}
	for _, s := range sections {
		if s = s.shownFor(p.report.Params); !s.firstScreen || s.numbers == nil {
			continue
		}
		for _, i := range s.numbers(p) {
			i.keep(app.HTMLString(i.content()))
			parts = append(parts, i.id, i.markup)
		}
	}
	parts = append(parts, "in-attempts-hint", html.EscapeString(p.attemptsHint()))
	fields = append(fields, "preset", p.raw.Get("preset"))
	for _, g := range formGroups {
		for _, f := range p.shownFields(g.fields) {
			fields = append(fields, f.key, p.value(f.key))
		}
	}
	for _, g := range fitGroups {
		if p.fit.open.Has(g.set) {
			open = append(open, g.key)
		}
	}
	// A content that panicked shows an error in its place, which is the page's to show.
	return p, parts, fields, open, len(p.errs) == 0
}
