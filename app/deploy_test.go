//go:build !js

package main

// What a deploy does for a returning visitor of the static site: version 1 is built and
// visited, version 2 is built into the same folder, and three later visits must each run one
// version whole (HTML, app.js and app.wasm of one build), version 2 by the second visit at the
// latest, with a notice on the first that version 2 is ready. The host caches as real hosts do,
// and sends the precompressed copies that static writes (app.wasm.br) as nginx's brotli_static
// does.

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"backoffcalc/app/internal/site"
)

// stampedSites builds the page twice, with builds named v1 and v2 (main.build), and generates
// a static site of each; it returns each site's folder and its version.
var stampedSites = sync.OnceValues(func() (map[string]string, error) {
	sites := map[string]string{}
	for _, name := range []string{"v1", "v2"} {
		root := filepath.Join(suiteDir, "root-"+name)
		if err := copyRepoFiles(root); err != nil {
			return nil, err
		}
		if err := buildWasm(root, "-s -w -X main.build="+name); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		dir := filepath.Join(suiteDir, "deploy-"+name)
		if err := site.Generate(root, dir, ""); err != nil {
			return nil, err
		}
		sites[name] = dir
	}
	return sites, nil
})

var versionMeta = regexp.MustCompile(`<meta name="backoffcalc-version" content="([0-9a-f]+)">`)

// deploy copies a generated site into dir, file by file, over what is there, with the files'
// modification times set to modified.
func deploy(t *testing.T, from, dir string, modified time.Time) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(dir, rel)
		if err := site.CopyFile(dst, path); err != nil {
			return err
		}
		return os.Chtimes(dst, modified, modified)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// visit is what one page load ran.
type visit struct {
	HTML   string `json:"html"`   // the version in the page's HTML
	JS     string `json:"js"`     // the version app.js handed the wasm
	Wasm   string `json:"wasm"`   // the build the wasm is (data-build)
	Notice bool   `json:"notice"` // the page offers a newer version
}

const readVisit = `({
	html: document.querySelector('meta[name="backoffcalc-version"]')?.content ?? "",
	js: typeof goappGetenv === "function" ? goappGetenv("GOAPP_VERSION") ?? "" : "",
	wasm: document.getElementById("app")?.dataset.build ?? "",
	notice: document.getElementById("update-switch") !== null,
})`

func TestDeployReachesReturningVisitors(t *testing.T) {
	t.Parallel()
	browser(t)
	sites, err := stampedSites()
	if err != nil {
		t.Fatal(err)
	}
	version := map[string]string{} // build name -> its version
	for name, site := range sites {
		m := versionMeta.FindSubmatch(readFile(t, filepath.Join(site, "index.html")))
		if m == nil {
			t.Fatalf("%s: index.html has no version", name)
		}
		version[name] = string(m[1])
	}
	if version["v1"] == version["v2"] {
		t.Fatalf("both builds have version %s", version["v1"])
	}
	// build names a visit's version when all three parts agree, and says what they are otherwise.
	build := func(v visit) string {
		for name, ver := range version {
			if v.HTML == ver && v.JS == ver && v.Wasm == name {
				return name
			}
		}
		return fmt.Sprintf("a mix (HTML %.8s, app.js %.8s, wasm %q; v1 is %.8s, v2 %.8s)", v.HTML, v.JS, v.Wasm, version["v1"], version["v2"])
	}

	dayOld := time.Now().Add(-24 * time.Hour)
	for _, host := range []struct {
		name         string
		cacheControl string    // sent with every file; "" for none
		v1Modified   time.Time // version 1's files' modification time
	}{
		{"max-age=600", "max-age=600", time.Now()},
		{"no-cache-control-day-old-files", "", dayOld}, // heuristic freshness: a tenth of the age
		{"revalidating", "no-cache", time.Now()},
	} {
		t.Run(host.name, func(t *testing.T) {
			t.Parallel() // each host its own folder, server and profile
			dir := t.TempDir()
			files := precompressedHost(http.Dir(dir))
			var brotliWasm atomic.Int32 // app.wasm answers in brotli
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if host.cacheControl != "" {
					w.Header().Set("Cache-Control", host.cacheControl)
				}
				files.ServeHTTP(w, r)
				if r.URL.Path == "/web/app.wasm" && w.Header().Get("Content-Encoding") == "br" {
					brotliWasm.Add(1)
				}
			}))
			t.Cleanup(srv.Close)
			page := srv.URL + "/?base=250ms"

			deploy(t, sites["v1"], dir, host.v1Modified)
			tb := newTab(t, chromedp.WithNewBrowserContext())
			load := func() visit {
				tb.navigate(page)
				tb.waitFor("the wasm render", `document.querySelector('#app[data-render="wasm"]') !== null`)
				return evalJS[visit](tb, readVisit)
			}
			if got := build(load()); got != "v1" {
				t.Fatalf("the first visit runs %s, want v1", got)
			}
			tb.waitServiceWorker()
			if got := build(load()); got != "v1" {
				t.Fatalf("the second visit, from the worker, runs %s, want v1", got)
			}

			deploy(t, sites["v2"], dir, time.Now())
			for i := 1; i <= 3; i++ {
				v := load()
				got := build(v)
				switch {
				case got != "v1" && got != "v2":
					t.Errorf("visit %d after the deploy runs %s", i, got)
				case i >= 2 && got != "v2":
					t.Errorf("visit %d after the deploy runs %s, want v2", i, got)
				}
				if i == 1 && got == "v1" {
					// The new version installs while the page runs, then the page says so.
					tb.waitFor("the notice of a newer version", `document.getElementById("update-switch") !== null`)
				}
				if i > 1 && v.Notice {
					t.Errorf("visit %d after the deploy runs %s and still offers a newer version", i, got)
				}
				t.Logf("visit %d after the deploy: %s", i, got)
			}
			tb.requireNoConsoleProblems()
			tb.requireSameOrigin(srv.URL)
			if brotliWasm.Load() == 0 {
				t.Error("the host never sent app.wasm in brotli")
			}
		})
	}
}

