//go:build !js

package main

import (
	"strconv"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// overloadBrowserLink is an open system: a stream over an outage, a timeout, a queue and grpc's
// limiter.
const overloadBrowserLink = "rate=100&run=5s&timeout=500ms&queue=20&limiter=grpc&clients=100&outage=2s&seed=5"

// In Chromium, the overload view of a link fills with the numbers calc gives for the same link,
// off the input path, each series of the chart named in text; then an old closed herd's link
// still shows the closed herd. It logs how long the view took and the longest task meanwhile.
func TestOverloadLink(t *testing.T) {
	t.Parallel()
	p, err := libs.Decode(overloadBrowserLink)
	if err != nil || !p.Open() {
		t.Fatal(err)
	}
	cases := p.OverloadCases()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + overloadBrowserLink)
	evalJS[bool](tb, `(() => {
		const w = window.overloadWatch = { longest: 0, filled: -1, wasm: -1, tasks: [] };
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) w.tasks.push([e.startTime, e.duration]);
		}).observe({ type: "longtask", buffered: true });
		const frame = () => {
			if (w.wasm < 0 && document.querySelector('#app[data-render="wasm"]')) w.wasm = performance.now();
			// The server's HTML has the runs already, and the wasm's first render keeps its
			// section, inert, until it renders its own: count those the wasm wrote. The
			// sections below the first screen follow the wasm's first paint: until then there
			// may be no herd results at all.
			const results = document.getElementById("herd-results");
			if (w.wasm >= 0 && results && !results.hasAttribute("data-pending") && !results.closest("[inert]") &&
				document.querySelectorAll("#overload tr[data-limiter]").length === `+strconv.Itoa(len(cases))+`) {
				w.filled = performance.now();
				return;
			}
			requestAnimationFrame(frame);
		};
		requestAnimationFrame(frame);
		return true;
	})()`)
	tb.waitWasm()
	tb.waitFor("the overload runs", `window.overloadWatch.filled >= 0`)
	// The longest task from the wasm's first render on: the wasm's start is the loading tests'.
	watch := evalJS[map[string]any](tb, `(() => {
		const w = window.overloadWatch;
		for (const [start, d] of w.tasks) if (start + d > w.wasm) w.longest = Math.max(w.longest, d);
		return { filled: w.filled, wasm: w.wasm, longest: w.longest, tasks: JSON.stringify(w.tasks.filter(([s, d]) => s + d > w.wasm)) };
	})()`)
	t.Logf("the overload view filled %.0f ms after navigation, %.0f ms after the wasm's first render; longest task since then %.0f ms",
		watch["filled"], watch["filled"].(float64)-watch["wasm"].(float64), watch["longest"])
	t.Log("long tasks since then, [start, duration] in ms:", watch["tasks"])

	shown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#overload tr[data-limiter] td[data-value]").forEach((td) => {
			const tr = td.closest("tr");
			out[tr.dataset.mode + "+" + tr.dataset.limiter + "/" + td.dataset.col] = td.dataset.value;
		});
		return out;
	})()`)
	var own sim.OverloadRun
	runs := make([]sim.OverloadRun, len(cases))
	for i, c := range cases {
		r, err := sim.Overload(p, c)
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = r
		if c.Mode == calc.Backoff(p.Jitter) && c.Limiter == p.Limiter {
			own = r
		}
		recovered := ""
		if r.Recovered >= 0 {
			recovered = policy.Millis(r.Recovered)
		}
		row := c.Mode.String() + "+" + c.Limiter.String() + "/"
		for col, want := range map[string]string{"requests": strconv.Itoa(r.Requests), "succeeded": strconv.Itoa(r.Accepted),
			"out_of_attempts": strconv.Itoa(r.OutOfAttempts), "refused": strconv.Itoa(r.Refused), "out_of_budget": strconv.Itoa(r.OutOfBudget),
			"per_request": strconv.FormatFloat(r.MeanPerClient, 'f', -1, 64), "wasted_share": strconv.FormatFloat(r.WastedShare(), 'f', -1, 64),
			"recovered": recovered} {
			if got, ok := shown[row+col]; !ok || got != want {
				t.Errorf("%s%s: page %q, calc %q", row, col, got, want)
			}
		}
	}
	chart := evalJS[string](tb, `document.getElementById("overload-chart").textContent`)
	for _, s := range report.WindowSeries {
		if !strings.Contains(chart, s[1]+" per 100 ms window") {
			t.Errorf("the chart does not name %q", s[1])
		}
	}
	if n := evalJS[int](tb, `document.querySelectorAll("#overload-windows-table tr[data-window]").length`); n != min(len(own.Windows), maxWindowRows) {
		t.Errorf("%d window rows, calc has %d windows", n, len(own.Windows))
	}
	if evalJS[string](tb, `document.getElementById("herd-status").textContent`) != "" {
		t.Error("the status line still says something once every run is in")
	}
	// The wasm builds the view a row at a time (showOverloadRun); the server writes it whole,
	// with the same runs: both must be the same markup once the browser has parsed them.
	same := evalJS[string](tb, `fetch(location.href, { cache: "no-store" }).then((r) => r.text()).then((text) => {
		const server = new DOMParser().parseFromString(text, "text/html").getElementById("herd-results");
		const page = document.getElementById("herd-results");
		if (!server) return "no #herd-results in the server's HTML";
		if (server.innerHTML === page.innerHTML) return "";
		const a = server.innerHTML, b = page.innerHTML;
		let i = 0;
		while (i < a.length && a[i] === b[i]) i++;
		return "differ at " + i + ": server …" + a.slice(Math.max(0, i - 80), i + 120) + "… page …" + b.slice(Math.max(0, i - 80), i + 120) + "…";
	})`)
	if same != "" {
		t.Errorf("the view the page built is not the server's: %s", same)
	}
	pickOverloadInBrowser(t, tb, p, cases, runs)
	tb.requireNoConsoleProblems()

	const closed = "clients=500&attempts=8&outage=2s&window=50ms&capacity=40&spread=100ms&jitter=equal&seed=3"
	q, _ := libs.Decode(closed)
	tb.navigate(srv.URL + "/?" + closed)
	tb.waitWasm()
	tb.waitFor("the closed herd", herdRowsAre(len(q.HerdModes())))
	if evalJS[bool](tb, `document.getElementById("overload") !== null`) {
		t.Error("a closed herd's link shows the overload view")
	}
	tb.requireNoConsoleProblems()
}

// TestAxeOverload runs axe-core's rules (as TestAxe does) on the overload view once every run is
// in, with another case picked and the shared scale on.
func TestAxeOverload(t *testing.T) {
	t.Parallel()
	source := axeSource(t)
	p, err := libs.Decode(overloadBrowserLink)
	if err != nil {
		t.Fatal(err)
	}
	cases := p.OverloadCases()
	runs := make([]sim.OverloadRun, len(cases))
	for i, c := range cases {
		if runs[i], err = sim.Overload(p, c); err != nil {
			t.Fatal(err)
		}
	}
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + overloadBrowserLink)
	tb.waitWasm()
	tb.waitFor("the overload runs", wasmRunsIn+` && document.querySelectorAll("#overload tr[data-limiter]").length === `+strconv.Itoa(len(cases)))
	pickOverloadInBrowser(t, tb, p, cases, runs)
	reportViolations(t, "the overload view", tb.axeRun(source))
	tb.requireNoConsoleProblems()
}

// pickOverloadInBrowser picks the last case in the view's list, as a reader would, and checks
// that the window table shows its windows as calc has them and that the list keeps the focus;
// then that the shared scale's top is calc's over every case.
func pickOverloadInBrowser(t *testing.T, tb *tab, p calc.Params, cases []calc.OverloadCase, runs []sim.OverloadRun) {
	t.Helper()
	last := len(cases) - 1
	if cases[last] == p.OwnCase() {
		t.Fatal("the last case is the policy's own: picking it shows nothing new")
	}
	evalJS[bool](tb, `(() => {
		const s = document.getElementById("overload-case");
		s.focus();
		s.value = "`+strconv.Itoa(last)+`";
		s.dispatchEvent(new Event("change", { bubbles: true }));
		return true;
	})()`)
	name := cases[last].Mode.String() + " with limiter " + cases[last].Limiter.String()
	tb.waitFor("the picked case's windows", `document.getElementById("overload-chart-caption").textContent.startsWith(`+strconv.Quote(name)+`)`)
	shown := evalJS[[][]string](tb, `[...document.querySelectorAll("#overload-windows-table tr[data-window]")].map((tr) =>
		[...tr.querySelectorAll("td")].map((td) => td.textContent))`)
	r := runs[last]
	if len(shown) != min(len(r.Windows), maxWindowRows) {
		t.Fatalf("%d window rows for %s, calc has %d windows", len(shown), name, len(r.Windows))
	}
	for k, row := range shown {
		for i, n := range r.Windows[k].Counts() {
			if i >= len(row) || row[i] != strconv.Itoa(n) {
				t.Fatalf("%s window %d: page %q, calc %v", name, k, row, r.Windows[k].Counts())
			}
		}
	}
	if id := evalJS[string](tb, `document.activeElement ? document.activeElement.id : ""`); id != "overload-case" {
		t.Errorf("after picking, the focus is on %q, not the list", id)
	}
	_, ownAxis := sim.OverloadAxes(p, r)
	_, shared := sim.OverloadSharedAxes(p, runs)
	if got := evalJS[string](tb, `document.getElementById("overload-scale").dataset.end`); got != strconv.Itoa(ownAxis.End) {
		t.Errorf("%s on its own scale: top %s, calc %d", name, got, ownAxis.End)
	}
	evalJS[bool](tb, `(document.getElementById("overload-same-scale").click(), true)`)
	tb.waitFor("the shared scale", `document.getElementById("overload-scale").textContent.includes("shared by every case")`)
	if got := evalJS[string](tb, `document.getElementById("overload-scale").dataset.end`); got != strconv.Itoa(shared.End) {
		t.Errorf("the shared scale's top: page %s, calc %d", got, shared.End)
	}
	if n := evalJS[int](tb, `document.querySelectorAll("#overload tr[data-limiter]").length`); n != len(cases) {
		t.Errorf("after picking, %d rows side by side, want %d", n, len(cases))
	}
}

// In Chromium, a link with an error rate shows calc's closed form in the overload view, and
// Brooker's two limiters among the runs side by side, each cell calc's number.
func TestErrorRateLink(t *testing.T) {
	t.Parallel()
	p, err := libs.Decode(errorRateQuery)
	if err != nil {
		t.Fatal(err)
	}
	cases := p.OverloadCases()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + errorRateQuery)
	tb.waitWasm()
	tb.waitFor("the overload runs", wasmRunsIn+` && document.querySelectorAll("#overload tr[data-limiter]").length === `+strconv.Itoa(len(cases)))
	shown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#error-rate-table tr[data-limiter] td").forEach((td) => {
			out[td.closest("tr").dataset.limiter + "/" + td.dataset.col] = td.dataset.value;
		});
		document.querySelectorAll("#overload tr[data-limiter] td[data-value]").forEach((td) => {
			const tr = td.closest("tr");
			out[tr.dataset.mode + "+" + tr.dataset.limiter + "/" + td.dataset.col] = td.dataset.value;
		});
		return out;
	})()`)
	for _, b := range sim.ErrorRateOf(p).Limiters {
		if got := shown[b.Limiter.String()+"/attempts_per_request"]; got != report.Float(b.Attempts) {
			t.Errorf("%s: page %q attempts per request, calc %v", b.Limiter, got, b.Attempts)
		}
	}
	for _, c := range cases {
		r, err := sim.Overload(p, c)
		if err != nil {
			t.Fatal(err)
		}
		row := c.Mode.String() + "+" + c.Limiter.String() + "/"
		if got := shown[row+"succeeded"]; got != strconv.Itoa(r.Accepted) {
			t.Errorf("%ssucceeded: page %q, calc %d", row, got, r.Accepted)
		}
	}
	for _, k := range []string{"adaptive", "retrybreaker"} {
		if _, ok := shown["full+"+k+"/requests"]; !ok {
			t.Errorf("no run with limiter %s", k)
		}
	}
	if words := evalJS[string](tb, `document.getElementById("error-rate-words").textContent`); words != report.ErrorRateWords(p) {
		t.Errorf("words %q, want %q", words, report.ErrorRateWords(p))
	}
	tb.requireNoConsoleProblems()
}

