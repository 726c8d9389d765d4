// The overload simulation against the real failsafe-go retry policy and budget, a test-only
// module compared natively (calc/limiter/failsafe_test.go compares the budget alone).

//go:build !js

package sim

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
	fsgo "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/budget"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
)

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
			p := calc.Default()
			p.Clients, p.Spread, p.Attempts, p.Call, p.Outage, p.FailRate = tt.n, time.Duration(tt.n)*time.Microsecond, tt.attempts, tt.call, tt.outage, tt.failRate
			p.Jitter, p.Base, p.Factor, p.Cap, p.Capacity, p.Processes = policy.None, tt.delay, 1, tt.delay, 0, tt.processes
			p.Limiter, p.Seed = limiter.Failsafe, 3
			run, err := Overload(p, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.Failsafe})
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
							fails := at < tt.outage || (tt.failRate > 0 && mathx.Unit(&rng) < tt.failRate)
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

var errFailed = errors.New("failed")
