//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// readNumbers collects every number the page shows with its exact value: "attempt/col" for the
// schedule (data-ms, data-budget without the share of paths, or the text of cells without
// either), the totals by id, "mode/jitter/col" for
// the comparison.
const readNumbers = `(() => {
	const out = {};
	const val = (td) => td.hasAttribute("data-ms") ? td.dataset.ms : (td.dataset.budget ?? td.textContent);
	document.querySelectorAll("#schedule tr[data-attempt] td[data-col]").forEach((td) =>
		out[td.closest("tr").dataset.attempt + "/" + td.dataset.col] = val(td));
	document.querySelectorAll("#totals dd[id]").forEach((dd) => out[dd.id] = dd.dataset.ms);
	document.querySelectorAll("#modes tr[data-mode] td[data-col]").forEach((td) =>
		out["mode/" + td.closest("tr").dataset.mode + "/" + td.dataset.col] = td.dataset.ms);
	return out;
})()`

// wantNumbers is what readNumbers must find for a query: calc's own results, exactly.
func wantNumbers(t *testing.T, query string) map[string]string {
	t.Helper()
	p, err := libs.Decode(query)
	if err != nil {
		t.Fatalf("the test's own query %q: %v", query, err)
	}
	r := p.Report()
	out := map[string]string{}
	for i, row := range r.Schedule.Rows {
		n := strconv.Itoa(row.Attempt) + "/"
		out[n+"retry"] = "–"
		for _, c := range []string{"nominal", "min", "mean", "max", "p50", "p99"} {
			out[n+c] = ""
		}
		if row.Retry > 0 {
			out[n+"retry"] = strconv.Itoa(row.Retry)
			out[n+"nominal"], out[n+"min"], out[n+"max"] = policy.Millis(row.Nominal), policy.Millis(row.Min), policy.Millis(row.Max)
			out[n+"mean"] = policy.MillisFloat(row.Mean)
			if p.Jitter.FromPrevious() {
				out[n+"nominal"] = "" // none, "–"
			}
		}
		out[n+"earliest"], out[n+"latest"] = policy.Millis(row.Earliest), policy.Millis(row.Latest)
		if st := r.Sample.Starts[i]; st.Reached > 0 {
			out[n+"p50"], out[n+"p99"] = policy.Millis(st.Start.P50), policy.Millis(st.Start.P99)
		}
		if p.Budget > 0 {
			out[n+"budget"] = row.Budget.String()
		}
	}
	t2, q := r.Schedule.Total, r.Sample.Total
	out["total-min"], out["total-mean"], out["total-max"] = policy.Millis(t2.Min), policy.MillisFloat(t2.Mean), policy.Millis(t2.Max)
	// With a budget, the sampled percentiles are the total wait within it, shown apart.
	pct := "total-"
	if p.Budget > 0 {
		pct = "budget-"
		w := r.Within
		out["budget-min"], out["budget-mean"], out["budget-max"] = policy.Millis(w.Min), policy.MillisFloat(w.Mean), policy.Millis(w.Max)
	}
	out[pct+"p50"], out[pct+"p90"], out[pct+"p99"] = policy.Millis(q.P50), policy.Millis(q.P90), policy.Millis(q.P99)
	for _, m := range r.Modes {
		k := "mode/" + m.Jitter.String() + "/"
		out[k+"min"], out[k+"mean"], out[k+"max"] = policy.Millis(m.Total.Min), policy.MillisFloat(m.Total.Mean), policy.Millis(m.Total.Max)
		if p.Budget <= 0 {
			out[k+"p99"] = policy.Millis(m.Sample.P99)
			continue
		}
		w := m.Within
		out[k+"budget-min"], out[k+"budget-mean"], out[k+"budget-max"] = policy.Millis(w.Min), policy.MillisFloat(w.Mean), policy.Millis(w.Max)
		out[k+"budget-p99"] = policy.Millis(m.Sample.P99)
	}
	return out
}

// compareNumbers fails for every cell that differs from calc's, and for missing or extra ones.
func compareNumbers(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s: page shows %q, calc says %q", k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: on the page, not in calc's report", k)
		}
	}
}

const sharedQuery = "base=250ms&factor=1.5&cap=3s&attempts=8&jitter=equal&budget=2s&call=10ms&seed=9&samples=2000&layers=3"

