//go:build !js

package site

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
// request and then sends nothing: serve must close it (after serveIdleTimeout), or idle clients
// pile up. The bound is for a connection never closed, not for when: a loaded machine delays it.
func TestServeClosesIdleConnections(t *testing.T) {
	t.Parallel()
	addr := startRunServe(t, fakeRoot(t))
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /web/app.css HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	const bound = time.Minute
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
		if got.Code != http.StatusRequestURITooLong || len(got.Body) > 4<<10 ||
			!strings.Contains(got.Body, "262,144 bytes") || !strings.Contains(got.Body, `<a href="/">`) {
			t.Errorf("a query of %d bytes: %d, %d bytes: %.300q", len(q), got.Code, len(got.Body), got.Body)
		}
		t.Logf("a query of %d bytes: %d, %d bytes", len(q), got.Code, len(got.Body))
	}
}
