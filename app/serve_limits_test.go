//go:build !js

package main

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/app/internal/site"
)

// TestServeEchoesQueryOnce checks that the page's HTML holds the query once (in guard.js's
// data-for), not also in go-app's og:url: the page grows by the query's length, not twice or
// more.
func TestServeEchoesQueryOnce(t *testing.T) {
	h, err := site.NewServer(fakeRoot(t))
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
	if grew, sent := len(page)-plain, len(site.BrowserQuery(query)); grew > sent+1000 {
		t.Errorf("a query of %d bytes as a browser sends it made the page %d bytes longer", sent, grew)
	}
	t.Logf("page %d bytes; with %d bytes of \"<>' in the query, %d", plain, len(query), len(page))
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
		got := sendRaw(t, addr, http.MethodGet, "/?"+site.BrowserQuery(q), addr)
		if got.Code != http.StatusOK || !strings.Contains(got.Body, `id="app"`) {
			t.Errorf("%v: %d", l, got.Code)
		}
		longest = max(longest, len(site.BrowserQuery(q)))
	}
	if longest < 100000 {
		t.Fatalf("the longest link of the corpus is %d bytes: not the 100 KB links", longest)
	}
}

// A link of 40,000 made-up keys (230 KB, under serve's limit) names 20 of them, the last
// counting the rest, where it made a page of 40,000 messages: the page grows by the query's
// length, not by a message a key.
func TestServeNamesTwentyUnknownKeys(t *testing.T) {
	h, err := site.NewServer(fakeRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 40000)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	query := strings.Join(keys, "&")
	rec := getRawQuery(h, query)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET: %d", rec.Code)
	}
	page := rec.Body.String()
	if n := strings.Count(page, "<li data-key="); n != 20 || !strings.Contains(page, `<li data-key="19">19 &#34;&#34;: unknown key (and 39980 more unknown keys, not named)</li>`) {
		t.Errorf("the page names %d unknown keys", n)
	}
	// The query is in the page once, each & written &amp;.
	if plain, echo := len(getRawQuery(h, "").Body.String()), len(query)+4*strings.Count(query, "&"); len(page)-plain > echo+5000 {
		t.Errorf("a query of %d bytes (%d in HTML) made the page %d bytes longer", len(query), echo, len(page)-plain)
	}
}
