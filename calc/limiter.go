package calc

import (
	"fmt"
	"time"
)

// A retry limiter is what real clients put between a failed attempt and its retry so that
// retries cannot multiply the load on a failing server: a token bucket (grpc, aws),
// a budget of retries per request over time (finagle) or a cap on concurrent retries (envoy,
// failsafe).
// One Limiter is shared by all the requests of one client process. Each type below follows one
// library's source and says which file and version; docs/overload-model.md says when the
// overload simulation calls them.

// LimiterKind names a retry limiter. The zero value, LimiterNone, allows every retry the policy
// allows, as the herd does today. Each kind is one entry of the table of limiters below, the only
// place that tells the kinds apart: a new limiter is a constant, its entry and its tests
// (TestLimitersComplete fails for a constant without a complete entry).
type LimiterKind uint8

const (
	LimiterNone         LimiterKind = iota
	LimiterGRPC                     // gRFC A6 retryThrottling, grpc-go's retryThrottler
	LimiterAWS                      // the AWS SDKs' standard retry quota: 5 per retry, 10 after a timeout
	LimiterAWS2026                  // the same quota with the 2026 costs: 14 per retry, 5 after throttling
	LimiterFinagle                  // Finagle's RetryBudget (twitter/util's leaky token bucket)
	LimiterEnvoy                    // Envoy's cluster retry budget: a cap on concurrent retries
	LimiterFailsafe                 // failsafe-go's retry budget: a cap on retries in flight, asked at each retry's start
	LimiterAdaptive                 // Brooker's adaptive retries: a bucket of 5 refilled 0.1 per call
	LimiterRetryBreaker             // Brooker's retry breaker: no retries once failures/calls > 10%

	limiterCount // the number of kinds: the length of limiters
)

