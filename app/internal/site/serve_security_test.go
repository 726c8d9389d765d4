//go:build !js

package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// secretRoot returns a fakeRoot with files that are not the site's, each holding a marker that
// must never be in an answer: in the root (as .git/, go.mod, the binary are in the
// repository's), and dot files under web/, which webFiles skips.
func secretRoot(t *testing.T) string {
	t.Helper()
	root := fakeRoot(t)
	for _, name := range []string{".git/config", "go.mod", "secret.txt", "bin/backoffcalc", "app/serve.go",
		"web/.hidden", "web/.dir/inner.txt"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("SECRET "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Paths outside the site, each spelled in the ways a client may use to climb out of web/ or
// to make a server list a folder. Every one must get a 404, whatever the spelling.
var outsidePaths = []string{
	// What the issue found answered 200.
	"/web/%2e%2e/.git/config", "/web/..%2fgo.mod", "/web/.%2e/app/serve.go", "/web/%2e%2e/bin/backoffcalc",
	"/web/%2e%2e/", "/web/%2E%2E/secret.txt", "/web/%2e./secret.txt",
	// Plain dots, which a client other than a browser sends as they are.
	"/web/../secret.txt", "/web/../../etc/passwd", "/./secret.txt", "/web/./../go.mod",
	// Encoded slashes and backslashes.
	"/web%2f..%2fsecret.txt", "/web/..%2f..%2fsecret.txt", "/%2fsecret.txt", "//secret.txt",
	`/web/..\secret.txt`, `/web\..\secret.txt`, "/web/..%5csecret.txt", "/web/%5c..%5csecret.txt",
	// Double encoding: a server that decodes twice climbs out.
	"/web/%252e%252e/secret.txt", "/web/%252e%252e", "/web/..%252fsecret.txt",
	// NUL, which truncates a name in C and in some file systems.
	"/web/app.css%00", "/web/app.css%00.txt", "/secret.txt%00/web/app.css", "/web/%00/../secret.txt",
	// Dot files and folders under web/, which static does not ship.
	"/web/.hidden", "/web/.dir/inner.txt", "/web/.dir/", "/web/%2ehidden",
	// Folders: never a listing.
	"/web/", "/web", "/web//", "/web/.", "/web/%2e", "/.git/", "/bin/",
	// The root's own files, and go-app's answers that are not the site's.
	"/secret.txt", "/go.mod", "/.git/config", "/index.html", "/robots.txt", "/sitemap.xml", "/ads.txt",
	"/goapp.js", "/manifest.json", "/app.wasm", "/goapp.wasm", "/web/app.wasm/", "/app.js/",
}

// TestServeOnlyTheSite sends each outside path to the serve command over the wire, byte for
// byte: a 404 for every one, and no answer carries a file that is not the site's or a listing.
func TestServeOnlyTheSite(t *testing.T) {
	addr := startRunServe(t, secretRoot(t))
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		for _, p := range outsidePaths {
			got := sendRaw(t, addr, method, p, addr)
			if got.Code != http.StatusNotFound || strings.Contains(got.Body, "SECRET") || strings.Contains(got.Body, "<a href") {
				t.Errorf("%s %s: %d, want 404; body %.120q", method, p, got.Code, got.Body)
			}
		}
	}
}

// sitePaths are the URLs of every file that serve sends but the page: the allow-list.
func sitePaths(t *testing.T, root string) []string {
	t.Helper()
	paths := []string{"/app.js", "/app-worker.js", "/app.css", "/manifest.webmanifest", "/wasm_exec.js"}
	names, err := webFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		paths = append(paths, "/"+n)
	}
	return paths
}

// localURL finds the site's own URLs in the page's HTML and in the service worker.
var localURL = regexp.MustCompile(`(?:src|href)="(/[^"]*)"|"(/[^"]*\.[a-z]+|/)"`)

// TestServeServesTheSite checks the other side of the allow-list: every file of the site
// answers 200 with its bytes from root, and every URL that the page and the service worker ask
// for is one of them (the worker does not install if one is missing).
func TestServeServesTheSite(t *testing.T) {
	root := secretRoot(t)
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	get := func(p string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		return rec
	}
	served := sitePaths(t, root)
	for _, p := range served {
		rec := get(p)
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", p, rec.Code)
			continue
		}
		if p == "/wasm_exec.js" || strings.HasPrefix(p, "/web/") {
			if want := readFile(t, filepath.Join(root, filepath.FromSlash(p))); rec.Body.String() != string(want) {
				t.Errorf("GET %s: %d bytes, not the %d of root's file", p, rec.Body.Len(), len(want))
			}
		}
	}
	wanted := 0
	for _, from := range []string{"/", "/app-worker.js", "/manifest.webmanifest"} {
		for _, m := range localURL.FindAllStringSubmatch(get(from).Body.String(), -1) {
			u := m[1] + m[2]
			if u != "/" && !slices.Contains(served, u) {
				t.Errorf("%s asks for %s, which serve does not send", from, u)
			}
			wanted++
		}
	}
	if wanted < 10 {
		t.Errorf("found %d URLs in the page, the worker and the manifest: the pattern no longer finds them", wanted)
	}
}

// TestServeHostCheck sends requests that name another host to the serve command on
// 127.0.0.1: a page of another site that DNS rebinding put on 127.0.0.1 sends its own name.
// Only loopback names are answered; the rest get 421.
func TestServeHostCheck(t *testing.T) {
	addr := startRunServe(t, fakeRoot(t))
	_, port, _ := strings.Cut(addr, ":")
	for _, c := range []struct {
		host string
		want int
	}{
		{addr, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"LocalHost:" + port, http.StatusOK},
		{"localhost", http.StatusOK},
		{"127.0.0.1", http.StatusOK},
		{"127.1.2.3:8000", http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
		{"[::1]", http.StatusOK},
		{"evil.example", http.StatusMisdirectedRequest},
		{"evil.example:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.1.nip.io:" + port, http.StatusMisdirectedRequest},
		{"localhost.evil.example", http.StatusMisdirectedRequest},
		{"evil.localhost.example:" + port, http.StatusMisdirectedRequest},
		{"192.168.1.10:" + port, http.StatusMisdirectedRequest},
		{"0.0.0.0:" + port, http.StatusMisdirectedRequest},
		{"2130706433", http.StatusMisdirectedRequest}, // 127.0.0.1 as one number: no browser sends it
		{"[::2]:" + port, http.StatusMisdirectedRequest},
		{"localhost:evil", http.StatusMisdirectedRequest},
		{"-", http.StatusMisdirectedRequest}, // HTTP/1.0 with no Host
	} {
		for _, p := range []string{"/", "/web/app.css"} {
			if got := sendRaw(t, addr, http.MethodGet, p, c.host); got.Code != c.want {
				t.Errorf("GET %s, Host %q: %d, want %d", p, c.host, got.Code, c.want)
			}
		}
	}
}
