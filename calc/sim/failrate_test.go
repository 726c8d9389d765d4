package sim

import (
	"math"
	"reflect"
	"runtime"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// TestErrorRateBrooker checks the closed form against the numbers of Brooker's "Fixing retries
// with token buckets and circuit breakers" (2022) for three retries (4 attempts): f = 0.5 gives
// a load of 1.875 attempts per request and success 0.9375; f = 0.1 gives 1.111.
func TestErrorRateBrooker(t *testing.T) {
	p := calc.Default()
	p.Attempts = 4
	for _, tt := range []struct{ f, attempts, success float64 }{
		{0.5, 1.875, 0.9375},      // 1 + 1/2 + 1/4 + 1/8; 1 − 1/16
		{0.1, 1.1111, 0.9999},     // 1 + 0.1 + 0.01 + 0.001; 1 − 0.0001
		{0, 1, 1},                 // no errors: one attempt, always a success
		{0.999999, 3.999994, 0.0}, // nearly every attempt fails: all 4, success 4e-6
	} {
		p.FailRate = tt.f
		e := ErrorRateOf(p)
		if math.Abs(e.Attempts-tt.attempts) > 1e-4 || math.Abs(e.Success-tt.success) > 1e-4 || e.Retries != e.Attempts-1 {
			t.Errorf("f = %v: attempts %v, success %v, want %v and %v", tt.f, e.Attempts, e.Success, tt.attempts, tt.success)
		}
	}
	// The overflow row: the most attempts, f close to 1 (each term under 1, the sum under n).
	p.Attempts, p.FailRate = policy.MaxAttempts, math.Nextafter(1, 0)
	if e := ErrorRateOf(p); !(e.Attempts <= policy.MaxAttempts && e.Attempts > policy.MaxAttempts-1 && e.Success >= 0) {
		t.Errorf("f just under 1, %d attempts: %+v", policy.MaxAttempts, e)
	}
}

// TestErrorBounds checks each limiter's long-run bound, derived by hand, at f = 0.5 and 0.05
// with 4 attempts and a stream of 100 requests per second (the policy's retries: 0.875 and
// 0.052625).
func TestErrorBounds(t *testing.T) {
	p := calc.Default()
	p.Attempts, p.Rate, p.Run = 4, 100, 10*time.Second
	type want struct {
		bounded bool
		bound   float64
	}
	for _, tt := range []struct {
		f    float64
		want map[limiter.Kind]want
	}{
		{0.5, map[limiter.Kind]want{
			limiter.None: {false, 0},
			// The tokens drift down (0.1 × 0.5 < 0.5), but that is no bound in closed form.
			limiter.GRPC: {false, 0},
			// (1 − 0.5)/(5 × 0.5) = 0.2; (1 − 0.5)/(14 × 0.5) = 0.0714.
			limiter.AWS: {true, 0.2}, limiter.AWS2026: {true, 1.0 / 14},
			// 10 per second over 100 requests per second, plus 0.2 of each: 0.3.
			limiter.Finagle: {true, 0.3},
			limiter.Envoy:   {false, 0},
			// A cap on retries in flight, as envoy's: no bound on their number.
			limiter.Failsafe: {false, 0},
			// 0.1 per start.
			limiter.Adaptive: {true, 0.1},
			// f ≥ 0.1: first attempts alone fail over 10%.
			limiter.RetryBreaker: {true, 0},
		}},
		{0.05, map[limiter.Kind]want{
			limiter.None: {false, 0},
			// 0.1 × 0.95 = 0.095 > 0.05: the tokens stay up.
			limiter.GRPC: {false, 0},
			// 0.95/(5 × 0.05) = 3.8; 0.95/(14 × 0.05) = 1.357.
			limiter.AWS: {true, 3.8}, limiter.AWS2026: {true, 0.95 / 0.7},
			limiter.Finagle: {true, 0.3}, limiter.Envoy: {false, 0}, limiter.Failsafe: {false, 0}, limiter.Adaptive: {true, 0.1},
			// 0.1/0.05 − 1 = 1.
			limiter.RetryBreaker: {true, 1},
		}},
	} {
		p.FailRate = tt.f
		e := ErrorRateOf(p)
		if len(e.Limiters) != int(limiter.Count) {
			t.Fatalf("f = %v: %d limiters, want all %d", tt.f, len(e.Limiters), limiter.Count)
		}
		for _, b := range e.Limiters {
			w := tt.want[b.Limiter]
			if b.Bounded != w.bounded || math.Abs(b.Bound-w.bound) > 1e-9 {
				t.Errorf("f = %v, %s: bound %v (%v), want %v (%v)", tt.f, b.Limiter, b.Bound, b.Bounded, w.bound, w.bounded)
			}
			if want := min(e.Retries, b.Bound); !b.Bounded && b.Retries != e.Retries || b.Bounded && b.Retries != want {
				t.Errorf("f = %v, %s: retries %v", tt.f, b.Limiter, b.Retries)
			}
			if b.Attempts != 1+b.Retries || b.AttemptsPerSecond != b.Attempts*p.Rate {
				t.Errorf("f = %v, %s: attempts %v, per second %v", tt.f, b.Limiter, b.Attempts, b.AttemptsPerSecond)
			}
		}
	}
	p.FailRate = 0 // Brooker's two are not shown without an error rate, unless chosen
	if got := len(ErrorRateOf(p).Limiters); got != int(limiter.Count)-2 {
		t.Errorf("f = 0: %d limiters shown, want %d", got, limiter.Count-2)
	}
	p.Limiter = limiter.Adaptive
	if got := p.Shown(); len(got) != int(limiter.Count)-1 || got[len(got)-1] != limiter.Adaptive {
		t.Errorf("f = 0, adaptive chosen: shown %v", got)
	}
}

// TestErrorRateAgainstSimulation runs a large stream through a server that fails a share of
// attempts and nothing else (no outage, no capacity limit, no timeout) and compares what it
// counted with the closed form. The seed is fixed, so the test is exact; the bounds are what
// the closed form promises up to chance: 5 standard errors of the mean over N requests.
func TestErrorRateAgainstSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("a stream of 200000 requests")
	}
	p := calc.Default()
	p.Attempts, p.Clients, p.Outage, p.Capacity, p.Call = 4, 1, 0, 0, 10*time.Millisecond
	p.Rate, p.Run, p.Window, p.Seed = 1000, 200*time.Second, time.Second, 7
	for _, f := range []float64{0.5, 0.1, 0.095} {
		p.FailRate = f
		e := ErrorRateOf(p)
		n := 4
		// K, the attempts of one request: k < n with probability f^(k−1)(1 − f), n with f^(n−1).
		var ek2 float64
		for k := 1; k <= n; k++ {
			pk := math.Pow(f, float64(k-1)) * (1 - f)
			if k == n {
				pk = math.Pow(f, float64(n-1))
			}
			ek2 += float64(k*k) * pk
		}
		sdK := math.Sqrt(ek2 - e.Attempts*e.Attempts)
		for _, b := range e.Limiters {
			run, err := Overload(p, calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: b.Limiter})
			if err != nil {
				t.Fatal(err)
			}
			N := float64(run.Requests)
			per := float64(run.Attempts) / N
			seMean := sdK / math.Sqrt(N)
			if b.Limiter == limiter.None {
				// No limiter: the mean of N draws of K, and a binomial share of successes.
				seSuccess := math.Sqrt(e.Success * (1 - e.Success) / N)
				if math.Abs(per-e.Attempts) > 5*seMean || math.Abs(float64(run.Accepted)/N-e.Success) > 5*seSuccess+1e-12 {
					t.Errorf("f = %v: %v attempts per request (closed form %v ± %v), success %v (%v ± %v)",
						f, per, e.Attempts, 5*seMean, float64(run.Accepted)/N, e.Success, 5*seSuccess)
				}
				continue
			}
			// A limiter only takes retries away: at most the policy's, or its bound, each up to
			// 5 standard errors and what a fresh limiter holds at the start (a few retries per
			// process, over N). The bounds of adaptive, aws and finagle are reached when they
			// bind (within 10%); retrybreaker's lifetime ratio remembers its first failures, and
			// a run of 200 s stays under its bound.
			got := per - 1
			if got > b.Retries+5*seMean+100/N {
				t.Errorf("f = %v, %s: %v retries per request, over %v", f, b.Limiter, got, b.Retries)
			}
			if b.Bounded && b.Bound < e.Retries && b.Limiter != limiter.RetryBreaker && got < b.Retries*0.9 {
				t.Errorf("f = %v, %s: %v retries per request, far under the bound %v", f, b.Limiter, got, b.Retries)
			}
			t.Logf("f = %v, %s: %.4f retries per request, closed form %.4f", f, b.Limiter, got, b.Retries)
		}
	}
}

// TestErrorRateAgainstModelLarge compares the simulation with the independent model on a large
// run with errors, an outage, a full server with a queue and timeouts, for every limiter: the
// random cases are small, and here thousands of attempts a window meet the error draws.
func TestErrorRateAgainstModelLarge(t *testing.T) {
	if testing.Short() || runtime.GOARCH == "wasm" {
		t.Skip("seconds of the model per limiter")
	}
	p := calc.Default()
	p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Queue = 500, 2000, 3*time.Second, 500*time.Millisecond, 180, 100
	p.Timeout, p.Call, p.FailRate, p.Processes, p.Attempts, p.Seed = 250*time.Millisecond, 20*time.Millisecond, 0.2, 3, 4, 9
	for _, l := range limiter.Kinds() {
		c := calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: l}
		got, err := Overload(p, c)
		if err != nil {
			t.Fatal(err)
		}
		if want := overloadByHeap(p, c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%s", l, firstDiff("run", reflect.ValueOf(got), reflect.ValueOf(want), "engine", "model"))
		}
		if got.Errors < 500 {
			t.Errorf("%s: %d errors, not a large case", l, got.Errors)
		}
	}
}
