//go:build !js

package libs

// The Dapr presets against dapr/kit's retry package, the one Dapr's resiliency policies run
// (test-only, as presets_real_test.go's modules; not for js).

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	backoffv4 "github.com/cenkalti/backoff/v4"
	"github.com/dapr/kit/retry"
)

// daprPolicy is the retry.Config Dapr builds for a Resiliency spec's retry policy that sets only
// policy (pkg/resiliency/resiliency.go, decodePolicies: DefaultConfig, then DecodeConfig of the
// spec's fields as a map).
func daprPolicy(t *testing.T, policy string) retry.Config {
	t.Helper()
	c := retry.DefaultConfig()
	if err := retry.DecodeConfig(&c, map[string]any{"policy": policy}); err != nil {
		t.Fatal(err)
	}
	return c
}

// daprRun runs retry.NotifyRecover, the loop Dapr's policy runner calls, with an operation that
// always fails, until stop says the attempt it is given is the last: the gaps between the
// attempts' starts.
func daprRun(c retry.Config, stop func(attempt int) bool) []time.Duration {
	var starts []time.Time
	op := func() error {
		starts = append(starts, time.Now())
		if stop(len(starts)) {
			return backoffv4.Permanent(errors.New("always"))
		}
		return errors.New("always")
	}
	_ = retry.NotifyRecover(op, c.NewBackOff(), func(error, time.Duration) {}, func() {})
	var waits []time.Duration
	for i := 1; i < len(starts); i++ {
		waits = append(waits, starts[i].Sub(starts[i-1]))
	}
	return waits
}

// TestDaprKitRetry draws dapr/kit v0.18.3's exponential backoff (cenkalti/backoff v4) 5000 times
// per retry against dapr-exponential's bounds and means; then runs its retry loop on synctest's
// fake clock: the constant policy waits the preset's 5 s and does not stop by itself
// (maxRetries = -1: stopped here after the preset's attempts), and the exponential policy's
// attempts all start within its 15 min, ending only when the next wait would pass them, after
// as many attempts as the preset's budget allows.
func TestDaprKitRetry(t *testing.T) {
	exp := daprPolicy(t, "exponential")
	pr, _ := PresetByName("dapr-exponential")
	checkDraws(t, pr.Name, func() []time.Duration {
		b := exp.NewBackOff()
		waits := make([]time.Duration, pr.Params.Attempts-1)
		for i := range waits {
			waits[i] = b.NextBackOff()
		}
		return waits
	})

	synctest.Test(t, func(t *testing.T) {
		constant := daprPolicy(t, "constant")
		if constant != retry.DefaultConfig() {
			t.Errorf("policy constant is not the default policy: %v", constant.String())
		}
		checkExact(t, "dapr-constant", daprRun(constant, func(attempt int) bool { return attempt == daprConstantAttempts }))

		sc := pr.Params.Schedule()
		for range 200 {
			waits := daprRun(exp, func(int) bool { return false })
			var start time.Duration
			if len(waits) >= len(sc.Rows) {
				t.Fatalf("dapr-exponential: dapr/kit made %d attempts, the preset shows %d", len(waits)+1, len(sc.Rows))
			}
			for i, w := range waits {
				if row := sc.Rows[i+1]; w < row.Min || w > row.Max {
					t.Fatalf("dapr-exponential retry %d: dapr/kit waited %v, outside [%v, %v]", row.Retry, w, row.Min, row.Max)
				}
				start += w
			}
			n := len(waits) + 1
			if n < sc.Always || n > sc.AtMost || start > pr.Params.Budget {
				t.Fatalf("dapr-exponential: dapr/kit made %d attempts, the last at %v; the preset: %d to %d within %v", n, start, sc.Always, sc.AtMost, pr.Params.Budget)
			}
			// It stops only when the drawn wait would pass the budget: not while even the
			// longest one fits.
			if n < len(sc.Rows) && start+sc.Rows[n].Max <= pr.Params.Budget {
				t.Fatalf("dapr-exponential: dapr/kit stopped after %d attempts at %v, where even the longest next wait, %v, fits in %v", n, start, sc.Rows[n].Max, pr.Params.Budget)
			}
		}
	})
}
