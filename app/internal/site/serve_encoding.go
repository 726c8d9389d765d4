//go:build !js

package site

import (
	"strconv"
	"strings"
)

// negotiate returns the copy of f to send for an Accept-Encoding header, as RFC 9110 section
// 12.5.3 asks: the coding with the highest weight (q, 1 when not given) wins, ties going to the
// first of f.codings (br, then gzip) and then to the file as it is. A coding is acceptable when
// listed with a weight above 0, or when not listed and "*" is. The file as it is is acceptable
// unless "identity" (or "*" without it) has weight 0, but when not listed it comes last:
// "br;q=0.5" gets br. "br;q=0, gzip" gets gzip; "" (no preference)
// and a missing header get the file as it is, which every client can read. When the header
// refuses every copy, the file as it is goes anyway: a browser never sends such a header, and
// the body it gets is still the file.
func (f *siteFile) negotiate(header string) encoding {
	weights := AcceptEncoding(header)
	weight := func(name string, otherwise float64) float64 {
		if q, ok := weights[name]; ok {
			return q
		}
		if q, ok := weights["*"]; ok {
			return q
		}
		return otherwise
	}
	// Unlisted, the file as it is gets the least weight a header can give.
	best, bestQ := f.identity, weight("identity", 0.001)
	// From the last coding, so that a tie goes to the first.
	codings := f.current()
	for i := len(codings) - 1; i >= 0; i-- {
		if q := weight(codings[i].name, 0); q > 0 && q >= bestQ {
			best, bestQ = codings[i], q
		}
	}
	return best
}

// AcceptEncoding returns the weight of each coding that an Accept-Encoding header lists, by
// lower-case name. A weight that does not parse, or lies outside [0, 1], counts as 0: the
// client's wish is unclear, and the file as it is is always readable.
func AcceptEncoding(header string) map[string]float64 {
	weights := map[string]float64{}
	for _, item := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(item, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			key, value, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(strings.TrimSpace(key), "q") {
				v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
				if q = v; err != nil || v < 0 || v > 1 {
					q = 0
				}
			}
		}
		weights[name] = q
	}
	return weights
}
