package libs

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
	smithymiddle "github.com/aws/smithy-go/middleware"

	"backoffcalc/calc/limiter"
)

// transientErr is an error aws-sdk-go-v2's standard retryer retries (RetryableError) and does
// not count as throttling.
type transientErr struct{}

func (transientErr) Error() string        { return "transient" }
func (transientErr) RetryableError() bool { return true }

// TestAWSQuotaMatchesSDK drives aws-sdk-go-v2 v1.48.0's real retry loop (retry.Attempt
// middleware, retry.Standard, ratelimit.TokenRateLimit of 500) and calc's aws limiters with the
// same seeded script of failures, throttling errors and successes, and compares every decision:
// how many attempts each request made and whether the quota refused its retry. v1.48.0's costs
// are aws2026's; with RetryCost 5 it charges what the legacy quota charges for everything but
// timeouts, which v1.48.0 no longer tells apart (calc's tests cover those by hand).
func TestAWSQuotaMatchesSDK(t *testing.T) {
	for _, tc := range []struct {
		kind      limiter.Kind
		retryCost uint // 0: the SDK's default
	}{{limiter.AWS2026, 0}, {limiter.AWS, 5}} {
		t.Run(tc.kind.String(), func(t *testing.T) {
			const attempts = 3
			rl := ratelimit.NewTokenRateLimit(500)
			retryer := retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = attempts
				o.RateLimiter = rl
				o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
				if tc.retryCost != 0 {
					o.RetryCost = tc.retryCost
				}
			})
			mw := retry.NewAttemptMiddleware(retryer, func(in any) any { return in })
			ours := limiter.New(tc.kind, limiter.Defaults())

			r := rand.New(rand.NewPCG(15, uint64(tc.kind)))
			refused := 0
			for req := range 3000 {
				// Phases of 300 requests: mostly failing, then mostly succeeding.
				pFail := 0.8
				if req/300%2 == 1 {
					pFail = 0.2
				}
				script := make([]error, attempts)
				for a := range script {
					switch x := r.Float64(); {
					case x < pFail/4:
						script[a] = &smithy.GenericAPIError{Code: "Throttling"}
					case x < pFail:
						script[a] = transientErr{}
					}
				}

				// The SDK.
				sdkAttempts := 0
				next := smithymiddle.FinalizeHandlerFunc(func(context.Context, smithymiddle.FinalizeInput) (smithymiddle.FinalizeOutput, smithymiddle.Metadata, error) {
					sdkAttempts++
					return smithymiddle.FinalizeOutput{}, smithymiddle.Metadata{}, script[sdkAttempts-1]
				})
				_, _, err := mw.HandleFinalize(context.Background(), smithymiddle.FinalizeInput{}, next)
				var quota ratelimit.QuotaExceededError
				sdkRefused := errors.As(err, &quota)

				// Ours.
				ourAttempts, ourRefused, held := 0, false, 0
				ours.Begin(0)
				for a := 1; a <= attempts; a++ {
					ourAttempts = a
					if script[a-1] == nil {
						ours.Succeed(0, a, held)
						break
					}
					var apiErr *smithy.GenericAPIError
					ok, h := ours.Retry(limiter.Failure{Last: a == attempts, Throttled: errors.As(script[a-1], &apiErr)})
					if a == attempts {
						break
					}
					if !ok {
						ourRefused = true
						break
					}
					held = h
				}

				if ourAttempts != sdkAttempts || ourRefused != sdkRefused {
					t.Fatalf("request %d %v: ours %d attempts, refused %v; SDK %d, refused %v (%v)",
						req, script, ourAttempts, ourRefused, sdkAttempts, sdkRefused, err)
				}
				if sdkRefused {
					refused++
				}
			}
			if refused == 0 {
				t.Error("the quota never refused a retry: the comparison saw only one branch")
			}
			t.Logf("%d of 3000 requests refused a retry by the quota; %d tokens left", refused, rl.Remaining())
		})
	}
}
