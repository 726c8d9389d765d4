//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// TestTableCompareOpenHerd: for an open system, table's comparison gives the herd's headline of
// the policy's own overload run (its mode with its limiter), as the page does, not "not simulated",
// and says that it is that run, whose counts are requests (the stream's with the crowd's clients).
func TestTableCompareOpenHerd(t *testing.T) {
	q := "rate=80&run=10s&outage=2s&capacity=10&window=100ms&queue=100&timeout=500ms&clients=1&limiter=grpc"
	out, errOut, code := runTableOut(t, q+"&vs=preset%3Daws-go-v2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	p, err := calc.Decode(q)
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.Overload(p, calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: p.Limiter})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("Herd, each in its own jitter mode: A its overload run, limiter grpc: peak once back %d attempts per window at %s, peak while down %d attempts per window at %s, %d requests accepted, %d requests gave up,",
		run.PeakBack, policy.Human(float64(run.PeakBackAt)), run.PeakDown, policy.Human(float64(run.PeakDownAt)), run.Accepted, run.GaveUp)
	if !strings.Contains(out, want) {
		t.Errorf("table does not say %q:\n%s", want, out)
	}
}
