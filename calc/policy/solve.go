package policy

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"
)

// Fitting a deadline turns the question round: not what a policy does within its
// budget, but what fits in it. "Starts within the budget" is calc/budget.go's rule: attempt n is
// made when its start is strictly before the budget, S_n < B. In the worst case every path fits
// when the last attempt's latest start (the calls before it plus the most the waits before it
// can total, Row.Latest) is before B; in the best case when its earliest start is.
//
// The worst-case answers are exact: a search over whole nanoseconds (base, cap) or over the bits
// of a float64 (factor), which order positive floats as their values, so that the answer fits and
// the next value up, one nanosecond or the next float64, does not. The latest start grows with
// base, factor and cap in every mode but one: with capat=fixed, a retry whose nominal delay
// passes the cap stops being jittered and waits exactly cap, which is shorter than the
// proportional, upward or additive jitter's longest wait just below the cap. There the search
// splits the range where each retry's nominal delay passes the cap; within each piece the latest
// start grows again, and the pieces are searched from the top down.

// FitKind says what kind of answer a Fit is.
type FitKind uint8

const (
	FitFound  FitKind = iota // Value is the largest that fits; the next value up does not fit
	FitNone                  // not even the least value of the range fits; Value is that value
	FitAll                   // even the greatest value of the range fits; Value is that value: something else binds first
	FitUnused                // the mode does not read this input (decorrelated jitter and factor): it changes nothing
)

var fitKindNames = [...]string{"found", "none", "all", "unused"}

func (k FitKind) String() string {
	if int(k) < len(fitKindNames) {
		return fitKindNames[k]
	}
	return fmt.Sprintf("FitKind(%d)", uint8(k))
}

// Fit is one answer to "what fits in the budget": a number of attempts, a base, a factor or a
// cap. With base 100ms, factor 2, cap 1s, no jitter, 6 attempts and a 3.1s budget, the base fits
// up to 157142857ns: attempt 6 then starts at 3.099999999s (7·base + 2·cap), and with one
// nanosecond more at 3.100000006s, past the budget.
type Fit[T int | time.Duration | float64] struct {
	Kind  FitKind
	Value T // see Kind; 0 for FitUnused
	// Typed is Value as a person would type it: for a base, factor or cap that is FitFound, Value
	// rounded down to three significant digits (four for a factor), or to more where that would
	// not fit (see typedFit); it fits as Value does. Otherwise it is Value.
	Typed T
	// Largest says that no larger value fits either. A worst-case answer and the sampled number
	// of attempts always are; a sampled base, factor or cap is when the share of paths that fit
	// falls as the input grows (see SolveSample), and otherwise is only known to fit with the
	// next value up not fitting.
	Largest bool
}

// Limits are the largest base, factor and cap with which every attempt of the policy still
// starts within the budget, the others kept.
type Limits struct {
	Base   Fit[time.Duration]
	Factor Fit[float64]
	Cap    Fit[time.Duration]
}

// Solution is what fits in the budget for one jitter mode.
type Solution struct {
	Jitter Jitter
	// Always, Can, P50 and P99 are the most attempts (up to MaxAttempts; FitAll when they all
	// fit) that start within the budget on every path, on the best path, and on at least 50%
	// and 99% of the sampled paths.
	Always, Can, P50, P99 Fit[int]
	// Worst holds for every path: the latest start of the last attempt is within the budget.
	Worst Limits
	// Sampled99 holds for at least 99% of the sampled paths (the same seeded paths as the
	// percentiles): the last attempt starts within the budget on at least ⌈0.99·Samples⌉ paths.
	Sampled99 Limits
	// Sampled says whether P50, P99 and Sampled99 are in (see SolveSample).
	Sampled bool
}

// Solutions answers, for each mode the report compares (the classic five, and the policy's own if
// it is another), what fits in p's budget in the worst and the best case; the sampled answers
// are SolveSample's. It returns nil when p has no budget. p must be valid. With base 100ms,
// factor 2, cap 1s, no jitter and a 3.1s budget, 6 attempts always fit: attempt 6 starts at
// 2.5s, attempt 7 at 3.5s.
func (p Params) Solutions() []Solution {
	if p.Budget <= 0 {
		return nil
	}
	var out []Solution
	for _, j := range p.ComparedJitters() {
		out = append(out, p.WithJitter(j).solveWorst())
	}
	return out
}

// solveWorst is one mode's worst- and best-case answers.
func (p Params) solveWorst() Solution {
	s := Solution{Jitter: p.Jitter}
	s.Always, s.Can = p.mostAttempts()
	for i, a := range p.axes() {
		kind, x := p.worstFit(a)
		typed := p.typedFit(a, kind, x, func(y int64) bool { return p.on(a, y).worstFits() })
		s.Worst.set(i, kind, x, typed, true, p.Growth)
	}
	return s
}

