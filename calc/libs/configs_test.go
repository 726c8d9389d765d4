//go:build !js

package libs

import (
	"slices"
	"testing"
	"time"
)

// The typed configurations each exporter builds, checked against values worked by hand from
// the library's documentation: the text written from them is checked by the golden files.

// exportConfig is the Config of lib's export of the policy in query.
func exportConfig(t *testing.T, query, lib string) any {
	t.Helper()
	for _, e := range Exports(snippetParams(t, query)) {
		if e.Lib == lib {
			return e.Config
		}
	}
	t.Fatalf("no export %q", lib)
	return nil
}

func TestEnvoyConfig(t *testing.T) {
	// Envoy counts retries after the first call and keeps its intervals in whole milliseconds:
	// 4 attempts are 3 retries, 2.7 ms is 2 ms; the budget is the route's timeout.
	got := exportConfig(t, "base=2.7ms&cap=1s&attempts=4&budget=3s&jitter=fullms", "envoy")
	want := EnvoyRetryPolicy{Timeout: 3 * time.Second, NumRetries: 3, BaseInterval: 2 * time.Millisecond, MaxInterval: time.Second}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestGRPCConfig(t *testing.T) {
	// gRFC A6: maxAttempts counts the first call and clients treat more than 5 as 5; the
	// backoffs are the policy's base and cap, the multiplier its factor; the budget is the
	// method's timeout.
	got := exportConfig(t, "base=100ms&factor=1.5&cap=2s&attempts=8&budget=10s&jitter=proportional&ratio=0.2", "grpc")
	want := GRPCRetryPolicy{Timeout: 10 * time.Second, MaxAttempts: 5, InitialBackoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second, BackoffMultiplier: 1.5}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestResilience4jConfig(t *testing.T) {
	// ofExponentialRandomBackoff(initialInterval, multiplier, randomizationFactor, maxInterval)
	// waits interval × U[1 − f, 1 + f], clamped to maxInterval after the draw.
	for _, c := range []struct {
		query string
		want  Resilience4jRetry
	}{
		// Proportional jitter ±50% with the cap after it: the policy's own numbers; the cap binds
		// (500 ms × 1.5 × 1.5 = 1.125 s > 1 s), so maxInterval is set.
		{"base=500ms&factor=1.5&cap=1s&capat=after&attempts=5&jitter=proportional&ratio=0.5",
			Resilience4jRetry{MaxAttempts: 5, InitialInterval: 500 * time.Millisecond, Multiplier: 1.5, RandomizationFactor: 0.5, MaxInterval: time.Second}},
		// Full jitter U[0, d] is half the delay ± 100%: 250 ms becomes 125 ms, factor 1.0; a cap of
		// 168 h never binds, so no maxInterval.
		{"base=250ms&factor=2&cap=168h&attempts=3&jitter=full",
			Resilience4jRetry{MaxAttempts: 3, InitialInterval: 125 * time.Millisecond, Multiplier: 2, RandomizationFactor: 1}},
		// No jitter: ofExponentialBackoff; 7.9 ms counts as 7 ms.
		{"base=7.9ms&factor=3&cap=168h&attempts=2&jitter=none",
			Resilience4jRetry{MaxAttempts: 2, InitialInterval: 7 * time.Millisecond, Multiplier: 3}},
	} {
		if got := exportConfig(t, c.query, "resilience4j"); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.query, got, c.want)
		}
	}
}

func TestAWSConfig(t *testing.T) {
	// The shared config file sets only the retry mode and max_attempts, which counts the first
	// call: the policy's base, cap and jitter do not reach it.
	want := AWSRetryConfig{RetryMode: "standard", MaxAttempts: 7}
	for _, lib := range []string{"aws-botocore", "aws-botocore-2026", "aws-go-v2", "aws-go-v2-2026"} {
		if got := exportConfig(t, "base=3s&cap=9s&attempts=7&jitter=equal", lib); got != want {
			t.Errorf("%s: got %+v, want %+v", lib, got, want)
		}
	}
}

