package calc

import (
	"fmt"
	"time"
)

// A retry limiter is what real clients put between a failed attempt and its retry so that
// retries cannot multiply the load on a failing server: a token bucket (grpc, aws),
// a budget of retries per request over time (finagle) or a cap on concurrent retries (envoy).
// One Limiter is shared by all the requests of one client process. Each type below follows one
// library's source and says which file and version; docs/overload-model.md says when the
// overload simulation calls them.

// LimiterKind names a retry limiter. The zero value, LimiterNone, allows every retry the policy
// allows, as the herd does today.
type LimiterKind uint8

const (
	LimiterNone    LimiterKind = iota
	LimiterGRPC                // gRFC A6 retryThrottling, grpc-go's retryThrottler
	LimiterAWS                 // the AWS SDKs' standard retry quota: 5 per retry, 10 after a timeout
	LimiterAWS2026             // the same quota with the 2026 costs: 14 per retry, 5 after throttling
	LimiterFinagle             // Finagle's RetryBudget (twitter/util's leaky token bucket)
	LimiterEnvoy               // Envoy's cluster retry budget: a cap on concurrent retries
)

var limiterNames = [...]string{"none", "grpc", "aws", "aws2026", "finagle", "envoy"}

func (k LimiterKind) String() string {
	if int(k) < len(limiterNames) {
		return limiterNames[k]
	}
	return fmt.Sprintf("LimiterKind(%d)", k)
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
	// (Envoy's requests + pending requests); Retries is how many of them are retries.
	Active, Retries int
}

// Limiter decides whether a failed request may retry. Calls come in time order. A request calls
// Begin once before its first attempt; after each failed attempt it calls Retry, and after the
// attempt that succeeds it calls Succeed. held is what the request got from its last allowed Retry
// (the aws quota's cost, to give back on success); 0 when it has not retried.
type Limiter interface {
	Begin(now time.Duration)
	Retry(f Failure) (ok bool, held int)
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
}

// DefaultLimiterParams returns each library's defaults (grpc's are gRFC A6's example).
func DefaultLimiterParams() LimiterParams {
	return LimiterParams{
		GRPCMaxTokens: 10, GRPCTokenRatio: 0.1,
		FinagleTTL: 10 * time.Second, FinagleMinRetries: 10, FinaglePercent: 0.2,
		EnvoyPercent: 20, EnvoyMinConcurrency: 3,
	}
}

// NewLimiter returns a fresh limiter of kind k, or nil for LimiterNone. The parameters must be
// valid (decoding checks them); the run starts at time 0.
func NewLimiter(k LimiterKind, p LimiterParams) Limiter {
	switch k {
	case LimiterGRPC:
		return newGRPCThrottle(p.GRPCMaxTokens, p.GRPCTokenRatio)
	case LimiterAWS:
		return newAWSQuota(awsLegacyCosts)
	case LimiterAWS2026:
		return newAWSQuota(aws2026Costs)
	case LimiterFinagle:
		return newFinagleBudget(p.FinagleTTL, p.FinagleMinRetries, p.FinaglePercent)
	case LimiterEnvoy:
		return envoyBudget{percent: p.EnvoyPercent, min: p.EnvoyMinConcurrency}
	}
	return nil
}
