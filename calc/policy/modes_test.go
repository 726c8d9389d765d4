package policy_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/policy"
)

// modeLaws is the wait before retry 3 of base 100ms, factor 2, cap 10s, ratio 0.2, add 50ms in
// every mode, worked out by hand: d = 400ms.
var modeLaws = []struct {
	jitter         policy.Jitter
	min, max, mean float64 // ms
	fromPrevious   bool
}{
	{policy.None, 400, 400, 400, false},
	{policy.Full, 0, 400, 200, false},
	{policy.Equal, 200, 400, 300, false},
	// Waits from base to 3^3 × base; the mean follows m_k = (base + 3 m_(k-1))/2 from m_0 = base:
	// 200, 350, 575.
	{policy.Decorrelated, 100, 2700, 575, true},
	{policy.Proportional, 320, 480, 400, false},
	{policy.Upward, 400, 480, 440, false},
	// 0..399 whole ms, each as likely.
	{policy.FullMs, 0, 399, 199.5, false},
	{policy.Additive, 400, 450, 425, false},
	// From 0 to (g(3) - g(1)) × 100ms/1.4 truncated to 100 ns ticks, g(t) = 2^t·tanh(√(4t)); the
	// mean is 100ms/1.4 × (∫_2^3 g - ∫_1^2 g), both by Python's midpoint rule on 200000 cells.
	{policy.DecorrelatedV2, 0, 432.5917, 207.79146, true},
	// d plus 0, 1, …, 29 whole seconds (10 × 3 values): 400 ms to 29.4 s, mean 400 ms + 14.5 s.
	{policy.Sidekiq, 400, 29400, 14900, false},
	// d plus 3 × (0, 1, …, 9) s: 400 ms to 27.4 s, mean 400 ms + 3 × 4.5 s.
	{policy.Sidekiq7, 400, 27400, 13900, false},
	// Whole seconds from 0 up to and including 400 ms: only 0.
	{policy.FullSec, 0, 0, 0, false},
}

func TestModeLaws(t *testing.T) {
	if len(modeLaws) != int(policy.JitterCount) {
		t.Errorf("modeLaws has %d modes, the table %d", len(modeLaws), policy.JitterCount)
	}
	for _, tt := range modeLaws {
		p := mustDecode(t, "base=100ms&factor=2&cap=10s&attempts=4&ratio=0.2&add=50ms&jitter="+tt.jitter.String())
		r := p.Schedule().Rows[3]
		ms := float64(time.Millisecond)
		if float64(r.Min)/ms != tt.min || float64(r.Max)/ms != tt.max || math.Abs(r.Mean/ms-tt.mean) > 1e-4*tt.mean {
			t.Errorf("%s: retry 3 waits [%v, %v], mean %v ms; want [%v, %v] ms, mean %v", tt.jitter, r.Min, r.Max, r.Mean/ms, tt.min, tt.max, tt.mean)
		}
		if tt.jitter.FromPrevious() != tt.fromPrevious {
			t.Errorf("%s: FromPrevious() = %v", tt.jitter, !tt.fromPrevious)
		}
		// Every draw lies within the row's bounds.
		state := p.FirstState()
		for k := 1; k <= 3; k++ {
			var w time.Duration
			w, state = p.Wait(k, policy.MaxDraw, state)
			if k == 3 && (w < r.Min || w > r.Max) {
				t.Errorf("%s: the largest draw waits %v, outside [%v, %v]", tt.jitter, w, r.Min, r.Max)
			}
		}
	}
}

// waitWordsTests are a sentence of WaitWords for each mode, with capat and first where they
// change it.
var waitWordsTests = []struct{ query, want string }{
	{"", "Retry k waits a random time between 0 and d = min(10 s, 100 ms × 2^(k−1)) (full jitter)."},
	{"jitter=none&growth=linear&capat=fixed", "Retry k waits exactly d = min(10 s, 100 ms × k) (no jitter); once the nominal delay is over 10 s, it waits exactly 10 s, without jitter."},
	{"jitter=equal&first=exact", "Retry k waits a random time between d/2 and d, d = min(10 s, 100 ms × 2^(k−1)) (equal jitter); the first retry waits exactly 100 ms."},
	{"jitter=proportional&ratio=0.5&capat=after", "Retry k waits a random time between d × (1 − 0.5) and d × (1 + 0.5), d = min(10 s, 100 ms × 2^(k−1)) (proportional jitter), drawn without the cap and then clamped to 10 s."},
	{"jitter=upward&factor=1.5", "Retry k waits a random time between d and d × (1 + 0.2), d = min(10 s, 100 ms × 1.5^(k−1)) (upward jitter)."},
	// fullms takes the nominal delay as capped, whatever capat says.
	{"jitter=fullms&capat=after", "Retry k waits a random whole number of milliseconds from 0 up to, not including, d = min(10 s, 100 ms × 2^(k−1)) (full jitter in whole ms)."},
	{"jitter=additive&add=1s", "Retry k waits a random time between d and d + 1 s, d = min(10 s, 100 ms × 2^(k−1)) (additive jitter)."},
	// The chains ignore capat and first.
	{"jitter=decorrelated&capat=after&first=exact", "Retry k waits a random time between 100 ms and 3 × the previous wait (the first: 3 × 100 ms), at most 10 s (decorrelated jitter; factor is not used)."},
	{"jitter=decorrelatedv2&capat=fixed", "Retry k draws t = k − 1 + U and waits (g(t) − g(t′)) × 100 ms / 1.4 in whole 100 ns ticks, clamped to 10 s, where g(t) = 2^t × tanh(√(4t)) and t′ is " +
		"the previous retry's t (g(t′) = 0 for the first): a wait depends on the previous draw, not on the previous wait (Polly's DecorrelatedJitterBackoffV2; factor is not used)."},
}

func TestWaitWords(t *testing.T) {
	for _, tt := range waitWordsTests {
		if got := mustDecode(t, tt.query).WaitWords(); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.query, got, tt.want)
		}
	}
}

// The formula's d is the nominal delay: a time in days is written in full, never "7 d" (issue
// 37: "d = min(7 d, …)").
func TestWaitWordsWriteDaysInFull(t *testing.T) {
	for q, want := range map[string]string{
		"growth=polynomial0&base=1s&factor=4&cap=168h&jitter=sidekiq&offset=15s&attempts=26": "d = min(7 days, 1 s × (k−1)^4)",
		"base=1s&cap=24h&jitter=full&capat=after":                                            "d = min(1 day, 1 s × 2^(k−1)) (full jitter), drawn without the cap and then clamped to 1 day.",
		"base=24h&cap=36h&jitter=decorrelated":                                               "between 1 day and 3 × the previous wait (the first: 3 × 1 day), at most 1.5 days",
		"base=100ms&cap=1h&jitter=none":                                                      "d = min(1 h, 100 ms × 2^(k−1))",
	} {
		if got := mustDecode(t, q).WaitWords(); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q in it", q, got, want)
		}
	}
}
