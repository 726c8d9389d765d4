//go:build !js

package main

// What a visitor sees and can do while app.wasm is still on its way: the page is watched from
// its first contentful paint until the wasm takes over, with app.wasm held back by the server
// for as long as the test needs.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"backoffcalc/app/internal/site"
)

// holdWasm serves h, except that requests for app.wasm wait until release is called (or the
// request ends), so that a test can watch the page before the wasm runs.
func holdWasm(t *testing.T, h http.Handler) (srv *httptest.Server, release func()) {
	t.Helper()
	held := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/app.wasm") {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(release) // before srv.Close: a held request would keep Close waiting
	return srv, release
}

// heldServe starts serve, holding app.wasm back until release is called (holdWasm).
func heldServe(t *testing.T) (srv *httptest.Server, release func()) {
	t.Helper()
	h, err := site.NewServer(builtRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	return holdWasm(t, h)
}

// watchTab opens a tab of a new profile (no cache, no worker) on the screen vp, and installs
// sampler (a script run in every new document) before the page loads.
func watchTab(t *testing.T, vp viewport, sampler string) *tab {
	t.Helper()
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.emulate(vp)
	tb.addScript(sampler)
	return tb
}

// sampler returns a script that runs check at every animation frame from the moment the whole
// page is in the document (its footer is) until the wasm has rendered it, and keeps what check
// returns: a list of what is wrong, empty when all is well. window.loadWatch holds the count of
// samples, the times of the first contentful paint and of the first sample, and the first
// problems seen. A frame's callbacks run before it paints, so every frame that shows the whole
// page is checked. On a busy machine Chromium can paint a part of the page before the rest is
// parsed (the first contentful paint); the numbers are then not in the document yet.
func sampler(check string) string {
	return `(() => {
	const w = window.loadWatch = { samples: 0, fcp: -1, first: -1, problems: [] };
	const check = ` + check + `;
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) if (e.name === "first-contentful-paint") w.fcp = e.startTime;
	}).observe({ type: "paint", buffered: true });
	const frame = () => {
		if (document.querySelector('#app[data-render="wasm"]')) return; // the wasm took over
		if (document.querySelector("#app footer")) {
			if (w.first < 0) w.first = performance.now();
			w.samples++;
			for (const p of check()) if (w.problems.length < 20) w.problems.push(p);
		}
		requestAnimationFrame(frame);
	};
	requestAnimationFrame(frame);
})()`
}

// readableCheck is a check for sampler: every element that one of the selectors matches is
// visible (opacity 1 all the way up, visibility visible) and nothing covers its centre. One
// outside the viewport is scrolled to for the test, and the scroll put back in the same frame,
// so that the page never paints it.
const readableCheck = `(selectors) => () => {
	const out = [];
	const x = scrollX, y = scrollY;
	for (const css of selectors) {
		const e = document.querySelector(css);
		if (!e) { out.push(css + ": missing"); continue; }
		if (getComputedStyle(e).visibility !== "visible") out.push(css + ": visibility " + getComputedStyle(e).visibility);
		for (let a = e; a; a = a.parentElement) {
			if (getComputedStyle(a).opacity !== "1") out.push(css + ": opacity " + getComputedStyle(a).opacity + " on " + a.tagName + "#" + a.id);
		}
		let r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) { out.push(css + ": no box"); continue; }
		if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
			e.scrollIntoView({ block: "center", inline: "center" });
			r = e.getBoundingClientRect();
		}
		const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		if (!at || !(at === e || e.contains(at))) out.push(css + ": covered by " + (at ? at.tagName + "#" + at.id + "." + at.className : "nothing"));
	}
	scrollTo(x, y);
	return out;
}`

// servedNumbers are numbers of serve's page that must stay readable while it loads.
var servedNumbers = []string{"#total-min", "#total-mean", "#total-max",
	`#schedule tr[data-attempt="1"]`, `#schedule tr[data-attempt="2"]`, `#schedule tr[data-attempt="3"]`}

// addScript runs js in every document the tab opens from now on, before the page's scripts.
func (tb *tab) addScript(js string) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: js}); err != nil {
		tb.t.Fatal(err)
	}
}

// loadWatch is what sampler recorded.
type loadWatch struct {
	Samples  int      `json:"samples"`
	FCP      float64  `json:"fcp"`
	First    float64  `json:"first"`
	Problems []string `json:"problems"`
}

// watchUntilWasm lets sampler run for a few frames while the wasm is held, releases it, waits
// for the wasm's render and returns the record.
func watchUntilWasm(tb *tab, release func()) loadWatch {
	tb.t.Helper()
	tb.waitFor("samples of the server's page", `window.loadWatch?.samples >= 5 && window.loadWatch.fcp >= 0`)
	if evalJS[bool](tb, `document.querySelector('#app[data-render="wasm"]') !== null`) {
		tb.t.Fatal("the wasm ran while held")
	}
	release()
	tb.waitWasm()
	w := evalJS[loadWatch](tb, `window.loadWatch`)
	tb.t.Logf("first contentful paint at %.0f ms, whole page there at %.0f ms, %d samples until the wasm took over", w.FCP, w.First, w.Samples)
	return w
}

