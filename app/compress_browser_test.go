//go:build !js

package main

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"backoffcalc/app/internal/site"
)

// wasmWire is what Chromium reports about the page's own fetch of app.wasm (CDP Network
// events): the Content-Encoding it got and the bytes that crossed the wire.
type wasmWire struct {
	mu       sync.Mutex
	id       network.RequestID
	encoding string
	received float64 // body and headers, as sent
	done     bool
	requests []string // the initiator of each request the page made for app.wasm, and its script
}

func (w *wasmWire) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if strings.HasSuffix(ev.Request.URL, "/web/app.wasm") && ev.Initiator != nil {
			by := string(ev.Initiator.Type)
			if st := ev.Initiator.Stack; st != nil && len(st.CallFrames) > 0 {
				by += " " + path.Base(st.CallFrames[0].URL)
			}
			w.requests = append(w.requests, by)
		}
	case *network.EventResponseReceived:
		if strings.HasSuffix(ev.Response.URL, "/web/app.wasm") {
			w.id = ev.RequestID
			for k, v := range ev.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					w.encoding = fmt.Sprint(v)
				}
			}
		}
	case *network.EventLoadingFinished:
		if ev.RequestID == w.id {
			w.received, w.done = ev.EncodedDataLength, true
		}
	}
}

func (w *wasmWire) get() (encoding string, received float64, done bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.encoding, w.received, w.done
}

// TestBrowserGetsBrotli loads the page in Chromium from serve and from a static host that sends
// precompressed files as they are (precompressedHost): app.wasm must arrive in brotli, in about
// the bytes of its brotli copy, and the page must run with the link's numbers. Offline loads
// of serve (TestOffline) and deploys (TestDeployReachesReturningVisitors) then run from a
// service worker that cached the brotli answer.
func TestBrowserGetsBrotli(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		start func(t *testing.T) *httptest.Server
	}{
		{"serve", startServe},
		{"static", func(t *testing.T) *httptest.Server {
			dir := staticSite(t, "")
			srv := httptest.NewServer(precompressedHost(http.Dir(dir)))
			t.Cleanup(srv.Close)
			return srv
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := c.start(t)
			brSize := brotliSize(t, srv.URL+"/web/app.wasm")
			var wire wasmWire
			tb := newTab(t, chromedp.WithNewBrowserContext(), chromedp.WithListener(wire.listen))
			const query = "base=250ms&attempts=8&jitter=equal"
			tb.navigate(srv.URL + "/?" + query)
			tb.waitWasm()
			compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
			tb.requireNoConsoleProblems()
			tb.requireSameOrigin(srv.URL)
			encoding, received, done := wire.get()
			if !done || encoding != "br" {
				t.Fatalf("app.wasm: Content-Encoding %q (load finished: %v); want br", encoding, done)
			}
			// The headers add a few hundred bytes; gzip would add 600 KB.
			if received < float64(brSize) || received > float64(brSize)+4096 {
				t.Errorf("app.wasm: %.0f bytes received; its brotli copy is %d", received, brSize)
			}
			// app.js asks for app.wasm once: a second request would download it twice.
			wire.mu.Lock()
			requests := wire.requests
			wire.mu.Unlock()
			if len(requests) != 1 || requests[0] != "script app.js" {
				t.Errorf("app.wasm requested by %q; want once, by app.js", requests)
			}
			t.Logf("app.wasm: %s, %.0f bytes received", encoding, received)
		})
	}
}

// brotliSize returns the length of url's answer to a client that accepts only brotli. It reads
// the body: http.ServeContent, behind precompressedHost, sends no Content-Length with a
// Content-Encoding.
func brotliSize(t *testing.T, url string) int64 {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", "br")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.Header.Get("Content-Encoding") != "br" || n == 0 {
		t.Fatalf("GET %s, Accept-Encoding br: Content-Encoding %q, %d bytes, %v", url, resp.Header.Get("Content-Encoding"), n, err)
	}
	return n
}

// precompressedHost serves the folder fs as a static host that sends precompressed files as
// they are (nginx's gzip_static and brotli_static, Caddy's file_server precompressed): to a
// client that accepts br, NAME.br in place of NAME when it exists, with Content-Encoding: br
// and NAME's Content-Type; else NAME.gz to one that accepts gzip; else NAME. Conditional
// requests and ranges are http.ServeContent's, on the bytes sent.
func precompressedHost(fs http.Dir) http.Handler {
	files := http.FileServer(fs)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		accepted := site.AcceptEncoding(r.Header.Get("Accept-Encoding"))
		for _, c := range []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if accepted[c.coding] <= 0 {
				continue
			}
			f, err := fs.Open(name + c.ext)
			if err != nil {
				continue
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil || fi.IsDir() {
				continue
			}
			h := w.Header()
			h.Add("Vary", "Accept-Encoding")
			h.Set("Content-Encoding", c.coding)
			ctype := mime.TypeByExtension(path.Ext(name))
			if ctype == "" {
				ctype = http.DetectContentType(nil)
			}
			h.Set("Content-Type", ctype)
			http.ServeContent(w, r, name, fi.ModTime(), f)
			return
		}
		files.ServeHTTP(w, r)
	})
}