// limiters is the table of retry limiters, indexed by LimiterKind. Each words derives its bound
// from the limiter's rule (limiter_*.go), as its comment says; overload_words.go has the closed
// forms; each errorBound is the long-run bound it puts on the retries of a server that fails a
// share of attempts (failrate.go derives them).
var limiters = [limiterCount]kind[LimiterParams, Limiter]{
	LimiterNone: {
		name: "none", source: "no limiter: every retry the policy allows is made",
		words: func(p Params) string {
			offered, _ := p.FailingLoad()
			return "none: every request makes all its attempts" + p.withStream(": "+perSecond(offered)+" attempts per second") + "."
		},
	},
	LimiterGRPC: {
		name: "grpc", source: "grpc-go v1.85.0, retryThrottler in clientconn.go (gRFC A6 retryThrottling)",
		fresh: func(p LimiterParams) Limiter { return newGRPCThrottle(p.GRPCMaxTokens, p.GRPCTokenRatio) },
		words: func(p Params) string {
			n := GRPCRetriesUnderFailure(p.Limits.GRPCMaxTokens)
			return fmt.Sprintf("grpc: the tokens (%s) only come back with successes, and a retry needs more than half of them left after its failure: %s, %s.",
				formatFloat(p.Limits.GRPCMaxTokens), p.retriesInAll(n), p.firstAttemptsOnly())
		},
		// No bound in closed form: every failure takes a token and every success adds
		// tokenRatio r, so the tokens drift down when f > r/(1 + r) (1/11 at 0.1), but how
		// often they climb back over half is a random walk's (docs/overload-model.md, "Errors").
	},
	LimiterAWS: {
		name: "aws", source: "botocore retries/quota.py and retries/standard.py; aws-sdk-go-v2 before v1.48.0 (aws/retry, aws/ratelimit/token_bucket.go)",
		fresh: func(LimiterParams) Limiter { return newAWSQuota(awsLegacyCosts) },
		words: func(p Params) string {
			return fmt.Sprintf("aws: the quota of 500 only comes back with successes, at 5 per retry (10 after a timeout): %s (%d per process after timeouts), %s.",
				p.retriesInAll(awsLegacyCosts.retriesUnderFailure(false, false)), awsLegacyCosts.retriesUnderFailure(true, false), p.firstAttemptsOnly())
		},
		errorBound: func(p Params) (float64, bool) { return awsLegacyCosts.errorBound(p.FailRate) },
	},
	LimiterAWS2026: {
		name: "aws2026", source: "aws-sdk-go-v2 v1.48.0, aws/retry/standard.go and aws/ratelimit/token_bucket.go (Retry Behavior 2.1)",
		fresh: func(LimiterParams) Limiter { return newAWSQuota(aws2026Costs) },
		words: func(p Params) string {
			return fmt.Sprintf("aws2026: the quota of 500 only comes back with successes, at 14 per retry (5 when the server was full): %s (%d per process when the server was full), %s.",
				p.retriesInAll(aws2026Costs.retriesUnderFailure(false, false)), aws2026Costs.retriesUnderFailure(false, true), p.firstAttemptsOnly())
		},
		errorBound: func(p Params) (float64, bool) { return aws2026Costs.errorBound(p.FailRate) },
	},
	LimiterFinagle: {
		name: "finagle", source: "Finagle RetryBudget.apply (finagle-core service/RetryBudget.scala) on twitter/util TokenBucket.newLeakyBucket and WindowedAdder (util commit 1bdeab5)",
		fresh: func(p LimiterParams) Limiter {
			return newFinagleBudget(p.FinagleTTL, p.FinagleMinRetries, p.FinaglePercent)
		},
		words: func(p Params) string {
			retries := p.FinagleRetriesPerSecond()
			return fmt.Sprintf("finagle: at most %d retries per second per process from the reserve plus %s of the requests, expiring after %s%s.",
				p.Limits.FinagleMinRetries, formatFloat(p.Limits.FinaglePercent), human(p.Limits.FinagleTTL),
				p.withStream(fmt.Sprintf(": up to %s retries per second, %s attempts per second in all", perSecond(retries), perSecond(p.Rate+retries))))
		},
		errorBound: finagleErrorBound,
	},
	LimiterEnvoy: {
		name: "envoy", source: "Envoy RetryBudgetImpl::max, source/common/upstream/resource_manager_impl.h (budget_interval unset)",
		fresh: func(p LimiterParams) Limiter { return envoyBudget{percent: p.EnvoyPercent, min: p.EnvoyMinConcurrency} },
		words: func(p Params) string {
			return fmt.Sprintf("envoy: a cap on retries in flight, not on their rate: per process, fewer than the larger of %s%% of its attempts in flight or queued and %d; how many attempts per second that lets through depends on how long each attempt stays in flight.",
				formatFloat(p.Limits.EnvoyPercent), p.Limits.EnvoyMinConcurrency)
		},
	},
	LimiterFailsafe: {
		name: "failsafe", source: "failsafe-go v0.9.8, budget/budget.go (TryAcquirePermit, Rate) as retrypolicy/retryexecutor.go calls it, budget.New()",
		fresh: func(p LimiterParams) Limiter {
			return failsafeBudget{maxRate: p.FailsafeMaxRate, min: p.FailsafeMinConcurrency}
		},
		words: func(p Params) string {
			b := failsafeBudget{maxRate: p.Limits.FailsafeMaxRate, min: p.Limits.FailsafeMinConcurrency}
			return fmt.Sprintf("failsafe: a cap on retries in flight, asked when each is about to start, after its wait: per process, a retry starts while fewer than %d are in flight or they are at most %s of its requests under way (waiting between attempts too) plus those retries, so with 20 requests %d run at once, with 100 %d; a refused retry ends its request; how many attempts per second that lets through depends on how long each attempt stays in flight.",
				b.min, formatFloat(b.maxRate), b.atOnce(20), b.atOnce(100))
		},
	},
	LimiterAdaptive: {
		name: "adaptive", source: "Brooker, \"Fixing retries with token buckets and circuit breakers\" (2022): AdaptiveRetryStrategy in mbrooker/simulator_example retry_sim/retry_strategy.py (commit 7aa858b), run as AdaptiveRetryFactory(0.1, 5)",
		fresh:      func(LimiterParams) Limiter { return newAdaptiveBucket() },
		errorsOnly: true,
		words: func(p Params) string {
			return fmt.Sprintf("adaptive: a bucket of %d that each request's start refills by %s; a retry needs more than 1 and takes 1: %s, then 1 retry per 10 requests%s.",
				adaptiveSize, formatFloat(adaptiveFill), p.retriesInAll(adaptiveSize-1),
				p.withStream(fmt.Sprintf(": %s retries per second, %s attempts per second in all", perSecond(adaptiveFill*p.Rate), perSecond((1+adaptiveFill)*p.Rate))))
		},
		errorBound: func(Params) (float64, bool) { return adaptiveFill, true },
	},
	LimiterRetryBreaker: {
		name: "retrybreaker", source: "Brooker, \"Fixing retries with token buckets and circuit breakers\" (2022): CircuitBreakerRetryStrategy in mbrooker/simulator_example retry_sim/retry_strategy.py (commit 7aa858b), run as CircuitBreakerRetryFactory(NRetriesFactory(3), 0.1)",
		fresh:      func(LimiterParams) Limiter { return &retryBreaker{} },
		errorsOnly: true,
		words: func(p Params) string {
			return "retrybreaker: no retry once a process's failures over its life are more than 10% of its requests; every first attempt fails, so its first failure already is: no retries, " + p.firstAttemptsOnly() + "."
		},
		errorBound: breakerErrorBound,
	},
}

// limiterNames are the limiters' names, by LimiterKind.
var limiterNames = kindNames(limiters[:])

func (k LimiterKind) String() string {
	if k < limiterCount {
		return limiters[k].name
	}
	return fmt.Sprintf("LimiterKind(%d)", k)
}

