package main

import (
	"sync"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The library panel (Export as library configuration): per retry library, the configuration
// that package libs writes for the policy and what libs says the library will do differently.
// Every number in it comes from libs or calc; this file only lays them out.

// renderSnippets is the library panel for p: per library, a heading, the code, and the list of
// differences (empty when the library does exactly what the policy says). It reports; it does
// not grade: no colours, no ranking.
func renderSnippets(p calc.Params) app.UI {
	exports := libExportsOnce(p)
	return app.Section().ID("export-code").Body(
		app.H2().Text("Export as library configuration"),
		app.P().Text("Each library's configuration for these inputs, and what it will do differently from them. An empty list means the library waits exactly as the policy does (to the nanosecond)."),
		app.Range(exports).Slice(func(i int) app.UI { return renderLibExport(exports[i]) }),
	)
}

func renderLibExport(e libs.Export) app.UI {
	status := "No differences: it does exactly what the policy says."
	switch {
	case len(e.Snippets) == 0:
		status = "It cannot express this policy:"
	case len(e.Diffs) > 0:
		status = "What it will do differently:"
	}
	return app.Div().Class("export-lib").Body(
		app.H3().Text(e.Title),
		app.Range(e.Snippets).Slice(func(i int) app.UI {
			s := e.Snippets[i]
			return app.Pre().Body(app.Code().DataSet("lib", e.Lib).DataSet("lang", s.Lang).Text(s.Code))
		}),
		app.P().Text(status),
		app.Ul().DataSet("lib-diff", e.Lib).Body(app.Range(e.Diffs).Slice(func(i int) app.UI {
			return app.Li().Text(e.Diffs[i])
		})),
	)
}

// libLast keeps the exports of the last policy rendered: the page renders far more often than
// its inputs change, and a policy of 1000 attempts takes milliseconds to compare. The server
// pre-renders pages concurrently, hence the lock.
var libLast struct {
	sync.Mutex
	p       calc.Params
	exports []libs.Export
}

func libExportsOnce(p calc.Params) []libs.Export {
	p = exportKey(p)
	libLast.Lock()
	defer libLast.Unlock()
	if libLast.exports == nil || libLast.p != p {
		libLast.p, libLast.exports = p, libs.Exports(p)
	}
	return libLast.exports
}

// exportKey is what the Export panel depends on: the policy, not the herd, the sampling or the
// layers, whose edits then leave the panel as it is.
func exportKey(p calc.Params) calc.Params {
	d := calc.Default()
	p.Clients, p.Outage, p.Window, p.Capacity, p.Spread = d.Clients, d.Outage, d.Window, d.Capacity, d.Spread
	p.Samples, p.Seed, p.Layers = d.Samples, d.Seed, d.Layers
	return p
}
