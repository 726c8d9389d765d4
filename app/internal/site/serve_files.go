//go:build !js

package site

import (
	"crypto/sha256"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// siteFile is one file that serve sends, read at start-up: what a browser gets never depends
// on what happens to the folder later, and its ETag is the hash of the bytes it names.
type siteFile struct {
	contentType string
	// The file as it is, and compressed: a browser gets the first copy in codings (best first)
	// that it accepts, else the file as it is. The brotli copy of a large file may join codings
	// after start-up (BrotliLater).
	identity encoding
	mu       sync.RWMutex
	codings  []encoding
}

// encoding is one copy of a file: its Content-Encoding ("" for the file as it is), its bytes,
// and its strong ETag, a hash of those bytes, so that a cache never mixes two codings up.
type encoding struct {
	name, tag string
	body      []byte
}

func newEncoding(name string, body []byte) encoding {
	return encoding{name: name, tag: contentTag(body), body: body}
}

// BrotliLater lets serve answer at once after a new build: app.wasm's brotli copy takes about
// 30 s, during which serve sends gzip. Tests set it to false, to know which copy they get.
var BrotliLater = true

// laterBrotli makes the brotli copy that joins later; a variable so that a test can hold it.
var laterBrotli = brotliCopy

func newSiteFile(contentType string, body []byte) *siteFile {
	f := &siteFile{contentType: contentType, identity: newEncoding("", body)}
	if gz := gzipCopy(body); gz != nil {
		f.codings = []encoding{newEncoding("gzip", gz)}
	}
	// Brotli first: it is the smaller of the two (1.7 MB against 2.3 MB for app.wasm).
	addBrotli := func(brotliCopy func([]byte) []byte) {
		if br := brotliCopy(body); br != nil {
			f.mu.Lock()
			f.codings = append([]encoding{newEncoding("br", br)}, f.codings...)
			f.mu.Unlock()
		}
	}
	if BrotliLater && !brotliCached(body) {
		go func() {
			addBrotli(laterBrotli)
			// Compressing app.wasm at quality 11 takes some 300 MB that serve no longer
			// needs: give it back rather than hold it for as long as serve runs.
			debug.FreeOSMemory()
		}()
	} else {
		addBrotli(brotliCopy)
	}
	return f
}

// current returns the copies the file has now, best first.
func (f *siteFile) current() []encoding {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.codings
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

// serve answers r with f: compressed for a browser that accepts it (see negotiate), 304 when
// the browser's copy has the ETag of the copy it would get. Every file is revalidated
// (no-cache), so a new build reaches the next load. A Range header is ignored, as it was
// before brotli: the answer is the whole copy, and Accept-Ranges is not sent.
//
// Not http.ServeContent: with Go 1.26.8 it sends no Content-Length with a Content-Encoding
// (HEAD gets none, and app.wasm's 1.7 MB of brotli would go chunked), sends Accept-Ranges and
// answers a Range with 206 and a slice of the compressed copy; TestServeCompresses fails on
// all three, and undoing them takes a wrapped ResponseWriter and a cloned request, more code
// than the few lines below.
func (f *siteFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if len(f.current()) > 0 {
		h.Add("Vary", "Accept-Encoding")
	}
	e := f.negotiate(r.Header.Get("Accept-Encoding"))
	h.Set("Cache-Control", "no-cache")
	h.Set("Etag", e.tag)
	if noneMatch(r.Header.Get("If-None-Match"), e.tag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if e.name != "" {
		h.Set("Content-Encoding", e.name)
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Length", strconv.Itoa(len(e.body)))
	if r.Method != http.MethodHead {
		w.Write(e.body)
	}
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
