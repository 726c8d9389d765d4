//go:build !js

package main

import (
	"encoding/json"
	"slices"
	"testing"

	"backoffcalc/app/internal/engine"
	"backoffcalc/app/internal/work"
)

// copyText is what a copy of e in format copies: the engine's writing of the page's results,
// after their crossing to the worker as JSON (work.Copy).
func copyText(t *testing.T, e exported, format string) string {
	t.Helper()
	in, err := json.Marshal(work.CopyIn{Results: e.Results, Format: format})
	if err != nil {
		t.Fatal(err)
	}
	reply, _, _ := engine.Handle(work.Copy, string(in), nil)
	var r work.Reply[string]
	if err := json.Unmarshal([]byte(reply), &r); err != nil || r.Err != "" || r.Panic != "" {
		t.Fatalf("the engine's reply to a copy in %s: %v %q %q", format, err, r.Err, r.Panic)
	}
	return r.Out
}

// The page's copies are table's output for the same link, and say what they leave out: here
// the contention experiment, which runs only when its section comes into view, and B's
// contention headlines, which a button computes.
func TestExportedIsTable(t *testing.T) {
	for _, q := range []string{
		"budget=2s&jitter=full&base=500ms&vs=preset%3Daws-go-v2",
		"rate=40&run=1s&timeout=300ms&limiter=aws&vs=rate%3D40%26run%3D1s%26jitter%3Dequal",
	} {
		p, _ := navPage(t, q)
		e := p.exported()
		wantMissing := []string{"the contention experiment (it runs when its section comes into view)",
			"the contention headlines of A and B (their button in the compare section computes them)"}
		if !slices.Equal(e.missing, wantMissing) {
			t.Errorf("%s: missing %q, want %q", q, e.missing, wantMissing)
		}
		for _, f := range []struct {
			format string
			got    string
		}{
			{"csv", copyText(t, e, "csv")},
			{"md", copyText(t, e, "md")},
		} {
			if want, _, _ := runTableOut(t, "-format", f.format, q); f.got != want {
				t.Errorf("%s -format %s: the page copies\n%s\ntable writes\n%s", q, f.format, f.got, want)
			}
		}
		partOf[*contentionSection](p).seen = true
		if m := p.exported().missing; len(m) != 2 || m[0] != "the contention experiment (still being computed)" {
			t.Errorf("%s: once seen, missing %q", q, m)
		}
	}
	if got := without([]string{"a (x)", "b", "c"}); got != " without a (x), b and c" {
		t.Errorf("without: %q", got)
	}
}

// A herd over the simulation's limits is copied as its expected counts, as table writes them,
// not left out as still being computed.
func TestExportedFluidHerd(t *testing.T) {
	const q = "clients=1000000&outage=2s&capacity=5000"
	p, _ := navPage(t, q)
	e := p.exported()
	if want := []string{"the contention experiment (it runs when its section comes into view)"}; !slices.Equal(e.missing, want) || len(e.Fluid) != 6 {
		t.Errorf("missing %q, want %q; %d modes of expected counts", e.missing, want, len(e.Fluid))
	}
	if want, _, _ := runTableOut(t, "-format", "csv", q); copyText(t, e, "csv") != want {
		t.Errorf("the page copies\n%s\ntable writes\n%s", copyText(t, e, "csv"), want)
	}
}
