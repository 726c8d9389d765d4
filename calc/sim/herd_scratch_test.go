package sim

import (
	"slices"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// A first run of many clients grows its window buffers a slice at a time, pausing between, and
// gives the same result.
func TestHerdPreparePauses(t *testing.T) {
	p := mustDecode(t, "clients=20000&attempts=6&jitter=full")
	want, _ := HerdMode(p, calc.Backoff(policy.Full))
	herdScratches.Get() // the next run starts from new buffers
	pauses := 0
	got, done, _ := HerdModePausing(p, calc.Backoff(policy.Full), func() bool { pauses++; return true })
	if !done || !slices.Equal(got.Arrivals, want.Arrivals) || got.Peak != want.Peak {
		t.Errorf("a run on new buffers differs: %+v", got)
	}
	growing := (p.Clients + policy.PauseEvery - 1) / policy.PauseEvery
	if wantPauses := want.Attempts/policy.PauseEvery + p.Clients/policy.PauseEvery + growing; pauses != wantPauses {
		t.Errorf("%d pauses on new buffers, want %d (%d while growing them)", pauses, wantPauses, growing)
	}
}
