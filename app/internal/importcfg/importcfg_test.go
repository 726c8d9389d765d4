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
