//go:build !js

package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

func TestMain(m *testing.M) {
	BrotliLater = false // the tests know which copy serve sends; TestServeBrotliLater tests the other way
	BrotliQuality = 5   // see BrotliQuality
	app.RouteFunc("/", func() app.Composer { return &stubPage{} })
	os.Exit(m.Run())
}

// stubPage stands for the page that package main registers: what the server and the
// generator do with go-app's HTML around it does not depend on what it shows.
type stubPage struct{ app.Compo }

func (*stubPage) Render() app.UI { return app.Main().ID("app").Text("the page") }

// fakeRoot returns a -root with the repository's web/ files and
// wasm_exec.js, and a stand-in app.wasm: enough for the server and the
// static generator, which never run the wasm.
func fakeRoot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	names, err := filepath.Glob(filepath.Join(repo, "web", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(names, filepath.Join(repo, "wasm_exec.js")) {
		rel, _ := filepath.Rel(repo, name)
		if rel == filepath.Join("web", "app.wasm") || rel == filepath.Join("web", "engine.wasm") {
			continue // a build's, when there is one
		}
		if err := CopyFile(filepath.Join(dir, rel), name); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "web", "app.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// repo is the repository's root, which holds web/ and wasm_exec.js.
var repo = filepath.Join("..", "..", "..")

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestServeHeaders(t *testing.T) {
	h, err := NewServer(fakeRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/?base=250ms", "/app.js", "/app-worker.js", "/wasm_exec.js", "/web/app.wasm", "/web/icon.svg", "/robots.txt"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		want := http.StatusOK
		if path == "/robots.txt" {
			want = http.StatusNotFound
		}
		if rec.Code != want {
			t.Errorf("GET %s: %d, want %d", path, rec.Code, want)
		}
		for name, want := range map[string]string{
			"Content-Security-Policy": ContentPolicy + "; frame-ancestors 'none'",
			"X-Content-Type-Options":  "nosniff",
			"Referrer-Policy":         "no-referrer",
		} {
			if got := rec.Header().Get(name); got != want {
				t.Errorf("GET %s: %s = %q, want %q", path, name, got, want)
			}
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("HEAD /: %d, want 200", rec.Code)
	}
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, "/", strings.NewReader("x")))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /: %d, Allow %q; want 405, GET, HEAD", method, rec.Code, rec.Header().Get("Allow"))
		}
	}
}

func TestStaticSite(t *testing.T) {
	root := fakeRoot(t)
	compressibleWasm(t, root)
	out := filepath.Join(t.TempDir(), "backoffcalc")
	if err := Generate(root, out, "backoffcalc"); err != nil {
		t.Fatal(err)
	}
	index := string(readFile(t, filepath.Join(out, "index.html")))
	if !strings.Contains(index, charset+"\n<meta http-equiv=\"Content-Security-Policy\" content=\""+StaticContentPolicy+"\">") {
		t.Errorf("index.html lacks the CSP right after the charset:\n%s", index)
	}
	// The path check runs inline, before anything else loads: the CSP allows it by its hash.
	check := regexp.MustCompile(`<meta name="referrer" content="no-referrer">\n<script data-path="/backoffcalc/">((?s).*?)</script>`).FindStringSubmatch(index)
	if check == nil {
		t.Fatalf("index.html lacks the path check for /backoffcalc/ after the CSP:\n%s", index)
	}
	sum := sha256.Sum256([]byte(check[1]))
	if hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(StaticContentPolicy, "script-src 'self' "+hash+" ") {
		t.Errorf("the static CSP %q does not allow the path check, %s", StaticContentPolicy, hash)
	}
	style := regexp.MustCompile(`<noscript><style>((?s).*?)</style></noscript>`).FindStringSubmatch(index)
	if style == nil {
		t.Fatalf("index.html lacks the inline rules for JavaScript off:\n%s", index)
	}
	sum = sha256.Sum256([]byte(style[1]))
	if hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.HasSuffix(StaticContentPolicy, "; style-src 'self' "+hash) {
		t.Errorf("the static CSP %q does not allow the rules for JavaScript off, %s", StaticContentPolicy, hash)
	}
	for _, bad := range []string{"og:url", "127.0.0.1", "http://", "https://"} {
		if strings.Contains(index, bad) {
			t.Errorf("index.html contains %q:\n%s", bad, index)
		}
	}
	worker := string(readFile(t, filepath.Join(out, "app-worker.js")))
	for _, want := range []string{`"/backoffcalc/"`, `"/backoffcalc/web/icon.svg"`, `ignoreSearch: event.request.mode === "navigate"`, `cache: "reload"`} {
		if !strings.Contains(worker, want) {
			t.Errorf("app-worker.js lacks %s", want)
		}
	}
	for _, name := range []string{"web/app.wasm", "web/app.css", "web/icon.svg", "web/icon-192.png", "web/icon-512.png", "wasm_exec.js"} {
		if !bytes.Equal(readFile(t, filepath.Join(out, name)), readFile(t, filepath.Join(root, name))) {
			t.Errorf("%s differs from the root's", name)
		}
	}
	if err := Generate(root, out, "backoffcalc"); err == nil {
		t.Error("generating into a non-empty directory: no error")
	}
}

