//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// runServe is `serve [-addr 127.0.0.1:8000] [-root .]`: it serves the page at
// http://ADDR/, reading web/ (app.wasm, app.css, icons) and wasm_exec.js from
// -root, by default the working directory, which is the repository root under
// make. Files are read from disk rather than embedded because app.wasm is
// built after the native binary and because go:embed cannot reach the
// repository root from app/. It prints "serving http://ADDR/" once listening.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", "[-addr HOST:PORT] [-root DIR]", stderr)
	addr := fs.String("addr", "127.0.0.1:8000", "`address` to listen on; the default keeps the page on this machine")
	root := fs.String("root", ".", "`directory` holding web/ (with app.wasm) and wasm_exec.js")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	h, err := newServer(*root)
	if err != nil {
		fmt.Fprintf(stderr, "backoffcalc serve: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "backoffcalc serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "serving http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "backoffcalc serve: %v\n", srv.Serve(ln))
	return 1
}

// newServer returns the handler behind serve: the page and its files from
// root, with security headers, answering GET and HEAD only, and reading the
// query as a browser sends it.
func newServer(root string) (http.Handler, error) {
	h, err := handler(root, "")
	if err != nil {
		return nil, err
	}
	// go-app serves its own embedded wasm_exec.js; serve the toolchain's,
	// which matches the Go that built app.wasm.
	wasmExec, err := os.ReadFile(filepath.Join(root, "wasm_exec.js"))
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	// A method in the pattern also matches HEAD; other methods get 405.
	mux.Handle("GET /", h)
	mux.HandleFunc("GET /wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "wasm_exec.js", time.Time{}, bytes.NewReader(wasmExec))
	})
	js, err := appJS(h)
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Type", "application/javascript")
		http.ServeContent(w, r, "app.js", time.Time{}, bytes.NewReader(js))
	})
	// app.wasm is 8.5 MB and compresses to a quarter: a browser that accepts gzip gets it
	// compressed, once, at start-up. (A static host compresses by itself.)
	wasm, err := os.ReadFile(filepath.Join(root, "web", "app.wasm"))
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	zw.Close()
	wasmTag := fmt.Sprintf(`"gz-%x"`, sha256.Sum256(wasm))
	mux.HandleFunc("GET /web/app.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Etag", wasmTag)
		if r.Header.Get("If-None-Match") == wasmTag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(gz.Len()))
		if r.Method != http.MethodHead {
			w.Write(gz.Bytes())
		}
	})
	// go-app answers these by fetching http://<Host header>/web/...: the
	// server would request whatever host a client names. The page has none.
	for _, p := range []string{"/robots.txt", "/sitemap.xml", "/ads.txt"} {
		mux.Handle("GET "+p, http.NotFoundHandler())
	}
	return withSecurityHeaders(withBrowserQuery(mux)), nil
}

// withSecurityHeaders adds the page's security headers to every response.
// frame-ancestors is valid only in a header, not in the static site's <meta>.
func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentPolicy+"; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}