func TestPollyConfig(t *testing.T) {
	// RetryStrategyOptions counts retries after the first call and TimeSpans in 100 ns ticks;
	// MaxDelay clamps the delay after the jitter, and the budget is an outer AddTimeout.
	for _, c := range []struct {
		query string
		want  PollyRetry
	}{
		// Linear growth with jitter: waits 2, 4, 6 s (± 25%) never reach 168 h, so no MaxDelay.
		{"growth=linear&base=2s&cap=168h&attempts=4&jitter=proportional&ratio=0.25&budget=30s",
			PollyRetry{Timeout: 30 * time.Second, MaxRetryAttempts: 3, Delay: 2 * time.Second, BackoffType: "Linear", UseJitter: true}},
		// Doubling without jitter: 1, 2, 4, 8, 16 s, of which the last two are clamped to 5 s.
		{"base=1s&factor=2&cap=5s&attempts=6&jitter=none",
			PollyRetry{MaxRetryAttempts: 5, Delay: time.Second, BackoffType: "Exponential", MaxDelay: 5 * time.Second}},
		// Factor 1 is constant; 150 ns is 1.5 ticks, rounded to 2.
		{"base=150ns&factor=1&cap=1s&attempts=3&jitter=none",
			PollyRetry{MaxRetryAttempts: 2, Delay: 200 * time.Nanosecond, BackoffType: "Constant"}},
	} {
		if got := exportConfig(t, c.query, "polly"); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.query, got, c.want)
		}
	}
}

func TestTenacityConfig(t *testing.T) {
	// tenacity's waits add up; wait_exponential(multiplier=m, max=x, exp_base=b) waits
	// min(m × b^(k−1), x), wait_random_exponential draws uniformly below the same, and
	// wait_random(min, max) draws between its bounds. stop_after_attempt counts the first call.
	for _, c := range []struct {
		query string
		want  []TenacityWait
		first time.Duration
		stop  time.Duration
	}{
		// The jitter added after the cap is wait_exponential_jitter's own: 2 s × 3^(k−1), plus
		// up to 0.5 s, at most 60 s.
		{"jitter=additive&add=0.5s&base=2s&factor=3&cap=60s&capat=after&attempts=5&budget=20s",
			[]TenacityWait{{Fn: "wait_exponential_jitter", Multiplier: 2 * time.Second, Max: time.Minute, ExpBase: 3, Jitter: 500 * time.Millisecond}}, 0, 20 * time.Second},
		// Equal jitter, U[d/2, d]: half the delay fixed plus half of it drawn, both capped at half the cap.
		{"jitter=equal&base=1s&factor=2&cap=10s&attempts=5",
			[]TenacityWait{
				{Fn: "wait_exponential", Multiplier: 500 * time.Millisecond, Max: 5 * time.Second, ExpBase: 2},
				{Fn: "wait_random_exponential", Multiplier: 500 * time.Millisecond, Max: 5 * time.Second, ExpBase: 2},
			}, 0, 0},
		// ±20% of a constant 1 s is uniform in [0.8 s, 1.2 s]; the exact first retry is a wait_chain.
		{"jitter=proportional&ratio=0.2&base=1s&factor=1&cap=1s&attempts=5&first=exact",
			[]TenacityWait{{Fn: "wait_random", Min: 800 * time.Millisecond, MinSeconds: true, Max: 1200 * time.Millisecond}}, time.Second, 0},
	} {
		got, ok := exportConfig(t, c.query, "tenacity").(TenacityRetry)
		if !ok || got.StopAfterAttempt != 5 || got.StopBeforeDelay != c.stop || got.First != c.first || !slices.Equal(got.Wait, c.want) {
			t.Errorf("%s: got %+v, want 5 attempts, stop_before_delay %v, first %v, wait %+v", c.query, got, c.stop, c.first, c.want)
		}
	}
}
