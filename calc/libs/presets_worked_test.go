package libs

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// workedByHand are presets' waits worked out by hand from their library's formula and
// parameters (in the comments), not read from calc: every retry's bounds, in order.
var workedByHand = []struct {
	name  string
	waits [][2]time.Duration // [Min, Max] of retries 1, 2, …; one row per retry
}{
	// failsafe-go WithBackoff(1 s, 30 s), delayFactor 2, WithMaxRetries(3): 4 attempts, no
	// jitter. Retry 1 waits delay = 1 s; retry 2 waits 1 × 2 = 2 s; retry 3 waits 2 × 2 = 4 s
	// (below maxDelay 30 s). 1 + 2 + 4 = 7 s of waiting.
	{"failsafe-backoff", [][2]time.Duration{{sec, sec}, {2 * sec, 2 * sec}, {4 * sec, 4 * sec}}},
	// Step Functions IntervalSeconds 1, BackoffRate 2.0, MaxAttempts 3 (retries): 4 attempts,
	// JitterStrategy NONE, no MaxDelaySeconds. Retry 1 waits 1 × 2^0 = 1 s, retry 2 1 × 2^1 = 2 s,
	// retry 3 1 × 2^2 = 4 s. 1 + 2 + 4 = 7 s of waiting.
	{"stepfunctions", [][2]time.Duration{{sec, sec}, {2 * sec, 2 * sec}, {4 * sec, 4 * sec}}},
	// backon ExponentialBuilder::default(): min_delay 1 s, factor 2, max_delay 60 s, max_times 3
	// (the iterator yields 3 delays: 4 attempts), no jitter. Retry 1 waits min_delay = 1 s; retry 2
	// 1 × 2 = 2 s; retry 3 2 × 2 = 4 s (under 60 s). 1 + 2 + 4 = 7 s of waiting.
	{"backon", [][2]time.Duration{{sec, sec}, {2 * sec, 2 * sec}, {4 * sec, 4 * sec}}},
}

func TestPresetsWorkedByHand(t *testing.T) {
	for _, c := range workedByHand {
		pr, ok := PresetByName(c.name)
		if !ok {
			t.Errorf("%s: no such preset", c.name)
			continue
		}
		rows := pr.Params.Schedule().Rows
		if len(rows) != len(c.waits)+1 {
			t.Errorf("%s: %d attempts, worked by hand %d", c.name, len(rows), len(c.waits)+1)
			continue
		}
		for i, w := range c.waits {
			if r := rows[i+1]; r.Min != w[0] || r.Max != w[1] {
				t.Errorf("%s retry %d: [%v, %v], worked by hand [%v, %v]", c.name, r.Retry, r.Min, r.Max, w[0], w[1])
			}
		}
	}
}

// TestStepFunctionsTranscribed transcribes the retrier of stepFunctionsPage (read 2026-12, in
// aws-cdk-lib v2.275.0's RetryProps and JitterType, whose defaults are the page's): the
// interval before retry k is IntervalSeconds × BackoffRate^(k−1), at most MaxDelaySeconds when
// set; JitterStrategy FULL draws the wait uniformly between 0 and that interval ("a random number
// between 0 and the computed backoff", aws-cdk-lib's JitterType.FULL). The preset, and the
// preset with FULL and MaxDelaySeconds 3 set as its notes say, must wait as the page does.
func TestStepFunctionsTranscribed(t *testing.T) {
	asl := func(k int, u, interval, rate, maxDelay float64, full bool) float64 {
		d := interval * math.Pow(rate, float64(k-1))
		if maxDelay > 0 {
			d = math.Min(d, maxDelay)
		}
		if full {
			d *= u
		}
		return d * 1e9
	}
	pr, _ := PresetByName("stepfunctions")
	withFull := pr.Params
	withFull.Jitter, withFull.Cap, withFull.Attempts = policy.Full, 3*sec, 6
	for _, c := range []struct {
		name     string
		p        calc.Params
		maxDelay float64
		full     bool
	}{
		{"defaults", pr.Params, 0, false},
		{"FULL, MaxDelaySeconds 3, MaxAttempts 5", withFull, 3, true},
	} {
		for _, u := range []float64{0, 0.3, 0.5, 0.999} {
			state := c.p.FirstState()
			for k := 1; k < c.p.Attempts; k++ {
				var got time.Duration
				got, state = c.p.Wait(k, u, state)
				if want := asl(k, u, 1, 2, c.maxDelay, c.full); math.Abs(float64(got)-want) > 1 {
					t.Errorf("%s retry %d, u=%v: calc %v, the page %.0f ns", c.name, k, u, got, want)
				}
			}
		}
	}
}

// backonNext transcribes backon 1.6.0's ExponentialBackoff::next (backon/src/backoff/exponential.rs)
// in its float32 arithmetic: the first delay is min_delay; then, while cur < max_delay, cur =
// Duration::try_from_secs_f32(factor * cur.as_secs_f32()), at most max_delay; with jitter,
// min_delay.mul_f32(rng.f32()) is added to the delay it returns (u stands for rng.f32()).
func backonNext(cur *time.Duration, first bool, minDelay, maxDelay time.Duration, factor float32, jitter bool, u float32) time.Duration {
	if first {
		*cur = minDelay
	} else {
		if *cur < maxDelay {
			*cur = time.Duration(float64(factor*float32(cur.Seconds())) * 1e9)
		}
		*cur = min(*cur, maxDelay)
	}
	d := *cur
	if jitter {
		d += time.Duration(float64(float32(minDelay.Seconds())*u) * 1e9)
	}
	return d
}

// TestBackonTranscribed runs the transcription of backon's iterator for ExponentialBuilder's
// defaults (1, 2, 4 s, then None: 4 attempts), and with with_max_times(8).with_jitter(), which
// the preset's notes say is the additive jitter with Add = min_delay and which reaches the cap
// (32 s, then 60 s): calc must wait as backon does.
func TestBackonTranscribed(t *testing.T) {
	pr, _ := PresetByName("backon")
	withJitter := pr.Params
	withJitter.Attempts, withJitter.Jitter, withJitter.Add = 9, policy.Additive, sec
	for _, c := range []struct {
		name   string
		p      calc.Params
		jitter bool
	}{
		{"defaults", pr.Params, false},
		{"with_max_times(8).with_jitter()", withJitter, true},
	} {
		for _, u := range []float32{0, 0.25, 0.5, 0.75} {
			var cur time.Duration
			state := c.p.FirstState()
			for k := 1; k < c.p.Attempts; k++ {
				want := backonNext(&cur, k == 1, sec, 60*sec, 2, c.jitter, u)
				var got time.Duration
				got, state = c.p.Wait(k, float64(u), state)
				if diff := got - want; diff < -1 || diff > 1 {
					t.Errorf("%s retry %d, u=%v: calc %v, backon %v", c.name, k, u, got, want)
				}
			}
		}
	}
}
