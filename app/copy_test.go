//go:build !js

package main

import (
	"slices"
	"testing"

	"backoffcalc/app/internal/report"
)

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
			{"csv", e.text(report.WriteCSV)},
			{"md", e.text(report.WriteMarkdown)},
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
	if want, _, _ := runTableOut(t, "-format", "csv", q); e.text(report.WriteCSV) != want {
		t.Errorf("the page copies\n%s\ntable writes\n%s", e.text(report.WriteCSV), want)
	}
}
