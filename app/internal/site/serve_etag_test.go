//go:build !js

package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeETags checks every path that serve answers 200, as it is, gzipped and in brotli: a strong
// ETag, 304 without a body to a browser that has that copy (also in a list of tags, and weakly
// compared as RFC 9110 asks), 200 to one that has another. The page is included.
func TestServeETags(t *testing.T) {
	root := fakeRoot(t)
	// As compressible as the real app.wasm, so that its compressed copies are tested too.
	wasm := []byte(strings.Repeat("\x00asm\x01\x00\x00\x00", 8<<10))
	if err := os.WriteFile(filepath.Join(root, "web", "app.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	get := func(method, p string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, p, nil)
		for i := 0; i < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, p := range append(sitePaths(t, root), "/", "/?base=250ms") {
		for _, enc := range []string{"", "gzip", "br"} {
			first := get(http.MethodGet, p, "Accept-Encoding", enc)
			tag := first.Header().Get("Etag")
			if first.Code != http.StatusOK || !strings.HasPrefix(tag, `"`) || !strings.HasSuffix(tag, `"`) || len(tag) < 3 {
				t.Errorf("GET %s (%q): %d, ETag %q; want 200 and a strong ETag", p, enc, first.Code, tag)
				continue
			}
			for _, inm := range []string{tag, `"other", ` + tag, "W/" + tag} {
				for _, method := range []string{http.MethodGet, http.MethodHead} {
					again := get(method, p, "Accept-Encoding", enc, "If-None-Match", inm)
					if again.Code != http.StatusNotModified || again.Body.Len() != 0 || again.Header().Get("Etag") != tag {
						t.Errorf("%s %s (%q), If-None-Match %s: %d, %d bytes, ETag %q; want 304, none, the same", method, p, enc, inm, again.Code, again.Body.Len(), again.Header().Get("Etag"))
					}
				}
			}
			if other := get(http.MethodGet, p, "Accept-Encoding", enc, "If-None-Match", `"other"`); other.Code != http.StatusOK || other.Body.Len() != first.Body.Len() {
				t.Errorf("GET %s (%q), another ETag: %d, %d bytes; want 200, %d", p, enc, other.Code, other.Body.Len(), first.Body.Len())
			}
		}
	}
}

// TestServeETagsFollowContent checks that a file's ETag names its content: files with other
// bytes have other tags, a restart with the same files gives the same tags, and after a change
// to app.css exactly the files whose bytes changed have new tags (app.css, and app.js and the
// worker, which carry the version), so a browser downloads again just those.
func TestServeETagsFollowContent(t *testing.T) {
	root := fakeRoot(t)
	type file struct{ tag, body string }
	files := func() map[string]file {
		h, err := NewServer(root)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]file{}
		for _, p := range sitePaths(t, root) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
			out[p] = file{rec.Header().Get("Etag"), rec.Body.String()}
		}
		return out
	}
	before := files()
	seen := map[string]string{}
	for p, f := range before {
		if q, ok := seen[f.tag]; ok {
			t.Errorf("%s and %s have the same ETag %s", p, q, f.tag)
		}
		seen[f.tag] = p
	}
	for p, f := range files() {
		if f != before[p] {
			t.Errorf("%s: ETag %s, then %s after a restart with the same files", p, before[p].tag, f.tag)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "web", "app.css"), []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, f := range files() {
		if changed := f.body != before[p].body; changed != (f.tag != before[p].tag) || p == "/web/app.css" && !changed {
			t.Errorf("%s: bytes changed %v, ETag %s, then %s", p, changed, before[p].tag, f.tag)
		}
	}
}
