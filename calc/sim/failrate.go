package sim

import (
	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
)

// A server that fails a share of attempts (OverloadInputs.FailRate, docs/overload-model.md,
// "Errors"): each attempt outside the outage fails on its own with probability f. From the policy
// alone, without running anything, a request of n attempts makes 1 + f + … + f^(n−1) of them
// (attempt k+1 happens when the first k failed, probability f^k) and fails only when all n fail,
// f^n. Each limiter's errorBound (overload_limiters.go) is the long-run bound it puts on the retries, derived
// below from its rule; ErrorRate puts the two together.

// ErrorRate is the closed form of an error rate f = FailRate with no outage, no capacity limit and
// no timeout: what the policy alone makes of f, and what each limiter bounds that to.
type ErrorRate struct {
	FailRate float64
	// Attempts is the expected attempts per request: Σ_{k<n} f^k for n = Attempts.
	Attempts float64
	// Success is the share of requests that succeed: 1 − f^n.
	Success float64
	// Retries is Attempts − 1, the load the retries add per request; RetriesPerSecond is that
	// times the stream's rate (0 without a stream).
	Retries, RetriesPerSecond float64
	// Limiters are the shown limiters' bounds (Params.Shown), in that order.
	Limiters []ErrorBound
}

// ErrorBound is what one limiter makes of an error rate in the long run.
type ErrorBound struct {
	Limiter limiter.Kind
	// Bounded says the limiter's rule puts a bound on the retries at this error rate; when it
	// does not, Retries is the policy's.
	Bounded bool
	// Bound is the most retries per request its rule allows in the long run (0 when not Bounded).
	Bound float64
	// Retries is the fewer of the policy's retries per request and Bound; Attempts is 1 + Retries,
	// AttemptsPerSecond that times the stream's rate (0 without a stream).
	Retries, Attempts, AttemptsPerSecond float64
}

// ErrorRate is p's closed form for its FailRate. With 4 attempts and f = 0.5 a request makes
// 1 + 0.5 + 0.25 + 0.125 = 1.875 attempts and succeeds with probability 1 − 0.5^4 = 0.9375,
// the numbers of Brooker's "Fixing retries" post for three retries.
func ErrorRateOf(p calc.Params) ErrorRate {
	f := p.FailRate
	e := ErrorRate{FailRate: f}
	fk := 1.0 // f^k
	for range max(p.Attempts, 1) {
		e.Attempts += fk
		fk *= f
	}
	e.Success = 1 - fk
	e.Retries = e.Attempts - 1
	rate := 0.0 // of the stream; without one there is nothing per second
	if p.HasStream() {
		rate = p.Rate
	}
	e.RetriesPerSecond = e.Retries * rate
	for _, k := range p.Shown() {
		b := ErrorBound{Limiter: k, Retries: e.Retries}
		if eb := saying(k).errorBound; eb != nil {
			b.Bound, b.Bounded = eb(p)
			if !b.Bounded {
				b.Bound = 0
			} else {
				b.Retries = min(b.Retries, b.Bound)
			}
		}
		b.Attempts = 1 + b.Retries
		b.AttemptsPerSecond = b.Attempts * rate
		e.Limiters = append(e.Limiters, b)
	}
	return e
}

// finagleErrorBound: the budgets admit FinagleRetriesPerSecond retries per second over time,
// whatever fails; per request of the stream that is that over Rate. Without a stream there is no
// rate to share it over, and no bound per request.
func finagleErrorBound(p calc.Params) (float64, bool) {
	if p.Rate == 0 || p.Run == 0 {
		return 0, false
	}
	return FinagleRetriesPerSecond(p) / p.Rate, true
}

// breakerErrorBound: the breaker allows a retry while failures ≤ 10% of calls over its life. A
// request that makes 1 + R attempts fails f(1 + R) of them on average, so when the policy's
// retries would push that over 0.1 the breaker holds it there: f(1 + R) = 0.1, R = 0.1/f − 1, and
// none once f ≥ 0.1 (its first attempts alone fail 10%). At f = 0.05: 1 retry per request, more
// than 3 attempts ask for, so no bound binds; at f = 0.095: 0.0526.
func breakerErrorBound(p calc.Params) (float64, bool) {
	f := p.FailRate
	if f == 0 {
		return 0, false
	}
	return max(0, 1/(limiter.RetryBreakerRate*f)-1), true
}
