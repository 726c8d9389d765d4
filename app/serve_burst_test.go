//go:build !js

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"backoffcalc/app/internal/site"
)

// TestServeBurst sends 10000 requests from 16 concurrent clients over loopback to serve's
// handler: every one must be answered in full, and the server's memory and goroutines must come
// back to where they were. One request in burstPageEvery is the page, which serve pre-renders
// for its link (a report per request); the rest are its files. How fast is not asserted (it is
// logged): the waits below are there for a hang only.
func TestServeBurst(t *testing.T) {
	const (
		requests       = 10000
		workers        = 16
		burstPageEvery = 25
	)
	h, err := site.NewServer(fakeRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // listens on 127.0.0.1
	defer srv.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: workers}
	client := &http.Client{Transport: transport, Timeout: 2 * time.Minute}
	defer transport.CloseIdleConnections()

	files := []string{"/app.js", "/app.css", "/app-worker.js", "/manifest.webmanifest", "/wasm_exec.js",
		"/web/app.css", "/web/guard.js", "/web/icon.svg", "/web/icon-192.png", "/web/app.wasm"}
	pages := []string{"/", "/?base=250ms&jitter=equal", "/?base=abc&attempts=0", "/?clients=1000&attempts=20",
		"/?" + strings.Repeat("x", 10000) + "=1", "/?jitter=%3Cscript%3E"}
	path := func(i int) string {
		if i%burstPageEvery == 0 {
			return pages[(i/burstPageEvery)%len(pages)]
		}
		return files[i%len(files)]
	}
	get := func(p string) (int, int64, error) {
		resp, err := client.Get(srv.URL + p)
		if err != nil {
			return 0, 0, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err == nil && resp.ContentLength >= 0 && n != resp.ContentLength {
			err = fmt.Errorf("%d of %d bytes", n, resp.ContentLength)
		}
		return resp.StatusCode, n, err
	}

	// Warm up: go-app builds and keeps its generated files on first use, and each path must work.
	for _, p := range append(files, pages...) {
		if code, _, err := get(p); code != http.StatusOK || err != nil {
			t.Fatalf("GET %.80s: %d, %v", p, code, err)
		}
	}
	heapBefore, goroutinesBefore := liveHeap(), runtime.NumGoroutine()

	start := time.Now()
	var (
		next, ok, pageCount atomic.Int64
		pageTime            atomic.Int64 // nanoseconds spent on page requests
		mu                  sync.Mutex
		failures            []string
		wg                  sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= requests {
					return
				}
				p := path(i)
				t0 := time.Now()
				code, _, err := get(p)
				if i%burstPageEvery == 0 {
					pageCount.Add(1)
					pageTime.Add(int64(time.Since(t0)))
				}
				if code == http.StatusOK && err == nil {
					ok.Add(1)
					continue
				}
				mu.Lock()
				failures = append(failures, fmt.Sprintf("GET %.80s: %d, %v", p, code, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if ok.Load() != requests {
		t.Errorf("%d of %d requests answered with 200 in full; first failures: %q", ok.Load(), requests, failures[:min(len(failures), 5)])
	}

	transport.CloseIdleConnections()
	heapAfter := liveHeap()
	// Flat: what the burst leaves behind must be noise, not a share of what it moved (about
	// 10000 responses, 400 of them pages of some 100 KB; app.wasm is a stand-in here). Even 2 KB
	// kept per request would be 20 MB; the bound leaves room for the runtime's and the
	// transport's own caches.
	const bound = 8 << 20
	if grew := int64(heapAfter) - int64(heapBefore); grew > bound {
		t.Errorf("live heap grew by %d KB over the burst (from %d KB to %d KB), bound %d KB", grew>>10, heapBefore>>10, heapAfter>>10, bound>>10)
	}
	// Connections closed, the server's goroutines must end too, in milliseconds on an idle
	// machine: a minute is for a hang.
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > goroutinesBefore+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutinesBefore+2 {
		t.Errorf("%d goroutines after the burst, %d before", n, goroutinesBefore)
	}
	t.Logf("%d requests in %v (%.0f/s); %d pages, %v each on average; live heap %d KB before, %d KB after",
		requests, elapsed.Round(time.Millisecond), requests/elapsed.Seconds(), pageCount.Load(),
		(time.Duration(pageTime.Load()) / time.Duration(max(pageCount.Load(), 1))).Round(time.Millisecond), heapBefore>>10, heapAfter>>10)
}

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC() // the first may leave finalizers' objects for the second
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A client other than a browser can send ", <, > raw in the query; serve's HTML must not turn
// them into markup (go-app's og:url) whatever the page does with the link.
func TestServeRawQuery(t *testing.T) {
	h, err := site.NewServer(fakeRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "GET /?q=\"><script>window.__pwned=1</script>&base=\"><img/src=/canary> HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	html := string(body)
	if resp.StatusCode != http.StatusOK || strings.Contains(html, "<script>window") || strings.Contains(html, "<img/src") {
		t.Errorf("%d; the raw query became markup:\n%s", resp.StatusCode, html)
	}
	// The page echoes the query once, in guard.js's data-for, as a browser sends it; go-app's
	// og:url, a second copy, is gone.
	if strings.Contains(html, "og:url") {
		t.Errorf("the page has an og:url:\n%s", html)
	}
	if !strings.Contains(html, `data-for="?q=%22%3E%3Cscript%3Ewindow.__pwned=1%3C/script%3E&amp;base=%22%3E%3Cimg/src=/canary%3E"`) {
		t.Errorf("data-for is not the query as a browser sends it:\n%s", html)
	}
	if !strings.Contains(html, `data-key="base"`) {
		t.Error("the bad base is not reported")
	}
}
