package calc

import (
	"slices"
	"testing"
)

// A first run of many clients grows its window buffers a slice at a time, pausing between, and
// gives the same result.
func TestHerdPreparePauses(t *testing.T) {
	p := mustDecode(t, "clients=20000&attempts=6&jitter=full")
	want, _ := p.HerdMode(Backoff(Full))
	herdScratches.Get() // the next run starts from new buffers
	pauses := 0
	got, done, _ := p.HerdModePausing(Backoff(Full), func() bool { pauses++; return true })
	if !done || !slices.Equal(got.Arrivals, want.Arrivals) || got.Peak != want.Peak {
		t.Errorf("a run on new buffers differs: %+v", got)
	}
	growing := (p.Clients + PauseEvery - 1) / PauseEvery
	if wantPauses := want.Attempts/PauseEvery + p.Clients/PauseEvery + growing; pauses != wantPauses {
		t.Errorf("%d pauses on new buffers, want %d (%d while growing them)", pauses, wantPauses, growing)
	}
}
