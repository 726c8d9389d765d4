// The real failsafe-go is a test-only module, compared natively, as the breakers are
// (breaker_real_test.go).

//go:build !js

package limiter

import (
	"math/rand/v2"
	"testing"

	"github.com/failsafe-go/failsafe-go/budget"
)

// realBudget is what failsafe-go's retry executor calls on a budget (its internal.Budget),
// which the concrete type behind budget.Budget has.
type realBudget interface {
	RecordExecution()
	ReleaseExecution()
	TryAcquirePermit() bool
	ReleasePermit()
}

func newRealBudget(t *testing.T, maxRate float64, minConcurrency int) realBudget {
	t.Helper()
	b, ok := budget.NewBuilder().WithMaxRate(maxRate).WithMinConcurrency(uint(minConcurrency)).Build().(realBudget)
	if !ok {
		t.Fatal("failsafe-go's budget has no RecordExecution, TryAcquirePermit and their releases")
	}
	return b
}

var failsafeConfigs = []struct {
	maxRate float64
	min     int
}{{0.2, 3}, {0.1, 1}, {0.5, 0}, {0.3, 5}, {0, 0}, {1, 2}, {0.25, 3}}

// TestFailsafeBudgetBoundary puts the real budget in every state of requests under way and
// permits in flight it can reach (up to 120 requests) and compares its TryAcquirePermit with
// ours. A state past the limit is reached by recording spare executions while acquiring, then
// releasing them; with maxRate 0 no more than minConcurrency permits can be had.
func TestFailsafeBudgetBoundary(t *testing.T) {
	for _, cfg := range failsafeConfigs {
		ours := failsafeBudget{maxRate: cfg.maxRate, min: cfg.min}
		compared := 0
	states:
		for n := 1; n <= 120; n++ {
			for k := 0; k < n; k++ {
				b := newRealBudget(t, cfg.maxRate, cfg.min)
				spare := 0
				if cfg.maxRate > 0 {
					spare = int(float64(k)/cfg.maxRate) + 1
				}
				for range n + spare {
					b.RecordExecution()
				}
				for range k {
					if !b.TryAcquirePermit() {
						continue states
					}
				}
				for range spare {
					b.ReleaseExecution()
				}
				got := ours.Start(Failure{Requests: n, ActiveRetries: k})
				if want := b.TryAcquirePermit(); got != want {
					t.Fatalf("%v, %d requests, %d retries in flight: ours allows %v, failsafe-go %v", cfg, n, k, got, want)
				}
				compared++
			}
		}
		if compared < 120 {
			t.Errorf("%v: %d states compared", cfg, compared)
		}
	}
	// The brief's numbers: 6 at once of 20 requests (Envoy's 20% of 20 attempts: 4), 26 of 100
	// (20), and the minimum of 3 below 8 requests.
	d := Defaults()
	b := failsafeBudget{maxRate: d.FailsafeMaxRate, min: d.FailsafeMinConcurrency}
	for _, tt := range []struct{ n, want int }{{20, 6}, {100, 26}, {7, 3}, {8, 3}, {12, 4}, {2, 2}} {
		if got := b.atOnce(tt.n); got != tt.want {
			t.Errorf("%d requests: %d retries at once, want %d", tt.n, got, tt.want)
		}
	}
}

// TestFailsafeBudgetSequence drives the real budget and ours through the same seeded sequence
// of requests entering and leaving and retries starting and ending, in phases of many and few
// requests, ours told the counts the simulation keeps, and compares every decision.
func TestFailsafeBudgetSequence(t *testing.T) {
	for ci, cfg := range failsafeConfigs {
		real := newRealBudget(t, cfg.maxRate, cfg.min)
		ours := failsafeBudget{maxRate: cfg.maxRate, min: cfg.min}
		r := rand.New(rand.NewPCG(7, uint64(ci)))
		requests, waiting, inflight := 0, 0, 0 // under way; of them, waiting to retry; retries in flight
		allowed, refused := 0, 0
		for step := range 50000 {
			grow := step/5000%2 == 0
			switch x := r.IntN(10); {
			case x < 3 && (grow || requests < 5):
				real.RecordExecution()
				requests++
			case x < 5 && waiting > 0:
				// A waiting request's retry starts: refused, the request ends.
				ok := ours.Start(Failure{Requests: requests, ActiveRetries: inflight})
				if want := real.TryAcquirePermit(); ok != want {
					t.Fatalf("%v step %d, %d requests, %d in flight: ours %v, failsafe-go %v", cfg, step, requests, inflight, ok, want)
				}
				waiting--
				if ok {
					inflight++
					allowed++
				} else {
					real.ReleaseExecution()
					requests--
					refused++
				}
			case x < 7 && inflight > 0:
				// A retry ends: it fails and waits again, or its request ends.
				real.ReleasePermit()
				inflight--
				if r.IntN(2) == 0 {
					waiting++
				} else {
					real.ReleaseExecution()
					requests--
				}
			case x < 9 && requests > waiting+inflight:
				// A first attempt fails: its request waits to retry.
				waiting++
			case requests > waiting+inflight && !grow:
				// A request whose first attempt is out ends.
				real.ReleaseExecution()
				requests--
			}
		}
		if allowed == 0 || (refused == 0 && cfg.maxRate < 0.5) {
			t.Errorf("%v: %d retries allowed, %d refused: the comparison saw one branch", cfg, allowed, refused)
		}
	}
}
