package libs

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// javaWithin is how far calc's continuous draw may be above Spring's whole-ms one: under a
// millisecond, and nextFloat's 24 bits, which may fall 2^-24 of the wait under calc's u.
const javaWithin = time.Millisecond + 2*time.Microsecond

// javaNextInt is java.util.Random.nextInt(n) for the draw u in [0, 1), and javaNextFloat
// nextFloat(): 24 random bits over 2^24, a float.
func javaNextInt(u float64, n int64) int64 { return int64(u * float64(n)) }
func javaNextFloat(u float64) float32 {
	return float32(math.Floor(u*(1<<24))) / (1 << 24)
}

// springRetryJava transcribes spring-retry 2.0.12 for @Backoff(delay, maxDelay, multiplier,
// random): BackOffPolicyBuilder.build picks the policy, whose backOff then sleeps, in ms, for
// the draws us (one per retry):
//
//	if (multiplier > 0) { ExponentialBackOffPolicy (ExponentialRandomBackOffPolicy if random):
//	    initialInterval = max(delay, 1); multiplier = multiplier > 1.0 ? multiplier : 1.0;
//	    maxInterval = maxDelay > delay ? maxDelay : DEFAULT_MAX_INTERVAL (30000);
//	    getSleepAndIncrement: sleep = interval; if (sleep > max) sleep = max;
//	                          else interval = (long) (interval * multiplier);
//	    random: next = (long) (sleep * (1 + r.nextFloat() * (multiplier - 1))); min(next, max) }
//	else if (maxDelay > delay) UniformRandomBackOffPolicy: min + random.nextInt((int) (max - min))
//	else FixedBackOffPolicy: delay
func springRetryJava(delay, maxDelay int64, multiplier float64, random bool, us []float64) []int64 {
	out := make([]int64, len(us))
	switch {
	case multiplier > 0:
		interval, max := delay, int64(30000)
		if maxDelay > delay {
			max = maxDelay
		}
		m := 1.0
		if multiplier > 1.0 {
			m = multiplier
		}
		for i, u := range us {
			sleep := interval
			if sleep > max {
				sleep = max
			} else {
				interval = int64(float64(interval) * m)
			}
			if random {
				sleep = int64(float64(sleep) * (1 + float64(javaNextFloat(u))*(m-1)))
				if sleep > max {
					sleep = max
				}
			}
			out[i] = sleep
		}
	case maxDelay > delay:
		for i, u := range us {
			out[i] = delay + javaNextInt(u, maxDelay-delay)
		}
	default:
		for i := range us {
			out[i] = delay
		}
	}
	return out
}

// TestSpringRetryTranscribed runs springRetryJava and calc's policy for the same annotation
// values (springRetryBackoff, which the presets are) on random draws: the fixed and exponential
// waits are the same to the nanosecond; Spring's whole-ms draws (uniform, random) are within
// 1 ms of calc's continuous ones (javaWithin), and inside calc's bounds of their retry.
func TestSpringRetryTranscribed(t *testing.T) {
	for _, c := range []struct {
		name            string
		attempts        int
		delay, maxDelay int64
		multiplier      float64
		random, whole   bool
	}{
		{"@Retryable defaults: fixed 1000 ms", 3, 1000, 0, 0, false, false},
		{"maxDelay not above delay, no multiplier: fixed", 4, 1000, 500, 0, false, false},
		{"the exponential preset", 3, 1000, 0, 2, false, false},
		{"the hidden 30 s cap", 9, 1000, 0, 2, false, false},
		{"maxDelay above delay caps", 6, 1000, 10000, 3, false, false},
		{"a multiplier under 1 is 1, at most 30 s", 4, 60000, 0, 0.5, false, false},
		{"random, the hidden cap", 9, 1000, 0, 2, true, true},
		{"random with maxDelay", 8, 100, 3000, 2, true, true},
		{"random with multiplier 1: no jitter", 4, 700, 0, 1, true, false},
		{"the uniform preset", 3, 1000, 3000, 0, false, true},
		{"uniform over one ms", 3, 200, 201, 0, false, true},
	} {
		p := springRetryBackoff(c.attempts, c.delay, c.maxDelay, c.multiplier, c.random)
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rows := p.Schedule().Rows
		rng := rand.New(rand.NewPCG(uint64(c.delay), 20))
		for path := 0; path < 300; path++ {
			us := make([]float64, c.attempts-1)
			for i := range us {
				us[i] = rng.Float64()
			}
			java := springRetryJava(c.delay, c.maxDelay, c.multiplier, c.random, us)
			state := p.FirstState()
			for i, u := range us {
				var got time.Duration
				got, state = p.Wait(i+1, u, state)
				want := time.Duration(java[i]) * time.Millisecond
				off := got - want
				if !c.whole && off != 0 || c.whole && (off <= -time.Millisecond || off >= javaWithin) ||
					want < rows[i+1].Min || want > rows[i+1].Max {
					t.Errorf("%s, retry %d, u=%v: calc %v, Spring %v (bounds [%v, %v])", c.name, i+1, u, got, want, rows[i+1].Min, rows[i+1].Max)
					break
				}
			}
		}
	}
}

