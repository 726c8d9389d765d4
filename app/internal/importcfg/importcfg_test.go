package importcfg

import (
	"net/url"
	"strings"
	"testing"
)

func TestReadRefusesEmptyAndOversize(t *testing.T) {
	for _, text := range []string{"", " \n\t", strings.Repeat("x", MaxSize+1)} {
		if _, err := Read(text); err == nil {
			t.Errorf("Read(%d bytes) gave no error", len(text))
		}
	}
}

func TestLinkKeepsWhatTheImportDoesNotSet(t *testing.T) {
	r := Result{Values: url.Values{"base": {"2s"}, "attempts": {"4"}}}
	got := r.Link(url.Values{"base": {"1s"}, "clients": {"50"}}).Encode()
	if want := "attempts=4&base=2s&clients=50"; got != want {
		t.Errorf("Link = %s, want %s", got, want)
	}
}

// A file saved on Windows, with a byte order mark and CRLF line ends, reads as the same file
// saved elsewhere.
func TestReadWindowsText(t *testing.T) {
	for _, cases := range [][]readCase{grpcCases, envoyCases, awsCases, r4jCases, dotnetCases} {
		c := cases[0]
		want, err := Read(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := Read("\ufeff" + strings.ReplaceAll(c.text, "\n", "\r\n"))
		if err != nil || got.Format != want.Format || got.Link(nil).Encode() != want.Link(nil).Encode() {
			t.Errorf("%s with a BOM and CRLF: %v, %v; want %v", c.name, err, got.Values, want.Values)
		}
	}
}