// mostAttempts counts the attempts whose latest (always) and earliest (can) starts are before
// the budget, up to MaxAttempts. The waits of a retry do not depend on how many attempts follow
// it, so one walk over the retries answers for every number of attempts.
func (p Params) mostAttempts() (always, can Fit[int]) {
	q := p
	q.Attempts = MaxAttempts
	var early, late time.Duration // the earliest and latest start of attempt n
	na, nc := 1, 1                // attempt 1 starts at 0, before any budget
	q.retryRanges(func(k, times int, lo, hi time.Duration) bool {
		na, late = fitting(na, late, times, p.Call+hi, p.Budget)
		nc, early = fitting(nc, early, times, p.Call+lo, p.Budget)
		return early < p.Budget
	})
	return attemptsFit(na), attemptsFit(nc)
}

// fitting adds to n attempts, the last starting at s, the next times attempts that each start
// step after the one before, as long as they start before b; it returns the new count and the
// start of the attempt after the last counted (b or later once one is left out).
func fitting(n int, s time.Duration, times int, step, b time.Duration) (int, time.Duration) {
	if s >= b {
		return n, s
	}
	more := times
	if step > 0 {
		more = min(times, int((b-1-s)/step))
	}
	s += time.Duration(more) * step
	if more < times {
		s += step
	}
	return n + more, s
}

// attemptsFit is n attempts fitting, FitAll when n is MaxAttempts.
func attemptsFit(n int) Fit[int] {
	if n == MaxAttempts {
		return Fit[int]{Kind: FitAll, Value: n, Typed: n, Largest: true}
	}
	return Fit[int]{Kind: FitFound, Value: n, Typed: n, Largest: true}
}

// retryRanges calls visit with what each of retries k to k+times-1 of p adds to the least and
// the most total wait (as the schedule's Earliest and Latest have them): the retry's shortest
// and longest wait, but for a chain whose totals are not their sums (decorrelatedv2, see
// chain.sums), whose every retry comes in a call of its own. It goes from retry 1 to the last,
// until visit returns false. Once the waits have settled at the cap every later retry waits the
// same, and the rest come in one call: a walk over 999 retries takes as long as one up to the
// cap.
func (p Params) retryRanges(visit func(k, times int, lo, hi time.Duration) bool) {
	c := modes[p.Jitter].chain
	if c != nil {
		if lo, hi := c.sums(p, p.Attempts-1); lo != nil {
			for k := 1; k < p.Attempts && visit(k, 1, lo[k]-lo[k-1], hi[k]-hi[k-1]); k++ {
			}
			return
		}
	}
	var settled law
	if c == nil {
		settled = p.law(p.Attempts, 1e300)
	}
	for k := 1; k < p.Attempts; k++ {
		var lo, hi time.Duration
		var done bool
		if c != nil {
			lo, hi = c.least(p, k), c.top(p, k)
			done = hi == p.Cap // decorrelated's longest waits only grow, up to the cap
		} else {
			raw := p.rawNominal(k)
			l := p.law(k, raw)
			lo, hi = l.min, l.max
			// The bounds only grow with the raw delay: once they are those of an endless one,
			// they stay. The first retry can be special (first=exact).
			done = k > 1 && raw >= float64(p.Cap) && lo == settled.min && hi == settled.max
		}
		times := 1
		if done {
			times = p.Attempts - k
		}
		if !visit(k, times, lo, hi) || done {
			return
		}
	}
}

// worstFits reports whether the last attempt's latest start is before the budget: every path
// makes every attempt.
func (p Params) worstFits() bool {
	n, late := 1, time.Duration(0)
	p.retryRanges(func(k, times int, lo, hi time.Duration) bool {
		n, late = fitting(n, late, times, p.Call+hi, p.Budget)
		return late < p.Budget
	})
	return n == p.Attempts
}

// axis is one input searched: its range as positions (nanoseconds, or a float64's bits), how a
// position sets it, and where its answers go.
type axis struct {
	key    string
	lo, hi int64
	set    func(p *Params, x int64)
	// grows says the nominal delays grow with the input, so that with capat=fixed a retry can
	// pass the cap and stop being jittered (base and factor; the cap moves the other way).
	grows  bool
	unused bool // the mode does not read it
}

