//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// warmMarks is a script for the tab: the times of the warm-up's slice marks, the time of its
// end (-1: not yet), and the long tasks since the page started (start, duration).
const warmMarks = `({
	slices: performance.getEntriesByName("backoffcalc:warm-code").map((m) => m.startTime),
	done: (performance.getEntriesByName("backoffcalc:warm-code-done")[0] || { startTime: -1 }).startTime,
})`

type warmState struct {
	Slices []float64 `json:"slices"`
	Done   float64   `json:"done"`
}

// The code cache's warm-up (codecache.go) runs on a visit the service worker answers, once per
// version, in short slices, without changing the page; an edit stops it at once.
func TestWarmCode(t *testing.T) {
	srv := startServe(t)
	url := srv.URL + "/?base=250ms&attempts=8&jitter=equal"
	tb := newTab(t)
	// The page records long tasks from its start.
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__longTasks = []; new PerformanceObserver((l) => l.getEntries().forEach((e) =>
			window.__longTasks.push([e.startTime, e.duration]))).observe({ type: "longtask", buffered: true });`}); err != nil {
		t.Fatal(err)
	}
	warm := func() warmState { return evalJS[warmState](tb, warmMarks) }

	// Cold: app.wasm came from the network; no warm-up, even after the page's work is done.
	tb.navigate(url)
	tb.waitWasm()
	tb.waitServiceWorker()
	time.Sleep(2 * time.Second)
	if w := warm(); len(w.Slices) != 0 || w.Done >= 0 {
		t.Errorf("cold visit: the warm-up ran (%d slices, done at %v)", len(w.Slices), w.Done)
	}

	// Warm: it runs, in slices, and leaves the page as it was.
	tb.navigate(url)
	tb.waitWasm()
	if !evalJS[bool](tb, "!!navigator.serviceWorker.controller") {
		t.Fatal("the second visit is not answered by the service worker")
	}
	tb.waitFor("the warm-up's first slice", `performance.getEntriesByName("backoffcalc:warm-code").length > 0`)
	const page = `document.getElementById("app").outerHTML + location.href + (document.activeElement ? document.activeElement.id : "")`
	before := evalJS[string](tb, page)
	tb.waitFor("the warm-up's end", `performance.getEntriesByType("mark").some((m) => m.name.startsWith("backoffcalc:warm-code-"))`)
	if stop := evalJS[string](tb, `performance.getEntriesByType("mark").find((m) => m.name.startsWith("backoffcalc:warm-code-")).name`); stop != "backoffcalc:warm-code-done" {
		t.Fatalf("the warm-up ended with %s, not done", stop)
	}
	if after := evalJS[string](tb, page); after != before {
		t.Errorf("the warm-up changed the page:\nbefore %.300s\nafter  %.300s", before, after)
	}
	w := warm()
	if len(w.Slices) < 5 {
		t.Errorf("warm visit: %d slices before the warm-up's end, want %d renders in slices of %v", len(w.Slices), warmRenders, workSlice)
	}
	// A slice is about a workSlice, far from a long task: a long task that holds one of the
	// warm-up's marks is the warm-up's. A busy machine stretches a few slices past 50 ms, the
	// thread waiting for a CPU (58–76 ms, 1 to 3 of about 150 slices, at a load average of 8 on
	// 2 cores): more than one slice in 20, or one over 100 ms, is the warm-up's own.
	var long []string
	for _, lt := range evalJS[[][2]float64](tb, "window.__longTasks") {
		for _, s := range append(w.Slices, w.Done) {
			if s >= lt[0] && s <= lt[0]+lt[1] {
				long = append(long, fmt.Sprintf("%.0f ms at %.0f ms", lt[1], lt[0]))
				if lt[1] >= 100 {
					long = append(long, "(over 100 ms)")
				}
				break
			}
		}
	}
	if len(long) > 1 && (len(long)*20 > len(w.Slices) || strings.Contains(fmt.Sprint(long), "over 100")) {
		t.Errorf("long tasks ended with a warm-up slice (slices from %.0f to %.0f ms): %v", w.Slices[0], w.Done, long)
	}
	if got, want := evalJS[string](tb, `localStorage.getItem("backoffcalc:code-cache") || ""`),
		evalJS[string](tb, `goappGetenv("GOAPP_VERSION")`); got != want || want == "" {
		t.Errorf("the warmed version is %q, want %q", got, want)
	}
	tb.requireNoConsoleProblems()

	// Warm again: this version is warmed up already.
	tb.navigate(url)
	tb.waitWasm()
	time.Sleep(2 * time.Second)
	if w := warm(); len(w.Slices) != 0 {
		t.Errorf("third visit: the warm-up ran again (%d slices)", len(w.Slices))
	}

	// An edit during the warm-up stops it, and gets its numbers.
	evalJS[bool](tb, `(localStorage.removeItem("backoffcalc:code-cache"), true)`)
	tb.navigate(url)
	tb.waitWasm()
	tb.waitFor("the warm-up's first slice", `performance.getEntriesByName("backoffcalc:warm-code").length > 0`)
	tb.setInput("#in-base", "300ms")
	tb.waitFor("the new table", `document.querySelector('#schedule tr[data-attempt="2"] td[data-col="max"]').dataset.ms === "300"`)
	tb.waitWasm()
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "base=300ms&attempts=8&jitter=equal"))
	n := len(warm().Slices)
	time.Sleep(time.Second)
	if !evalJS[bool](tb, `performance.getEntriesByName("backoffcalc:warm-code-stopped-by-work").length === 1`) {
		t.Error("the warm-up did not mark its stop by the edit")
	}
	if w := warm(); w.Done >= 0 || len(w.Slices) > n+1 {
		t.Errorf("the warm-up went on after the edit: %d slices then, %d a second later, done at %v", n, len(w.Slices), w.Done)
	}
	if got := evalJS[string](tb, `localStorage.getItem("backoffcalc:code-cache") || ""`); got != "" {
		t.Errorf("a stopped warm-up recorded version %q as warmed", got)
	}
	if s := fmt.Sprint(tb.consoleProblems()); strings.Contains(s, "panic") {
		t.Error(s)
	}
	tb.requireNoConsoleProblems()
}
