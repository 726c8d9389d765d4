//go:build !js

package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

// compressibleWasm writes into root a stand-in for app.wasm as compressible as the real one
// (serve compresses a file only when that saves a quarter; app.wasm: 1.7 MB of 8.9 MB in brotli)
// and returns it.
func compressibleWasm(t *testing.T, root string) []byte {
	t.Helper()
	wasm := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00"), 8<<10)
	if err := os.WriteFile(filepath.Join(root, "web", "app.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	return wasm
}

// decode undoes a Content-Encoding.
func decode(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch encoding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	default:
		t.Fatalf("Content-Encoding %q", encoding)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", encoding, err)
	}
	return b
}

// TestServeCompresses asks serve, over a real connection, for app.wasm with the headers that
// browsers and other clients send: each gets the coding negotiate picks, with its own ETag,
// Vary: Accept-Encoding, the right Content-Length, and bytes that decode to app.wasm. HEAD gets
// the same headers and no body; a Range header is ignored, as before brotli.
func TestServeCompresses(t *testing.T) {
	root := fakeRoot(t)
	want := compressibleWasm(t, root)
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	// A transport of its own, so that Go neither asks for gzip itself nor decodes the body.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	do := func(method, AcceptEncoding string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+"/web/app.wasm", nil)
		if AcceptEncoding != "-" {
			req.Header.Set("Accept-Encoding", AcceptEncoding)
		}
		for i := 0; i < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}

	tags := map[string]string{} // coding -> ETag
	for _, c := range []struct{ AcceptEncoding, want string }{
		{"gzip, deflate, br, zstd", "br"}, // Chromium
		{"br;q=1.0, gzip;q=0.5", "br"},
		{"gzip, deflate, br;q=0", "gzip"},
		{"gzip", "gzip"},
		{"", ""},
		{"-", ""}, // no header at all
		{"br;q=0, gzip;q=0", ""},
	} {
		resp, body := do(http.MethodGet, c.AcceptEncoding)
		got := resp.Header.Get("Content-Encoding")
		if got != c.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", c.AcceptEncoding, got, c.want)
			continue
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/wasm" ||
			resp.Header.Get("Vary") != "Accept-Encoding" || resp.ContentLength != int64(len(body)) ||
			resp.Header.Get("Accept-Ranges") != "" {
			t.Errorf("Accept-Encoding %q: %d, Content-Type %q, Vary %q, Content-Length %d for %d bytes, Accept-Ranges %q",
				c.AcceptEncoding, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"),
				resp.ContentLength, len(body), resp.Header.Get("Accept-Ranges"))
		}
		if !bytes.Equal(decode(t, got, body), want) {
			t.Errorf("Accept-Encoding %q: %d bytes in %q do not decode to app.wasm", c.AcceptEncoding, len(body), got)
		}
		tag := resp.Header.Get("Etag")
		if old, ok := tags[got]; ok && old != tag {
			t.Errorf("coding %q: ETag %s, and %s before", got, tag, old)
		}
		tags[got] = tag

		head, headBody := do(http.MethodHead, c.AcceptEncoding)
		if len(headBody) != 0 || head.ContentLength != int64(len(body)) || head.Header.Get("Content-Encoding") != got || head.Header.Get("Etag") != tag {
			t.Errorf("HEAD, Accept-Encoding %q: %d bytes, Content-Length %d, %q, ETag %s; want none, %d, %q, %s",
				c.AcceptEncoding, len(headBody), head.ContentLength, head.Header.Get("Content-Encoding"), head.Header.Get("Etag"), len(body), got, tag)
		}
		ranged, rangedBody := do(http.MethodGet, c.AcceptEncoding, "Range", "bytes=0-99")
		if ranged.StatusCode != http.StatusOK || !bytes.Equal(rangedBody, body) {
			t.Errorf("Range, Accept-Encoding %q: %d, %d bytes; want 200 and the whole %d", c.AcceptEncoding, ranged.StatusCode, len(rangedBody), len(body))
		}
	}
	if len(tags) != 3 || tags["br"] == tags["gzip"] || tags["br"] == tags[""] || tags["gzip"] == tags[""] {
		t.Fatalf("ETags by coding: %q; want three different ones", tags)
	}
	// A cache holding one coding's copy revalidates it: 304 for its own tag, and the copy
	// itself, never a 304, when it holds another coding's tag.
	for coding, tag := range tags {
		for other, otherTag := range tags {
			ae := map[string]string{"br": "br", "gzip": "gzip", "": "identity"}[other]
			resp, body := do(http.MethodGet, ae, "If-None-Match", tag)
			if wantCode := map[bool]int{true: http.StatusNotModified, false: http.StatusOK}[coding == other]; resp.StatusCode != wantCode || resp.Header.Get("Etag") != otherTag {
				t.Errorf("If-None-Match of the %q copy, Accept-Encoding %q: %d, ETag %s (%d bytes); want %d, %s", coding, ae, resp.StatusCode, resp.Header.Get("Etag"), len(body), wantCode, otherTag)
			}
		}
	}
}

// TestServeCompressesLargeFilesOnly checks which files get compressed copies: none under
// 1 KiB, nor one that compression shrinks by less than a quarter; app.js and the worker do.
func TestServeCompressesLargeFilesOnly(t *testing.T) {
	root := fakeRoot(t) // its app.wasm is 4 bytes
	// 4 KiB that no compressor shrinks: a sequence of SHA-256 hashes would do, but a
	// pseudo-random one is shorter to write.
	noise := make([]byte, 4<<10)
	x := uint32(1)
	for i := range noise {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		noise[i] = byte(x)
	}
	if err := os.WriteFile(filepath.Join(root, "web", "noise.bin"), noise, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"/web/app.wasm", ""},
		{"/web/noise.bin", ""},
		{"/app.js", "br"},
		{"/app-worker.js", "br"},
	} {
		req := httptest.NewRequest(http.MethodGet, c.path, nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate, br")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		vary := map[bool]string{true: "Accept-Encoding", false: ""}[c.want != ""]
		if got := rec.Header().Get("Content-Encoding"); got != c.want || rec.Header().Get("Vary") != vary {
			t.Errorf("%s: Content-Encoding %q, Vary %q; want %q, %q", c.path, got, rec.Header().Get("Vary"), c.want, vary)
		}
	}
}
