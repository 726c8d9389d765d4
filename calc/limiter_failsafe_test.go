// The real failsafe-go is a test-only module, compared natively, as the breakers are
// (breaker_real_test.go).

//go:build !js

package calc

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	fsgo "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/budget"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
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
	d := DefaultLimiterParams()
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

// TestFailsafeRetryPolicyMatchesSimulation runs failsafe-go's RetryPolicy with WithBudget
// (WithDelay, WithMaxRetries) on synctest's fake clock, one goroutine per request, and the
// overload simulation on the same inputs, and compares the attempts, successes, refusals and
// requests out of attempts. Request i starts i µs after 0, so no two requests' events share an
// instant; each attempt takes the call, and fails in the outage, or after it as the
// simulation's failrate draws (unit on the request's own stream, seeded as the simulation
// seeds it). A call longer than the delay keeps retries in flight while others wait.
func TestFailsafeRetryPolicyMatchesSimulation(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		attempts  int
		call      time.Duration
		delay     time.Duration
		outage    time.Duration
		failRate  float64
		processes int
	}{
		{"5 requests in an outage", 5, 3, 10 * ms, 100 * ms, time.Second, 0, 1},
		{"20 requests: 6 at once", 20, 2, 10 * ms, 100 * ms, time.Second, 0, 1},
		{"100 requests, long calls", 100, 4, 150 * ms, 100 * ms, 2 * time.Second, 0, 1},
		{"errors after an outage", 60, 4, 40 * ms, 50 * ms, 200 * ms, 0.5, 1},
		{"mostly successes", 100, 3, 30 * ms, 20 * ms, 0, 0.2, 1},
		{"two processes", 50, 5, 120 * ms, 60 * ms, 500 * ms, 0.3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Default()
			p.Clients, p.Spread, p.Attempts, p.Call, p.Outage, p.FailRate = tt.n, time.Duration(tt.n)*time.Microsecond, tt.attempts, tt.call, tt.outage, tt.failRate
			p.Jitter, p.Base, p.Factor, p.Cap, p.Capacity, p.Processes = None, tt.delay, 1, tt.delay, 0, tt.processes
			p.Limiter, p.Seed = LimiterFailsafe, 3
			run, err := p.Overload(OverloadCase{Mode: Backoff(None), Limiter: LimiterFailsafe})
			if err != nil {
				t.Fatal(err)
			}
			var attempts, accepted, refused, outOfAttempts int
			synctest.Test(t, func(t *testing.T) {
				budgets := make([]budget.Budget, tt.processes)
				for i := range budgets {
					budgets[i] = budget.New()
				}
				start := time.Now()
				var mu sync.Mutex
				var wg sync.WaitGroup
				for i := range tt.n {
					wg.Go(func() {
						time.Sleep(time.Duration(i) * time.Microsecond)
						policy := retrypolicy.NewBuilder[any]().WithDelay(tt.delay).WithMaxRetries(tt.attempts - 1).
							WithBudget(budgets[i%tt.processes]).Build()
						var rng rand.PCG
						rng.Seed(p.Seed, uint64(i))
						_, err := fsgo.With(policy).Get(func() (any, error) {
							at := time.Since(start)
							fails := at < tt.outage || (tt.failRate > 0 && unit(&rng) < tt.failRate)
							mu.Lock()
							attempts++
							mu.Unlock()
							time.Sleep(tt.call)
							if fails {
								return nil, errFailed
							}
							return "ok", nil
						})
						mu.Lock()
						defer mu.Unlock()
						var exceeded retrypolicy.ExceededError
						switch {
						case err == nil:
							accepted++
						case errors.Is(err, budget.ErrExceeded):
							refused++
						case errors.As(err, &exceeded):
							outOfAttempts++
						default:
							t.Errorf("request %d: %v", i, err)
						}
					})
				}
				wg.Wait()
			})
			if attempts != run.Attempts || accepted != run.Accepted || refused != run.Refused || outOfAttempts != run.OutOfAttempts {
				t.Errorf("failsafe-go: %d attempts, %d succeeded, %d refused, %d out of attempts; simulation %d, %d, %d, %d",
					attempts, accepted, refused, outOfAttempts, run.Attempts, run.Accepted, run.Refused, run.OutOfAttempts)
			}
			if refused == 0 {
				t.Errorf("no retry refused: the case does not reach the budget")
			}
			t.Logf("%d attempts, %d succeeded, %d refused, %d out of attempts", attempts, accepted, refused, outOfAttempts)
		})
	}
}