// TestServeReadableWhileLoading watches serve's page of a link from its first contentful paint
// until the wasm takes over: its numbers are the link's, readable all along, and the loading
// line is a status with an image described as decoration, which does not spin when motion is
// to be reduced.
func TestServeReadableWhileLoading(t *testing.T) {
	const query = "base=2s&attempts=4"
	h, err := site.NewServer(builtRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	selectors, _ := json.Marshal(servedNumbers)
	for _, vp := range firstScreens {
		t.Run(vp.name, func(t *testing.T) {
			srv, release := holdWasm(t, h)
			vp.reducedMotion = vp.mobile // one of each, so that the spinning one shows the check can fail
			tb := watchTab(t, vp, sampler("("+readableCheck+")("+string(selectors)+")"))
			tb.navigate(srv.URL + "/?" + query)
			tb.waitFor("the loading line", `document.getElementById("app-wasm-loader-label")?.textContent.includes("Loading")`)
			loader := evalJS[map[string]any](tb, `(() => {
				const l = document.getElementById("app-wasm-loader"), i = document.getElementById("app-wasm-loader-icon");
				return { role: l.getAttribute("role"), alt: i.getAttribute("alt"), animation: getComputedStyle(i).animationName,
					shown: l.checkVisibility() };
			})()`)
			if loader["role"] != "status" || loader["alt"] != "" || loader["shown"] != true {
				t.Errorf("loading line: %v; want role status, alt \"\", shown", loader)
			}
			if spins := loader["animation"] != "none"; spins == vp.reducedMotion {
				t.Errorf("loading image animation %v with reduced motion %v", loader["animation"], vp.reducedMotion)
			}
			compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
			w := watchUntilWasm(tb, release)
			if len(w.Problems) > 0 {
				t.Errorf("in %d samples from the first paint, numbers not readable: %q", w.Samples, w.Problems)
			}
			compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
			tb.requireNoConsoleProblems()
		})
	}
}

// TestTypedBeforeWasm types into serve's page before the wasm runs: what was typed is kept and
// computed, the link follows, and focus and caret stay in the field.
func TestTypedBeforeWasm(t *testing.T) {
	t.Parallel()
	srv, release := heldServe(t)
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.navigate(srv.URL + "/?attempts=4&base=2s")
	tb.run(chromedp.Focus(chromedp.CSS("#in-attempts")))
	evalJS[bool](tb, `document.getElementById("in-attempts").select(), true`)
	// Real keys: "12" over the selected "4", then the caret back between the digits.
	tb.run(chromedp.KeyEvent("12"), chromedp.KeyEvent(kb.ArrowLeft))
	if got := evalJS[string](tb, `document.getElementById("in-attempts").value`); got != "12" {
		t.Fatalf("typed value before the wasm: %q", got)
	}
	release()
	tb.waitWasm()
	typedKept(t, tb)
}

// typedKept checks the page the wasm took over after "12" was typed into #in-attempts, the caret
// left between the digits, on the link attempts=4&base=2s: the value, the focus and the caret
// are kept, the numbers and the link are the typed value's, and a key after the wasm took over
// goes on in the same field, from the same caret.
func typedKept(t *testing.T, tb *tab) {
	t.Helper()
	got := evalJS[map[string]any](tb, `(() => {
		const e = document.activeElement;
		return { value: document.getElementById("in-attempts").value, focus: e.id, start: e.selectionStart, end: e.selectionEnd };
	})()`)
	if got["value"] != "12" || got["focus"] != "in-attempts" || got["start"] != 1.0 || got["end"] != 1.0 {
		t.Errorf("after the wasm took over: %v; want value 12, focus in-attempts, caret at 1", got)
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "attempts=12&base=2s"))
	tb.waitFor("the link with the typed value", `new URLSearchParams(location.search).get("attempts") === "12"`)
	tb.run(chromedp.KeyEvent("0"))
	if got := evalJS[string](tb, `document.getElementById("in-attempts").value`); got != "102" {
		t.Errorf("a key after the wasm took over: value %q, want 102", got)
	}
	tb.requireNoConsoleProblems()
}

// staleCheck is a check for sampler on HTML made for another query: the headings show, the
// numbers and the inputs' values do not, and every part that will hold numbers says that they
// are being computed; until the wasm writes the link's first screen into it (prewrite, which
// TestStaticPrewritesFirstScreen watches).
const staleCheck = `() => {
	const out = [];
	if (document.querySelector("#app[data-prewritten]")) return out;
	const shown = (e) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
	// A heading inside an island is a part of its numbers, written with them.
	const headings = [...document.querySelectorAll("#app h1, #app h2")].filter((h) => !h.closest(".numbers"));
	if (headings.length < 2) out.push("only " + headings.length + " headings");
	for (const h of headings) if (!shown(h)) out.push("heading hidden: " + h.textContent);
	for (const css of ["#total-max", '#schedule tr[data-attempt="1"]', "#policy", "#in-base", "#in-attempts", "#in-preset"]) {
		const e = document.querySelector(css);
		if (e && shown(e)) out.push("shown: " + css);
	}
	for (const e of document.querySelectorAll("#app .numbers")) {
		if (!getComputedStyle(e, "::before").content.includes("Computing")) out.push("no progress text in #" + e.id);
	}
	if (!document.querySelector("#app .numbers")) out.push("no .numbers");
	return out;
}`

