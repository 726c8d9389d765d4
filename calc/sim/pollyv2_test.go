package sim

import (
	"fmt"
	"reflect"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// TestPollyV2Herd: the herd runs Polly's jitter like any other mode, the same every time, as
// the plain heap model does, every client within the schedule.
func TestPollyV2Herd(t *testing.T) {
	for _, q := range []string{
		"jitter=decorrelatedv2&clients=2000&attempts=8&cap=5s&outage=2s&capacity=50&window=50ms&spread=200ms",
		"jitter=decorrelatedv2&clients=300&attempts=12&base=10ms&cap=1s&outage=1s&capacity=5&budget=3s&call=5ms",
	} {
		for seed := range 3 {
			p := mustDecode(t, fmt.Sprintf("%s&seed=%d", q, seed))
			m := calc.Backoff(policy.DecorrelatedV2)
			run, err := HerdMode(p, m)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := HerdMode(p, m); !reflect.DeepEqual(run, again) {
				t.Fatalf("%s: two runs differ", p.Encode())
			}
			if paused, done, _ := HerdModePausing(p, m, func() bool { return true }); !done || !reflect.DeepEqual(run, paused) {
				t.Fatalf("%s: the paused run differs", p.Encode())
			}
			if heap, _ := herdByHeap(p, m); !reflect.DeepEqual(run, heap) {
				t.Fatalf("%s:\n got %+v\nheap %+v", p.Encode(), run, heap)
			}
			if run.Accepted+run.GaveUp != p.Clients || run.Accepted == 0 || run.Mode != m {
				t.Fatalf("%s: %+v", p.Encode(), run)
			}
			checkHerd(t, p, m)
			rows := p.Schedule().Rows
			_, times := seenAttempts(t, p, m)
			for i, ts := range times {
				for n, at := range ts {
					if at -= p.ClientStart(i); at < rows[n].Earliest || at > rows[n].Latest {
						t.Fatalf("%s: client %d attempt %d at +%v, outside [%v, %v]", p.Encode(), i, n+1, at, rows[n].Earliest, rows[n].Latest)
					}
				}
			}
		}
	}
	// Polly's waits never outrun decorrelated jitter's bounds (2^k/1.4 against 3^k times base),
	// so a herd that runs Polly's mode needs no more windows than the classic modes. A mode
	// outside p.HerdModes can: additive jitter of a day needs more windows than the classic
	// modes, and only that mode is refused.
	p := mustDecode(t, "jitter=decorrelatedv2&add=24h&base=1ms&factor=1&cap=1ms&attempts=200&clients=10&window=1s")
	if p.ValidateHerd() != nil || p.HerdHorizon(calc.Backoff(policy.DecorrelatedV2)) != p.WithJitter(policy.Full).HerdHorizon(calc.Immediate) {
		t.Fatal("Polly's mode changes the herd's horizon")
	}
	if _, err := HerdMode(p, calc.Backoff(policy.Additive)); err == nil {
		t.Error("additive waits run past the windows, yet the mode ran")
	}
}
