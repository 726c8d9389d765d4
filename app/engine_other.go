//go:build !js

package main

import (
	"backoffcalc/app/internal/engine"
	"backoffcalc/app/internal/work"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Natively the engine's work is done in place (engine_js.go has the browser's Web Workers): the
// import through the same replies, so that the component tests see what the page shows, and
// the simulations as calc/sim's own, which the server's pre-render and table print.

// The simulations, variables so that a test can force a panic or run a view on runs of its own.
var (
	herdModePausing   = sim.HerdModePausing
	fluidMode         = fluid.ModePausing
	overloadPausing   = sim.OverloadPausing
	contentionPausing = func(p calc.Params, n, runs int, modes []contention.Mode, pause func() bool) ([]contention.Result, bool, error) {
		return contention.RunPausing(p.Params, n, runs, modes, pause) // the experiment reads the policy only
	}
)

// fluidModeNow is calc/fluid's Mode in place: bounded by its work limits, it runs whole.

// exportNow writes the Export panel's library in place, as the server's pre-render shows it
// and the component tests read it (engine_js.go: the page's wasm holds no exporter, and the
// panel asks the engine's worker, exportSection.ask).
func exportNow(in work.ExportIn) (work.Reply[work.ExportOut], bool) {
	out, err := engine.Export(in)
	if err != nil {
		return work.Reply[work.ExportOut]{Err: err.Error()}, true
	}
	return work.Reply[work.ExportOut]{Out: out}, true
}

func (p *page) knowEngine(app.Context)  {}
func (p *page) startEngine(app.Context) {}

// callEngine does the work at once: done has its reply before callEngine returns.
func (p *page) callEngine(ctx app.Context, kind, input string, done func(ctx app.Context, reply string, err error)) {
	reply, _, _ := engine.Handle(kind, input, nil)
	done(ctx, reply, nil)
}

// runHerdNow computes the herd in place, as the server's pre-render shows it and table prints
// it: every mode of params.HerdModes (simulated, or its expected counts where the simulation
// cannot run it), or for an open system (calc.Params.Open) every overload
// case in its place. On an error it keeps no runs.
func (h *herdView) runHerdNow(params calc.Params) {
	if !h.start(params) {
		return
	}
	if !params.Open() && !params.HerdSimulated() {
		h.fluid, h.err = fluid.Herd(params)
		return
	}
	if !params.Open() {
		h.runs, h.err = sim.Herd(params)
		return
	}
	for _, c := range h.cases {
		run, _, err := overloadPausing(params, c, nil)
		if err != nil {
			h.over, h.err = nil, err
			return
		}
		h.over = append(h.over, run)
	}
}
