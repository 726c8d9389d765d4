package libs

import (
	"math"
	"strconv"
	"testing"
	"time"

	"backoffcalc/calc"
)

// The .NET and Spring presets' schedules worked by hand from their libraries' formulas (in the
// comments), not read from calc: the least, longest and mean wait of every retry, and of the
// total wait when every attempt fails.

// worked is one retry's or the total's least, longest and mean wait, in seconds.
type worked struct{ min, max, mean float64 }

var workedJVM = []struct {
	name  string
	p     calc.Params
	waits []worked // retries 1, 2, …
	total worked
	// abs is how far calc may be from a least or longest wait, in seconds, and rel from a
	// mean, relative: a hand's digits where the formula is not exact arithmetic.
	abs, rel float64
}{
	// dotnet-standard: Polly's DecorrelatedJitterBackoffV2 with Delay = 2 s, 3 retries. Retry k
	// draws t = k−1 + U and waits (g(t) − g(t′)) × 2 s / 1.4, g(t) = 2^t × tanh(√(4t)), t′ the
	// previous retry's t (g = 0 before retry 1). The longest waits: retry 1 at t → 1, g(1) =
	// 2 × tanh(2) = 2 × 0.9640276 = 1.9280552, × 2 / 1.4 = 2.7543645 s (in whole 100 ns ticks);
	// retry 2 at t = 2, t′ = 0: g(2) = 4 × tanh(2.8284271) = 4 × 0.9930362 = 3.9721448, × 2 / 1.4
	// = 5.6745 s; retry 3 at t = 3, t′ = 1: g(3) = 8 × tanh(3.4641016) = 8 × 0.9980423 = 7.9843384,
	// (7.9843384 − 1.9280552) × 2 / 1.4 = 8.6518 s. Each least is 0 (t just above k−1, t′ just
	// below it). The means are E[g(k−1+U)] − E[g(k−2+U)], × 2 / 1.4, by Simpson's rule:
	//   E[g(U)] = ∫₀¹ 2s × 2^(s²) × tanh(2s) ds (t = s², smooth), with s = 0, ¼, ½, ¾, 1:
	//     h = 0, 0.24129, 0.90570, 2.00513, 3.85611; (¼/3)(0 + 4×0.24129 + 2×0.90570 +
	//     4×2.00513 + 3.85611) = 1.22110;
	//   E[g(1+U)] with t = 1, 1.5, 2: (1.928055 + 4×2.786573 + 3.972145) / 6 = 2.841082;
	//   E[g(2+U)] with t = 2, 2.5, 3: (3.972145 + 4×5.636615 + 7.984338) / 6 = 5.750491.
	// Retry 1: 1.22110 × 2 / 1.4 = 1.7444 s; retry 2: (2.841082 − 1.22110) × 2 / 1.4 = 2.3143 s;
	// retry 3: (5.750491 − 2.841082) × 2 / 1.4 = 4.1563 s; the total telescopes to g(2+U) ×
	// 2 / 1.4, mean 5.750491 × 2 / 1.4 = 8.2150 s. So the total lies in [g(2), g(3)] × 2 / 1.4
	// = [3.9721448, 7.9843384] × 2 / 1.4 = [5.6745, 11.4062] s, not in the [0, 17.0807] s the
	// retries' ranges add up to (the truncation to ticks moves the ends by under 3 ticks).
	// Simpson's rule here is within 0.2%; the budget, 30 s, cuts none of the 4 attempts, which
	// start by 11.41 s.
	{"dotnet-standard", mustPreset("dotnet-standard"),
		[]worked{{0, 2.7543645, 1.7444}, {0, 5.6745, 2.3143}, {0, 8.6518, 4.1563}}, worked{5.6745, 11.4062, 8.2150}, 1e-4, 0.002},
	// spring-retry-exponential: @Backoff(delay = 1000, multiplier = 2), maxAttempts = 3: the
	// interval starts at 1000 ms and doubles, at most 30000 ms (maxDelay 0 is not above delay):
	// retry 1 waits 1 s, retry 2 2 s; no jitter, so each least, longest and mean are the same.
	// 1 + 2 = 3 s in all.
	{"spring-retry-exponential", mustPreset("spring-retry-exponential"),
		[]worked{{1, 1, 1}, {2, 2, 2}}, worked{3, 3, 3}, 0, 0},
	// The same with maxAttempts = 8: 1, 2, 4, 8, 16 s, then 32 s is over the hidden 30 s, so
	// 30 s twice: 1 + 2 + 4 + 8 + 16 + 30 + 30 = 91 s.
	{"spring-retry-exponential, maxAttempts = 8", springRetryBackoff(8, 1000, 0, 2, false),
		[]worked{{1, 1, 1}, {2, 2, 2}, {4, 4, 4}, {8, 8, 8}, {16, 16, 16}, {30, 30, 30}, {30, 30, 30}}, worked{91, 91, 91}, 0, 0},
	// spring-retry-uniform: @Backoff(delay = 1000, maxDelay = 3000): each retry waits 1000 +
	// nextInt(2000) ms, a whole number from 1000 to 2999 ms, each as likely: least 1 s, longest
	// 2.999 s, mean (1000 + 2999) / 2 = 1999.5 ms. Two retries: 2 to 5.998 s, mean 3.999 s.
	{"spring-retry-uniform", mustPreset("spring-retry-uniform"),
		[]worked{{1, 2.999, 1.9995}, {1, 2.999, 1.9995}}, worked{2, 5.998, 3.999}, 0, 0},
	// spring-core-retry: RetryPolicy.builder() defaults: maxRetries 3, delay 1000 ms,
	// multiplier 1, no jitter, maxDelay Long.MAX_VALUE: 1, 1, 1 s over 4 attempts, 3 s in all.
	{"spring-core-retry", mustPreset("spring-core-retry"),
		[]worked{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, worked{3, 3, 3}, 0, 0},
}

func mustPreset(name string) calc.Params {
	pr, ok := PresetByName(name)
	if !ok {
		panic("no preset " + name)
	}
	return pr.Params
}

func TestPresetsWorkedByHandJVM(t *testing.T) {
	check := func(name, what string, min, max time.Duration, mean float64, w worked, abs, rel float64) {
		t.Helper()
		// Durations within a nanosecond when exact: a mean is a float.
		abs, meanAbs := math.Max(abs, 1e-9), math.Max(rel*w.mean, 1e-9)
		if math.Abs(min.Seconds()-w.min) > abs || math.Abs(max.Seconds()-w.max) > abs || math.Abs(mean/1e9-w.mean) > meanAbs {
			t.Errorf("%s, %s: [%v, %v] mean %.6f s; worked by hand [%v, %v] mean %v s", name, what, min, max, mean/1e9, w.min, w.max, w.mean)
		}
	}
	for _, c := range workedJVM {
		s := c.p.Schedule()
		if len(s.Rows) != len(c.waits)+1 || s.AtMost != len(c.waits)+1 {
			t.Errorf("%s: %d attempts (%d within the budget), worked by hand %d", c.name, len(s.Rows), s.AtMost, len(c.waits)+1)
			continue
		}
		for i, w := range c.waits {
			r := s.Rows[i+1]
			check(c.name, "retry "+strconv.Itoa(r.Retry), r.Min, r.Max, r.Mean, w, c.abs, c.rel)
		}
		check(c.name, "total", s.Total.Min, s.Total.Max, s.Total.Mean, c.total, c.abs, c.rel)
	}
}

// The libraries' waits for a draw u, for TestPresetsFollowTheirSource, each transcribed from the
// file its preset names (dotnet_test.go and spring_test.go transcribe the loops around them).
func init() {
	// Polly 8.7.0 RetryHelper.DecorrelatedJitterBackoffV2 with Delay = 2 s on the path that
	// draws u at every retry: (long)((g(k−1+u) − g(k−2+u)) × (1 / 1.4d) × ticks).
	libraryWait["dotnet-standard"] = func(k int, u float64) float64 {
		g := func(t float64) float64 { return math.Pow(2, t) * math.Tanh(math.Sqrt(4*t)) }
		prev := 0.0
		if k > 1 {
			prev = g(float64(k-2) + u)
		}
		return math.Trunc((g(float64(k-1)+u)-prev)*(1/1.4)*2e7) * 100
	}
	// spring-retry 2.0.12 ExponentialBackOffContext.getSleepAndIncrement: 1000 ms doubling
	// (interval = (long) (interval × 2)), at most maxInterval 30000 ms.
	libraryWait["spring-retry-exponential"] = func(k int, u float64) float64 {
		return math.Min(1000*math.Pow(2, float64(k-1)), 30000) * 1e6
	}
	// spring-retry 2.0.12 UniformRandomBackOffPolicy.doBackOff: min + random.nextInt(max − min)
	// ms, nextInt(n) for the draw u being ⌊u × n⌋. calc draws 1000 + u × 1999 ms, continuously:
	// the same least, longest and mean wait, within 1 ms of Spring's at every u (libraryWaitWithin).
	libraryWait["spring-retry-uniform"] = func(k int, u float64) float64 {
		return (1000 + math.Floor(u*2000)) * 1e6
	}
	libraryWaitWithin["spring-retry-uniform"] = 1e6
	// Spring Framework 7.0.9 ExponentialBackOff.computeNextInterval with multiplier 1 and no
	// jitter: the initial interval, then (long) (1000 × 1.0) = 1000 ms.
	libraryWait["spring-core-retry"] = func(k int, u float64) float64 { return 1e9 }
}