// TestSharedLink opens a link with a non-default query on every way the page is served and
// compares every number on screen with calc's result for that query.
func TestSharedLink(t *testing.T) {
	t.Parallel()
	want := wantNumbers(t, sharedQuery)
	for _, site := range []struct{ name, prefix string }{{"serve", ""}, {"static", ""}, {"static-prefix", "backoffcalc"}} {
		t.Run(site.name, func(t *testing.T) {
			srv := startServe(t)
			if site.name != "serve" {
				srv = startStatic(t, site.prefix)
			}
			tb := newTab(t)
			tb.navigate(srv.URL + pagePath(site.prefix) + "?" + sharedQuery)
			tb.waitWasm()
			compareNumbers(t, evalJS[map[string]string](tb, readNumbers), want)
			if got := evalJS[string](tb, `document.getElementById("layers").textContent`); !strings.Contains(got, "512") {
				t.Errorf("layers line %q lacks 8^3 = 512", got)
			}
			tb.requireNoConsoleProblems()
			tb.requireSameOrigin(srv.URL)
		})
	}
}

// The server's own HTML, before any script runs, already carries the link's numbers.
func TestServePreRendersLink(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	resp, err := http.Get(srv.URL + "/?" + sharedQuery)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	got := scheduleCells(string(body))
	want := wantNumbers(t, sharedQuery)
	for k, g := range got {
		if want[k] != g {
			t.Errorf("pre-rendered %s = %q, calc says %q", k, g, want[k])
		}
	}
	for i := 1; i <= 8; i++ {
		if _, ok := got[strconv.Itoa(i)+"/latest"]; !ok {
			t.Errorf("attempt %d is not pre-rendered", i)
		}
	}
}

func TestTypingUpdatesTableAndLink(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/")
	tb.waitWasm()
	history := evalJS[int](tb, "history.length")
	tb.setInput("#in-base", "300ms")
	tb.waitFor("the new table", `document.querySelector('#schedule tr[data-attempt="2"] td[data-col="max"]').dataset.ms === "300"`)
	tb.waitWasm() // and its sampled numbers
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "base=300ms"))
	p, _ := libs.DecodeLink("base=300ms")
	if got := evalJS[string](tb, "location.search"); got != "?"+p.Encode() {
		t.Errorf("link %q, want %q", got, "?"+p.Encode())
	}
	if got := evalJS[int](tb, "history.length"); got != history {
		t.Errorf("history grew from %d to %d: edits must replace the entry", history, got)
	}
	// The rewritten link, opened in a new tab, shows the same table.
	tb2 := newTab(t)
	tb2.navigate(evalJS[string](tb, "location.href"))
	tb2.waitWasm()
	compareNumbers(t, evalJS[map[string]string](tb2, readNumbers), wantNumbers(t, "base=300ms"))
	tb.requireNoConsoleProblems()
}

// The input's task writes the new numbers and nothing else: the link, the form's hints and the
// export panel follow after the paint. Under wasm Go runs every goroutine it can before it
// returns to the browser, so work left in the task would hold the numbers off the screen.
func TestEditTaskOnlyWritesNumbers(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/")
	tb.waitWasm()
	type state struct {
		Rows    int    `json:"rows"`
		Hint    string `json:"hint"`
		Search  string `json:"search"`
		Pending bool   `json:"pending"` // the export panel is marked as being updated
	}
	const read = `({
		rows: document.querySelectorAll("#schedule tr[data-attempt]").length,
		hint: document.getElementById("in-attempts-hint").textContent,
		search: location.search,
		pending: document.getElementById("snippets").hasAttribute("data-pending"),
	})`
	p0, _ := libs.DecodeLink("")
	tb.waitFor("the canonical link", fmt.Sprintf("location.search === %q", "?"+p0.Encode()))
	before := evalJS[state](tb, read)
	got := evalJS[state](tb, `(() => {
		const e = document.getElementById("in-attempts");
		e.value = "9";
		e.dispatchEvent(new Event("input", { bubbles: true }));
		return `+read+`;
	})()`)
	if want := (state{Rows: 9, Hint: before.Hint, Search: before.Search, Pending: true}); got != want {
		t.Errorf("right after the input event: %+v, want %+v", got, want)
	}
	p, _ := libs.DecodeLink("attempts=9")
	tb.waitFor("the link, the hint and the export panel", `(() => { const s = `+read+`;
		return s.search === "?`+p.Encode()+`" && s.hint.startsWith("9 attempts") && !s.pending; })()`)
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=abc&attempts=0&jitter=none")
	tb.waitWasm()
	alert := evalJS[string](tb, `document.querySelector('[role="alert"]').textContent`)
	for _, want := range []string{`base "abc"`, `attempts "0"`} {
		if !strings.Contains(alert, want) {
			t.Errorf("alert %q does not name %s", alert, want)
		}
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "jitter=none"))

	// A bad edit keeps the last table, marked as such, and leaves the link alone.
	tb.setInput("#in-base", "200ms")
	tb.setInput("#in-attempts", "6")
	tb.waitFor("a valid table", `document.querySelector('[role="alert"]').textContent === ""`)
	tb.waitWasm()
	before := evalJS[string](tb, "location.search")
	tb.setInput("#in-cap", "5ms")
	tb.waitFor("the cap error", `document.querySelector('[role="alert"]').textContent.includes('cap "5ms"')`)
	if got := evalJS[string](tb, `document.getElementById("in-cap-error").textContent`); !strings.Contains(got, "must be at least base") {
		t.Errorf("message next to cap: %q", got)
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "base=200ms&jitter=none&attempts=6"))
	if !evalJS[bool](tb, `document.querySelector(".stale-note") !== null`) || evalJS[string](tb, "location.search") != before {
		t.Error("the kept table is not marked, or the link changed")
	}
	tb.requireNoConsoleProblems()
}

