//go:build !js

package main

import (
	"strconv"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/sim"
)

// In Chromium, choosing gobreaker on the form of an overload link puts breaker=gobreaker in the
// link and fills the runs side by side with the breaker's column and calc's figures for the
// new link, every other breaker beside it.
func TestBreakerChosenOnForm(t *testing.T) {
	t.Parallel()
	const link = "rate=40&run=3s&timeout=300ms&queue=10&limiter=aws&clients=20&seed=4&failrate=0.3"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + link)
	tb.waitWasm()
	tb.waitFor("the overload runs", wasmRunsIn+` && document.querySelectorAll("#overload tr[data-limiter]").length > 0`)
	if n := evalJS[int](tb, `document.querySelectorAll("#overload [data-breaker], #overload [data-col=breaker]").length`); n != 0 {
		t.Fatalf("without a breaker the runs have %d breaker cells", n)
	}
	tb.setInput("#in-breaker", "gobreaker")
	p, err := libs.Decode(link + "&breaker=gobreaker")
	if err != nil {
		t.Fatal(err)
	}
	cases := p.OverloadCases()
	tb.waitFor("the runs with the breaker", wasmRunsIn+` && document.querySelectorAll("#overload tr[data-breaker]").length === `+strconv.Itoa(len(cases)))
	if q := evalJS[string](tb, `new URLSearchParams(location.search).get("breaker") || ""`); q != "gobreaker" {
		t.Errorf("the link says breaker=%q", q)
	}
	shown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#overload tr[data-breaker]").forEach((tr) => {
			const key = tr.dataset.mode + "+" + tr.dataset.limiter + "+" + tr.dataset.breaker;
			out[key + "/breaker"] = tr.querySelector("td[data-col=breaker]").textContent;
			tr.querySelectorAll("td[data-value]").forEach((td) => { out[key + "/" + td.dataset.col] = td.dataset.value; });
		});
		return out;
	})()`)
	for _, c := range cases {
		r, err := sim.Overload(p, c)
		if err != nil {
			t.Fatal(err)
		}
		key := c.Mode.String() + "+" + c.Limiter.String() + "+" + c.Breaker.String() + "/"
		if shown[key+"breaker"] != c.Breaker.String() {
			t.Errorf("%v: breaker cell %q", c, shown[key+"breaker"])
		}
		for j, cell := range report.BreakerCells(r) {
			if got, ok := shown[key+report.BreakerColumns[j][0]]; !ok || got != cell[0] {
				t.Errorf("%v %s: page %q, calc %q", c, report.BreakerColumns[j][0], got, cell[0])
			}
		}
	}
	if n := evalJS[int](tb, `document.querySelectorAll("#overload-windows-table td[data-col=half_open]").length`); n == 0 {
		t.Error("the window table has no breaker series")
	}
	if got := evalJS[string](tb, `(document.getElementById("breaker-facts") || {}).textContent || ""`); got != sim.BreakerFactsOf(p).Words {
		t.Errorf("the breaker's facts %q, calc's %q", got, sim.BreakerFactsOf(p).Words)
	}
	tb.requireNoConsoleProblems()
}
