package importcfg

import (
	"errors"
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

// Reads at the same time of the same text, which share its parse, each say what they read
// (go test -race checks that they do not share it at once).
func TestReadConcurrently(t *testing.T) {
	text := grpcCases[0].text
	want, err := Read(text)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := Read(text)
			if err == nil && strings.Join(got.Read, "\n") != strings.Join(want.Read, "\n") {
				err = errors.New("another Read: " + strings.Join(got.Read, "\n"))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
