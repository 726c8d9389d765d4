package policy_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"backoffcalc/calc/policy"
)

// TestSampleByHand re-derives the percentiles the slow way: every path drawn with rand.Rand from
// PCG(seed, i) as the package doc says, waits from the formulas, nearest rank after a full sort.
func TestSampleByHand(t *testing.T) {
	for _, q := range []string{
		"base=100ms&factor=2&cap=1s&attempts=6&jitter=full&samples=1000&seed=42",
		"base=100ms&factor=2&cap=1s&attempts=6&jitter=equal&samples=999&seed=3&call=10ms&budget=1s",
		"base=100ms&cap=1s&attempts=8&jitter=decorrelated&samples=500&seed=9&budget=2s",
		"base=10ms&factor=1&cap=10ms&attempts=5&jitter=none&samples=100&budget=35ms",
		// Without a budget, with calls, over enough paths to bracket the quantiles: the totals
		// are the last starts' quantiles less the calls, and not sorted again.
		"base=100ms&cap=1s&attempts=6&jitter=equal&samples=5000&seed=7&call=25ms",
		"base=100ms&cap=1s&attempts=7&jitter=full&samples=3000&seed=8",
	} {
		p := mustDecode(t, q)
		got := p.Sample()
		starts := make([][]time.Duration, p.Attempts)
		var totals []time.Duration
		for i := range p.Samples {
			r := rand.New(rand.NewPCG(p.Seed, uint64(i)))
			start, total, prev := time.Duration(0), time.Duration(0), p.Base
			starts[0] = append(starts[0], 0)
			for k := 1; k < p.Attempts; k++ {
				d := float64(p.Nominal(p.RawNominal(k)))
				var w time.Duration
				switch p.Jitter {
				case policy.None:
					w = time.Duration(d)
				case policy.Full:
					w = time.Duration(math.Round(r.Float64() * d))
				case policy.Equal:
					w = time.Duration(math.Round(d/2 + r.Float64()*d/2))
				case policy.Decorrelated:
					b := float64(p.Base)
					w = min(p.Cap, time.Duration(math.Round(b+r.Float64()*(3*float64(prev)-b))))
				}
				if p.Budget > 0 && start+p.Call+w >= p.Budget {
					break
				}
				start += p.Call + w
				total += w
				prev = w
				starts[k] = append(starts[k], start)
			}
			totals = append(totals, total)
		}
		rank := func(a []time.Duration, pct int) time.Duration {
			slices.Sort(a)
			return a[int(math.Ceil(float64(pct)*float64(len(a))/100))-1]
		}
		for k, s := range starts {
			g := got.Starts[k]
			if g.Reached != len(s) {
				t.Errorf("%s attempt %d: reached %d, want %d", q, k+1, g.Reached, len(s))
				continue
			}
			if len(s) > 0 && (g.Start.P50 != rank(s, 50) || g.Start.P90 != rank(s, 90) || g.Start.P99 != rank(s, 99)) {
				t.Errorf("%s attempt %d: %+v, want %v %v %v", q, k+1, g.Start, rank(s, 50), rank(s, 90), rank(s, 99))
			}
		}
		if got.Total != (policy.Quantiles{rank(totals, 50), rank(totals, 90), rank(totals, 99)}) {
			t.Errorf("%s total: %+v", q, got.Total)
		}
	}
}

func TestSampleDeterministic(t *testing.T) {
	p := mustDecode(t, "attempts=10&samples=2000&seed=5")
	a, b := p.Sample(), p.Sample()
	if !slices.Equal(a.Starts, b.Starts) || a.Total != b.Total {
		t.Error("same seed, different samples")
	}
	p.Seed = 6
	if c := p.Sample(); slices.Equal(a.Starts, c.Starts) {
		t.Error("another seed gave the same samples")
	}
}

// Full jitter's second attempt starts at U*100ms: its p50 and p99 sit near 50 and 99 ms.
func TestSampleQuantilesOfUniform(t *testing.T) {
	s := mustDecode(t, "base=100ms&attempts=2&samples=200000").Sample().Starts[1].Start
	if math.Abs(s.P50.Seconds()-0.050) > 0.001 || math.Abs(s.P99.Seconds()-0.099) > 0.0005 {
		t.Errorf("uniform on [0, 100ms]: %+v", s)
	}
}

