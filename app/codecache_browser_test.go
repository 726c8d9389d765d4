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

// warmMarks is a script for the tab: the times of the warm-up's slice marks and the time of its
// end (-1: not yet).
const warmMarks = `({
	slices: performance.getEntriesByName("backoffcalc:warm-code").map((m) => m.startTime),
	done: (performance.getEntriesByName("backoffcalc:warm-code-done")[0] || { startTime: -1 }).startTime,
})`

type warmState struct {
	Slices []float64 `json:"slices"`
	Done   float64   `json:"done"`
}

// watchYields is a script for every document of the tab: at each of the warm-up's slice marks,
// which it makes just before it hands the thread back (yieldToBrowser), it posts a message of
// its own; window.__yields gets, for each, when its task ran: [the slice it followed, the slices
// marked by then, whether the warm-up had ended]. A warm-up that hands the thread back lets it
// run before its next slice, or the one after; one that holds the thread runs all of them after
// its end. Ordering, not time: a loaded machine changes neither.
const watchYields = `window.__yields = [];
(() => {
	const mark = performance.mark.bind(performance);
	let slices = 0, ended = false;
	performance.mark = (name, ...rest) => {
		if (name === "backoffcalc:warm-code") {
			const after = ++slices, ch = new MessageChannel();
			ch.port1.onmessage = () => { window.__yields.push([after, slices, ended]); ch.port1.close(); };
			ch.port2.postMessage(null);
		} else if (name.startsWith("backoffcalc:warm-code-")) {
			ended = true;
		}
		return mark(name, ...rest);
	};
})();`

// The code cache's warm-up (codecache.go) runs on a visit the service worker answers, once per
// version, in slices that hand the thread back, without changing the page; an edit stops it at
// once. How long its slices or tasks took is not asserted: make bench's coldstart phase
// measures them ("the warm-up" rows).
func TestWarmCode(t *testing.T) {
	srv := startServe(t)
	url := srv.URL + "/?base=250ms&attempts=8&jitter=equal"
	tb := newTab(t)
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: watchYields}); err != nil {
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
	// It ends done, or at its time bound (warmFor) on a machine loaded enough to stretch its
	// 1–2 s of slices past it: what it does then is TestWarmUpSlices's.
	stop := evalJS[string](tb, `performance.getEntriesByType("mark").find((m) => m.name.startsWith("backoffcalc:warm-code-")).name`)
	done := stop == "backoffcalc:warm-code-done"
	if !done && stop != "backoffcalc:warm-code-stopped-by-time" {
		t.Fatalf("the warm-up ended with %s, not done", stop)
	}
	if after := evalJS[string](tb, page); after != before {
		t.Errorf("the warm-up changed the page:\nbefore %.300s\nafter  %.300s", before, after)
	}
	w := warm()
	if len(w.Slices) < 5 {
		t.Errorf("warm visit: %d slices before the warm-up's end, want %d renders in slices of %v", len(w.Slices), warmRenders, workSlice)
	}
	// It hands the thread back after each slice: the task posted at each slice mark ran before
	// the warm-up's end, but for the last slice's, which may follow it.
	var late []string
	most := 0
	yields := evalJS[[][3]any](tb, "window.__yields")
	if len(yields) < len(w.Slices)-1 {
		t.Errorf("of the tasks posted at %d slice marks, %d ran", len(w.Slices), len(yields))
	}
	for _, y := range yields {
		after, by, ended := int(y[0].(float64)), int(y[1].(float64)), y[2].(bool)
		most = max(most, by-after)
		if ended && after < len(w.Slices) {
			late = append(late, fmt.Sprintf("after slice %d", after))
		}
	}
	if len(late) > 0 {
		t.Errorf("the warm-up held the thread: of %d slices, the tasks posted %d times (%v…) ran only after its end", len(w.Slices), len(late), late[:min(len(late), 3)])
	}
	t.Logf("%d slices, ended %s; a task posted at a slice mark ran at most %d slices later", len(w.Slices), stop, most)
	want := ""
	if done {
		want = evalJS[string](tb, `goappGetenv("GOAPP_VERSION")`)
	}
	if got := evalJS[string](tb, `localStorage.getItem("backoffcalc:code-cache") || ""`); got != want || done && want == "" {
		t.Errorf("the warm-up ended with %s; the warmed version is %q, want %q", stop, got, want)
	}
	tb.requireNoConsoleProblems()

	// Warm again: this version is warmed up already (a warm-up stopped at its bound runs again).
	tb.navigate(url)
	tb.waitWasm()
	time.Sleep(2 * time.Second)
	if w := warm(); done && len(w.Slices) != 0 {
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