// In Chromium, a link with load-dependent latency shows calc's collapse threshold in the overload
// view, and each run's most attempts in service and longest time in service beside it, calc's.
func TestLatencyLink(t *testing.T) {
	t.Parallel()
	p, err := libs.Decode(latencyQuery)
	if err != nil {
		t.Fatal(err)
	}
	cases := p.OverloadCases()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + latencyQuery)
	tb.waitWasm()
	tb.waitFor("the overload runs", wasmRunsIn+` && document.querySelectorAll("#overload tr[data-limiter]").length === `+strconv.Itoa(len(cases)))
	shown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#overload tr[data-limiter] td[data-value]").forEach((td) => {
			const tr = td.closest("tr");
			out[tr.dataset.mode + "+" + tr.dataset.limiter + "/" + td.dataset.col] = td.dataset.value;
		});
		out.threshold = document.getElementById("collapse-threshold").dataset.value;
		out.steady = document.getElementById("collapse-steady").dataset.value;
		out.words = document.getElementById("collapse-words").textContent;
		return out;
	})()`)
	c := p.Collapse()
	if shown["threshold"] != report.Float(c.Threshold) || shown["steady"] != report.Float(c.Steady) || shown["words"] != report.CollapseWords(p) {
		t.Errorf("collapse %q %q %q, calc %v %v %q", shown["threshold"], shown["steady"], shown["words"], c.Threshold, c.Steady, report.CollapseWords(p))
	}
	for _, cs := range cases {
		r, err := sim.Overload(p, cs)
		if err != nil {
			t.Fatal(err)
		}
		row := cs.Mode.String() + "+" + cs.Limiter.String() + "/"
		if got := shown[row+"max_in_service"]; got != strconv.Itoa(r.MaxInService) {
			t.Errorf("%smax_in_service: page %q, calc %d", row, got, r.MaxInService)
		}
		if got := shown[row+"max_latency"]; got != policy.Millis(r.MaxLatency) {
			t.Errorf("%smax_latency: page %q, calc %v", row, got, r.MaxLatency)
		}
	}
	tb.requireNoConsoleProblems()
}
