//go:build !js

package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"backoffcalc/app/internal/site"
	"backoffcalc/calc/libs"

	"github.com/chromedp/chromedp"
)

// checkRender loads url, waits for the wasm render and the service worker,
// and fails on any console problem or request outside origin.
func checkRender(t *testing.T, origin, url string) *tab {
	tb := newTab(t)
	tb.navigate(url)
	tb.waitWasm()
	tb.waitServiceWorker()
	tb.requireNoConsoleProblems()
	tb.requireSameOrigin(origin)
	return tb
}

func TestServe(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	checkRender(t, srv.URL, srv.URL+"/?base=250ms")
}

func TestStatic(t *testing.T) {
	t.Parallel()
	for _, prefix := range []string{"", "backoffcalc", "docs/tools/backoffcalc"} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			srv := startStatic(t, prefix)
			checkRender(t, srv.URL, srv.URL+pagePath(prefix)+"?base=250ms")
		})
	}
}

// TestOffline loads the page once, lets the service worker precache it,
// stops the server and loads the page again with another query: the worker
// alone must answer, query or not.
func TestOffline(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(t *testing.T) (*httptest.Server, string)
	}{
		{"serve", func(t *testing.T) (*httptest.Server, string) { return startServe(t), "/" }},
		{"static-prefix", func(t *testing.T) (*httptest.Server, string) {
			return startStatic(t, "backoffcalc"), pagePath("backoffcalc")
		}},
		{"static-prefix-segments", func(t *testing.T) (*httptest.Server, string) {
			return startStatic(t, "docs/backoffcalc"), pagePath("docs/backoffcalc")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, path := c.start(t)
			tb := checkRender(t, srv.URL, srv.URL+path+"?base=250ms")
			for _, u := range tb.cachedURLs() {
				if !strings.HasPrefix(u, srv.URL+"/") {
					t.Errorf("service worker cached %s, outside %s", u, srv.URL)
				}
			}

			// Chromium's HTTP cache would answer too and hide a worker that
			// does not.
			tb.clearBrowserCache()
			srv.Close()

			const query = "?base=300ms&attempts=4"
			tb.navigate(srv.URL + path + query)
			tb.waitWasm()
			// The page rewrites a valid link canonical (calc.Params.Values).
			p, _ := libs.DecodeLink(query[1:])
			tb.waitFor("the canonical link", fmt.Sprintf("location.search === %q", "?"+p.Encode()))
			compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query[1:]))

			// The engine worker, which reads an import, starts from the worker's cache too
			// (web/engine.js, wasm_exec.js and web/engine.wasm, under the site's path).
			evalJS[bool](tb, `document.getElementById("import").open = true`)
			tb.setInput("#import-text", stepFunctionsState)
			tb.run(chromedp.Click(chromedp.CSS("#import-button")))
			tb.waitFor("the imported link", `location.search.includes("jitter=full") && location.search.includes("base=3s")`)
			if msg := evalJS[string](tb, `document.getElementById("import-error").textContent`); msg != "" {
				t.Errorf("offline import: %s", msg)
			}
			tb.requireNoConsoleProblems()
			tb.requireSameOrigin(srv.URL)
		})
	}
}

// The service worker deletes its own older caches only: another site's cache on the same
// origin (all of a GitHub Pages user's projects share one) and a copy of backoffcalc at
// another path keep theirs, where the worker deleted every cache but its own.
func TestServiceWorkerKeepsOtherCaches(t *testing.T) {
	t.Parallel()
	srv := startStatic(t, "backoffcalc")
	scope := srv.URL + pagePath("backoffcalc")
	tb := newTab(t)
	tb.navigate(srv.URL + "/nothing-here") // a page of the origin, before the worker
	put := func(name string) string {
		return fmt.Sprintf(`caches.open(%q).then((c) => c.put("/x", new Response("x")))`, name)
	}
	evalJS[bool](tb, `Promise.all([`+put("other-app")+`, `+put("backoffcalc http://127.0.0.1:1/elsewhere/ v1")+`, `+
		put("backoffcalc "+scope+" an-older-version")+`]).then(() => true)`)
	tb.navigate(scope + "?base=250ms")
	tb.waitWasm()
	tb.waitServiceWorker()
	keys := evalJS[[]string](tb, `caches.keys()`)
	ours := 0
	for _, k := range keys {
		if strings.HasPrefix(k, "backoffcalc "+scope+" ") {
			ours++
		}
	}
	if !slices.Contains(keys, "other-app") || !slices.Contains(keys, "backoffcalc http://127.0.0.1:1/elsewhere/ v1") ||
		slices.Contains(keys, "backoffcalc "+scope+" an-older-version") || ours != 1 {
		t.Errorf("caches after the worker's activation: %q", keys)
	}
	for _, p := range tb.consoleProblems() {
		if !strings.Contains(p, "/nothing-here") && !strings.Contains(p, "/favicon.ico") { // the first page's 404s
			t.Errorf("console: %s", p)
		}
	}
}

// TestHarness checks that the harness sees what it must fail on, so that
// the clean runs above mean something.
func TestHarness(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", site.ContentPolicy)
		fmt.Fprint(w, `<!DOCTYPE html><title>t</title><script>console.log("inline")</script>`+
			`<img src="http://127.0.0.2:9/foreign.png">`)
	}))
	defer srv.Close()

	tb := newTab(t)
	tb.navigate(srv.URL)
	// The exception is thrown in a later task; waiting for one more task
	// after it makes sure its event arrived.
	// A Go panic reaches the console as wasm_exec.js writes it: console.log, then console.warn.
	evalJS[bool](tb, `setTimeout(() => { throw new Error("boom") }); console.error("oops");
		console.log("panic: runtime error: invalid memory address"); console.warn("exit code:", 2);
		console.log("an ordinary line"); new Promise((done) => setTimeout(() => done(true), 50))`)
	problems := strings.Join(tb.consoleProblems(), "\n")
	if strings.Contains(problems, "an ordinary line") {
		t.Errorf("an ordinary console.log is a problem:\n%s", problems)
	}
	for _, want := range []string{"CSP violation: script-src", "CSP violation: img-src", "Error: boom", "console.error: oops",
		"console.log: panic: runtime error", "console.warning: exit code: 2"} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
	// A request the CSP blocks still counts: the page tried.
	if f := tb.foreignRequests(srv.URL); len(f) != 1 || f[0] != "http://127.0.0.2:9/foreign.png" {
		t.Errorf("foreign requests %q, want the image", f)
	}
}

// TestTabOpensNoBrowserUI checks that a tab of the tests' browser loads no browser UI of its own
// (headless.OffFeatures): with the address bar's popups, every tab cost a renderer more, 0.8 s
// of CPU, and Chromium may give them new feature names.
func TestTabOpensNoBrowserUI(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=250ms")
	tb.waitWasm()
	infos, err := chromedp.Targets(tb.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if in.Type == "browser_ui" || strings.HasPrefix(in.URL, "chrome://") {
			t.Errorf("the browser has a %s target at %s", in.Type, in.URL)
		}
	}
}
