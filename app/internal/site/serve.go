//go:build !js

// Package site is the page's web server (serve) and static-site generator (static): go-app's
// handler for the page that package main registers, the site's files with their gzip and
// brotli copies, ETags, security headers and host check.
package site

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Serve serves the page at http://ADDR/ until the listener fails, reading web/ (app.wasm,
// app.css, icons) and wasm_exec.js from root. Files are read from disk at start-up rather than
// embedded because app.wasm is built after the native binary and because go:embed cannot reach
// the repository root. It writes "serving http://ADDR/" to stdout once listening.
func Serve(root, addr string, stdout io.Writer) error {
	h, err := NewServer(root)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving http://%s/\n", ln.Addr())
	return newHTTPServer(h, ln.Addr()).Serve(ln)
}

// Timeouts of serve's connections. Without them a client that opens connections and never
// sends, never reads or never closes holds a goroutine and its buffers for as long as it likes.
const (
	// Every request serve answers is a GET or HEAD without a body: reading one is reading its
	// headers, a few hundred bytes from a browser, or a link of 256 KiB in 10 s at 210 kbit/s.
	serveReadTimeout = 10 * time.Second
	// Writing a response starts when its request has been read. The longest is app.wasm:
	// 8.7 MB, 2.3 MB gzipped (docs/performance.md), which take 2 minutes at 580 kbit/s and
	// 150 kbit/s, a slow mobile link; the page's pre-render takes at most seconds.
	serveWriteTimeout = 2 * time.Minute
	// A page load asks for its files in one burst, and a new connection costs serve one round
	// trip (no TLS): keep-alive connections idle for 5 s are closed, as Apache's
	// KeepAliveTimeout does by default, so idle clients cannot pile up.
	serveIdleTimeout = 5 * time.Second
	// Chromium opens links of up to 2 MiB: with room for the other headers, every link a
	// browser can open reaches serve, which answers one too long for it with a page that says
	// so (see servePage) rather than Go's bare 431 past its default of 1 MiB.
	serveMaxHeaderBytes = 4 << 20
)

// newHTTPServer returns serve's http.Server for h listening on addr. On a loopback address
// it answers only requests for a loopback name (see loopbackOnly).
func newHTTPServer(h http.Handler, addr net.Addr) *http.Server {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		h = loopbackOnly(h)
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: serveReadTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    serveMaxHeaderBytes,
	}
}

// NewServer returns the handler behind serve: the page and exactly the files
// of the site (see readSiteFiles), read from root at start-up, with security
// headers, answering GET and HEAD only, and reading the query as a browser
// sends it.
func NewServer(root string) (http.Handler, error) {
	h, err := handler(root, "")
	if err != nil {
		return nil, err
	}
	files, err := readSiteFiles(root, h)
	if err != nil {
		return nil, err
	}
	// Check once that go-app still writes what servePage fixes.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if _, err := fixPage(rec.Body.Bytes()); err != nil {
		return nil, err
	}
	// Reading and compressing the files leaves tens of MB of garbage (app.wasm read, its gzip
	// copy grown, its brotli copy decoded to check it): give it back now rather than hold it
	// until the runtime's scavenger gets to it minutes later.
	debug.FreeOSMemory()
	return withSecurityHeaders(withBrowserQuery(&site{page: h, files: files})), nil
}

// site answers the page at its route, "/" (the one package main registers), and the files of the site, and
// 404 to anything else: whatever the path spells, it is looked up as it is, never joined to a
// folder. go-app's handler sees only the page's requests; its other answers (robots.txt, which
// it would fetch from the Host a request names, its own wasm_exec.js, /goapp.js) are not the
// site's.
type site struct {
	page  *app.Handler
	files map[string]*siteFile
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/" {
		servePage(s.page, w, r)
		return
	}
	if f, ok := s.files[r.URL.Path]; ok {
		f.serve(w, r)
		return
	}
	http.NotFound(w, r)
}

// withSecurityHeaders adds the page's security headers to every response.
// frame-ancestors is valid only in a header, not in the static site's <meta>.
func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentPolicy+"; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}
