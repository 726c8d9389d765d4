//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TestFormHintsNameModes checks the hints that name jitter modes, which the form takes from
// calc's table of modes, against the words written by hand.
func TestFormHintsNameModes(t *testing.T) {
	want := map[string]string{
		"factor": "growth per retry (decorrelated and decorrelatedv2 ignore it)",
		"jitter": "upward, fullms, additive, decorrelatedv2, sidekiq, sidekiq7 and fullsec are what k8s, Envoy, tenacity, Polly, Sidekiq, Sidekiq 7 and Celery do",
		"ratio":  "proportional and upward jitter: 0.2 is 20%",
		"capat":  "before: cap the nominal delay; after: clamp the drawn wait; fixed: exactly cap, unjittered, once over it (decorrelated and decorrelatedv2 always clamp the drawn wait)",
		"first":  "exact: the first retry waits exactly base (gRPC reconnects); decorrelated and decorrelatedv2 jitter it",
		"add":    "additive jitter only: waits in [d, d + this]",
		"offset": "added to every wait, after the draw and the cap (Sidekiq's 15 s); decorrelated and decorrelatedv2 ignore it",
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

// TestMoreInputsOpen: on a wide screen the group one step away opens by itself when the link
// sets one of its inputs or one of them is wrong, and stays open while the person edits in it.
// On a phone only an error opens it; its summary names what the link set.
func TestMoreInputsOpen(t *testing.T) {
	for _, wide := range []bool{true, false} {
		wideScreen = func() bool { return wide }
		for _, c := range []struct {
			query     string
			set, open bool // set: the link sets an input of the group
			summary   string
		}{
			{"", false, false, "ratio, cap applies"},
			{"base=250ms&attempts=8&jitter=equal&budget=20s", false, false, "ratio, cap applies"},
			{"ratio=0.3&jitter=proportional", true, false, "set by this link: ratio 0.3"},
			{"seed=7", true, false, "set by this link: seed 7"},
			{"clients=500&layers=2", true, false, "set by this link: clients 500, layers 2"},
			{"call=abc", true, true, "set by this link: call duration abc"},             // an error
			{"samples=-1", true, true, "set by this link: samples -1"},                  // an error
			{"preset=grpc-connect", true, false, "set by this link: first retry exact"}, // the preset sets inputs of the group
		} {
			p, _ := navPage(t, c.query)
			want := c.open || c.set && wide
			if got := moreOpen(t, p); got != want {
				t.Errorf("wide %v, %q: open %v, want %v", wide, c.query, got, want)
			}
			if html := app.HTMLString(p); !strings.Contains(html, c.summary) {
				t.Errorf("wide %v, %q: the summary does not say %q", wide, c.query, c.summary)
			}
		}
	}
	wideScreen = func() bool { return true }
	defer func() { wideScreen = func() bool { return false } }()
	p, d := navPage(t, "seed=7")
	typeInto(p, d, "seed", "1") // back to the default, typed in the open group
	if !moreOpen(t, p) {
		t.Error("the group closed under the person's hands when a value went back to its default")
	}
}