// TestStaticPrecompressed checks the copies that static writes for hosts that send them as they
// are: NAME.br and NAME.gz beside the files that serve compresses, decoding to the file as it
// ships (index.html after its fixes), and none beside a small file.
func TestStaticPrecompressed(t *testing.T) {
	root := fakeRoot(t)
	compressibleWasm(t, root)
	out := t.TempDir()
	if err := Generate(root, out, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"web/app.wasm", "index.html", "app.js", "app-worker.js", "wasm_exec.js"} {
		want := readFile(t, filepath.Join(out, name))
		for ext, coding := range map[string]string{".br": "br", ".gz": "gzip"} {
			b, err := os.ReadFile(filepath.Join(out, name+ext))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !bytes.Equal(decode(t, coding, b), want) || len(b) > len(want)*3/4 {
				t.Errorf("%s%s: %d bytes that do not decode to the %d of %s, or save less than a quarter", name, ext, len(b), len(want), name)
			}
		}
	}
	for _, name := range []string{"web/icon.svg.br", "web/icon.svg.gz", "web/app.wasm.br.br", "web/app.wasm.br.gz", "web/app.wasm.gz.gz"} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("%s written", name)
		}
	}
}

// TestVersion checks that the service worker's version follows the content:
// the same files give the same version, any change a new one.
func TestVersion(t *testing.T) {
	root := fakeRoot(t)
	version := func() string {
		h, err := handler(root, "")
		if err != nil {
			t.Fatal(err)
		}
		return h.Version
	}
	v1 := version()
	if v := version(); v != v1 {
		t.Fatalf("same files, versions %s and %s", v1, v)
	}
	if err := os.WriteFile(filepath.Join(root, "web", "app.css"), []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := version(); v == v1 {
		t.Error("app.css changed, version did not")
	}
}

// TestWasmExecJS checks that the page gets the toolchain's wasm_exec.js, the
// one that matches the Go that built app.wasm: GOROOT's copy, the
// repository's copy, and what serve and static deliver are the same bytes.
func TestWasmExecJS(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := readFile(t, filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if !bytes.Equal(readFile(t, filepath.Join(repo, "wasm_exec.js")), want) {
		t.Fatal("wasm_exec.js differs from the toolchain's: run make wasm_exec.js")
	}

	root := fakeRoot(t)
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/wasm_exec.js", nil))
	if body, _ := io.ReadAll(rec.Body); !bytes.Equal(body, want) {
		t.Error("serve's /wasm_exec.js differs from the repository's")
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := Generate(root, out, ""); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, filepath.Join(out, "wasm_exec.js")), want) {
		t.Error("static's wasm_exec.js differs from the repository's")
	}
}

// TestAppJS checks that serve and static deliver our app.js with go-app's environment for the
// wasm and the URLs of app.wasm and the worker filled in, under a prefix with the prefix; and
// that nothing of go-app's loader is left: its progress Response, its query key and its user
// agent test, which kept the calculator from loading.
func TestAppJS(t *testing.T) {
	root := fakeRoot(t)
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	check := func(where, js, prefix string) {
		for _, want := range []string{
			`const backoffcalcWasm = "` + prefix + `/web/app.wasm";`,
			`const backoffcalcWorker = "` + prefix + `/app-worker.js";`,
			`"GOAPP_ROOT_PREFIX":"` + prefix + `"`,
			`"GOAPP_VERSION":"`,
			"WebAssembly.instantiateStreaming(response, go.importObject)",
		} {
			if !strings.Contains(js, want) {
				t.Errorf("%s: app.js lacks %s", where, want)
			}
		}
		for _, bad := range []string{"{{", "fetchWithProgress", `get("wasm")`, "bot|", "userAgent"} {
			if strings.Contains(js, bad) {
				t.Errorf("%s: app.js has %q", where, bad)
			}
		}
	}
	check("serve", rec.Body.String(), "")
	for _, prefix := range []string{"", "calc"} {
		out := filepath.Join(t.TempDir(), "site")
		if err := Generate(root, out, prefix); err != nil {
			t.Fatal(err)
		}
		urlPrefix := ""
		if prefix != "" {
			urlPrefix = "/" + prefix
		}
		check("static "+prefix, string(readFile(t, filepath.Join(out, "app.js"))), urlPrefix)
	}
}
