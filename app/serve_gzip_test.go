//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// serve sends app.wasm gzipped to a browser that accepts it, and as it is to one that does not.
func TestServeGzipsWasm(t *testing.T) {
	root := fakeRoot(t)
	// serve compresses a file only when that saves a quarter: a stand-in as compressible as
	// the real app.wasm (4.3 MB of 19 MB gzipped).
	want := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00"), 8<<10)
	if err := os.WriteFile(filepath.Join(root, "web", "app.wasm"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := newServer(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []string{"gzip, deflate, br", ""} {
		req := httptest.NewRequest("GET", "/web/app.wasm", nil)
		req.Header.Set("Accept-Encoding", enc)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body := rec.Body.Bytes()
		if got := rec.Header().Get("Content-Encoding"); (got == "gzip") != (enc != "") {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q", enc, got)
		}
		if enc != "" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
		}
		if !bytes.Equal(body, want) || rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/wasm" {
			t.Errorf("Accept-Encoding %q: %d, %s, %d bytes", enc, rec.Code, rec.Header().Get("Content-Type"), len(body))
		}
	}
}
