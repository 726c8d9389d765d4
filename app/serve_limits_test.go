//go:build !js

package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeClosesIdleConnections opens a keep-alive connection to the serve command, makes one
// request and then sends nothing: serve must close it within seconds, or idle clients pile up.
func TestServeClosesIdleConnections(t *testing.T) {
	t.Parallel()
	addr := startRunServe(t, fakeRoot(t))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /web/app.css HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	const bound = 15 * time.Second
	conn.SetReadDeadline(time.Now().Add(bound))
	start := time.Now()
	// The answer, then the server's close: EOF.
	_, err = io.Copy(io.Discard, conn)
	idle := time.Since(start)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the idle keep-alive connection is still open after %v", bound)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("closed after %v", idle.Round(100*time.Millisecond))
}

// TestServeEchoesQueryOnce checks that the page's HTML holds the query once (in guard.js's
// data-for), not also in go-app's og:url: the page grows by the query's length, not twice or
// more.
func TestServeEchoesQueryOnce(t *testing.T) {
	h, err := newServer(fakeRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	get := func(query string) string {
		rec := getRawQuery(h, query)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET /?%.40s…: %d", query, rec.Code)
		}
		return rec.Body.String()
	}
	plain := len(get(""))
	// 40,000 bytes of "<>' raw, 120,000 as a browser sends them.
	query := "q=" + strings.Repeat(`"<>'`, 10000)
	page := get(query)
	run := strings.Repeat("%22%3C%3E%27", 100) // a run of the query as the page may hold it
	if n := strings.Count(page, run); n > 10000/100 {
		t.Errorf("the page holds the query %.1f times", float64(n)/(10000/100))
	}
	if grew, sent := len(page)-plain, len(browserQuery(query)); grew > sent+1000 {
		t.Errorf("a query of %d bytes as a browser sends it made the page %d bytes longer", sent, grew)
	}
	t.Logf("page %d bytes; with %d bytes of \"<>' in the query, %d", plain, len(query), len(page))
}

// TestServeLongLink sends the serve command links too long to be the page's own: 1 MiB of
// "<>' as a client other than a browser sends it, and 3 MiB as a browser does (%22%3C%3E%27).
// Each gets a short page that names the limit and links to the calculator: not a 6 MB page
// that echoes it, not Go's bare 431.
func TestServeLongLink(t *testing.T) {
	addr := startRunServe(t, fakeRoot(t))
	for _, q := range []string{
		"q=" + strings.Repeat(`"<>'`, 1<<18),
		"q=" + strings.Repeat(`%22%3C%3E%27`, 1<<18),
		"base=" + strings.Repeat("1", 1<<20),
	} {
		got := sendRaw(t, addr, http.MethodGet, "/?"+q, addr)
		if got.code != http.StatusRequestURITooLong || len(got.body) > 4<<10 ||
			!strings.Contains(got.body, "262,144 bytes") || !strings.Contains(got.body, `<a href="/">`) {
			t.Errorf("a query of %d bytes: %d, %d bytes: %.300q", len(q), got.code, len(got.body), got.body)
		}
		t.Logf("a query of %d bytes: %d, %d bytes", len(q), got.code, len(got.body))
	}
}

// The corpus's 100 KB links go through the serve command's server as well, whose limits
// (header size, read timeout) are not the handler's.
func TestServeLongCorpusLinks(t *testing.T) {
	addr := startRunServe(t, fakeRoot(t))
	longest := 0
	for _, l := range readHostileLinks(t) {
		q, _, _ := strings.Cut(l.query, "#")
		if len(q) < 50000 || l.slow {
			continue
		}
		got := sendRaw(t, addr, http.MethodGet, "/?"+browserQuery(q), addr)
		if got.code != http.StatusOK || !strings.Contains(got.body, `id="app"`) {
			t.Errorf("%v: %d", l, got.code)
		}
		longest = max(longest, len(browserQuery(q)))
	}
	if longest < 100000 {
		t.Fatalf("the longest link of the corpus is %d bytes: not the 100 KB links", longest)
	}
}
