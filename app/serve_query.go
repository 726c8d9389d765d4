//go:build !js

package main

import (
	"net/http"
	"strings"
)

// withBrowserQuery percent-encodes the request's query as a browser would have sent it. go-app
// writes the request's URL into the page's <meta property="og:url"> with strconv.Quote, which
// is not HTML escaping: a raw " in the query, which no browser sends but any other client can,
// would end the attribute and make the rest of the query markup in serve's HTML. calc.Decode
// unescapes the query, so the page's inputs do not change.
func withBrowserQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := browserQuery(r.URL.RawQuery); q != r.URL.RawQuery {
			r = r.Clone(r.Context())
			r.URL.RawQuery = q
			r.RequestURI = r.URL.RequestURI()
		}
		next.ServeHTTP(w, r)
	})
}

// browserQuery percent-encodes the bytes of a query that the WHATWG URL standard's special-query
// percent-encode set holds (controls, space, ", #, ', <, >, and every byte above ~), as every
// browser does before it sends a link: base=<b> becomes base=%3Cb%3E.
func browserQuery(q string) string {
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