// TestDeploySwitchNow checks the notice's button: it switches the open page to the new version,
// keeping the link's inputs.
func TestDeploySwitchNow(t *testing.T) {
	t.Parallel()
	browser(t)
	sites, err := stampedSites()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv := httptest.NewServer(precompressedHost(http.Dir(dir)))
	t.Cleanup(srv.Close)
	deploy(t, sites["v1"], dir, time.Now())
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.navigate(srv.URL + "/?base=250ms")
	tb.waitWasm()
	tb.waitServiceWorker()
	deploy(t, sites["v2"], dir, time.Now())
	tb.navigate(srv.URL + "/?base=300ms")
	tb.waitWasm()
	if got := evalJS[string](tb, `document.getElementById("app").dataset.build`); got != "v1" {
		t.Fatalf("the visit after the deploy runs %q, want v1 from the worker", got)
	}
	tb.setInput("#in-attempts", "4")
	tb.waitFor("the link with the edit", `location.search.includes("attempts=4")`)
	tb.waitFor("the notice of a newer version", `document.getElementById("update-switch") !== null`)
	evalJS[bool](tb, `document.getElementById("update-switch").click(), true`)
	tb.waitFor("the new version", `document.getElementById("app")?.dataset.build === "v2"`)
	tb.waitWasm()
	if got := evalJS[string](tb, `document.getElementById("in-attempts").value`); got != "4" {
		t.Errorf("after the switch attempts shows %q, want the edit's 4", got)
	}
	tb.requireNoConsoleProblems()
}

// A static site opened at another path than the one it was built for loads none of its files
// (or another copy's): the page must show none of the numbers written into it, which are the
// default inputs' whatever the link, and must say where the site expects to be served, where
// it is, and how to fix it. Built with PREFIX=sub, or without one, and uploaded to /site/.
func TestStaticAtWrongPath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, prefix, want string // want: the path the message names
	}{
		{"built for /sub/", "sub", "/sub/"},
		{"built for the root", "", "/"},
	} {
		t.Run(c.name, func(t *testing.T) {
			folder := filepath.Join(staticSite(t, c.prefix), c.prefix)
			mux := http.NewServeMux()
			mux.Handle("/site/", http.StripPrefix("/site", http.FileServer(http.Dir(folder))))
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			tb := newTab(t, chromedp.WithNewBrowserContext())
			tb.navigate(srv.URL + "/site/?base=250ms&attempts=8")
			tb.waitFor("the message", `document.getElementById("wrong-path") !== null && !document.documentElement.hidden`)
			type shown struct {
				Text    string `json:"text"`
				Numbers int    `json:"numbers"` // elements that hold numbers (island.go's class)
			}
			got := evalJS[shown](tb, `({
				text: document.body.innerText,
				numbers: document.querySelectorAll(".numbers, #schedule, #policy").length,
			})`)
			if got.Numbers != 0 || strings.Contains(got.Text, "worst-case") || regexp.MustCompile(`\d+(\.\d+)? m?s\b`).MatchString(got.Text) {
				t.Errorf("the page at the wrong path shows numbers (%d elements):\n%s", got.Numbers, got.Text)
			}
			for _, want := range []string{"built to be served at " + c.want, "this page is at /site/", "serve the folder at " + c.want, "make static PREFIX=site"} {
				if !strings.Contains(got.Text, want) {
					t.Errorf("the message lacks %q:\n%s", want, got.Text)
				}
			}
			for _, bad := range []string{"JavaScript is off", "Loading the calculator"} {
				if strings.Contains(got.Text, bad) {
					t.Errorf("the page says %q:\n%s", bad, got.Text)
				}
			}

			// With JavaScript off nothing checks the path, and noscript.css does not load: the
			// page's inline rules still hide its numbers.
			off := newTab(t, chromedp.WithNewBrowserContext())
			if _, err := chromedp.Call(off.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatal(err)
			}
			off.navigate(srv.URL + "/site/?base=250ms&attempts=8")
			text := evalJS[string](off, "document.body.innerText")
			if strings.Contains(text, "worst-case") || regexp.MustCompile(`\d+(\.\d+)? m?s\b`).MatchString(text) ||
				!strings.Contains(text, "it needs JavaScript to show the numbers of this link") {
				t.Errorf("with JavaScript off, the page at the wrong path shows:\n%s", text)
			}
		})
	}
}
