//go:build !js

package main

import (
	"fmt"
	"testing"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/sim"
)

// An edit while the engine workers run the overload view's heaviest runs stops them: the page
// asks the workers to cancel, they stop within a step (the mark engine-cancelled says one did),
// and the view fills with the new link's runs, calc's numbers.
func TestEngineCancels(t *testing.T) {
	t.Parallel()
	const heavy = "attempts=10&run=199900ms&queue=1000&timeout=1s"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + heavy + "&rate=1000")
	tb.waitWasm()
	// Once the first run is in, the next are in flight on the workers.
	tb.waitFor("the first run", `/Computing the overload runs: [1-9]/.test(document.getElementById("herd-status").textContent)`)
	if done := evalJS[string](tb, `document.getElementById("herd-status").textContent`); done == "" {
		t.Fatal("the view filled before the edit: nothing to cancel")
	}
	tb.setInput("#in-rate", "50")
	p, err := libs.DecodeLink(heavy + "&rate=50")
	if err != nil {
		t.Fatal(err)
	}
	tb.waitFor("the new link", fmt.Sprintf("location.search === %q", "?"+p.Encode()))
	tb.waitFor("a worker's cancel", `performance.getEntriesByName("backoffcalc:engine-cancelled").length > 0`)
	cases := len(p.Params.OverloadCases())
	tb.waitFor("the new runs", wasmRunsIn+fmt.Sprintf(` && document.querySelectorAll("#overload tr[data-limiter]").length === %d`, cases))
	own, err := sim.Overload(p.Params, p.Params.OwnCase())
	if err != nil {
		t.Fatal(err)
	}
	tr := fmt.Sprintf(`#overload tr[data-mode=%q][data-limiter=%q]`, p.Params.OwnCase().Mode.String(), p.Params.OwnCase().Limiter.String())
	got := evalJS[string](tb, `document.querySelector(`+fmt.Sprintf("%q", tr+` td[data-col="succeeded"]`)+`)?.dataset.value ?? "none"`)
	if want := fmt.Sprint(own.Accepted); got != want {
		t.Errorf("the own run's requests succeeded: page %s, calc %s", got, want)
	}
	tb.requireNoConsoleProblems()
}
