//go:build !js

package site

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The Host check applies while serve listens on loopback only: with -addr 0.0.0.0:8000 it is
// reached by other names on purpose.
func TestServeHostCheckOnLoopbackOnly(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	for _, c := range []struct {
		ip   net.IP
		want int
	}{
		{net.IPv4(127, 0, 0, 1), http.StatusMisdirectedRequest},
		{net.IPv6loopback, http.StatusMisdirectedRequest},
		{net.IPv4zero, http.StatusOK},
		{net.IPv4(192, 0, 2, 1), http.StatusOK},
	} {
		srv := newHTTPServer(ok, &net.TCPAddr{IP: c.ip, Port: 8000})
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = "evil.example"
		rec := httptest.NewRecorder()
		srv.Handler.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("listening on %v, Host evil.example: %d, want %d", c.ip, rec.Code, c.want)
		}
		if srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.ReadHeaderTimeout <= 0 {
			t.Errorf("a timeout is not set: %+v", srv)
		}
	}
}

// The query limit as TestServeLongLink cannot place it: at the byte.
func TestServeLinkLimit(t *testing.T) {
	h, err := NewServer(fakeRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int
		want int
	}{{maxLinkQuery, http.StatusOK}, {maxLinkQuery + 1, http.StatusRequestURITooLong}} {
		q := "x=" + strings.Repeat("1", c.n-2)
		req := httptest.NewRequest(http.MethodGet, "/?"+q, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("a query of %d bytes: %d, want %d", c.n, rec.Code, c.want)
		}
	}
}

func TestNoneMatch(t *testing.T) {
	const tag = `"abc"`
	for _, c := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{`"abc"`, true},
		{`W/"abc"`, true},
		{`"x", "abc"`, true},
		{`"x",W/"abc" `, true},
		{"*", true},
		{`"abcd"`, false},
		{`abc`, false},
		{`"x", "y"`, false},
	} {
		if got := noneMatch(c.header, tag); got != c.want {
			t.Errorf("noneMatch(%q, %s) = %v, want %v", c.header, tag, got, c.want)
		}
	}
}
