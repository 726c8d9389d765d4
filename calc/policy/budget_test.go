package policy_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// withinTests are worked by hand (see each comment); times in the query are exact.
var withinTests = []struct {
	name     string
	query    string
	min, max time.Duration
}{
	// Starts 0, 1s, 3s; attempt 4 would start at 7s: every path waits 1s + 2s.
	{"none", "base=1s&factor=2&attempts=6&jitter=none&budget=6.5s&cap=1m", 3 * time.Second, 3 * time.Second},
	// With 500ms calls: starts 0, 1.5s, 4s; attempt 4 would start at 8.5s.
	{"none call", "base=1s&factor=2&attempts=6&jitter=none&budget=6.5s&cap=1m&call=500ms", 3 * time.Second, 3 * time.Second},
	// A start at the budget itself is out: attempt 3 would start at 4s.
	{"none at budget", "base=1s&factor=2&attempts=6&jitter=none&budget=4s&cap=1m&call=500ms", time.Second, time.Second},
	// No budget left for a retry: attempt 2 would start at 1s.
	{"none first only", "base=1s&attempts=6&jitter=none&budget=1s", 0, 0},
	// Every attempt fits: 1 + 2 + 4 + 8 + 16 s.
	{"none all", "base=1s&factor=2&attempts=6&jitter=none&budget=31001ms&cap=1m", 31 * time.Second, 31 * time.Second},
	// Waits in [0,1], [0,2], [0,4], [0,8], [0,16] s: all zero makes all six attempts; the most
	// stops 1 ns short of the budget.
	{"full", "base=1s&factor=2&attempts=6&jitter=full&budget=6.5s&cap=1m", 0, 6500*time.Millisecond - 1},
	// Waits in [.5,1], [1,2], [2,4], [4,8] s: 1s + 1.5s, then a 4 s wait puts attempt 4 at
	// 6.5s, out; three waits can never reach it with less (retry 3 waits at most 4s), and two
	// waits (at most 3s) leave attempt 3 needing 6.5 - 3 > 2 s from retry 2.
	{"equal", "base=1s&factor=2&attempts=6&jitter=equal&budget=6.5s&cap=1m", 2500 * time.Millisecond, 6500*time.Millisecond - 1},
	// The link: waits in [250, 750] ms, then [250, 3w] ms. A wait of 750 ms lets the next
	// reach 2.25s, 3s in all; any less and attempt 3 is made. Two waits of 750 ms and 2.25 s
	// reach exactly 3s, so the most is 1 ns less.
	{"decorrelated", "base=250ms&attempts=8&jitter=decorrelated&budget=3s", 750 * time.Millisecond, 3*time.Second - 1},
	// Envoy's whole milliseconds: retry 1 in {0..99} ms, retry 2 in {0..199} ms; a budget of
	// 150ms: the most is 149 ms (whole ms below 150ms); all zero makes every attempt.
	{"fullms", "base=100ms&factor=2&attempts=3&jitter=fullms&budget=150ms", 0, 149 * time.Millisecond},
}

func TestWithinBudgetByHand(t *testing.T) {
	for _, tt := range withinTests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustDecode(t, tt.query)
			w := p.WithinBudget()
			if !w.Exact || w.Min != tt.min || w.Max != tt.max {
				t.Errorf("WithinBudget() = %+v, want [%d, %d] exact", w, tt.min, tt.max)
			}
			r := p.Report()
			if r.Within.Min != w.Min || r.Within.Max != w.Max {
				t.Errorf("Report.Within = %+v, want %+v", r.Within, w)
			}
			if r.Within.Mean < float64(w.Min) || r.Within.Mean > float64(w.Max) || r.Within.Mean != r.Sample.TotalMean {
				t.Errorf("mean within the budget %v, sampled %v", r.Within.Mean, r.Sample.TotalMean)
			}
		})
	}
}

// Without jitter the one path is the sample: its total is every percentile and the mean.
func TestWithinBudgetNoJitterSample(t *testing.T) {
	r := mustDecode(t, withinTests[0].query).Report()
	want := policy.Quantiles{3 * time.Second, 3 * time.Second, 3 * time.Second}
	if r.Sample.Total != want || r.Within.Mean != float64(3*time.Second) {
		t.Errorf("sampled %+v, mean %v", r.Sample.Total, r.Within.Mean)
	}
	// The policy's totals ignore the budget: 1 + 2 + 4 + 8 + 16 s.
	if r.Schedule.Total.Max != 31*time.Second {
		t.Errorf("policy total %v", r.Schedule.Total)
	}
}

func TestWithinBudgetNone(t *testing.T) {
	r := mustDecode(t, "base=1s&attempts=6").Report()
	if r.Within != (policy.WithinBudget{}) {
		t.Errorf("no budget: %+v", r.Within)
	}
	for _, m := range r.Modes {
		if m.Within != (policy.WithinBudget{}) {
			t.Errorf("no budget, mode %s: %+v", m.Jitter, m.Within)
		}
	}
}