// axes are base, factor and cap for p, in the order of Limits' fields (see Limits.set).
func (p Params) axes() []axis {
	return []axis{
		{key: "base", lo: 1, hi: int64(min(p.Cap, MaxBase)), grows: true,
			set: func(q *Params, x int64) { q.Base = time.Duration(x) }},
		{key: "factor", lo: int64(math.Float64bits(1)), hi: int64(math.Float64bits(MaxFactor)), grows: true,
			set:    func(q *Params, x int64) { q.Factor = factorAt(x, p.Growth) },
			unused: !modes[p.Jitter].factor || p.Growth == Linear},
		{key: "cap", lo: int64(p.Base), hi: int64(MaxCap),
			set: func(q *Params, x int64) { q.Cap = time.Duration(x) }},
	}
}

// factorAt is the factor at position x (a float64's bits) for growth g. A polynomial's power is
// a whole number (Validate): a position sets the whole part of its float, so that the search
// over the bits, whose answers fit and then stop fitting as x grows, finds the largest power.
func factorAt(x int64, g Growth) float64 {
	f := math.Float64frombits(uint64(x))
	if g.IsPolynomial() {
		return math.Floor(f)
	}
	return f
}

// set stores the answer at position x, typed as the one at position typed, for axes()[i] of a
// policy of growth g.
func (l *Limits) set(i int, kind FitKind, x, typed int64, largest bool, g Growth) {
	if kind == FitUnused {
		x, typed = 0, 0
	}
	switch i {
	case 0:
		l.Base = Fit[time.Duration]{kind, time.Duration(x), time.Duration(typed), largest}
	case 1:
		f, t := factorAt(x, g), factorAt(typed, g)
		if kind == FitUnused {
			f, t = 0, 0
		}
		l.Factor = Fit[float64]{kind, f, t, largest}
	default:
		l.Cap = Fit[time.Duration]{kind, time.Duration(x), time.Duration(typed), largest}
	}
}

// worstFit is the largest position of a with which every path makes every attempt.
func (p Params) worstFit(a axis) (FitKind, int64) {
	if a.unused {
		return FitUnused, 0
	}
	at := func(x int64) Params {
		q := p
		a.set(&q, x)
		return q
	}
	starts := []int64{a.lo}
	if a.grows && p.CapAt == CapFixed && p.longerThanNominal() {
		starts = append(starts, p.capCrossings(a, at)...)
	}
	slices.Sort(starts)
	return largest(starts, a.hi, func(x int64) bool { return at(x).worstFits() })
}

// longerThanNominal reports whether a wait can be longer than its nominal delay (proportional,
// upward, additive and Sidekiq's jitter): only then can capat=fixed's exact cap shorten the longest wait.
func (p Params) longerThanNominal() bool {
	m := &modes[p.Jitter]
	switch {
	case m.chain != nil:
		return false
	case m.step == nil:
		_, hi := m.bounds(p, 1, float64(time.Hour))
		return hi > float64(time.Hour)
	}
	// Whole steps stop short of hi: the largest wait is the law's.
	q := p
	q.Cap, q.CapAt, q.FirstExact, q.Offset = MaxCap, CapBefore, false, 0
	return q.law(1, float64(time.Hour)).max > time.Hour
}

// capCrossings are, for each retry, the least position of a at which its raw nominal delay is
// over the cap, where capat=fixed stops jittering it: the latest start can drop there.
func (p Params) capCrossings(a axis, at func(int64) Params) []int64 {
	var xs []int64
	for k := 1; k < p.Attempts; k++ {
		over := func(x int64) bool { return at(x).rawNominal(k) > float64(p.Cap) }
		if !over(a.hi) {
			continue
		}
		x := a.lo + int64(sort.Search(int(a.hi-a.lo), func(i int) bool { return over(a.lo + int64(i)) }))
		if len(xs) > 0 && xs[len(xs)-1] == x {
			continue // past the cap at once, like the retry before it (factor 1)
		}
		xs = append(xs, x)
	}
	return xs
}

// largest is the largest x in [starts[0], hi] for which fits is true, where fits is true and then
// false as x grows within each piece [starts[i], starts[i+1]-1]. It looks at the pieces from the
// top down: the first whose start fits holds the answer. FitAll when hi fits, FitNone when no
// start does.
func largest(starts []int64, hi int64, fits func(int64) bool) (FitKind, int64) {
	end := hi
	for i := len(starts) - 1; i >= 0; i-- {
		s := starts[i]
		if s > end || !fits(s) {
			end = min(end, s-1)
			continue
		}
		if fits(end) {
			if end == hi {
				return FitAll, hi
			}
			return FitFound, end // end+1 starts the piece above, which does not fit
		}
		// fits(s) and not fits(end): the last that fits is before the first in (s, end] that does not.
		return FitFound, s + int64(sort.Search(int(end-s), func(i int) bool { return !fits(s + 1 + int64(i)) }))
	}
	return FitNone, starts[0]
}
