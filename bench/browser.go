//go:build !js

package main

// Headless Chromium driven over the DevTools protocol. Every time is taken in the page, with
// performance.now() (milliseconds since the navigation started) inside requestAnimationFrame
// callbacks and PerformanceObserver entries; Go only starts things and reads the results.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"backoffcalc/internal/headless"
)

// browser is one Chromium process with its own profile, and one tab in it.
type browser struct {
	tab     context.Context
	cancel  func()
	profile string
	wantID  cdppage.ScriptIdentifier // the script that sets window.__benchWant, if any
}

// startWatching starts a browser (startBrowser) whose every document watches for want (setWant).
func startWatching(cfg *config, want any) (*browser, error) {
	b, err := startBrowser(cfg)
	if err != nil {
		return nil, err
	}
	if err := b.setWant(want); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

// startBrowser starts Chromium with a fresh profile (an empty HTTP cache, no service worker) and
// opens a tab whose every document gets the measuring script before any of its own.
func startBrowser(cfg *config) (*browser, error) {
	profile, err := os.MkdirTemp("", "backoffcalc-bench-chromium-")
	if err != nil {
		return nil, err
	}
	actx, acancel := headless.Allocator(cfg.chromium, profile)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &browser{profile: profile}
	b.cancel = func() {
		bcancel()
		acancel() // waits for Chromium to exit
		os.RemoveAll(profile)
	}
	// The first call starts the browser and must have no timeout, or the timeout would end it.
	if err := chromedp.Do(bctx); err != nil {
		b.cancel()
		return nil, fmt.Errorf("starting Chromium: %w", err)
	}
	tab, tcancel := chromedp.NewContext(bctx)
	b.tab = tab
	stop := b.cancel
	b.cancel = func() { tcancel(); stop() }
	if _, err := chromedp.Call(tab, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: measureJS}); err != nil {
		b.cancel()
		return nil, fmt.Errorf("opening a tab: %w", err)
	}
	// A user's browser is already running when they open a link: load a page from another
	// server first, so that a cold load pays for an empty cache, not for starting the network
	// stack. It caches nothing the measured pages use.
	if err := b.navigate(warmupURL(), 30*time.Second); err != nil {
		b.cancel()
		return nil, fmt.Errorf("warming up: %w", err)
	}
	return b, nil
}

var warmup struct {
	once sync.Once
	url  string
}

// warmupURL serves a tiny page on 127.0.0.1 for the bench's lifetime.
func warmupURL() string {
	warmup.once.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			warmup.url = "about:blank"
			return
		}
		go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprint(w, "<!DOCTYPE html><title>warm-up</title><p>warm-up</p>")
		}))
		warmup.url = "http://" + ln.Addr().String() + "/"
	})
	return warmup.url
}

func (b *browser) close() { b.cancel() }

// cacheBytes is what the profile holds on disk in Code Cache/wasm (the code cache of a wasm
// response from the network or the HTTP cache, keyed by its URL) and in the service workers'
// Cache Storage (their copies, and as side data the code cache of a wasm response they answered).
func (b *browser) cacheBytes() (codeCache, cacheStorage float64) {
	return float64(dirBytes(filepath.Join(b.profile, "Default", "Code Cache", "wasm"))),
		float64(dirBytes(filepath.Join(b.profile, "Default", "Service Worker", "CacheStorage")))
}

// setWant makes every later document of the tab watch for want (see measureJS) from its start.
func (b *browser) setWant(want any) error {
	if b.wantID != "" {
		if _, err := chromedp.Call(b.tab, cdppage.RemoveScriptToEvaluateOnNewDocument,
			cdppage.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: b.wantID}); err != nil {
			return err
		}
		b.wantID = ""
	}
	js, err := json.Marshal(want)
	if err != nil {
		return err
	}
	res, err := chromedp.Call(b.tab, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: "window.__benchWant = " + string(js) + ";"})
	if err != nil {
		return err
	}
	b.wantID = res.Identifier
	return nil
}

// navigate loads url and waits for its load event. Going through about:blank makes a load of
// the current URL an ordinary navigation rather than a reload, which would revalidate.
func (b *browser) navigate(url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(b.tab, timeout)
	defer cancel()
	return chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
}

