//go:build !js

package main

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TestFormHintsNameModes checks the hints that name jitter modes, which the form takes from
// calc's table of modes, against the words written by hand.
func TestFormHintsNameModes(t *testing.T) {
	want := map[string]string{
		"factor": "growth per retry (decorrelated and decorrelatedv2 ignore it)",
		"jitter": "upward, fullms, additive and decorrelatedv2 are what k8s, Envoy, tenacity and Polly do",
		"ratio":  "proportional and upward jitter: 0.2 is 20%",
		"capat":  "before: cap the nominal delay; after: clamp the drawn wait; fixed: exactly cap, unjittered, once over it (decorrelated and decorrelatedv2 always clamp the drawn wait)",
		"first":  "exact: the first retry waits exactly base (gRPC reconnects); decorrelated and decorrelatedv2 jitter it",
		"add":    "additive jitter only: waits in [d, d + this]",
	}
	for _, g := range formGroups {
		for _, f := range g.fields {
			if w, ok := want[f.key]; ok {
				if f.hint != w {
					t.Errorf("%s:\n got %s\nwant %s", f.key, f.hint, w)
				}
				delete(want, f.key)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no field for %v", want)
	}
}

// moreOpen reports whether the page's group of inputs one step away is open.
func moreOpen(t *testing.T, p *page) bool {
	t.Helper()
	for _, d := range elements(app.HTMLString(p), "details") {
		if d["id"] == "more-inputs" {
			_, open := d["open"]
			return open
		}
	}
	t.Fatal("no group of inputs one step away")
	return false
}

// TestMoreInputsOpen: the group one step away opens by itself when the link sets one of its
// inputs or one of them is wrong, and stays open while the person edits in it.
func TestMoreInputsOpen(t *testing.T) {
	for _, c := range []struct {
		query string
		open  bool
	}{
		{"", false},
		{"base=250ms&attempts=8&jitter=equal&budget=20s", false},
		{"ratio=0.3&jitter=proportional", true},
		{"seed=7", true},
		{"clients=500", true},
		{"call=abc", true},            // an error
		{"samples=-1", true},          // an error
		{"preset=grpc-connect", true}, // the preset sets inputs of the group
	} {
		p, _ := navPage(t, c.query)
		if got := moreOpen(t, p); got != c.open {
			t.Errorf("%q: open %v, want %v", c.query, got, c.open)
		}
	}

	p, d := navPage(t, "seed=7")
	typeInto(p, d, "seed", "1") // back to the default, typed in the open group
	if !moreOpen(t, p) {
		t.Error("the group closed under the person's hands when a value went back to its default")
	}
}
