package sim

import (
	"fmt"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// What the overload model says of each retry limiter of calc/limiter, which holds only the
// libraries' rules: its bound in words when every attempt fails (overload_words.go has the closed
// forms), its long-run bound on the retries of a server that fails a share of attempts
// (failrate.go derives them). Whether the view shows it only with an error rate is calc's
// errorsOnly (Params.Shown), as the cases Validate weighs need it. A new limiter is its
// package's entry and one entry here (TestLimitersComplete).

// limiterSaying is what the overload model says of one limiter.
type limiterSaying struct {
	// words says in one sentence what the limiter bounds the load to when every attempt fails,
	// starting with its name and a colon.
	words func(p calc.Params) string
	// errorBound is the most retries per request, in the long run, the limiter allows when each
	// attempt fails with probability p.FailRate and nothing else fails; ok is false where it puts
	// no bound on them. nil: no bound.
	errorBound func(p calc.Params) (retries float64, ok bool)
}

// limiterSays is the overload model's table of limiters, indexed by limiter.Kind. Each words
// derives its bound from the limiter's rule (calc/limiter), as its comment says; each errorBound
// is the long-run bound it puts on the retries of a server that fails a share of attempts.
var limiterSays = [limiter.Count]limiterSaying{
	limiter.None: {
		words: func(p calc.Params) string {
			offered, _ := FailingLoad(p)
			return "none: every request makes all its attempts" + withStream(p, ": "+perSecond(offered)+" attempts per second") + "."
		},
	},
	limiter.GRPC: {
		words: func(p calc.Params) string {
			n := limiter.GRPCRetriesUnderFailure(p.Limits.GRPCMaxTokens)
			return fmt.Sprintf("grpc: the tokens (%s) only come back with successes, and a retry needs more than half of them left after its failure: %s, %s.",
				policy.FormatFloat(p.Limits.GRPCMaxTokens), retriesInAll(p, n), firstAttemptsOnly(p))
		},
		// No bound in closed form: every failure takes a token and every success adds
		// tokenRatio r, so the tokens drift down when f > r/(1 + r) (1/11 at 0.1), but how
		// often they climb back over half is a random walk's (docs/overload-model.md, "Errors").
	},
	limiter.AWS: {
		words: func(p calc.Params) string {
			return fmt.Sprintf("aws: the quota of 500 only comes back with successes, at 5 per retry (10 after a timeout): %s (%d per process after timeouts), %s.",
				retriesInAll(p, limiter.AWSRetriesUnderFailure(limiter.AWS, false, false)), limiter.AWSRetriesUnderFailure(limiter.AWS, true, false), firstAttemptsOnly(p))
		},
		errorBound: func(p calc.Params) (float64, bool) { return limiter.AWSErrorBound(limiter.AWS, p.FailRate) },
	},
	limiter.AWS2026: {
		words: func(p calc.Params) string {
			return fmt.Sprintf("aws2026: the quota of 500 only comes back with successes, at 14 per retry (5 when the server was full): %s (%d per process when the server was full), %s.",
				retriesInAll(p, limiter.AWSRetriesUnderFailure(limiter.AWS2026, false, false)), limiter.AWSRetriesUnderFailure(limiter.AWS2026, false, true), firstAttemptsOnly(p))
		},
		errorBound: func(p calc.Params) (float64, bool) { return limiter.AWSErrorBound(limiter.AWS2026, p.FailRate) },
	},
	limiter.Finagle: {
		words: func(p calc.Params) string {
			retries := FinagleRetriesPerSecond(p)
			return fmt.Sprintf("finagle: at most %d retries per second per process from the reserve plus %s of the requests, expiring after %s%s.",
				p.Limits.FinagleMinRetries, policy.FormatFloat(p.Limits.FinaglePercent), human(p.Limits.FinagleTTL),
				withStream(p, fmt.Sprintf(": up to %s retries per second, %s attempts per second in all", perSecond(retries), perSecond(p.Rate+retries))))
		},
		errorBound: finagleErrorBound,
	},
	limiter.Envoy: {
		words: func(p calc.Params) string {
			return fmt.Sprintf("envoy: a cap on retries in flight, not on their rate: per process, fewer than the larger of %s%% of its attempts in flight or queued and %d; how many attempts per second that lets through depends on how long each attempt stays in flight.",
				policy.FormatFloat(p.Limits.EnvoyPercent), p.Limits.EnvoyMinConcurrency)
		},
	},
	limiter.Failsafe: {
		words: func(p calc.Params) string {
			return fmt.Sprintf("failsafe: a cap on retries in flight, asked when each is about to start, after its wait: per process, a retry starts while fewer than %d are in flight or they are at most %s of its requests under way (waiting between attempts too) plus those retries, so with 20 requests %d run at once, with 100 %d; a refused retry ends its request; how many attempts per second that lets through depends on how long each attempt stays in flight.",
				p.Limits.FailsafeMinConcurrency, policy.FormatFloat(p.Limits.FailsafeMaxRate), limiter.FailsafeAtOnce(p.Limits, 20), limiter.FailsafeAtOnce(p.Limits, 100))
		},
	},
	limiter.Adaptive: {
		words: func(p calc.Params) string {
			return fmt.Sprintf("adaptive: a bucket of %d that each request's start refills by %s; a retry needs more than 1 and takes 1: %s, then 1 retry per 10 requests%s.",
				limiter.AdaptiveSize, policy.FormatFloat(limiter.AdaptiveFill), retriesInAll(p, limiter.AdaptiveSize-1),
				withStream(p, fmt.Sprintf(": %s retries per second, %s attempts per second in all", perSecond(limiter.AdaptiveFill*p.Rate), perSecond((1+limiter.AdaptiveFill)*p.Rate))))
		},
		errorBound: func(calc.Params) (float64, bool) { return limiter.AdaptiveFill, true },
	},
	limiter.RetryBreaker: {
		words: func(p calc.Params) string {
			return "retrybreaker: no retry once a process's failures over its life are more than 10% of its requests; every first attempt fails, so its first failure already is: no retries, " + firstAttemptsOnly(p) + "."
		},
		errorBound: breakerErrorBound,
	},
}

// saying is what the overload model says of k; of none for a value that names no limiter.
func saying(k limiter.Kind) *limiterSaying {
	if k < limiter.Count {
		return &limiterSays[k]
	}
	return &limiterSays[limiter.None]
}
