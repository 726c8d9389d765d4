//go:build !js

package main

// What a visitor sees when the calculator cannot run: JavaScript off, or app.wasm failing to
// load. The server's numbers stay readable, nothing covers them, and the page says what
// happened in words.

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"backoffcalc/app/internal/site"
)

// readableAt is true when the element that css selects is visible and is what the browser finds
// at its centre: nothing covers it.
func readableAt(css string) string {
	return `(() => {
		const e = document.querySelector(` + "`" + css + "`" + `);
		if (!e) return false;
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === "hidden") return false;
		e.scrollIntoView({ block: "center" });
		const s = e.getBoundingClientRect();
		const at = document.elementFromPoint(s.left + s.width / 2, s.top + s.height / 2);
		return at !== null && (at === e || e.contains(at));
	})()`
}

func TestJavaScriptOff(t *testing.T) {
	t.Parallel()
	for _, site := range []string{"serve", "static"} {
		t.Run(site, func(t *testing.T) {
			srv := startServe(t)
			if site == "static" {
				srv = startStatic(t, "")
			}
			tb := newTab(t, chromedp.WithNewBrowserContext())
			if _, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatal(err)
			}
			tb.navigate(srv.URL + "/?base=2s&attempts=4")
			// Scripts are off for the page, not for DevTools' evaluations.
			if evalJS[bool](tb, readableAt("#app-wasm-loader-label")) {
				t.Error("the loader shows with JavaScript off")
			}
			note, numbers := ".noscript-serve", true
			if site == "static" {
				note, numbers = ".noscript-static", false // the static HTML holds the defaults' numbers
			}
			if !evalJS[bool](tb, readableAt(note)) {
				t.Errorf("%s is not readable", note)
			}
			if got := evalJS[bool](tb, readableAt("#total-max")); got != numbers {
				t.Errorf("the worst-case total is readable: %v, want %v", got, numbers)
			}
			if numbers {
				compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "base=2s&attempts=4"))
			}
		})
	}
}

// TestFailedLoad serves the page with app.wasm failing, then working again: the failure is said
// in words with a button, serve's numbers stay readable meanwhile, and the button loads the
// calculator.
func TestFailedLoad(t *testing.T) {
	t.Parallel()
	browser(t)
	h, err := site.NewServer(builtRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	var failing atomic.Bool
	failing.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/web/app.wasm" && failing.Load() {
			http.Error(w, "gone", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.navigate(srv.URL + "/?base=2s&attempts=4")
	tb.waitFor("the failure's button", `document.getElementById("app-wasm-retry") !== null`)
	label := evalJS[string](tb, `document.getElementById("app-wasm-loader-label").textContent`)
	for _, want := range []string{"could not be loaded", "404"} {
		if !strings.Contains(label, want) {
			t.Errorf("the failure says %q, without %q", label, want)
		}
	}
	if !evalJS[bool](tb, readableAt("#total-max")) || !evalJS[bool](tb, readableAt("#app-wasm-retry")) {
		t.Error("after the failure, the worst-case total or the button is not readable")
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "base=2s&attempts=4"))

	failing.Store(false)
	evalJS[bool](tb, `document.getElementById("app-wasm-retry").click(), true`)
	tb.waitWasm()
	if evalJS[bool](tb, readableAt("#app-wasm-loader-label")) {
		t.Error("the loader still shows once the calculator runs")
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "base=2s&attempts=4"))
}

// TestStaticFailedLoad opens a link on the static site, whose HTML holds the default inputs'
// numbers, with app.wasm missing or not WebAssembly: the line at the top says why the
// calculator did not load, and where the numbers would be the page no longer says that they
// are being computed, but that they cannot be, and shows none of the HTML's numbers.
func TestStaticFailedLoad(t *testing.T) {
	t.Parallel()
	dir := staticSite(t, "")
	files := http.FileServer(http.Dir(dir))
	for _, c := range []struct{ name, why string }{
		{"missing", "404"},
		{"corrupt", "compiling"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/web/app.wasm" {
					if c.name == "missing" {
						http.NotFound(w, r)
					} else {
						w.Header().Set("Content-Type", "application/wasm")
						w.Write([]byte("\x00asm\x01\x00\x00\x00 cut short"))
					}
					return
				}
				files.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			tb := newTab(t, chromedp.WithNewBrowserContext())
			tb.navigate(srv.URL + "/?base=250ms&attempts=8")
			tb.waitFor("the failure's button", `document.getElementById("app-wasm-retry") !== null`)
			label := evalJS[string](tb, `document.getElementById("app-wasm-loader-label").textContent`)
			for _, want := range []string{"could not be loaded", c.why} {
				if !strings.Contains(label, want) {
					t.Errorf("the failure says %q, without %q", label, want)
				}
			}
			problems := evalJS[[]string](tb, `(() => {
				const out = [];
				const shown = (e) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
				const places = document.querySelectorAll("#app .numbers");
				if (places.length === 0) out.push("no .numbers");
				for (const e of places) {
					const said = getComputedStyle(e, "::before").content;
					if (!said.includes("cannot be computed") || !said.includes("failed to load")) out.push("#" + e.id + " says " + said);
				}
				for (const e of document.querySelectorAll("#app .loading")) if (shown(e)) out.push("shown: " + e.textContent);
				for (const css of ["#total-max", '#schedule tr[data-attempt="1"]', "#policy", "#in-base"]) {
					const e = document.querySelector(css);
					if (e && shown(e)) out.push("shown: " + css);
				}
				return out;
			})()`)
			if len(problems) > 0 {
				t.Errorf("after the failure: %q", problems)
			}
			if !evalJS[bool](tb, readableAt("#app-wasm-retry")) {
				t.Error("the button to try again is not readable")
			}
		})
	}
}
