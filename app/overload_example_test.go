//go:build !js

package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/sim"
)

// TestOverloadWorkedExample runs docs/overload.md's worked example of the overload model through
// table and finds every line of the excerpt it prints in what table prints, so that the doc's
// numbers are the calculator's and stay so.
func TestOverloadWorkedExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/overload.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## A worked example: an outage")
	if !ok {
		t.Fatal("docs/overload.md has no worked example")
	}
	blocks := strings.Split(sec, "```")
	if len(blocks) < 4 {
		t.Fatal("the worked example has no command and output blocks")
	}
	_, cmd, _ := strings.Cut(blocks[1], "go run ./app table '")
	query, _, ok := strings.Cut(cmd, "'")
	if !ok {
		t.Fatalf("no table command in %q", blocks[1])
	}
	out, errOut, code := runTableOut(t, query)
	if code != 0 {
		t.Fatalf("table %q: exit %d: %s", query, code, errOut)
	}
	lines := 0
	for line := range strings.SplitSeq(strings.Trim(blocks[3], "\n"), "\n") {
		lines++
		if !strings.Contains(out, line) {
			t.Errorf("table %q does not print docs/overload.md's line\n%s", query, line)
		}
	}
	if lines < 3 {
		t.Errorf("docs/overload.md's excerpt has %d lines", lines)
	}
}

// The README says which limiters bring the server of its overload link back at the outage's end
// (issue 37: it said "any of five real limiters", where there are six and failsafe-go's does not):
// each of the six libraries' limiters, run on the policy's own mode, is named on the side of
// the sentence that its run is on.
func TestReadmeOverloadLimiters(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const link = "rate=80&run=60s&outage=2s&capacity=10&window=100ms&queue=100&timeout=500ms&clients=1"
	text := strings.Join(strings.Fields(string(readme)), " ")
	_, claim, ok := strings.Cut(text, "without a limiter it comes back only after the stream ends, at 1.05 min; ")
	if !ok || !strings.Contains(text, "[`?"+link+"#overload-section`]") {
		t.Fatal("the README has no overload claim on its link")
	}
	back, notBack, _ := strings.Cut(claim, ", at 2 s; ")
	notBack, _, _ = strings.Cut(notBack, ".")
	if back != "with five of the six libraries' limiters (gRPC's, AWS's two, Finagle's and Envoy's)" ||
		notBack != "with failsafe-go's retry budget, not by the end of the run" {
		t.Fatalf("the README says %q, then %q", back, notBack)
	}
	p, err := libs.Decode(link)
	if err != nil {
		t.Fatal(err)
	}
	// Written by hand from the README's key table: the libraries' limiters, and who is back at 2 s.
	for l, want := range map[limiter.Kind]bool{limiter.GRPC: true, limiter.AWS: true, limiter.AWS2026: true,
		limiter.Finagle: true, limiter.Envoy: true, limiter.Failsafe: false} {
		run, err := sim.Overload(p, calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: l, Breaker: breaker.None})
		if err != nil {
			t.Fatal(err)
		}
		if back := run.Recovers() && run.Recovered == 2*time.Second; back != want {
			t.Errorf("%s: recovered at %v, the README says back at 2 s: %v", l, run.Recovered, want)
		}
	}
}
