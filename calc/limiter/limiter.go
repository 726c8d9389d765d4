// Package limiter holds the retry limiters of real clients, each following one library's source
// at a named version: what the library does when a retry is asked for, and nothing of what a
// simulation makes of it (the overload model in calc says that). It imports nothing of the
// project.
//
// A retry limiter is what real clients put between a failed attempt and its retry so that
// retries cannot multiply the load on a failing server: a token bucket (grpc, aws),
// a budget of retries per request over time (finagle) or a cap on concurrent retries (envoy,
// failsafe).
// One Limiter is shared by all the requests of one client process. Each type below follows one
// library's source and says which file and version; docs/overload-model.md says when the
// overload simulation calls them.
package limiter

import (
	"fmt"
	"time"
)

// Kind names a retry limiter. The zero value, None, allows every retry the policy allows, as
// the herd does. Each kind is one entry of the table of limiters below, the only place that
// tells the kinds apart: a new limiter is a constant, its entry and its tests
// (TestLimitersComplete fails for a constant without a complete entry).
type Kind uint8

const (
	None         Kind = iota
	GRPC              // gRFC A6 retryThrottling, grpc-go's retryThrottler
	AWS               // the AWS SDKs' standard retry quota: 5 per retry, 10 after a timeout
	AWS2026           // the same quota with the 2026 costs: 14 per retry, 5 after throttling
	Finagle           // Finagle's RetryBudget (twitter/util's leaky token bucket)
	Envoy             // Envoy's cluster retry budget: a cap on concurrent retries
	Failsafe          // failsafe-go's retry budget: a cap on retries in flight, asked at each retry's start
	Adaptive          // Brooker's adaptive retries: a bucket of 5 refilled 0.1 per call
	RetryBreaker      // Brooker's retry breaker: no retries once failures/calls > 10%

	Count // the number of kinds: the length of the table
)

// Limits of the limiters' parameters (their keys' ranges).
const (
	MaxGRPCTokens     = 1000 // grpc-go refuses a service config with maxTokens over 1000
	MaxFinagleTTL     = time.Minute
	MaxFinaglePercent = 1000
	MaxCount          = 1000000 // minretries × 60 s stays within Scala's Int, as Finagle keeps it
)

// entry is one limiter: its name in links, where its rule is read from, and how a fresh one is
// made.
type entry struct {
	name   string // in links, the form and the tables
	source string // where its rule is read from: the library, its file and version
	// fresh returns a new one from the parameters; nil for None.
	fresh func(Params) Limiter
}

// limiters is the table of retry limiters, indexed by Kind. What the overload model says of each
// (its bound in words, its bound under an error rate) is calc's table of the same kinds.
var limiters = [Count]entry{
	None: {name: "none", source: "no limiter: every retry the policy allows is made"},
	GRPC: {
		name: "grpc", source: "grpc-go v1.85.0, retryThrottler in clientconn.go (gRFC A6 retryThrottling)",
		fresh: func(p Params) Limiter { return newGRPCThrottle(p.GRPCMaxTokens, p.GRPCTokenRatio) },
	},
	AWS: {
		name: "aws", source: "botocore retries/quota.py and retries/standard.py; aws-sdk-go-v2 before v1.48.0 (aws/retry, aws/ratelimit/token_bucket.go)",
		fresh: func(Params) Limiter { return newAWSQuota(awsLegacyCosts) },
	},
	AWS2026: {
		name: "aws2026", source: "aws-sdk-go-v2 v1.48.0, aws/retry/standard.go and aws/ratelimit/token_bucket.go (Retry Behavior 2.1)",
		fresh: func(Params) Limiter { return newAWSQuota(aws2026Costs) },
	},
	Finagle: {
		name: "finagle", source: "Finagle RetryBudget.apply (finagle-core service/RetryBudget.scala) on twitter/util TokenBucket.newLeakyBucket and WindowedAdder (util commit 1bdeab5)",
		fresh: func(p Params) Limiter {
			return newFinagleBudget(p.FinagleTTL, p.FinagleMinRetries, p.FinaglePercent)
		},
	},
	Envoy: {
		name: "envoy", source: "Envoy RetryBudgetImpl::max, source/common/upstream/resource_manager_impl.h (budget_interval unset)",
		fresh: func(p Params) Limiter { return envoyBudget{percent: p.EnvoyPercent, min: p.EnvoyMinConcurrency} },
	},
	Failsafe: {
		name: "failsafe", source: "failsafe-go v0.9.8, budget/budget.go (TryAcquirePermit, Rate) as retrypolicy/retryexecutor.go calls it, budget.New()",
		fresh: func(p Params) Limiter {
			return failsafeBudget{maxRate: p.FailsafeMaxRate, min: p.FailsafeMinConcurrency}
		},
	},
	Adaptive: {
		name: "adaptive", source: "Brooker, \"Fixing retries with token buckets and circuit breakers\" (2022): AdaptiveRetryStrategy in mbrooker/simulator_example retry_sim/retry_strategy.py (commit 7aa858b), run as AdaptiveRetryFactory(0.1, 5)",
		fresh: func(Params) Limiter { return newAdaptiveBucket() },
	},
	RetryBreaker: {
		name: "retrybreaker", source: "Brooker, \"Fixing retries with token buckets and circuit breakers\" (2022): CircuitBreakerRetryStrategy in mbrooker/simulator_example retry_sim/retry_strategy.py (commit 7aa858b), run as CircuitBreakerRetryFactory(NRetriesFactory(3), 0.1)",
		fresh: func(Params) Limiter { return &retryBreaker{} },
	},
}

