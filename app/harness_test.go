//go:build !js

package main

// The browser test harness: one headless Chromium for the whole run, a tab
// per test that records every request and every console problem, and the
// page built and served the way users get it (serve, static, static under a
// prefix).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"backoffcalc/internal/headless"

	"backoffcalc/app/internal/site"
)

// suiteDir holds what outlives one test: the browser profile, the built root
// and the static sites. TestMain removes it.
var suiteDir string

func TestMain(m *testing.M) {
	site.BrotliLater = false // the tests know which copy serve sends; TestServeBrotliLater tests the other way
	site.BrotliQuality = 5   // see site.BrotliQuality
	dir, err := os.MkdirTemp("", "backoffcalc-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	suiteDir = dir
	route()
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel() // stops Chromium before its profile is removed
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// The browser tests call t.Parallel: they run after the others, two at a time (go test's
// -parallel, GOMAXPROCS by default), each in its own tab with its own server. Headless Chromium
// gives every tab the focus and the keyboard (document.hasFocus() is true in two tabs at once),
// so typing and moving the focus need no tab to themselves; most of a browser test is waiting
// for the page, and the tabs' wasm and go test share the two cores. Sequential are the tests
// that touch what tabs share: the HTTP cache, which TestOffline clears and in which
// TestWarmCode finds V8's code cache, and the clipboard, which TestCopyWritesTheClipboard reads;
// and the tests of the page in this process that set package variables.

// shared is the one browser of the run: starting Chromium costs about a
// second, a tab a few milliseconds.
var shared struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

// browser returns the context of the shared browser, starting it on first
// use. Without Chromium the test is skipped, except under CI=true, where a
// missing browser must not pass as green. go test -short skips the browser
// tests: they build app.wasm and take minutes (make test never passes -short).
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test (-short)")
	}
	path := headless.Path()
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Chromium at %s (set CHROMIUM): %v", path, err)
		}
		t.Skipf("no Chromium at %s (set CHROMIUM): %v", path, err)
	}
	shared.once.Do(func() {
		actx, acancel := headless.Allocator(path, filepath.Join(suiteDir, "chromium"))
		ctx, cancel := chromedp.NewContext(actx)
		shared.ctx = ctx
		shared.cancel = func() { cancel(); acancel() }
		// The first Do starts the browser; it must have no timeout, or the
		// timeout would end the browser.
		shared.err = chromedp.Do(ctx)
	})
	if shared.err != nil {
		t.Fatalf("starting Chromium: %v", shared.err)
	}
	return shared.ctx
}

// tab is one browser tab. It records the URL of every request the page makes
// and every console problem: console.error and console.assert calls,
// uncaught exceptions, browser log errors (failed loads, refused scripts),
// and CSP violations.
type tab struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	requests []string
	problems []string
}

// cspReporter runs before any page script and turns every CSP violation into
// a console.error, so a violation is a problem even if Chromium stops logging
// it. Scripts added through DevTools are exempt from the page's CSP.
const cspReporter = `document.addEventListener("securitypolicyviolation", (e) =>
	console.error("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
		" at " + e.sourceFile + ":" + e.lineNumber));`

// newTab opens a tab in the shared browser; the tab closes when the test
// ends. With chromedp.WithNewBrowserContext() the tab has a profile of its
// own, as a new visitor would: no HTTP cache, no service worker.
func newTab(t *testing.T, opts ...chromedp.ContextOption) *tab {
	t.Helper()
	tb := &tab{t: t}
	ctx, cancel := chromedp.NewContext(browser(t), append(opts, chromedp.WithListener(tb.record))...)
	t.Cleanup(cancel)
	tb.ctx = ctx
	// The first call opens the tab; like the browser's, it has no timeout.
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspReporter}); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return tb
}

// record runs on chromedp's reading goroutine, in the order the browser sent
// the events, so a problem is recorded before the next command returns.
func (tb *tab) record(ev any) {
	var problem string
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		tb.mu.Lock()
		tb.requests = append(tb.requests, ev.Request.URL)
		tb.mu.Unlock()
		return
	case *runtime.EventConsoleAPICalled:
		text := argsText(ev.Args)
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert && !goDied(text) {
			return
		}
		problem = "console." + string(ev.Type) + ": " + text
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		problem = fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, d.Text)
		if d.Exception != nil {
			problem += " " + d.Exception.Description
		}
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		problem = fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	tb.mu.Lock()
	tb.problems = append(tb.problems, problem)
	tb.mu.Unlock()
}