// decorrelatedv2's least and most are its samples'.
func TestWithinBudgetPollySampled(t *testing.T) {
	r := mustDecode(t, "jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12&budget=5s&samples=500").Report()
	if r.Within.Exact || r.Within.Min != r.Sample.TotalMin || r.Within.Max != r.Sample.TotalMax || r.Within.Max >= 5*time.Second {
		t.Errorf("within %+v, sample [%d, %d]", r.Within, r.Sample.TotalMin, r.Sample.TotalMax)
	}
}

// bruteWithin walks every path of small policies: each retry's waits are every value Params.Wait
// gives over a fine grid of draws (and the largest draw), which with waits of a few dozen units
// is every whole value they can take.
type bruteWithin struct {
	p     calc.Params
	cache map[[2]int64][]time.Duration // (retry, state) -> the waits it can draw
}

// state is what a retry's waits depend on: decorrelated jitter's previous wait, else nothing.
func (b *bruteWithin) state(prev time.Duration) time.Duration {
	if b.p.Jitter == policy.Decorrelated {
		return prev
	}
	return 0
}

func (b *bruteWithin) waits(k int, state time.Duration) []time.Duration {
	key := [2]int64{int64(k), int64(state)}
	if ws, ok := b.cache[key]; ok {
		return ws
	}
	seen := map[time.Duration]bool{}
	var ws []time.Duration
	const grid = 1 << 11
	u0 := float64(state)
	if b.p.Jitter != policy.Decorrelated {
		u0 = b.p.FirstState()
	}
	for i := 0; i <= grid; i++ {
		u := float64(i) / grid
		if i == grid {
			u = policy.MaxDraw
		}
		if w, _ := b.p.Wait(k, u, u0); !seen[w] {
			seen[w] = true
			ws = append(ws, w)
		}
	}
	b.cache[key] = ws
	return ws
}

// run returns the least and most total wait within the budget over every path. A path's
// future depends only on its attempt, its total and its state, so each is walked once.
func (b *bruteWithin) run() (lo, hi time.Duration) {
	p := b.p
	lo, hi = math.MaxInt64, -1
	type node struct {
		k            int // attempt k has been made
		total, state time.Duration
	}
	seen := map[node]bool{}
	var walk func(n node)
	walk = func(n node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.k == p.Attempts {
			lo, hi = min(lo, n.total), max(hi, n.total)
			return
		}
		start := n.total + time.Duration(n.k-1)*p.Call
		for _, w := range b.waits(n.k, n.state) {
			if start+p.Call+w >= p.Budget {
				lo, hi = min(lo, n.total), max(hi, n.total)
				continue
			}
			walk(node{n.k + 1, n.total + w, b.state(w)})
		}
	}
	walk(node{1, 0, b.state(p.Base)})
	return lo, hi
}

// TestWithinBudgetBruteForce compares the exact least and most with every path of small
// policies, across modes, cap placements, growths, calls and every budget up to past the
// longest path.
func TestWithinBudgetBruteForce(t *testing.T) {
	type shape struct {
		unit  time.Duration
		query string
	}
	var shapes []shape
	for _, j := range []policy.Jitter{policy.None, policy.Full, policy.Equal, policy.Decorrelated, policy.Proportional, policy.Upward, policy.Additive} {
		for _, extra := range []string{"", "&capat=after", "&capat=fixed&first=exact", "&growth=linear"} {
			shapes = append(shapes, shape{time.Nanosecond, fmt.Sprintf("jitter=%s&base=3ns&cap=13ns&factor=2&attempts=5&ratio=0.5&add=4ns%s", j, extra)})
		}
	}
	shapes = append(shapes,
		shape{time.Nanosecond, "jitter=decorrelated&base=2ns&cap=40ns&attempts=6"},
		shape{time.Nanosecond, "jitter=full&base=5ns&cap=20ns&factor=1.5&attempts=5"},
		shape{time.Millisecond, "jitter=fullms&base=3ms&cap=12ms&factor=2&attempts=5"},
		shape{time.Millisecond, "jitter=fullms&base=3ms&cap=12ms&factor=2&attempts=5&first=exact&capat=fixed"},
	)
	for _, sh := range shapes {
		p := mustDecode(t, sh.query)
		b := &bruteWithin{p: p, cache: map[[2]int64][]time.Duration{}}
		longest := p.Schedule().Rows[p.Attempts-1].Latest
		for _, call := range []time.Duration{0, sh.unit} {
			for budget := time.Duration(1); budget <= longest+time.Duration(p.Attempts)*call+2*sh.unit; budget += max(1, sh.unit/3) {
				p.Call, p.Budget = call, budget
				b.p = p
				lo, hi := b.run()
				w := p.WithinBudget()
				if w.Min != lo || w.Max != hi || !w.Exact {
					t.Fatalf("%s&call=%s&budget=%s: WithinBudget [%d, %d], every path [%d, %d]",
						sh.query, policy.FormatDuration(call), policy.FormatDuration(budget), w.Min, w.Max, lo, hi)
				}
			}
		}
	}
}
