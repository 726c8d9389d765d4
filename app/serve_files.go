//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// siteFile is one file that serve sends, read at start-up: what a browser gets never depends
// on what happens to the folder later, and its ETag is the hash of the bytes it names.
type siteFile struct {
	contentType string
	body, gz    []byte // gz is nil when gzip saves too little to be worth a second copy
	etag, gzTag string // strong: a hash of body, of gz
}

func newSiteFile(contentType string, body []byte) *siteFile {
	f := &siteFile{contentType: contentType, body: body, etag: contentTag(body)}
	// app.wasm is 8.7 MB and compresses to a quarter: compress such files once, here. A small
	// file would save a few bytes for the price of a Vary header and a second copy.
	if len(body) >= 1<<10 {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		if gz.Len() <= len(body)*3/4 {
			f.gz, f.gzTag = gz.Bytes(), contentTag(gz.Bytes())
		}
	}
	return f
}

func contentTag(b []byte) string {
	return fmt.Sprintf(`"%x"`, sha256.Sum256(b))
}

// readSiteFiles returns every file of the site but its pages, by URL path: the allow-list of
// serve. They are the files that static writes: go-app's app-worker.js, app.css and manifest,
// app.js as appJS makes it, the toolchain's wasm_exec.js, and exactly the files that webFiles
// lists under root/web.
func readSiteFiles(root string, h *app.Handler) (map[string]*siteFile, error) {
	files := map[string]*siteFile{}
	for _, p := range []string{"/app-worker.js", "/app.css", "/manifest.webmanifest"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK {
			return nil, fmt.Errorf("go-app's %s: status %d", p, rec.Code)
		}
		files[p] = newSiteFile(rec.Header().Get("Content-Type"), rec.Body.Bytes())
	}
	js, err := appJS(h)
	if err != nil {
		return nil, err
	}
	files["/app.js"] = newSiteFile("text/javascript; charset=utf-8", js)
	// go-app serves its own embedded wasm_exec.js; serve the toolchain's, which matches the Go
	// that built app.wasm.
	assets, err := webFiles(root)
	if err != nil {
		return nil, err
	}
	for _, name := range append(assets, "wasm_exec.js") {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		files["/"+name] = newSiteFile(contentType(name, b), b)
	}
	return files, nil
}

// contentType is http.FileServer's choice: by extension, else by sniffing.
func contentType(name string, b []byte) string {
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return http.DetectContentType(b)
}

// serve answers r with f: gzipped to a browser that accepts it, 304 when the browser's copy
// has f's ETag. Every file is revalidated (no-cache), so a new build reaches the next load.
func (f *siteFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	body, tag := f.body, f.etag
	if f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
	}
	gzipped := f.gz != nil && acceptsGzip(r)
	if gzipped {
		body, tag = f.gz, f.gzTag
	}
	h.Set("Cache-Control", "no-cache")
	h.Set("Etag", tag)
	if noneMatch(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if gzipped {
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsGzip reports whether Accept-Encoding lists gzip with a weight above 0.
func acceptsGzip(r *http.Request) bool {
	for _, enc := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(enc, ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(params), "q="), 64)
			return params == "" || err == nil && q > 0
		}
	}
	return false
}

// noneMatch reports whether an If-None-Match header names tag: "*", or tag in its list,
// compared weakly (W/"x" matches "x") as RFC 9110 section 13.1.2 asks.
func noneMatch(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
