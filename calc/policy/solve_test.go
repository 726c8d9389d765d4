package policy_test

import (
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// solutionOf is the solution of p's own mode.
func solutionOf(t *testing.T, p calc.Params) policy.Solution {
	t.Helper()
	for _, s := range p.Solutions() {
		if s.Jitter == p.Jitter {
			return s
		}
	}
	t.Fatalf("%s: no solution for %s", p.Encode(), p.Jitter)
	return policy.Solution{}
}

// scheduleFits is the worst-case fit as the schedule says it, independently of the search:
// the last attempt's latest start is before the budget.
func scheduleFits(p calc.Params) bool {
	rows := p.Schedule().Rows
	return rows[len(rows)-1].Latest < p.Budget
}

// The hand-worked case: base 100ms, factor 2, cap 1s, no jitter, budget 3.1s.
//
// The waits before attempts 2, 3, ... are 100, 200, 400, 800 ms, then the cap, 1s, every time:
// the attempts start at 0, 0.1, 0.3, 0.7, 1.5, 2.5 and 3.5 s. Attempt 6 starts at 2.5s < 3.1s and
// attempt 7 at 3.5s >= 3.1s: the most attempts is 6, on every path (no jitter: one path).
//
// The largest base with 6 attempts: attempt 6 starts at the sum of the five waits
// min(1s, b), min(1s, 2b), min(1s, 4b), min(1s, 8b), min(1s, 16b).
//   - b <= 62.5ms (16b <= 1s): 31b < 3.1s for b < 100ms, so every such b fits;
//   - 62.5ms < b <= 125ms: 15b + 1s < 3.1s for b < 140ms: every such b fits;
//   - 125ms < b <= 250ms: 7b + 2s < 3.1s for b < 1.1s/7 = 157.142857142…ms.
//
// In whole nanoseconds: 7 × 157142857 = 1099999999, attempt 6 at 3.099999999s; one nanosecond
// more, 7 × 157142858 = 1100000006, at 3.100000006s. The answer is 157142857ns.
func TestSolveHandWorked(t *testing.T) {
	p := mustDecode(t, "base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s&attempts=6")
	s := solutionOf(t, p)
	if want := (policy.Fit[int]{policy.FitFound, 6, 6, true}); s.Always != want || s.Can != want {
		t.Errorf("most attempts: always %+v, can %+v; want 6 (attempt 7 starts at 3.5s)", s.Always, s.Can)
	}
	if want := (policy.Fit[time.Duration]{policy.FitFound, 157142857, 157 * time.Millisecond, true}); s.Worst.Base != want {
		t.Errorf("largest base with 6 attempts = %+v, want 157142857ns", s.Worst.Base)
	}
	// The cap: the waits 100, 200, 400, 800ms and min(cap, 1.6s) sum to under 3.1s for a cap
	// under 1.6s.
	if want := (policy.Fit[time.Duration]{policy.FitFound, 1600*time.Millisecond - 1, 1590 * time.Millisecond, true}); s.Worst.Cap != want {
		t.Errorf("largest cap with 6 attempts = %+v, want 1.599999999s", s.Worst.Cap)
	}
	// With the calculator's default mode, full jitter, the latest starts are the same, and
	// every wait can be 0: every attempt can start at 0, and all MaxAttempts of them fit.
	full := solutionOf(t, p.WithJitter(policy.Full))
	if full.Always.Value != 6 || full.Can != (policy.Fit[int]{policy.FitAll, policy.MaxAttempts, policy.MaxAttempts, true}) {
		t.Errorf("full jitter: always %+v, can %+v; want 6 and all %d", full.Always, full.Can, policy.MaxAttempts)
	}
}

// Polynomial growth reads factor as its power: with base 100 ms and no jitter, attempt 5 starts
// at 100 ms × (1 + 2^f + 3^f + 4^f), 3 s for f = 2 and 10 s for f = 3. Within a 5 s budget the
// largest power is 2. Counting from 0 as Sidekiq does (polynomial0), attempt 5 starts at
// 100 ms × (0 + 1 + 2^f + 3^f): 1.4 s for f = 2, 3.6 s for f = 3, 9.8 s for f = 4, so the
// largest is 3.
func TestSolvePolynomialPower(t *testing.T) {
	for _, c := range []struct {
		query string
		want  float64
	}{
		{"base=100ms&factor=2&cap=1m&attempts=5&jitter=none&budget=5s&growth=polynomial", 2},
		{"base=100ms&factor=2&cap=1m&attempts=5&jitter=none&budget=5s&growth=polynomial0", 3},
	} {
		s := solutionOf(t, mustDecode(t, c.query))
		if f := s.Worst.Factor; f.Kind != policy.FitFound || f.Value != c.want || f.Typed != c.want {
			t.Errorf("%s: largest power %+v, want %v", c.query, f, c.want)
		}
	}
}

// For uncapped exponential growth without jitter or call time, attempt n starts at
// b(m^(n-1) - 1)/(m - 1), so n attempts fit in T when m^(n-1) < 1 + T(m-1)/b:
// N = 1 + floor(log_m(1 + T(m-1)/b)) when the logarithm is not a whole number (when it is,
// attempt N would start exactly at T, which is not within the budget). The largest base for N
// attempts is the largest b with b(m^(N-1) - 1)/(m - 1) < T. Both are checked against the
// search, the base in exact integers.
func TestSolveClosedForm(t *testing.T) {
	checked := 0
	for _, m := range []int64{2, 3, 4, 5, 7, 10} {
		for _, b := range []time.Duration{1, 7, 1000, 12345, time.Millisecond, 100 * time.Millisecond, time.Second} {
			for _, T := range []time.Duration{time.Millisecond, 3100 * time.Millisecond, 30 * time.Second, time.Hour, 100 * time.Hour} {
				if T <= b {
					continue
				}
				L := math.Log(1+float64(T)*float64(m-1)/float64(b)) / math.Log(float64(m))
				if math.Abs(L-math.Round(L)) < 1e-9 {
					continue
				}
				N := 1 + int(math.Floor(L))
				p := calc.Default()
				p.Base, p.Factor, p.Cap, p.Jitter, p.Budget = b, float64(m), policy.MaxCap, policy.None, T
				s := solutionOf(t, p)
				if s.Always.Value != N || s.Can.Value != N {
					t.Errorf("b=%v m=%d T=%v: most attempts %d (can %d), closed form %d", b, m, T, s.Always.Value, s.Can.Value, N)
				}
				if N < 2 {
					continue
				}
				// b(m^(N-1) - 1)/(m-1) < T  <=>  b < T(m-1)/(m^(N-1) - 1): the largest is ceil(q) - 1.
				g := new(big.Int).Exp(big.NewInt(m), big.NewInt(int64(N-1)), nil)
				g.Sub(g, big.NewInt(1))
				num := new(big.Int).Mul(big.NewInt(int64(T)), big.NewInt(m-1))
				q, r := new(big.Int).QuoRem(num, g, new(big.Int))
				want := q.Int64()
				if r.Sign() == 0 {
					want--
				}
				p.Attempts = N
				got := solutionOf(t, p).Worst.Base
				switch {
				case want >= int64(p.Cap) || want >= int64(policy.MaxBase):
					if got.Kind != policy.FitAll {
						t.Errorf("b=%v m=%d T=%v N=%d: base %+v, want every value (%d)", b, m, T, N, got, want)
					}
				case got.Kind != policy.FitFound || got.Value != time.Duration(want) || !got.Largest:
					t.Errorf("b=%v m=%d T=%v N=%d: base %+v, closed form %dns", b, m, T, N, got, want)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d cases checked", checked)
	}
}

// solveCases cover every mode with the cap before, after and fixed, call time, the first retry
// exact, linear growth and sizes from nanoseconds to hours.
var solveCases = []string{
	"base=100ms&factor=2&cap=1s&budget=3.1s",
	"base=100ms&factor=2&cap=1s&budget=3.1s&call=50ms&attempts=8",
	"base=1s&factor=1.5&cap=20s&budget=30s&attempts=10&ratio=0.5",
	"base=10ms&factor=3&cap=10s&budget=2s&attempts=5&add=300ms",
	"base=500ms&factor=1.6&cap=120s&budget=10m&attempts=12&first=exact&ratio=0.2",
	"base=250ms&cap=2s&budget=4s&attempts=6&growth=linear&add=50ms",
	"base=3ns&factor=2&cap=40ns&budget=150ns&attempts=7&ratio=0.5&add=5ns",
	"base=2s&factor=2&cap=20s&budget=1m&attempts=4&call=5s",
	"base=25ms&factor=2&cap=250ms&budget=1s&attempts=7",
	"base=1ms&factor=10&cap=168h&budget=720h&attempts=20",
	"base=100ms&factor=2&cap=1m&budget=5s&attempts=5&growth=polynomial",
	"base=10ms&factor=4&cap=30m&budget=10m&attempts=9&growth=polynomial0&call=1s",
}

// Every worst-case answer is tight: with it every attempt starts before the budget, with one
// nanosecond (or the next float64) more one does not; FitAll fits at the top, FitNone fails at
// the bottom. The fit is read from the schedule, not from the search.
func TestSolveTight(t *testing.T) {
	for _, q := range solveCases {
		for _, capAt := range []string{"before", "after", "fixed"} {
			for _, j := range policy.AllJitters() {
				p := mustDecode(t, q+"&capat="+capAt+"&jitter="+j.String())
				s := solutionOf(t, p)
				name := p.Encode()
				checkTight(t, name+" base", s.Worst.Base, 1, min(p.Cap, policy.MaxBase), func(x time.Duration) bool {
					q := p
					q.Base = x
					return scheduleFits(q)
				}, func(x time.Duration) time.Duration { return x + 1 })
				checkTight(t, name+" cap", s.Worst.Cap, p.Base, policy.MaxCap, func(x time.Duration) bool {
					q := p
					q.Cap = x
					return scheduleFits(q)
				}, func(x time.Duration) time.Duration { return x + 1 })
				if unused := !j.UsesFactor() || p.Growth == policy.Linear; unused != (s.Worst.Factor.Kind == policy.FitUnused) {
					t.Errorf("%s: factor %v, want unused %v", name, s.Worst.Factor.Kind, unused)
				}
				if s.Worst.Factor.Kind == policy.FitUnused {
					continue
				}
				// A polynomial's power is whole: the next one up is 1 more.
				next := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
				if p.Growth.IsPolynomial() {
					next = func(x float64) float64 { return x + 1 }
					if f := s.Worst.Factor; f.Value != math.Trunc(f.Value) || f.Typed != f.Value {
						t.Errorf("%s: polynomial power %v typed %v, want a whole number", name, f.Value, f.Typed)
					}
				}
				checkTight(t, name+" factor", s.Worst.Factor, 1, policy.MaxFactor, func(x float64) bool {
					q := p
					q.Factor = x
					return scheduleFits(q)
				}, next)
			}
		}
	}
}

func checkTight[T time.Duration | float64](t *testing.T, name string, f policy.Fit[T], lo, hi T, fits func(T) bool, next func(T) T) {
	t.Helper()
	switch f.Kind {
	case policy.FitFound:
		if f.Value < lo || f.Value >= hi || !fits(f.Value) || fits(next(f.Value)) {
			t.Errorf("%s = %v: fits %v, next up %v fits %v; want true, false", name, f.Value, fits(f.Value), next(f.Value), fits(next(f.Value)))
		}
	case policy.FitAll:
		if f.Value != hi || !fits(hi) {
			t.Errorf("%s: every value, but %v fits %v", name, hi, fits(hi))
		}
	case policy.FitNone:
		if f.Value != lo || fits(lo) {
			t.Errorf("%s: no value, but %v fits %v", name, lo, fits(lo))
		}
	default:
		t.Errorf("%s: kind %v", name, f.Kind)
	}
}

// With capat=fixed, a retry past the cap waits exactly cap, less than the proportional,
// upward or additive jitter's longest wait below it: the latest start falls as base passes
// each retry's crossing, and a larger base can fit again. Over a range small enough to try
// every base, the answer is the largest that fits, not the first that does not.
func TestSolveCapFixedLargest(t *testing.T) {
	comesBack := 0
	for _, q := range []string{
		"jitter=proportional&ratio=1&base=10ns&factor=2&cap=1000ns&attempts=5&capat=fixed",
		"jitter=upward&ratio=0.5&base=10ns&factor=3&cap=900ns&attempts=4&capat=fixed",
		"jitter=additive&add=600ns&base=10ns&factor=2&cap=700ns&attempts=4&capat=fixed",
	} {
		for budget := time.Duration(1000); budget <= 4000; budget += 50 {
			p := mustDecode(t, q)
			p.Budget = budget
			want, failed := time.Duration(0), false
			for b := time.Duration(1); b <= p.Cap; b++ {
				q := p
				q.Base = b
				fits := scheduleFits(q)
				if fits {
					comesBack += b2i(failed) // after a base that did not fit
					want = b
				}
				failed = !fits
			}
			got := solutionOf(t, p).Worst.Base
			if got.Value != want && !(got.Kind == policy.FitNone && want == 0) {
				t.Errorf("%s&budget=%v: base %+v, want %v (tried every base)", q, budget, got, want)
			}
		}
	}
	if comesBack == 0 {
		t.Error("the fit never comes back: the cases test nothing")
	}
}

// The most attempts agree with the schedule's count over MaxAttempts attempts.
func TestSolveAttempts(t *testing.T) {
	for _, q := range solveCases {
		for _, j := range policy.AllJitters() {
			p := mustDecode(t, q+"&jitter="+j.String())
			s := solutionOf(t, p)
			long := p
			long.Attempts = policy.MaxAttempts
			sch := long.Schedule()
			if s.Always.Value != sch.Always || s.Can.Value != sch.AtMost {
				t.Errorf("%s: always %d, can %d; schedule of %d attempts: %d, %d", p.Encode(), s.Always.Value, s.Can.Value, policy.MaxAttempts, sch.Always, sch.AtMost)
			}
			if (s.Can.Kind == policy.FitAll) != (sch.AtMost == policy.MaxAttempts) {
				t.Errorf("%s: can %+v", p.Encode(), s.Can)
			}
		}
	}
}

// When even the least value is too long the answer says so, and when even the greatest fits
// (the cap or the attempt count binds first) it says that.
func TestSolveNoneAndAll(t *testing.T) {
	for _, tt := range []struct {
		query                string
		base, factor, capFit policy.FitKind
	}{
		// Two calls of 1s: attempt 3 starts at 2s or later whatever the waits.
		{"jitter=none&call=1s&budget=2s&attempts=3", policy.FitNone, policy.FitNone, policy.FitNone},
		// One retry: it waits base whatever the factor, and at most cap >= base.
		{"jitter=none&budget=1h&attempts=2&cap=10s", policy.FitAll, policy.FitAll, policy.FitAll},
		// Waits stop growing at the cap: four waits of the cap fit, so the base cannot pass it
		// and no factor is too large; without the cap the waits of 10ms × 10^k are too long.
		{"jitter=none&base=10ms&factor=10&cap=1s&budget=5s&attempts=5", policy.FitAll, policy.FitAll, policy.FitFound},
		// The decorrelated modes do not read factor.
		{"jitter=decorrelated&budget=10s", policy.FitFound, policy.FitUnused, policy.FitFound},
		// Polly's longest waits before attempts 2..6 sum to about 3.4s: no cap is too large.
		{"jitter=decorrelatedv2&budget=10s", policy.FitFound, policy.FitUnused, policy.FitAll},
		// Linear growth neither: 100ms to 500ms sum to 1.5s, over the budget.
		{"jitter=full&growth=linear&budget=1s", policy.FitFound, policy.FitUnused, policy.FitFound},
		// One attempt: nothing to wait for.
		{"jitter=equal&attempts=1&budget=1ns", policy.FitAll, policy.FitAll, policy.FitAll},
	} {
		p := mustDecode(t, tt.query)
		s := solutionOf(t, p)
		if s.Worst.Base.Kind != tt.base || s.Worst.Factor.Kind != tt.factor || s.Worst.Cap.Kind != tt.capFit {
			t.Errorf("%s: base %v, factor %v, cap %v; want %v, %v, %v", tt.query,
				s.Worst.Base.Kind, s.Worst.Factor.Kind, s.Worst.Cap.Kind, tt.base, tt.factor, tt.capFit)
		}
	}
	if calc.Default().Solutions() != nil {
		t.Error("no budget: Solutions() is not nil")
	}
}

// pathsMaking walks the very paths of Sample: the counts of paths making each attempt agree.
func TestPathsMakingIsSample(t *testing.T) {
	for _, q := range solveCases[:6] {
		for _, j := range policy.AllJitters() {
			p := mustDecode(t, q+"&samples=2000&jitter="+j.String())
			made, _ := p.PathsMaking(0)
			for k, st := range p.Sample().Starts {
				if made[k] != st.Reached {
					t.Errorf("%s: attempt %d made by %d paths, Sample says %d", p.Encode(), k+1, made[k], st.Reached)
				}
			}
		}
	}
}

// The sampled answers: the most attempts agree with Sample over enough attempts, and each
// sampled base, factor and cap fits 99% of the paths while the next value up does not, read
// from Sample.
func TestSolveSampled(t *testing.T) {
	for _, q := range []string{solveCases[0], solveCases[2], solveCases[3], solveCases[6]} {
		for _, capAt := range []string{"before", "after"} {
			p := mustDecode(t, q+"&samples=500&capat="+capAt)
			r := p.Report()
			if !r.AddSolveSamples(nil) {
				t.Fatal("not finished without a pause")
			}
			need := policy.Need99(p.Samples)
			for _, s := range r.Solutions {
				m := p.WithJitter(s.Jitter)
				name := fmt.Sprintf("%s jitter=%s", p.Encode(), s.Jitter)
				if !s.Sampled {
					t.Fatalf("%s: not sampled", name)
				}
				long := m
				long.Attempts = min(policy.MaxAttempts, s.Can.Value+1)
				starts := long.Sample().Starts
				for _, c := range []struct {
					pct int
					got policy.Fit[int]
				}{{50, s.P50}, {99, s.P99}} {
					n := c.got.Value
					if starts[n-1].Reached*100 < c.pct*p.Samples || n < len(starts) && starts[n].Reached*100 >= c.pct*p.Samples {
						t.Errorf("%s: p%d attempts %d, but the paths making %d and %d: %d, %d", name, c.pct, n, n, n+1, starts[n-1].Reached, starts[min(n, len(starts)-1)].Reached)
					}
				}
				fits := func(q calc.Params) bool { st := q.Sample().Starts; return st[len(st)-1].Reached >= need }
				checkTight(t, name+" p99 base", s.Sampled99.Base, 1, min(m.Cap, policy.MaxBase), func(x time.Duration) bool {
					q := m
					q.Base = x
					return fits(q)
				}, func(x time.Duration) time.Duration { return x + 1 })
				checkTight(t, name+" p99 cap", s.Sampled99.Cap, m.Base, policy.MaxCap, func(x time.Duration) bool {
					q := m
					q.Cap = x
					return fits(q)
				}, func(x time.Duration) time.Duration { return x + 1 })
				if s.Sampled99.Factor.Kind != policy.FitUnused {
					checkTight(t, name+" p99 factor", s.Sampled99.Factor, 1, policy.MaxFactor, func(x float64) bool {
						q := m
						q.Factor = x
						return fits(q)
					}, func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) })
				}
				// Every path that fits in the worst case fits: the sampled answer is no smaller.
				if s.Worst.Base.Kind == policy.FitFound && s.Sampled99.Base.Value < s.Worst.Base.Value {
					t.Errorf("%s: p99 base %v under the worst case's %v", name, s.Sampled99.Base.Value, s.Worst.Base.Value)
				}
				// With the cap before the jitter every classic mode is monotone.
				if capAt == "before" && !s.Sampled99.Base.Largest {
					t.Errorf("%s: p99 base not known to be the largest", name)
				}
			}
		}
	}
}

// A pause that says stop stops the sampled answers; going on later finishes them.
func TestSolveSamplePause(t *testing.T) {
	p := mustDecode(t, solveCases[0]+"&samples=2000")
	r := p.ReportBounds()
	if r.AddSolveSamples(func() bool { return false }) {
		t.Fatal("finished though every pause said stop")
	}
	if !r.AddSolveSamples(nil) {
		t.Fatal("not finished")
	}
	want := p.Report()
	want.AddSolveSamples(nil)
	for i := range want.Solutions {
		if r.Solutions[i] != want.Solutions[i] {
			t.Errorf("%v: after a pause %+v, straight %+v", want.Solutions[i].Jitter, r.Solutions[i], want.Solutions[i])
		}
	}
}
