package limiter

import "time"

// The two client strategies of Marc Brooker's "Fixing retries with token buckets and circuit
// breakers" (brooker.co.za/blog/2022/02/28/retries.html), as his simulation writes them:
// mbrooker/simulator_example, retry_sim/retry_strategy.py at commit 7aa858b (2022),
// AdaptiveRetryStrategy and CircuitBreakerRetryStrategy, run with AdaptiveRetryFactory(0.1, 5)
// and CircuitBreakerRetryFactory(NRetriesFactory(3), 0.1) in retry_sim.py. Each client of the
// simulation makes one and keeps it for its life; here each client process does.

// Brooker's parameters, as retry_sim.py runs them.
const (
	AdaptiveSize     = 5   // bucket_size: the bucket starts full
	AdaptiveFill     = 0.1 // bucket_fill_rate: added at each call's start
	RetryBreakerRate = 10  // max_rate 0.1, as failures × RetryBreakerRate > calls
)

// adaptiveBucket is AdaptiveRetryStrategy: each call's start adds 0.1 to the bucket, up to 5; a
// retry is allowed when the bucket holds more than 1, and takes 1. So a full bucket allows 4
// retries in a row (5 → 1), then one per 10 calls. Brooker's strategy has no attempt limit of
// its own; here the policy's attempts still end a request, and its last failure asks for nothing
// (the request ends before any retry is wanted).
//
// The bucket is kept in tenths, an integer, so that 0.1 added fifty times is exactly 5 (the
// Python float sum drifts by an ulp, which moves no decision of a bucket compared with 1).
type adaptiveBucket struct{ tenths int }

func newAdaptiveBucket() *adaptiveBucket { return &adaptiveBucket{tenths: AdaptiveSize * 10} }

func (b *adaptiveBucket) Begin(time.Duration) {
	b.tenths = min(b.tenths+int(AdaptiveFill*10), AdaptiveSize*10)
}

func (b *adaptiveBucket) Retry(f Failure) (bool, int) {
	if f.Last || b.tenths <= 10 {
		return false, 0
	}
	b.tenths -= 10
	return true, 0
}

func (b *adaptiveBucket) Succeed(time.Duration, int, int) {}

// retryBreaker is CircuitBreakerRetryStrategy: it counts the calls started and the failures seen
// over the client's life, and allows no retry once failures/calls is over 10%. Every failure
// counts, the last attempt's too, before the check (should_retry adds it first, then asks the
// policy). The rule is kept in integers, failures × 10 > calls: a float quotient of two counts
// below 2^53 is over float64(0.1) exactly when the fraction is over 1/10.
type retryBreaker struct{ calls, failures int }

func (b *retryBreaker) Begin(time.Duration) { b.calls++ }

func (b *retryBreaker) Retry(Failure) (bool, int) {
	b.failures++
	return b.failures*RetryBreakerRate <= b.calls, 0
}

func (b *retryBreaker) Succeed(time.Duration, int, int) {}