// goDied reports whether a console message is the Go program's death: wasm_exec.js writes Go's
// stderr, a panic's included, with console.log, and the exit code with console.warn, so a check
// of console errors alone misses a page that died at start.
func goDied(text string) bool {
	return strings.HasPrefix(text, "panic: ") || strings.HasPrefix(text, "fatal error: ") ||
		strings.HasPrefix(text, "exit code:")
}

func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, len(args))
	for i, a := range args {
		switch {
		case a.Type == runtime.RemoteObjectTypeString:
			parts[i] = strings.Trim(string(a.Value), `"`)
		case len(a.Value) > 0:
			parts[i] = string(a.Value)
		default:
			parts[i] = a.Description
		}
	}
	return strings.Join(parts, " ")
}

// timeout bounds one step of a test: only a hang reaches it. A cold wasm start takes about two
// seconds on an idle 2-core machine, several times that beside another make test; how long a
// step took is never asserted (docs/testing.md), make bench measures it. The service worker's
// activation waits 5 s less, so that it says what it saw.
const timeout = time.Minute

// run runs actions in the tab, failing the test on error or timeout.
func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("%v (console problems: %q)", err, tb.consoleProblems())
	}
}

// navigate loads url in the tab and waits for its load event.
func (tb *tab) navigate(url string) {
	tb.t.Helper()
	tb.run(chromedp.Navigate(url))
}

// evalJS evaluates a JavaScript expression in the tab's page and decodes its
// value into T; a promise is awaited. It fails the test on a JavaScript
// exception or after the step timeout.
func evalJS[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript expression until it is true. chromedp.Poll
// would build the predicate with new Function, which the page's CSP refuses;
// DevTools' own evaluation is exempt.
func (tb *tab) waitFor(what, expr string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	var err error
	for {
		var ok bool
		ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if ok && err == nil {
			return
		}
		select {
		case <-ctx.Done():
			label, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](
				`document.getElementById("app-wasm-loader-label")?.innerText ?? ""`))
			tb.t.Fatalf("waiting for %s: %v (last error: %v, loader says %q, console problems: %q)",
				what, ctx.Err(), err, label, tb.consoleProblems())
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// setInput sets the value of the form field that css selects and fires the
// input and change events, as typing and then leaving the field would.
// chromedp.SendKeys types into whatever value the field holds.
func (tb *tab) setInput(css, value string) {
	tb.t.Helper()
	sel, _ := json.Marshal(css)
	val, _ := json.Marshal(value)
	if !evalJS[bool](tb, fmt.Sprintf(`(() => {
		const e = document.querySelector(%s);
		if (!e) return false;
		e.value = %s;
		e.dispatchEvent(new Event("input", { bubbles: true }));
		e.dispatchEvent(new Event("change", { bubbles: true }));
		return true;
	})()`, sel, val)) {
		tb.t.Fatalf("no field %s", css)
	}
}

// waitWasm waits until the wasm has rendered the page: go-app replaces the
// server's <main id="app" data-render="server"> with the client's
// data-render="wasm".
func (tb *tab) waitWasm() {
	tb.t.Helper()
	tb.waitFor("the wasm render", `document.querySelector('#app[data-render="wasm"]') !== null`)
	tb.waitFor("the sampled numbers", `document.querySelector('#tables [data-sampling]') === null`)
}

// waitServiceWorker waits until the page's service worker is activated,
// which happens after it has precached every resource. It fails instead of
// hanging when the worker never installs (navigator.serviceWorker.ready
// waits forever then, for example when a precached URL is unreachable).
func (tb *tab) waitServiceWorker() {
	tb.t.Helper()
	state := evalJS[string](tb, headless.ServiceWorkerActivated(timeout.Milliseconds()-5000))
	if state != "activated" {
		tb.t.Fatalf("service worker: %s (console problems: %q)", state, tb.consoleProblems())
	}
}

// cachedURLs lists the URL of every response in the page's Cache Storage.
func (tb *tab) cachedURLs() []string {
	tb.t.Helper()
	return evalJS[[]string](tb, `(async () => {
		const urls = [];
		for (const name of await caches.keys()) {
			const cache = await caches.open(name);
			for (const req of await cache.keys()) urls.push(req.url);
		}
		return urls;
	})()`)
}

// clearBrowserCache empties Chromium's HTTP cache (not the service worker's
// Cache Storage), so that an offline load cannot be answered by it.
func (tb *tab) clearBrowserCache() {
	tb.t.Helper()
	tb.run(headless.ClearHTTPCache)
}

// foreignRequests returns the requests so far whose URL is not under origin
// (scheme://host:port, as httptest.Server.URL).
func (tb *tab) foreignRequests(origin string) []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var foreign []string
	for _, u := range tb.requests {
		if !strings.HasPrefix(u, origin+"/") {
			foreign = append(foreign, u)
		}
	}
	return foreign
}

// requireSameOrigin fails the test if the page requested anything outside
// origin.
func (tb *tab) requireSameOrigin(origin string) {
	tb.t.Helper()
	if f := tb.foreignRequests(origin); len(f) > 0 {
		tb.t.Errorf("requests outside %s: %q", origin, f)
	}
}

// consoleProblems returns the console problems recorded so far.
func (tb *tab) consoleProblems() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.problems...)
}