// TestStaticWhileLoading opens a link on the static site, whose HTML holds the default inputs'
// numbers: from the first paint the page's frame and headings show, with a progress text where
// the numbers will be, never the default numbers; then the link's numbers come.
func TestStaticWhileLoading(t *testing.T) {
	const query = "base=300ms"
	dir := staticSite(t, "")
	for _, vp := range firstScreens {
		t.Run(vp.name, func(t *testing.T) {
			srv, release := holdWasm(t, http.FileServer(http.Dir(dir)))
			tb := watchTab(t, vp, sampler(staleCheck))
			tb.navigate(srv.URL + "/?" + query)
			w := watchUntilWasm(tb, release)
			if len(w.Problems) > 0 {
				t.Errorf("in %d samples from the first paint: %q", w.Samples, w.Problems)
			}
			compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
			if !evalJS[bool](tb, readableAt("#total-max")) {
				t.Error("the link's worst-case total is not readable once the wasm runs")
			}
		})
	}
}

// TestServeKeepsSampledNumbers watches serve's page of a link from its first paint until the
// wasm has sampled every mode: the sampled numbers the server wrote (the schedule's percentiles,
// every mode's p99 total) and the layers' sentence below them are on screen in every frame,
// through the wasm's first render, which keeps them, and the sampling after it, which writes the
// same numbers again.
func TestServeKeepsSampledNumbers(t *testing.T) {
	t.Parallel()
	const query = "base=2s&attempts=4"
	srv, release := heldServe(t)
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.addScript(`(() => {
	const w = window.keepWatch = { samples: 0, wasm: 0, first: null, last: null, problems: [] };
	const cells = '#schedule td[data-col="p50"], #schedule td[data-col="p99"], #modes td[data-col="p99"]';
	// The layers' sentence is in a section that the wasm's first render leaves for after the paint.
	const read = () => [...document.querySelectorAll(cells + ", #layers")].map((td) =>
		td.dataset.pending !== undefined ? "(pending)" : !td.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ? "(hidden)" : td.textContent);
	const frame = () => {
		if (document.querySelector("#app footer")) {
			const now = read(), wasm = document.querySelector('#app[data-render="wasm"]') !== null;
			w.samples++;
			if (wasm) w.wasm++;
			if (w.first === null) w.first = now;
			if (now.join("|") !== w.first.join("|") && w.problems.length < 10) w.problems.push((wasm ? "wasm: " : "server: ") + now.join("|"));
			w.last = now;
			// Done once the wasm's work is: no island waits for samples.
			if (wasm && !document.querySelector("#app [data-pending], #tables [data-sampling]")) return;
		}
		requestAnimationFrame(frame);
	};
	requestAnimationFrame(frame);
})()`)
	tb.navigate(srv.URL + "/?" + query)
	tb.waitFor("frames of the server's page", `window.keepWatch?.samples >= 3`)
	release()
	tb.waitWasm()
	tb.waitFor("the wasm's sampled numbers", `window.keepWatch.wasm > 0 && !document.querySelector("#app [data-pending], #tables [data-sampling]")`)
	w := evalJS[struct {
		Samples, Wasm int
		First, Last   []string
		Problems      []string
	}](tb, `window.keepWatch`)
	t.Logf("%d frames, %d of them the wasm's; sampled cells %q", w.Samples, w.Wasm, w.First)
	if len(w.First) < 10 || slices.ContainsFunc(w.First, func(c string) bool { return c == "" || strings.HasPrefix(c, "(") }) {
		t.Fatalf("the server's page shows sampled cells %q", w.First)
	}
	if len(w.Problems) > 0 {
		t.Errorf("the sampled cells changed from %q while the wasm started: %q", w.First, w.Problems)
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
	tb.requireNoConsoleProblems()
}

// TestFocusBelowFirstScreen puts the focus in a field of a section that the wasm's first render
// leaves for after the paint (the comparison's), on serve's page before the wasm runs: the focus
// is back in that field once the section is live.
func TestFocusBelowFirstScreen(t *testing.T) {
	t.Parallel()
	srv, release := heldServe(t)
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.navigate(srv.URL + "/?attempts=4&base=2s")
	tb.run(chromedp.Focus(chromedp.CSS("#in-vs")))
	release()
	tb.waitWasm()
	tb.waitFor("the comparison's field, live and focused", `(() => {
		const e = document.activeElement;
		return e && e.id === "in-vs" && !e.closest("[inert]") && document.querySelector('#app[data-render="wasm"]').contains(e);
	})()`)
	tb.requireNoConsoleProblems()
}
