//go:build !js

package site

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// withBrowserQuery percent-encodes the request's query as a browser would have sent it: a raw
// " or < in the query, which no browser sends but any other client can, reaches the page
// encoded, and the page's guard.js compares the query it was rendered for with the address
// bar's, which a browser encodes the same way. calc.Decode unescapes the query, so the page's
// inputs do not change.
func withBrowserQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := BrowserQuery(r.URL.RawQuery); q != r.URL.RawQuery {
			r = r.Clone(r.Context())
			r.URL.RawQuery = q
			r.RequestURI = r.URL.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
}

// BrowserQuery percent-encodes the bytes of a query that the WHATWG URL standard's special-query
// percent-encode set holds (controls, space, ", #, ', <, >, and every byte above ~), as every
// browser does before it sends a link: base=<b> becomes base=%3Cb%3E.
func BrowserQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c > ' ' && c <= '~' && !strings.ContainsRune(`"#'<>`, rune(c)) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// maxLinkQuery bounds the query, as a browser sends it, that serve renders the page for. The
// page's own links are under 1 KB and the longest hostile links of the tests 123 KB. The page
// echoes the query once, escaped: 256 KiB of "<>' (as %22%3C%3E%27) make a page of 302 KB, and
// the worst case, 256 KiB of & (as &amp;), one of 1.35 MB.
const maxLinkQuery = 256 << 10

// servePage answers a request for the page with go-app's page as fixPage fixes it: zoom allowed,
// the loader's image with an alt, and no og:url, in which go-app copies the request's URL: the
// page already echoes the query once, for guard.js, and a link of 1 MB would otherwise be 1 MB
// more HTML (and name the Host the request gave). A query over
// maxLinkQuery gets linkTooLong instead.
func servePage(page *app.Handler, w http.ResponseWriter, r *http.Request) {
	if n := len(r.URL.RawQuery); n > maxLinkQuery {
		linkTooLong(w, n)
		return
	}
	// go-app tags the page with its version, a hash of everything the page is made from (see
	// contentVersion): the page for a link changes only with it. go-app answers 304 only when
	// If-None-Match is exactly that tag, not a list of tags or a weak one.
	if tag := `"` + page.Version + `"`; noneMatch(r.Header.Get("If-None-Match"), tag) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Etag", tag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	rec := httptest.NewRecorder()
	page.ServeHTTP(rec, r)
	body, err := fixPage(rec.Body.Bytes())
	if err != nil { // NewServer checked go-app's page; a page it made differently is sent as is
		body = rec.Body.Bytes()
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	if rec.Code == http.StatusOK {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// linkTooLong answers a link whose query is n bytes, over maxLinkQuery, with 414 URI Too Long
// and a short page that says so and links to the calculator. Not the calculator itself: its
// WebAssembly reads the link from the address bar, not from serve, so a page pre-rendered
// for the default inputs would turn into the link's own a second later, under a message that
// says otherwise. A link this long was cut, pasted into other text or made by hand: the user
// needs to know that, and a way to the calculator.
func linkTooLong(w http.ResponseWriter, n int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusRequestURITooLong)
	fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en">
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>backoffcalc: link too long</title>
<link rel="stylesheet" href="/web/app.css">
<main>
<h1>backoffcalc</h1>
<p role="alert">This link is too long: its query is %s bytes, and serve reads links of up to %s bytes (256 KiB). The calculator's own links are under 1 KB, so this one was probably cut, joined with other text, or made by hand.</p>
<p><a href="/">Open the calculator with its default inputs</a></p>
</main>
</html>
`, thousands(n), thousands(maxLinkQuery))
}

// thousands writes n with a comma every three digits: 262,144.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