// entry is k's entry in the table; a value that names no limiter (Validate refuses it) limits
// nothing, as LimiterNone.
func (k LimiterKind) entry() *kind[LimiterParams, Limiter] {
	if k < limiterCount {
		return &limiters[k]
	}
	return &limiters[LimiterNone]
}

// Source is where limiter k's rule is read from: the library, its file and version.
func (k LimiterKind) Source() string { return k.entry().source }

// Shown lists the limiters p's overload view shows, in the order of Limiters: all of them, but
// that the ones made for error rates (Brooker's) are only there when the server fails a share of
// attempts (FailRate > 0) or one of them is p's limiter. So the runs and tables of a link without
// a failrate are as they were before those limiters came.
func (p Params) Shown() []LimiterKind {
	var ks []LimiterKind
	for _, k := range Limiters() {
		if !k.entry().errorsOnly || p.FailRate > 0 || k == p.Limiter {
			ks = append(ks, k)
		}
	}
	return ks
}

// Failure is what a limiter is told about a failed attempt. Each limiter reads only what its
// library reads; the others ignore the rest.
type Failure struct {
	// Now is the time of the failure since the run began; finagle's deposits expire with it.
	Now time.Duration
	// Last says the policy has no attempt left: the request ends whatever the limiter says, but
	// grpc still takes its token (grpc-go throttles before it counts attempts).
	Last bool
	// Timeout says the client stopped waiting for the attempt: aws (legacy) charges 10, not 5.
	Timeout bool
	// Throttled says the server answered "slow down": aws2026 charges 5, not 14.
	Throttled bool
	// Active is the number of attempts in flight or queued at the server, retries included
	// (Envoy's requests + pending requests); Retries is how many requests hold a retry, from
	// the failure that allowed it to that retry's outcome (Envoy's retries).
	Active, Retries int
	// Requests is the number of requests under way, from Begin to their end, waiting between
	// attempts too, the asking one included (failsafe's executions without its permits);
	// ActiveRetries is how many of Active are retries (failsafe's permits in flight).
	Requests, ActiveRetries int
}

// Limiter decides whether a failed request may retry. Calls come in time order. A request calls
// Begin once before its first attempt; after each failed attempt it calls Retry, and after the
// attempt that succeeds it calls Succeed. A retry Retry allowed calls Start when it is about to
// start, after its wait: a false ends the request then. held is what the request got from its last
// allowed Retry (the aws quota's cost, to give back on success); 0 when it has not retried.
type Limiter interface {
	Begin(now time.Duration)
	Retry(f Failure) (ok bool, held int)
	// Start is told what Failure says at the retry's start: Now is that start, the counts are
	// taken then (the retry not counted), and Last, Timeout and Throttled are false. Only
	// failsafe decides here; the others decide at the failure and allow every start.
	Start(f Failure) bool
	Succeed(now time.Duration, attempt, held int)
}

// LimiterParams are the limiters' own parameters; each field's zero value is invalid, so start
// from DefaultLimiterParams.
type LimiterParams struct {
	// GRPCMaxTokens and GRPCTokenRatio are retryThrottling's maxTokens (0 < m <= 1000) and
	// tokenRatio (> 0). gRFC A6 has no defaults; ours are its example: 10 and 0.1.
	GRPCMaxTokens, GRPCTokenRatio float64
	// FinagleTTL (1 s to 60 s), FinagleMinRetries (per second, 0 or more) and FinaglePercent
	// (0 to 1000) are RetryBudget.apply's ttl, minRetriesPerSec and percentCanRetry: 10 s, 10, 0.2.
	FinagleTTL        time.Duration
	FinagleMinRetries int
	FinaglePercent    float64
	// EnvoyPercent (budget_percent, in percent) and EnvoyMinConcurrency (min_retry_concurrency):
	// 20 and 3.
	EnvoyPercent        float64
	EnvoyMinConcurrency int
	// FailsafeMaxRate (0 to 1) and FailsafeMinConcurrency are failsafe-go's budget WithMaxRate
	// and WithMinConcurrency: 0.2 and 3 (budget.New()).
	FailsafeMaxRate        float64
	FailsafeMinConcurrency int
}

// DefaultLimiterParams returns each library's defaults (grpc's are gRFC A6's example).
func DefaultLimiterParams() LimiterParams {
	return LimiterParams{
		GRPCMaxTokens: 10, GRPCTokenRatio: 0.1,
		FinagleTTL: 10 * time.Second, FinagleMinRetries: 10, FinaglePercent: 0.2,
		EnvoyPercent: 20, EnvoyMinConcurrency: 3,
		FailsafeMaxRate: 0.2, FailsafeMinConcurrency: 3,
	}
}

// NewLimiter returns a fresh limiter of kind k, or nil for LimiterNone. The parameters must be
// valid (decoding checks them); the run starts at time 0.
func NewLimiter(k LimiterKind, p LimiterParams) Limiter {
	if fresh := k.entry().fresh; fresh != nil {
		return fresh(p)
	}
	return nil
}
