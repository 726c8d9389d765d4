package limiter

import "time"

// failsafeBudget is failsafe-go's retry budget (failsafe-go v0.9.8, budget/budget.go, as
// retrypolicy/retryexecutor.go drives it when a RetryPolicy has WithBudget). Its executions are
// every request in the executor (RecordExecution when it enters, ReleaseExecution when it ends,
// waits between attempts included) plus every retry in flight, which holds a permit from its
// start (TryAcquirePermit, after the wait) to its outcome (ReleasePermit): a retry in flight
// counts twice. A first attempt takes no permit. A retry may start unless at least
// minConcurrency retries are in flight and they are more than maxRate of the executions; a
// refused retry ends its request then, failed with budget.ErrExceeded. With the defaults (0.2,
// 3) and 20 requests under way, k retries in flight let one more start while k < 3 or
// k/(20 + k) <= 0.2, that is k <= 5: 6 run at once, where Envoy's 20% of 20 attempts in flight
// lets 4.
type failsafeBudget struct {
	maxRate float64
	min     int
}

func (failsafeBudget) Begin(time.Duration) {}

// Retry allows every retry at its failure: the budget is asked when it starts.
func (failsafeBudget) Retry(Failure) (bool, int) { return true, 0 }

// Start is TryAcquirePermit: f.Requests requests under way (RecordExecution's count) and
// f.ActiveRetries permits (inflight), which the retry's own permit joins when it is allowed.
func (b failsafeBudget) Start(f Failure) bool {
	return b.allows(f.ActiveRetries, f.Requests)
}

func (failsafeBudget) Succeed(time.Duration, int, int) {}

// allows is TryAcquirePermit's test with inflight permits and requests under way: the
// executions are both, and Rate is 0 without any.
func (b failsafeBudget) allows(inflight, requests int) bool {
	rate, executions := 0.0, inflight+requests
	if executions != 0 {
		rate = float64(inflight) / float64(executions)
	}
	return !(inflight >= b.min && rate > b.maxRate)
}

// atOnce is how many retries may run at once with requests under way: the first count of
// permits at which another is refused, at most requests (each retry in flight is one of them).
// It is max(min, ⌊maxRate × requests / (1 − maxRate)⌋ + 1) where the float division agrees;
// the loop is exact.
func (b failsafeBudget) atOnce(requests int) int {
	k := 0
	for k < requests && b.allows(k, requests) {
		k++
	}
	return k
}

// FailsafeAtOnce is how many retries a failsafe budget with parameters p lets run at once with
// requests under way (6 of 20 with the defaults).
func FailsafeAtOnce(p Params, requests int) int {
	return failsafeBudget{maxRate: p.FailsafeMaxRate, min: p.FailsafeMinConcurrency}.atOnce(requests)
}