// eval evaluates a JavaScript expression, awaiting a promise, and decodes its value into T.
func eval[T any](b *browser, expr string, timeout time.Duration) (T, error) {
	ctx, cancel := context.WithTimeout(b.tab, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// waitServiceWorker waits until the page's service worker is activated, that is has precached
// every file.
func (b *browser) waitServiceWorker(timeout time.Duration) error {
	state, err := eval[string](b, headless.ServiceWorkerActivated(timeout.Milliseconds()), timeout+5*time.Second)
	if err != nil {
		return err
	}
	if state != "activated" {
		return fmt.Errorf("service worker: %s", state)
	}
	return nil
}

// clearHTTPCache: see headless.ClearHTTPCache.
func (b *browser) clearHTTPCache() error {
	return chromedp.Do(b.tab, headless.ClearHTTPCache)
}

// want is what a load or an edit waits for, read by measureJS.
type want struct {
	// Kind is "schedule": #schedule shows Rows rows and every cell of Cells ("attempt/col") has
	// that data-ms, and every cell of Differ has a non-empty data-ms other than before the edit
	// (cells marked data-pending are on their way);
	// "baseline": the baseline page's root is visible; "wasm": the wasm has rendered the page.
	Kind   string            `json:"kind"`
	Rows   int               `json:"rows,omitempty"`
	Cells  map[string]string `json:"cells,omitempty"`
	Differ []string          `json:"differ,omitempty"`
}

// herdWant is what the herd table must show: mode → column → data-value.
type herdWant struct {
	Modes map[string]map[string]string `json:"modes"`
}

// overloadWant is what the overload view must show: "mode/limiter/breaker" → column → data-value of
// the side by side table, and the policy's own run window by window.
type overloadWant struct {
	Cases map[string]map[string]string `json:"cases"`
}

// loadResult is what measureJS recorded for one page load; times in ms since navigation start.
type loadResult struct {
	First       float64 `json:"first"`       // first frame with the right rows visible, percentiles maybe pending
	Shown       float64 `json:"shown"`       // first frame with every right number visible, any render
	Interactive float64 `json:"interactive"` // first frame with every right number rendered by the wasm
	Wrong       float64 `json:"wrong"`       // first frame with other numbers visible; -1 = never
	Lost        float64 `json:"lost"`        // first frame after Shown without every number; -1 = never
	LostWhat    string  `json:"lostWhat"`    // what that frame showed
	FCP         float64 `json:"fcp"`         // first contentful paint
	LongestTask float64 `json:"longestTask"` // longest task until interactive (0: none over 50 ms)
	Controlled  bool    `json:"controlled"`  // a service worker answered the page
	WasmEnd     float64 `json:"wasmEnd"`     // app.wasm's responseEnd; -1 if not fetched
	WasmBytes   float64 `json:"wasmBytes"`   // app.wasm's transferSize (0: from a cache)
	Transferred float64 `json:"transferred"` // transferSize of the page and every resource
	WasmStart   float64 `json:"wasmStart"`   // app.wasm's fetch start; -1 if not fetched
	WasmResp    float64 `json:"wasmResponse"`
	// Marks are the steps of the cold start (see measureJS): instantiateCalled, instantiated,
	// goRun, mounted, and the page's own performance marks (go-init, route).
	Marks map[string]float64 `json:"marks"`
	// codeCache and cacheStorage are the bytes of the profile's Code Cache/wasm and of its
	// service workers' Cache Storage after the visit (see coldWarm); set by the bench, not the page.
	codeCache, cacheStorage float64
	// warm is what the code cache's warm-up did on a warm visit (see coldWarm); nil when not read.
	warm *warmUp
}

// editResult is one input-to-screen measurement.
type editResult struct {
	MS      float64 `json:"ms"`      // from before the input event to the first frame showing every new number
	First   float64 `json:"first"`   // … to the first frame showing the new rows, percentiles maybe pending
	Handler float64 `json:"handler"` // how long dispatching the input event took
	Error   string  `json:"error"`
}

// herdResult is one herd measurement.
type herdResult struct {
	MS      float64 `json:"ms"`      // from before the input event to the frame showing 6 rows
	Longest float64 `json:"longest"` // longest task meanwhile (Long Tasks API: 0 = none over 50 ms)
	Count   int     `json:"count"`   // long tasks meanwhile
	Gap     float64 `json:"gap"`     // longest time between two animation frames meanwhile
	Error   string  `json:"error"`
	// From and To are when the input was dispatched and when it was complete (overload only).
	From, To float64
}

// measureJS runs first in every document of the tab (Page.addScriptToEvaluateOnNewDocument,
// which the page's CSP does not govern). It records long tasks and the first contentful paint,
// and, in every animation frame until the wasm has rendered what window.__benchWant describes,
// whether the wanted numbers (or other ones) are visible. A frame's callback runs just before
// that frame is rendered, so its time is when the numbers are in what the screen will show next
// (a lower bound: painting the frame comes after it); a load's times are raised to the first
// contentful paint, before which nothing is on screen at all. __bench.edit and __bench.herd time
// an input the same way, from just before the input event is dispatched.
const measureJS = `(() => {
	if (!/^https?:$/.test(location.protocol) || window.__bench) return;
	const B = window.__bench = { lt: [], fcp: -1, first: -1, shown: -1, interactive: -1, wrong: -1, lost: -1 };
	const observe = (type, f) => {
		try { new PerformanceObserver((l) => l.getEntries().forEach(f)).observe({ type, buffered: true }); } catch (e) {}
	};
	observe("longtask", (e) => B.lt.push([e.startTime, e.duration]));
	observe("paint", (e) => { if (e.name === "first-contentful-paint") B.fcp = e.startTime; });
	// The steps of a cold start, as the page reaches them (see coldStart): app.js calls
	// WebAssembly.instantiateStreaming and, once it resolves (compiled and instantiated), go.run;
	// the Go program marks its own start (app/marks_js.go); the wasm's page is in the DOM when a
	// mutation shows #app[data-render="wasm"] (observers run once the wasm hands the thread back).
	B.marks = {};
	const at = (k) => { if (!(k in B.marks)) B.marks[k] = performance.now(); };
	if (window.WebAssembly && WebAssembly.instantiateStreaming) {
		const instantiate = WebAssembly.instantiateStreaming;
		WebAssembly.instantiateStreaming = function (...args) {
			at("instantiateCalled");
			const p = instantiate.apply(this, args);
			p.then(() => at("instantiated"), () => {});
			return p;
		};
	}
	let goClass;
	Object.defineProperty(window, "Go", { configurable: true, get: () => goClass, set: (v) => {
		goClass = v;
		const run = v.prototype.run;
		v.prototype.run = function (...args) { at("goRun"); return run.apply(this, args); };
	} });
	const mounted = new MutationObserver(() => {
		if (document.querySelector('#app[data-render="wasm"]')) { at("mounted"); mounted.disconnect(); }
	});
	mounted.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-render"] });
	const visible = (el) => el.checkVisibility
		? el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
		: el.offsetParent !== null;
	const cell = (t, key) => {
		const i = key.indexOf("/");
		return t.querySelector('tr[data-attempt="' + key.slice(0, i) + '"] td[data-col="' + key.slice(i + 1) + '"]');
	};
	const longest = (from, to) => B.lt.filter(([s, d]) => s + d > from && s < to).reduce((m, [, d]) => Math.max(m, d), 0);
	// 2: every wanted number is visible; 1: the wanted rows are visible, and every cell that
	// is not pending (data-pending: a sampled number still being computed) has its wanted value;
	// -1: a visible cell that is not pending shows another number; 0: none of these.
	B.state = (want, wasm, before) => {
		const root = document.querySelector(wasm ? '#app[data-render="wasm"]' : "#app");
		if (!root) return 0;
		if (want.kind === "baseline") return root.querySelector("h1") && visible(root) ? 2 : 0;
		if (want.kind === "wasm") return root.dataset.render === "wasm" ? 2 : 0;
		const t = root.querySelector("#schedule");
		if (!t || !visible(t)) return 0;
		let complete = t.querySelectorAll("tr[data-attempt]").length === want.rows, partial = complete;
		for (const k in want.cells) {
			const td = cell(t, k);
			if (!td) { complete = partial = false; continue; }
			if ("pending" in td.dataset) { complete = false; continue; }
			if (td.dataset.ms !== want.cells[k]) return -1;
		}
		for (const k of want.differ || []) {
			const td = cell(t, k);
			if (!td) { complete = partial = false; continue; }
			if ("pending" in td.dataset) { complete = false; continue; }
			if (td.dataset.ms === "" || td.dataset.ms === before[k]) return -1;
		}
		return complete ? 2 : partial ? 1 : 0;
	};
	B.loaded = new Promise((done) => { B.done = done; });
	const tick = () => {
		const want = window.__benchWant;
		if (!want) return;
		const now = performance.now();
		const s = B.state(want, false, {});
		if (s >= 1 && B.first < 0) B.first = now;
		if (s === 2 && B.shown < 0) B.shown = now;
		if (s < 2 && B.shown >= 0 && B.lost < 0) {
			B.lost = now;
			const root = document.querySelector("#app");
			B.lostWhat = !root ? "no #app" : "#app rendered by " + root.dataset.render + ", state " + s + ", " +
				root.querySelectorAll("#schedule [data-pending]").length + " pending schedule cells";
		}
		if (s === -1 && B.wrong < 0) B.wrong = now;
		if (B.state(want, true, {}) === 2) {
			B.interactive = now;
			if (B.first < 0) B.first = now;
			if (B.shown < 0) B.shown = now;
			// Long task entries arrive after their task: wait a little for the last one.
			setTimeout(B.done, 100);
			return;
		}
		requestAnimationFrame(tick);
	};
	requestAnimationFrame(tick);
	B.result = () => {
		const res = performance.getEntriesByType("resource");
		const nav = performance.getEntriesByType("navigation")[0];
		const wasm = res.find((r) => /\/app\.wasm$/.test(new URL(r.name).pathname));
		// Before the first contentful paint nothing is on screen, whatever the DOM holds: a
		// frame's time is when its numbers are in the DOM, the paint's when it is presented.
		const onScreen = (t) => t < 0 ? t : Math.max(t, B.fcp);
		return {
			first: onScreen(B.first), shown: onScreen(B.shown), interactive: onScreen(B.interactive),
			wrong: B.wrong < 0 ? -1 : onScreen(B.wrong), lost: B.lost, lostWhat: B.lostWhat || "", fcp: B.fcp,
			longestTask: longest(0, B.interactive),
			controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
			wasmEnd: wasm ? wasm.responseEnd : -1, wasmBytes: wasm ? wasm.transferSize : 0,
			transferred: res.reduce((n, r) => n + r.transferSize, nav ? nav.transferSize : 0),
			wasmStart: wasm ? wasm.startTime : -1, wasmResponse: wasm ? wasm.responseStart : -1,
			marks: Object.assign({}, B.marks, Object.fromEntries(performance.getEntriesByType("mark")
				.filter((m) => m.name.startsWith("backoffcalc:")).map((m) => [m.name.slice(12), m.startTime]))),
		};
	};
	// timeline lists the document's and every resource's fetch, for -v.
	B.timeline = () => {
		const nav = performance.getEntriesByType("navigation")[0];
		const out = [];
		if (nav) out.push("document: response " + nav.responseStart.toFixed(1) + "–" + nav.responseEnd.toFixed(1) +
			", domInteractive " + nav.domInteractive.toFixed(1) + ", DOMContentLoaded " + nav.domContentLoadedEventEnd.toFixed(1) +
			", load " + nav.loadEventEnd.toFixed(1));
		for (const r of performance.getEntriesByType("resource")) {
			out.push(new URL(r.name).pathname + ": " + r.startTime.toFixed(1) + "–" + r.responseEnd.toFixed(1) +
				" (" + r.initiatorType + ", " + r.transferSize + " B)");
		}
		out.push("long tasks: " + B.lt.map(([s, d]) => s.toFixed(0) + "+" + d.toFixed(0)).join(" "));
		return out;
	};
	// input sets a field as typing a value and pressing Enter would: the change event commits it at
	// once, so that the times are the page's work, not the typing's pause (app/typing.go).
	const input = (sel, value) => {
		const el = document.querySelector(sel);
		el.value = value;
		el.dispatchEvent(new Event("input", { bubbles: true }));
		el.dispatchEvent(new Event("change", { bubbles: true }));
	};
	B.edit = (sel, value, want, timeout) => new Promise((resolve) => {
		if (!document.querySelector(sel)) return resolve({ ms: -1, handler: 0, error: "no " + sel });
		const t = document.querySelector('#app[data-render="wasm"] #schedule');
		const before = {};
		for (const k of want.differ || []) { const td = t && cell(t, k); before[k] = td ? td.dataset.ms : ""; }
		const t0 = performance.now();
		input(sel, value);
		const handler = performance.now() - t0;
		let first = -1;
		const poll = () => {
			const now = performance.now();
			const s = B.state(want, true, before);
			if (s >= 1 && first < 0) first = now - t0;
			if (s === 2) return resolve({ ms: now - t0, first, handler, error: "" });
			if (now - t0 > timeout) return resolve({ ms: -1, first, handler, error: "timeout" });
			requestAnimationFrame(poll);
		};
		requestAnimationFrame(poll);
	});
	// idle waits until the herd is not being computed and three frames went by.
	B.idle = (timeout) => new Promise((resolve) => {
		const t0 = performance.now();
		let frames = 0;
		const poll = () => {
			const s = document.getElementById("herd-status");
			const busy = !!s && s.textContent.startsWith("Computing");
			frames = busy ? 0 : frames + 1;
			if (frames >= 3) return resolve("");
			if (performance.now() - t0 > timeout) return resolve("the herd still computing after " + timeout + " ms");
			requestAnimationFrame(poll);
		};
		requestAnimationFrame(poll);
	});
	// timeInput times an input until complete() holds, as herdResult reports it.
	const timeInput = (sel, value, complete, timeout) => new Promise((resolve) => {
		if (!document.querySelector(sel)) return resolve({ ms: -1, error: "no " + sel });
		const t0 = performance.now();
		let last = t0, gap = 0;
		input(sel, value);
		const poll = () => {
			const now = performance.now();
			gap = Math.max(gap, now - last);
			last = now;
			if (complete()) {
				return setTimeout(() => resolve({
					ms: now - t0, longest: longest(t0, now), gap, error: "",
					count: B.lt.filter(([s, d]) => s + d > t0 && s < now).length, from: t0, to: now,
				}), 200);
			}
			if (now - t0 > timeout) return resolve({ ms: -1, error: "timeout" });
			requestAnimationFrame(poll);
		};
		requestAnimationFrame(poll);
	});
	// during lists, for -v, the long tasks and the page's own measures (backoffcalc:*) from
	// from to to, in ms since from.
	B.during = (from, to) => {
		const ms = (t) => (t - from).toFixed(0);
		return B.lt.filter(([s, d]) => s + d > from && s < to).map(([s, d]) => "long task " + ms(s) + "+" + d.toFixed(0))
			.concat(performance.getEntriesByType("measure").filter((m) => m.name.startsWith("backoffcalc:") &&
				m.startTime + m.duration > from && m.startTime < to)
				.map((m) => m.name.slice(12) + " " + ms(m.startTime) + "+" + m.duration.toFixed(1)));
	};
	// overload: the overload view shows every case of want with its numbers, the policy's own
	// run window by window, and no longer says it is computing.
	B.overload = (sel, value, want, timeout) => timeInput(sel, value, () => {
		const root = document.querySelector('#app[data-render="wasm"]');
		const status = root && root.querySelector("#herd-status");
		if (!status || status.textContent !== "" || root.querySelector("#herd-results[data-pending]")) return false;
		if (!root.querySelector("#overload-windows-table tr[data-window]")) return false;
		const rows = root.querySelectorAll("#overload tr[data-mode]");
		if (rows.length !== Object.keys(want.cases).length) return false;
		for (const tr of rows) {
			const w = want.cases[tr.dataset.mode + "/" + tr.dataset.limiter + "/" + (tr.dataset.breaker || "")];
			if (!w) return false;
			for (const c in w) {
				const td = tr.querySelector('td[data-col="' + c + '"]');
				if (!td || td.dataset.value !== w[c]) return false;
			}
		}
		return true;
	}, timeout);
	B.herd = (sel, value, want, timeout) => timeInput(sel, value, () => {
		const rows = document.querySelectorAll('#app[data-render="wasm"] #herd tr[data-mode]');
		if (rows.length !== Object.keys(want.modes).length) return false;
		for (const tr of rows) {
			const w = want.modes[tr.dataset.mode];
			if (!w) return false;
			for (const c in w) {
				const td = tr.querySelector('td[data-col="' + c + '"]');
				if (!td || td.dataset.value !== w[c]) return false;
			}
		}
		return true;
	}, timeout);
})();`

// jsonArgs writes Go values as the arguments of a JavaScript call.
func jsonArgs(args ...any) (string, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			return "", err
		}
		parts[i] = string(b)
	}
	return strings.Join(parts, ", "), nil
}