// Until the wasm has computed the link's table, HTML made for another query must not show its
// numbers: the static site's index.html (made for no query) shows a loading line instead, and
// once the wasm failed to load, that they cannot be computed; serve's HTML for the link itself
// shows its numbers at once.
func TestNoNumbersForOtherInputs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, prefix string
		static       bool
		query        string
		numbers      bool
	}{
		{"static with a query", "", true, "?base=300ms", false},
		{"static under a prefix with a query", "backoffcalc", true, "?base=300ms", false},
		{"static without a query", "", true, "", true},
		{"serve with a query", "", false, "?base=300ms", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := startServe(t)
			if c.static {
				srv = startStatic(t, c.prefix)
			}
			tb := newTab(t)
			// Without the wasm the page stays as the HTML made it.
			if _, err := chromedp.Call(tb.ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
				URLPatterns: []*network.BlockPattern{{URLPattern: srv.URL + "/*.wasm", Block: true}}}); err != nil {
				t.Fatal(err)
			}
			tb.navigate(srv.URL + pagePath(c.prefix) + c.query)
			tb.waitFor("the blocked wasm", `document.getElementById("app-wasm-loader-label")?.innerText.includes("Failed") ?? true`)
			if evalJS[bool](tb, `document.querySelector('#app[data-render="wasm"]') !== null`) {
				t.Fatal("the wasm ran: the test sees nothing of the HTML")
			}
			shown := evalJS[bool](tb, `document.getElementById("schedule")?.checkVisibility({ visibilityProperty: true }) ?? false`)
			if shown != c.numbers {
				t.Errorf("numbers shown %v, want %v", shown, c.numbers)
			}
			// HTML made for another query, once the wasm failed, says in the numbers' place
			// that they cannot be computed, not that they are being computed (TestStaticFailedLoad).
			loading := evalJS[bool](tb, `document.querySelector(".loading").offsetParent !== null`)
			if c.numbers && loading {
				t.Error("the link's own numbers are shown under a loading line")
			}
			if !c.numbers {
				says := evalJS[string](tb, `getComputedStyle(document.querySelector(".numbers"), "::before").content`)
				if loading || !strings.Contains(says, "cannot be computed") {
					t.Errorf("after the failed load: loading line shown %v, the numbers' place says %s", loading, says)
				}
			}
		})
	}
}

// wasmRunsIn is a condition for waitFor: the herd section's runs are the wasm's and all in (the
// herd's or the overload view's). Until the page's first paint is over, the section below the
// first screen is the server's copy, inert (section.go: later), with the same rows; the
// wasm's own replaces it with the runs it has so far.
const wasmRunsIn = `(() => {
	const r = document.getElementById("herd-results");
	return r !== null && !r.hasAttribute("data-pending") && !r.closest("[inert]") &&
		document.getElementById("herd-status")?.textContent === "";
})()`

