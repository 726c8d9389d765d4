package policy_test

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// checkTyped says whether a found answer's typed value is no more than the answer, in range,
// fits (read from the schedule or the sampled paths, not from the search), and is the rounding
// to sig digits whenever that fits; any other answer is typed as itself.
func checkTyped[T time.Duration | float64](t *testing.T, name string, f policy.Fit[T], lo T, sig int, floor func(T, int) T, fits func(T) bool) {
	t.Helper()
	if f.Kind != policy.FitFound {
		if f.Typed != f.Value {
			t.Errorf("%s: %v answer %v typed as %v", name, f.Kind, f.Value, f.Typed)
		}
		return
	}
	if f.Typed > f.Value || f.Typed < lo || !fits(f.Typed) {
		t.Errorf("%s = %v typed as %v: in range %v, fits %v", name, f.Value, f.Typed, f.Typed >= lo, fits(f.Typed))
	}
	if r := floor(f.Value, sig); r >= lo && fits(r) && f.Typed != r {
		t.Errorf("%s = %v typed as %v, though %v (%d digits) fits", name, f.Value, f.Typed, r, sig)
	}
}

// Every typed worst-case answer, in every mode and cap placement, fits as the schedule says.
func TestSolveTypedFits(t *testing.T) {
	rounded := 0
	for _, q := range solveCases {
		for _, capAt := range []string{"before", "after", "fixed"} {
			for _, j := range policy.AllJitters() {
				p := mustDecode(t, q+"&capat="+capAt+"&jitter="+j.String())
				s := solutionOf(t, p)
				name := p.Encode()
				with := func(set func(*calc.Params)) bool { q := p; set(&q); return scheduleFits(q) }
				checkTyped(t, name+" base", s.Worst.Base, 1, 3, policy.FloorDuration, func(x time.Duration) bool { return with(func(q *calc.Params) { q.Base = x }) })
				checkTyped(t, name+" cap", s.Worst.Cap, p.Base, 3, policy.FloorDuration, func(x time.Duration) bool { return with(func(q *calc.Params) { q.Cap = x }) })
				checkTyped(t, name+" factor", s.Worst.Factor, 1, 4, policy.FloorFactor, func(x float64) bool { return with(func(q *calc.Params) { q.Factor = x }) })
				if s.Worst.Base.Kind == policy.FitFound && s.Worst.Base.Typed != s.Worst.Base.Value {
					rounded++
				}
			}
		}
	}
	if rounded < 50 {
		t.Errorf("only %d bases rounded", rounded)
	}
}

// The hand-worked case: the base up to 157.142857ms is typed 157ms, the factor 2.701562117553472
// is 2.701.
func TestSolveTypedHandWorked(t *testing.T) {
	s := solutionOf(t, mustDecode(t, "base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s&attempts=6"))
	if s.Worst.Base.Typed != 157*time.Millisecond || s.Worst.Factor.Typed != 2.701 || s.Worst.Cap.Typed != 1590*time.Millisecond {
		t.Errorf("typed base %v, factor %v, cap %v; want 157ms, 2.701, 1.59s", s.Worst.Base.Typed, s.Worst.Factor.Typed, s.Worst.Cap.Typed)
	}
	if typed := policy.TypedDuration(s.Worst.Base.Typed); typed != "157ms" {
		t.Errorf("the base is typed %q", typed)
	}
}

// Every typed sampled answer fits 99% of the paths, read from Sample.
func TestSolveTypedSampled(t *testing.T) {
	for _, q := range []string{solveCases[0], solveCases[2], solveCases[3]} {
		for _, capAt := range []string{"before", "after", "fixed"} {
			p := mustDecode(t, q+"&samples=500&capat="+capAt)
			r := p.Report()
			if !r.AddSolveSamples(nil) {
				t.Fatal("not finished without a pause")
			}
			need := policy.Need99(p.Samples)
			for _, s := range r.Solutions {
				m := p.WithJitter(s.Jitter)
				name := m.Encode()
				with := func(set func(*calc.Params)) bool {
					q := m
					set(&q)
					st := q.Sample().Starts
					return st[len(st)-1].Reached >= need
				}
				checkTyped(t, name+" p99 base", s.Sampled99.Base, 1, 3, policy.FloorDuration, func(x time.Duration) bool { return with(func(q *calc.Params) { q.Base = x }) })
				checkTyped(t, name+" p99 cap", s.Sampled99.Cap, m.Base, 3, policy.FloorDuration, func(x time.Duration) bool { return with(func(q *calc.Params) { q.Cap = x }) })
				checkTyped(t, name+" p99 factor", s.Sampled99.Factor, 1, 4, policy.FloorFactor, func(x float64) bool { return with(func(q *calc.Params) { q.Factor = x }) })
				if f := s.Sampled99.Factor; f.Kind == policy.FitFound && math.IsNaN(f.Typed) {
					t.Errorf("%s: factor typed NaN", name)
				}
			}
		}
	}
}

// With capat=fixed the answer can sit just above a retry's crossing of the cap, where the piece
// that fits starts: rounded to three digits it would fall below it and not fit. Two retries,
// ratio 1: the latest start is 6b up to b = 500ms (3s, over a 2.002s budget) and 2b + 1s past
// it, which fits for b < 501ms. 500ms does not fit; 500.9ms, at four digits, does.
func TestSolveTypedMoreDigits(t *testing.T) {
	p := mustDecode(t, "jitter=proportional&ratio=1&base=100ms&factor=2&cap=1s&attempts=3&capat=fixed&budget=2002ms")
	b := solutionOf(t, p).Worst.Base
	if b.Value != 501*time.Millisecond-1 || b.Typed != 500900*time.Microsecond {
		t.Errorf("base %v typed %v, want 500.999999ms typed 500.9ms", b.Value, b.Typed)
	}
	q := p
	q.Base = 500 * time.Millisecond
	if scheduleFits(q) {
		t.Error("500ms fits: the case does not need a fourth digit")
	}
}