// springCoreJava transcribes Spring Framework 7.0.9's ExponentialBackOff.ExponentialBackOffExecution
// (org/springframework/util/backoff/ExponentialBackOff.java) as RetryPolicy.Builder.build sets
// it, for the draws us (Math.random(), one per retry), in ms:
//
//	computeNextInterval: currentInterval < 0 ? initialInterval : currentInterval >= maxInterval
//	    ? maxInterval : min((long) (currentInterval * multiplier), maxInterval);
//	    return min(applyJitter(next), maxInterval);
//	applyJitter: J = jitter * (initialInterval > 0 ? interval / initialInterval : 1);
//	    min = max(interval - J, initialInterval); max = min(interval + J, maxInterval);
//	    return min + (long) (Math.random() * (max - min));
func springCoreJava(delay, jitter int64, multiplier float64, maxDelay int64, us []float64) []int64 {
	out := make([]int64, len(us))
	current := int64(-1)
	for i, u := range us {
		var next int64
		switch {
		case current < 0:
			next = delay
		case current >= maxDelay:
			next = maxDelay
		default:
			next = min(int64(float64(current)*multiplier), maxDelay)
		}
		current = next
		if jitter > 0 {
			scale := int64(1)
			if delay > 0 {
				scale = next / delay
			}
			j := jitter * scale
			lo, hi := max(next-j, delay), min(next+j, maxDelay)
			next = lo + int64(u*float64(hi-lo))
		}
		out[i] = min(next, maxDelay)
	}
	return out
}

// TestSpringCoreTranscribed: the preset, and the builder's other values mapped as its notes say
// (maxDelay as the cap; jitter(j) with multiplier 1 as additive jitter with add = j − 1 ms),
// wait as springCoreJava does: exactly without jitter, within 1 ms with it. With multiplier 2
// and j at most delay / 2, retry 1 draws in [delay, delay + j) and retry k in d × [1 − j/delay,
// 1 + j/delay), as the notes say.
func TestSpringCoreTranscribed(t *testing.T) {
	const none = math.MaxInt64 // Builder.DEFAULT_MAX_DELAY, Long.MAX_VALUE
	pr, _ := PresetByName("spring-core-retry")
	withJitter := pr.Params
	withJitter.Jitter, withJitter.Add = policy.Additive, 299*time.Millisecond
	for _, c := range []struct {
		name                    string
		p                       calc.Params
		delay, jitter, maxDelay int64
		multiplier              float64
	}{
		{"the preset: the builder's defaults", pr.Params, 1000, 0, none, 1},
		{"multiplier 2, maxDelay 10 s", springCoreRetry(5, 1000, 2, 10*time.Second), 1000, 0, 10000, 2},
		{"multiplier 3, maxDelay 5 s", springCoreRetry(4, 500, 3, 5*time.Second), 500, 0, 5000, 3},
		{"jitter 300 ms", withJitter, 1000, 300, none, 1},
	} {
		rows := c.p.Schedule().Rows
		rng := rand.New(rand.NewPCG(uint64(c.delay), 7))
		for path := 0; path < 300; path++ {
			us := make([]float64, c.p.Attempts-1)
			for i := range us {
				us[i] = rng.Float64()
			}
			java := springCoreJava(c.delay, c.jitter, c.multiplier, c.maxDelay, us)
			state := c.p.FirstState()
			for i, u := range us {
				var got time.Duration
				got, state = c.p.Wait(i+1, u, state)
				want := time.Duration(java[i]) * time.Millisecond
				off := got - want
				if c.jitter == 0 && off != 0 || c.jitter > 0 && (off <= -time.Millisecond || off >= javaWithin) ||
					want < rows[i+1].Min || want > rows[i+1].Max {
					t.Errorf("%s, retry %d, u=%v: calc %v, Spring %v (bounds [%v, %v])", c.name, i+1, u, got, want, rows[i+1].Min, rows[i+1].Max)
					break
				}
			}
		}
	}
	// Multiplier 2, jitter 400 ms on a delay of 1000 ms: the ranges of the draws.
	for k, want := range [][2]int64{{1000, 1400}, {1200, 2800}, {2400, 5600}, {4800, 11200}} {
		lo := springCoreJava(1000, 400, 2, none, []float64{0, 0, 0, 0})[k]
		hi := springCoreJava(1000, 400, 2, none, []float64{0.9999999, 0.9999999, 0.9999999, 0.9999999})[k]
		if lo != want[0] || hi != want[1]-1 {
			t.Errorf("multiplier 2, jitter 400 ms, retry %d: draws in [%d, %d], the notes say [%d, %d)", k+1, lo, hi, want[0], want[1])
		}
	}
}