// herdRowsAre is a condition for waitFor: the wasm's herd is all in, n mode rows. Until the
// page's first paint is over, the section below the first screen is the server's copy, inert
// (section.go: later), with the same rows; the wasm's own replaces it with the runs it has so far.
func herdRowsAre(n int) string {
	return `(() => {
		const t = document.getElementById("herd");
		return t !== null && !t.closest("[inert], [data-pending]") &&
			document.getElementById("herd-status")?.textContent === "" &&
			t.querySelectorAll("tr[data-mode]").length === ` + strconv.Itoa(n) + `;
	})()`
}

// A shared link with herd keys shows, in the page, the counts the terminal prints: for a classic
// mode the six modes of every herd, for a library's mode (Polly's) those and its own.
func TestHerdLink(t *testing.T) {
	for _, q := range []string{
		"clients=500&attempts=8&outage=2s&window=50ms&capacity=40&spread=100ms&jitter=equal&seed=3",
		"clients=500&attempts=8&outage=2s&window=50ms&capacity=40&spread=100ms&jitter=decorrelatedv2&seed=3",
	} {
		t.Run(q, func(t *testing.T) { checkHerdLink(t, q) })
	}
}

func checkHerdLink(t *testing.T, q string) {
	p, _ := libs.Decode(q)
	modes := len(p.HerdModes())
	out, errOut, code := runTableOut(t, "-format", "json", q)
	if code != 0 {
		t.Fatalf("table: %s", errOut)
	}
	var printed struct {
		Herd []struct {
			Jitter       string       `json:"jitter"`
			Attempts     int          `json:"attempts"`
			Accepted     int          `json:"accepted"`
			GaveUp       int          `json:"gave_up"`
			PeakBack     int          `json:"peak_back"`
			PeakDown     int          `json:"peak_down"`
			LastAccepted *json.Number `json:"last_accepted_ms"`
		} `json:"herd"`
	}
	if err := json.Unmarshal([]byte(out), &printed); err != nil || len(printed.Herd) != modes || printed.Herd[modes-1].Jitter != p.HerdModes()[modes-1].String() {
		t.Fatalf("%v, %d modes, want %v", err, len(printed.Herd), p.HerdModes())
	}
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + q)
	tb.waitWasm()
	tb.waitFor("the herd", herdRowsAre(modes))
	shown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#herd tr[data-mode] td[data-value]").forEach((td) =>
			out[td.closest("tr").dataset.mode + "/" + td.dataset.col] = td.dataset.value);
		return out;
	})()`)
	for _, h := range printed.Herd {
		last := ""
		if h.LastAccepted != nil {
			last = h.LastAccepted.String()
		}
		for col, want := range map[string]string{"attempts": strconv.Itoa(h.Attempts), "accepted": strconv.Itoa(h.Accepted),
			"gave_up": strconv.Itoa(h.GaveUp), "peak_back": strconv.Itoa(h.PeakBack), "peak_down": strconv.Itoa(h.PeakDown),
			"last_accepted": last} {
			if got := shown[h.Jitter+"/"+col]; got != want {
				t.Errorf("%s %s: page %q, table %q", h.Jitter, col, got, want)
			}
		}
	}
	if n := evalJS[int](tb, `document.querySelectorAll("#arrivals path[data-series=arrivals]").length`); n != modes {
		t.Errorf("%d arrival charts, want %d", n, modes)
	}
	tb.requireNoConsoleProblems()
}

// A valid link is rewritten canonical once the page has loaded it, without a history entry;
// a bad one is left for its author to see.
func TestLoadRewritesValidLink(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=250ms#schedule")
	tb.waitWasm()
	history := evalJS[int](tb, "history.length")
	p, _ := libs.DecodeLink("base=250ms")
	tb.waitFor("the canonical link", fmt.Sprintf("location.search === %q && location.hash === %q", "?"+p.Encode(), "#schedule"))
	if got := evalJS[int](tb, "history.length"); got != history {
		t.Errorf("history grew from %d to %d", history, got)
	}
	tb.navigate(srv.URL + "/?base=abc&attempts=3")
	tb.waitWasm()
	if got := evalJS[string](tb, "location.search"); got != "?base=abc&attempts=3" {
		t.Errorf("a bad link became %q", got)
	}
	tb.requireNoConsoleProblems()
}