// requireNoConsoleProblems fails the test if the page logged any error,
// threw, or violated its CSP.
func (tb *tab) requireNoConsoleProblems() {
	tb.t.Helper()
	if p := tb.consoleProblems(); len(p) > 0 {
		tb.t.Errorf("console problems: %q", p)
	}
}

// The page as users get it, built once per run.
var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error

	sitesMu sync.Mutex
	sites   = map[string]string{}
)

// buildWasm builds the page's web/app.wasm and its worker's web/engine.wasm into root, as make
// wasm does, with ldflags.
func buildWasm(root, ldflags string) error {
	for _, b := range []struct{ out, pkg string }{{"app.wasm", "."}, {"engine.wasm", "./engine"}} {
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags="+ldflags, "-o", filepath.Join(root, "web", b.out), b.pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %v\n%s", b.out, err, out)
		}
	}
	return nil
}

// builtRoot returns a -root directory with a freshly built app.wasm and engine.wasm, the
// repository's other web/ files and wasm_exec.js, so that `go test ./app`
// needs no make step and never serves a stale app.wasm.
func builtRoot(t *testing.T) string {
	t.Helper()
	rootOnce.Do(func() {
		dir := filepath.Join(suiteDir, "root")
		rootErr = copyRepoFiles(dir)
		if rootErr != nil {
			return
		}
		if rootErr = buildWasm(dir, "-s -w"); rootErr != nil {
			return
		}
		rootDir = dir
	})
	if rootErr != nil {
		t.Fatal(rootErr)
	}
	return rootDir
}

// copyRepoFiles copies ../web (but what make builds there: app.wasm, engine.wasm) and
// ../wasm_exec.js into dir.
func copyRepoFiles(dir string) error {
	names, err := filepath.Glob(filepath.Join("..", "web", "*"))
	if err != nil {
		return err
	}
	names = append(names, filepath.Join("..", "wasm_exec.js"))
	for _, name := range names {
		rel, _ := filepath.Rel("..", name)
		if rel == filepath.Join("web", "app.wasm") || rel == filepath.Join("web", "engine.wasm") {
			continue
		}
		if err := site.CopyFile(filepath.Join(dir, rel), name); err != nil {
			return err
		}
	}
	return nil
}

// startServe starts `serve`'s handler on 127.0.0.1 for the built root. Close
// it to go offline; the test's cleanup closes it too.
func startServe(t *testing.T) *httptest.Server {
	t.Helper()
	browser(t) // skip before building when there is no browser to test with
	h, err := site.NewServer(builtRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// startStatic generates the static site once per prefix ("" for none) and
// serves it with a plain file server on 127.0.0.1, as a static host would:
// the site sits in DIR/prefix and DIR is served, so the page is at
// srv.URL+pagePath(prefix).
func startStatic(t *testing.T, prefix string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(staticSite(t, prefix))))
	t.Cleanup(srv.Close)
	return srv
}

// staticSite is DIR of startStatic, the site generated once per prefix, for a test that serves it
// another way.
func staticSite(t *testing.T, prefix string) string {
	t.Helper()
	browser(t) // skip before building when there is no browser to test with
	root := builtRoot(t)
	sitesMu.Lock()
	defer sitesMu.Unlock()
	dir, ok := sites[prefix]
	if !ok {
		dir = filepath.Join(suiteDir, "site-"+prefix)
		if err := site.Generate(root, filepath.Join(dir, prefix), prefix); err != nil {
			t.Fatal(err)
		}
		sites[prefix] = dir
	}
	return dir
}

// pagePath is the path of the page on a site generated with prefix.
func pagePath(prefix string) string {
	if prefix == "" {
		return "/"
	}
	return "/" + prefix + "/"
}