func TestQuantilesNearestRank(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var bufs [3][]time.Duration
	check := func(name string, a []time.Duration) {
		t.Helper()
		n := len(a)
		sorted := slices.Sorted(slices.Values(a))
		got := policy.QuantilesOf(a, &bufs)
		at := func(pct int) time.Duration { return sorted[(pct*n+99)/100-1] }
		if got != (policy.Quantiles{at(50), at(90), at(99)}) {
			t.Errorf("%s, n=%d: %+v, want %v %v %v", name, n, got, at(50), at(90), at(99))
		}
	}
	// From a handful of elements to the sizes where quantiles brackets the ranks with a sample.
	for _, n := range []int{1, 2, 3, 10, 99, 100, 101, 1000, 2047, 2048, 2049, 10000, 65537} {
		for _, dup := range []int{1, 3, 1 << 40} {
			a := make([]time.Duration, n)
			for i := range a {
				a[i] = time.Duration(r.Int64N(int64(dup * 10)))
			}
			check(fmt.Sprint("values below ", dup*10), a)
		}
		// Orders and shapes a sample can misjudge: sorted, reversed, one value, a long tail.
		shapes := map[string]func(i int) time.Duration{
			"sorted":   func(i int) time.Duration { return time.Duration(i) },
			"reversed": func(i int) time.Duration { return time.Duration(n - i) },
			"constant": func(int) time.Duration { return 7 },
			"tail": func(i int) time.Duration {
				if i%97 == 0 {
					return time.Duration(1e12 + i)
				}
				return time.Duration(i % 5)
			},
			"extremes": func(i int) time.Duration {
				return []time.Duration{math.MinInt64, 0, math.MaxInt64}[i%3]
			},
		}
		for name, f := range shapes {
			a := make([]time.Duration, n)
			for i := range a {
				a[i] = f(i)
			}
			check(name, a)
		}
	}
	// Nearest rank of 1..10: p50 = 5th, p90 = 9th, p99 = 10th.
	a := []time.Duration{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	if q := policy.QuantilesOf(a, &bufs); q != (policy.Quantiles{5, 9, 10}) {
		t.Errorf("1..10: %+v", q)
	}
}

// The one-pass bracketing is what a sample of 10000 paths goes through, and when its brackets
// miss it leaves the slice as it was for the selection over all of it.
func TestBracketQuantiles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var bufs [3][]time.Duration
	a := make([]time.Duration, 10000)
	for i := range a {
		a[i] = time.Duration(r.Int64N(1e9))
	}
	ranks := [3]int{4999, 8999, 9899}
	q, ok := policy.BracketQuantiles(a, ranks, &bufs)
	sorted := slices.Sorted(slices.Values(a))
	if !ok || q != (policy.Quantiles{sorted[4999], sorted[8999], sorted[9899]}) {
		t.Errorf("uniform sample: %+v, %v; want %v %v %v", q, ok, sorted[4999], sorted[8999], sorted[9899])
	}
	// A sample that sees only the smallest value: its brackets miss.
	for i := range policy.BracketSample {
		a[(2*i+1)*len(a)/(2*policy.BracketSample)] = -1
	}
	before := slices.Clone(a)
	if _, ok := policy.BracketQuantiles(a, ranks, &bufs); ok {
		t.Error("brackets from an unrepresentative sample found the ranks")
	}
	if !slices.Equal(a, before) {
		t.Error("a missed bracketing reordered the slice")
	}
	check := slices.Sorted(slices.Values(a))
	if got := policy.QuantilesOf(a, &bufs); got != (policy.Quantiles{check[4999], check[8999], check[9899]}) {
		t.Errorf("after a miss: %+v", got)
	}
}

// Pausing changes nothing; a pause that says stop ends the sampling; a report built in two steps
// equals the one built at once.
func TestSamplePausing(t *testing.T) {
	p := mustDecode(t, "attempts=12&samples=20000&jitter=equal&budget=3s")
	want := p.Sample()
	pauses := 0
	got, done := p.SamplePausing(func() bool { pauses++; return true })
	if !done || !slices.Equal(got.Starts, want.Starts) || got.Total != want.Total || pauses == 0 {
		t.Errorf("paused sampling differs, or never paused (%d pauses)", pauses)
	}
	if _, done := p.SamplePausing(func() bool { return false }); done {
		t.Error("sampling told to stop finished")
	}
	r := p.ReportBounds()
	if r.Sampled() {
		t.Error("ReportBounds has samples")
	}
	if !r.AddSamples(nil) || !r.Sampled() || !slices.Equal(r.Modes, p.Report().Modes) || r.Sample.Total != want.Total {
		t.Error("a report built in two steps differs")
	}
	// A mode outside the classic five is compared too.
	if m := mustDecode(t, "jitter=upward").ReportBounds().Modes; len(m) != 6 || m[5].Jitter != policy.Upward {
		t.Errorf("modes %+v", m)
	}
}

// ReachedShare is Reached over Paths, by attempt number: 17 of 2000 is 0.0085.
func TestReachedShare(t *testing.T) {
	s := policy.Sample{Paths: 2000, Starts: []policy.StartSample{{Reached: 2000}, {Reached: 1999}, {Reached: 17}}}
	for n, want := range map[int]float64{1: 1, 2: 0.9995, 3: 0.0085, 0: 0, 4: 0} {
		if got := s.ReachedShare(n); got != want {
			t.Errorf("ReachedShare(%d) = %v, want %v", n, got, want)
		}
	}
	if got := (policy.Sample{}).ReachedShare(1); got != 0 {
		t.Errorf("no paths: %v", got)
	}
}
