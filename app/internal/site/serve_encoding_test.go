//go:build !js

package site

import "testing"

// negotiateTests are Accept-Encoding headers and the copy that a file with a brotli and a gzip
// copy sends for each ("" for the file as it is), and the one a file with only gzip sends.
var negotiateTests = []struct {
	name, header string
	want, gzOnly string
}{
	{"no header", "", "", ""},
	{"Chromium", "gzip, deflate, br, zstd", "br", "gzip"},
	{"Firefox", "gzip, deflate, br", "br", "gzip"},
	{"gzip only", "gzip", "gzip", "gzip"},
	{"br only", "br", "br", ""},
	{"upper case", "GZIP, BR", "br", "gzip"},
	{"br refused", "gzip, deflate, br;q=0", "gzip", "gzip"},
	{"br refused, spaces", "br ; q=0.0 , gzip", "gzip", "gzip"},
	{"gzip refused", "gzip;q=0", "", ""},
	{"both refused", "br;q=0, gzip;q=0", "", ""},
	{"gzip weighs more", "br;q=0.5, gzip;q=0.8", "gzip", "gzip"},
	{"br weighs more", "br;q=1.0, gzip;q=0.5", "br", "gzip"},
	{"a tie goes to br", "gzip;q=0.5, br;q=0.5", "br", "gzip"},
	{"identity weighs more", "identity, gzip;q=0.5, br;q=0.5", "", ""},
	{"identity ties with br", "identity;q=0.5, br;q=0.5", "br", ""},
	{"unlisted identity comes last", "br;q=0.001", "br", ""},
	{"star", "*", "br", "gzip"},
	{"star but br", "*, br;q=0", "gzip", "gzip"},
	{"star refused", "*;q=0", "", ""},
	{"star refused but gzip", "*;q=0, gzip", "gzip", "gzip"},
	{"everything refused", "identity;q=0, *;q=0", "", ""},
	{"x-gzip is another name", "x-gzip", "", ""},
	{"deflate only", "deflate", "", ""},
	{"bad weight", "br;q=high, gzip", "gzip", "gzip"},
	{"weight over 1", "br;q=2, gzip;q=0.9", "gzip", "gzip"},
	{"negative weight", "br;q=-1", "", ""},
	{"other parameter", "br;level=11", "br", ""},
	{"empty items", ",, br ,", "br", ""},
}

func TestNegotiate(t *testing.T) {
	both := &siteFile{identity: encoding{}, codings: []encoding{{name: "br"}, {name: "gzip"}}}
	gzOnly := &siteFile{identity: encoding{}, codings: []encoding{{name: "gzip"}}}
	for _, c := range negotiateTests {
		if got := both.negotiate(c.header).name; got != c.want {
			t.Errorf("%s: %q gets %q, want %q", c.name, c.header, got, c.want)
		}
		if got := gzOnly.negotiate(c.header).name; got != c.gzOnly {
			t.Errorf("%s, a file without brotli: %q gets %q, want %q", c.name, c.header, got, c.gzOnly)
		}
	}
}
