//go:build !js

package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

// contentionBrowserLink is a library's policy (Polly's decorrelatedv2, so that its own mode runs
// beside the post's five), with few runs so that the sweep takes seconds, not tens of them.
const contentionBrowserLink = "base=5ms&cap=2s&jitter=decorrelatedv2&contenders=30&runs=10&seed=4"

// In Chromium, the contention section waits until it is scrolled near, then shows calc's table
// for the link, then the sweep point by point with its progress in the status line, until both
// charts have a line per mode named in text and the sweep's table has calc's sweep. Then the AWS
// post's setup sets the inputs and the link. It logs the table's and the sweep's time and the
// longest task meanwhile.
func TestContentionSection(t *testing.T) {
	t.Parallel()
	p, err := libs.Decode(contentionBrowserLink)
	if err != nil {
		t.Fatal(err)
	}
	modes := contention.ModesOf(p.Params)
	table, err := contention.Run(p.Params, p.Contenders, p.Runs, modes...)
	if err != nil {
		t.Fatal(err)
	}
	sweep, _, err := contention.Sweep(p.Params, p.Runs, modes, nil)
	if err != nil {
		t.Fatal(err)
	}

	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + contentionBrowserLink)
	tb.waitWasm()
	if s := evalJS[string](tb, `document.getElementById("contention-status").textContent`); s == "" || hasElement(tb, "#contention") {
		t.Errorf("before the section is seen: status %q, table shown %v; want it waiting", s, hasElement(tb, "#contention"))
	}
	// Every status the line shows, and the long tasks, from the scroll on.
	evalJS[bool](tb, `(() => {
		const w = window.contentionWatch = { statuses: [], start: performance.now(), table: -1, sweep: -1, longest: 0, tasks: [] };
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) if (e.startTime + e.duration > w.start) { w.longest = Math.max(w.longest, e.duration); w.tasks.push([Math.round(e.startTime - w.start), Math.round(e.duration)]); }
		}).observe({ type: "longtask", buffered: true });
		const line = document.getElementById("contention-status");
		new MutationObserver(() => {
			w.statuses.push(Math.round(performance.now() - w.start) + ": " + line.textContent);
			if (w.table < 0 && document.querySelector("#contention tr")) w.table = performance.now() - w.start;
			if (w.sweep < 0 && line.textContent === "" && document.querySelectorAll("#contention-sweep tr[data-clients]").length === 20) w.sweep = performance.now() - w.start;
		}).observe(line, { childList: true, characterData: true, subtree: true });
		return true;
	})()`)
	tb.run(chromedp.Click(chromedp.CSS(`#toc a[href="#contention-section"]`)))
	tb.waitFor("the contention table", fmt.Sprintf(`document.querySelectorAll("#contention tr[data-mode]").length === %d`, len(modes)))
	shown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#contention td[data-col]").forEach((td) => { out[td.closest("tr").dataset.mode + "/" + td.dataset.col] = td.dataset.value; });
		return out;
	})()`)
	stats := []string{"mean", "min", "p50", "p90", "max"}
	for _, r := range table {
		for i, v := range spreadValues(r.Calls) {
			if k := r.Mode.String() + "/calls_" + stats[i]; shown[k] != report.Float(v) {
				t.Errorf("%s: page %q, calc %q", k, shown[k], report.Float(v))
			}
		}
		for i, v := range spreadValues(r.Time) {
			if k := r.Mode.String() + "/time_" + stats[i]; shown[k] != policy.MillisFloat(v) {
				t.Errorf("%s: page %q, calc %q", k, shown[k], policy.MillisFloat(v))
			}
		}
	}
	if len(shown) != len(modes)*10 {
		t.Errorf("%d cells, want %d", len(shown), len(modes)*10)
	}

	tb.waitFor("the sweep", `window.contentionWatch.sweep >= 0`)
	sweepShown := evalJS[map[string]string](tb, `(() => {
		const out = {};
		document.querySelectorAll("#contention-sweep td[data-col]").forEach((td) => { out[td.closest("tr").dataset.clients + "/" + td.dataset.mode + "/" + td.dataset.col] = td.dataset.value; });
		return out;
	})()`)
	for _, pt := range sweep {
		for _, r := range pt.Results {
			at := strconv.Itoa(pt.Clients) + "/" + r.Mode.String() + "/"
			if got, want := sweepShown[at+"calls_mean"], report.Float(r.Calls.Mean); got != want {
				t.Errorf("sweep %scalls_mean: page %q, calc %q", at, got, want)
			}
			if got, want := sweepShown[at+"time_mean"], policy.MillisFloat(r.Time.Mean); got != want {
				t.Errorf("sweep %stime_mean: page %q, calc %q", at, got, want)
			}
		}
	}
	for _, chart := range []string{"contention-calls-chart", "contention-time-chart"} {
		for _, m := range modes {
			lines := evalJS[int](tb, fmt.Sprintf(`document.querySelectorAll('#%s path[data-mode="%s"]').length`, chart, m))
			label := evalJS[string](tb, fmt.Sprintf(`document.querySelector('#%s text[data-label="%s"]')?.textContent ?? ""`, chart, m))
			if lines != 1 || label != lineLabel(m) {
				t.Errorf("%s: %d lines of %s, labelled %q; want 1, labelled %q", chart, lines, m, label, lineLabel(m))
			}
		}
	}
	watch := evalJS[map[string]any](tb, `(() => { const w = window.contentionWatch; return { table: w.table, sweep: w.sweep, longest: w.longest, statuses: w.statuses.join(" | "), tasks: JSON.stringify(w.tasks) }; })()`)
	t.Logf("from the scroll: table in %.0f ms, sweep done in %.0f ms (%d runs); longest task meanwhile %.0f ms",
		watch["table"], watch["sweep"], p.Runs, watch["longest"])
	t.Log("long tasks from the scroll on, [start, duration] in ms:", watch["tasks"])
	t.Log("statuses:", watch["statuses"])
	progress := false
	for i := 1; i < 20; i++ {
		progress = progress || strings.Contains(watch["statuses"].(string), fmt.Sprintf("Computing the sweep: %d of 20…", i))
	}
	if !progress {
		t.Errorf("the status line never counted the sweep's points: %s", watch["statuses"])
	}
	tb.requireNoConsoleProblems()

	// The AWS post's setup: the inputs, then the link, as if typed.
	tb.run(chromedp.Click(chromedp.CSS(`#contention-aws`)))
	tb.waitFor("the post's base in the form", `document.getElementById("in-base").value === "5ms" && document.getElementById("in-runs").value === "100"`)
	deadline := time.Now().Add(timeout)
	var q calc.Params
	for {
		search := evalJS[string](tb, `location.search`)
		v, _ := url.ParseQuery(search[1:])
		q, err = libs.Decode(search[1:])
		// The setup's 100 contenders and 100 runs are the defaults, which the link leaves out
		// (the link had 30 and 10).
		if err == nil && v.Get("base") == "5ms" && v.Get("cap") == "2s" && !v.Has("runs") && !v.Has("contenders") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the link after the AWS setup: %s (%v)", search, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if q.Base != 5*time.Millisecond || q.Cap != 2*time.Second || q.Factor != 2 || q.CapAt != policy.CapBefore || q.Contenders != 100 || q.Runs != 100 || q.Jitter != p.Jitter {
		t.Errorf("the link's inputs after the AWS setup: %+v", q)
	}
	for key, want := range map[string]string{"cap": "2s", "factor": "2", "contenders": "100"} {
		if got := evalJS[string](tb, `document.getElementById("in-`+key+`").value`); got != want {
			t.Errorf("input %s after the AWS setup: %q, want %q", key, got, want)
		}
	}
	tb.requireNoConsoleProblems()
}

// hasElement reports whether the page has an element that css selects.
func hasElement(tb *tab, css string) bool {
	return evalJS[bool](tb, fmt.Sprintf(`document.querySelector(%q) !== null`, css))
}