// Names returns the limiters' names, by Kind.
func Names() []string {
	names := make([]string, Count)
	for i, l := range limiters {
		names[i] = l.name
	}
	return names
}

// Kinds lists every limiter kind, None first.
func Kinds() []Kind {
	ks := make([]Kind, Count)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

func (k Kind) String() string {
	if k < Count {
		return limiters[k].name
	}
	return fmt.Sprintf("LimiterKind(%d)", k)
}

// entry is k's entry in the table; a value that names no limiter (decoding refuses it) limits
// nothing, as None.
func (k Kind) entry() *entry {
	if k < Count {
		return &limiters[k]
	}
	return &limiters[None]
}

// Source is where limiter k's rule is read from: the library, its file and version.
func (k Kind) Source() string { return k.entry().source }

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
// attempt that succeeds it calls Succeed. held is what the request got from its last allowed
// Retry (the aws quota's cost, to give back on success); 0 when it has not retried. A limiter
// that also decides when the retry starts is a Starter.
type Limiter interface {
	Begin(now time.Duration)
	Retry(f Failure) (ok bool, held int)
	Succeed(now time.Duration, attempt, held int)
}

// Starter is a Limiter that decides again when a retry Retry allowed is about to start, after
// its wait: a false ends the request then. Only failsafe's budget is one; the others decide at
// the failure and allow every start, and need no method for it.
type Starter interface {
	// Start is told what Failure says at the retry's start: Now is that start, the counts are
	// taken then (the retry not counted), and Last, Timeout and Throttled are false.
	Start(f Failure) bool
}

// Start reports whether l lets a retry start: what its Start says for a Starter, true for the
// others.
func Start(l Limiter, f Failure) bool {
	if s, ok := l.(Starter); ok {
		return s.Start(f)
	}
	return true
}

// Params are the limiters' own parameters; each field's zero value is invalid, so start from
// Defaults.
type Params struct {
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

// Defaults returns each library's defaults (grpc's are gRFC A6's example).
func Defaults() Params {
	return Params{
		GRPCMaxTokens: 10, GRPCTokenRatio: 0.1,
		FinagleTTL: 10 * time.Second, FinagleMinRetries: 10, FinaglePercent: 0.2,
		EnvoyPercent: 20, EnvoyMinConcurrency: 3,
		FailsafeMaxRate: 0.2, FailsafeMinConcurrency: 3,
	}
}

// New returns a fresh limiter of kind k, or nil for None. The parameters must be valid (decoding
// checks them); the run starts at time 0.
func New(k Kind, p Params) Limiter {
	if fresh := k.entry().fresh; fresh != nil {
		return fresh(p)
	}
	return nil
}
