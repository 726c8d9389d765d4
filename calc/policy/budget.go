package policy

import (
	"math"
	"sort"
	"time"
)

// Within the budget. A path makes attempt n only while its start S_n is before the budget B
// (S_n < B), so a path makes attempts 1..M and stops. What it waits within the budget is the sum
// of the waits before the attempts it makes: the waits alone, not the calls, as Sample.Total
// counts them, so that the least, the percentiles and the most are of one and the same number.
// The policy's Totals ignore the budget; these are the other kind of number, and a page must
// never show one as the other.

// WithinBudget is what the paths of a policy wait within its budget: the total wait of the
// attempts a path makes. With base 1s, factor 2, no jitter, 6 attempts and a 6.5s budget,
// attempts 1, 2 and 3 start at 0, 1s and 3s and attempt 4, at 7s, is not made: every path waits
// 3s, where the policy's total ignoring the budget is 31s.
type WithinBudget struct {
	// Min and Max are the least and the most total wait a path can have, exact to the
	// nanosecond when Exact; otherwise (decorrelatedv2) the least and the most of the sampled
	// paths, and 0 until they are sampled.
	Min, Max time.Duration
	Mean     float64 // the mean over the sampled paths, in nanoseconds; 0 until they are sampled
	Exact    bool    // Min and Max are exact (every mode but decorrelatedv2, and sidekiq7 where sumStep says)
}

// WithinBudget returns the exact least and most total wait within p's budget (see the type),
// or a zero WithinBudget when p has no budget. Mean is filled in by sampling (Report.AddSamples).
//
// Exact means over every path the model allows: each wait takes every whole nanosecond between
// its bounds (every whole step for fullms, fullsec, sidekiq and sidekiq7), decorrelated
// jitter's between base and min(cap, 3 × the previous wait). Polly's decorrelatedv2 truncates a
// difference of floats to ticks, whose reachable sums have no such simple form, and sidekiq7's
// steps of k seconds leave gaps in the sums after a first retry that draws nothing: their Min
// and Max come from the samples.
func (p Params) WithinBudget() WithinBudget {
	if p.Budget <= 0 {
		return WithinBudget{}
	}
	if c := modes[p.Jitter].chain; c != nil {
		return c.within(p)
	}
	lo, hi, ok := p.independentWithin()
	if !ok {
		return WithinBudget{}
	}
	return WithinBudget{Min: lo, Max: hi, Exact: true}
}

// independentWithin is WithinBudget's Min and Max for the modes whose waits are drawn
// independently, retry k's from a_k to b_k in steps of s (1 ns, or the mode's whole unit), and
// whether they are exact: false where the sums of the waits skip some multiples of s (sumStep).
// b_k is the wait of the largest draw, 1 - 2^-53: a bound that ends in half a nanosecond
// (proportional jitter on 3ns reaches 4.5ns) rounds up in Row.Max, but no draw rounds up to it.
//
// A path that makes exactly M attempts has waited T, the sum of its first m = M-1 waits, with
// T + m·c < B (attempt M starts within the budget) and, when M < Attempts, T + (m+1)·c + w_M >= B
// (attempt M+1 does not). The sums of m waits are every A + j·s from A = Σa_k to Σb_k.
//   - The most: attempt M can be made when A + m·c < B; then the largest sum with T + m·c < B is
//     reached. Whatever the path does next only adds waits, so the most over all paths is the
//     largest of these over M.
//   - The least: M = Attempts gives A; M < Attempts needs T >= B - (m+1)·c - b_M, the retry after
//     waiting its longest, and T + m·c < B: the least such sum, if any, over M.
func (p Params) independentWithin() (lo, hi time.Duration, exact bool) {
	w := p.waits()
	step, exact := sumStep(w.laws)
	if !exact {
		return 0, 0, false
	}
	longest := make([]time.Duration, p.Attempts) // b_k
	for k, l := range w.laws {
		longest[k] = l.at(maxDraw)
	}
	B, c := p.Budget, p.Call
	lo = math.MaxInt64
	var sumMin, sumMax time.Duration // of the waits before attempt M
	for M := 1; M <= p.Attempts; M++ {
		m := time.Duration(M - 1)
		if M > 1 {
			sumMin += w.laws[M-1].min
			sumMax += longest[M-1]
		}
		room := B - 1 - m*c // the most the waits may sum to for attempt M to start in the budget
		if sumMin > room {
			break // attempt M is never made, nor any after it
		}
		hi = max(hi, sumMin+(min(room, sumMax)-sumMin)/step*step)
		if M == p.Attempts {
			lo = min(lo, sumMin)
			continue
		}
		t := sumMin
		if need := B - (m+1)*c - longest[M]; need > t {
			t += (need - t + step - 1) / step * step
		}
		if t <= min(room, sumMax) {
			lo = min(lo, t)
		}
	}
	return lo, hi, true
}

// sumStep is the step s of the sums of the waits of laws[1:], and whether, for every m, the
// sums of the first m waits are every multiple of s from their least to their most: each wait
// takes every multiple of its own step between its bounds, so this holds when each retry that
// draws steps by a multiple of s no longer than the span the retries before it reach, plus one
// s. It fails only for Sidekiq 7's steps of k seconds after a first retry that draws nothing
// (first=exact, or capat=fixed past the cap): retries 2 and 3 alone never sum to 1 s.
func sumStep(laws []law) (step time.Duration, ok bool) {
	step = 0
	var span time.Duration // the sums so far reach every multiple of step up to span above the least
	for k := 1; k < len(laws); k++ {
		l := laws[k]
		if l.max == l.min {
			continue
		}
		s := time.Duration(1)
		if l.step > 0 {
			s = time.Duration(l.step)
		}
		if step == 0 {
			step = s
		}
		if s%step != 0 || s > span+step {
			return step, false
		}
		span += l.max - l.min
	}
	return max(step, 1), true
}

// maxDraw is the largest u a draw takes: unit53's largest, 1 - 2^-53.
const maxDraw = 1 - 0x1p-53

// decorrelatedWithin is WithinBudget's Min and Max for decorrelated jitter, whose retry k waits
// from base to min(cap, 3·w_(k-1)) (w_0 = base). Along the largest path retry k waits
// top_k = min(cap, 3^k·base); the sums of m waits are every whole nanosecond from m·base to
// Σtop_k (raise one wait a nanosecond at a time, the earliest first). The most is found as for
// independent waits.
//
// The least for M = m+1 < Attempts attempts made depends on the last wait x = w_m, which bounds
// the next: attempt M+1 starts at or past B for some draw when T + (m+1)·c + min(cap, 3x) >= B.
// For a given x the sums run from f(x), the waits x, ⌈x/3⌉, ⌈x/9⌉, … back to retry 1 (each at
// least base), up to g(x) = x + Σ_(k<m) top_k. The least T for x is max(f(x), h(x)),
// h(x) = B - (m+1)·c - min(cap, 3x), when that is at most g(x) and the room of the budget.
// f grows with x and h falls, so the least over x is where they cross, found by bisection.
func (p Params) decorrelatedWithin() (lo, hi time.Duration) {
	base, cp, B, c := p.Base, p.Cap, p.Budget, p.Call
	lo = math.MaxInt64
	top := base              // top_m, the longest wait before attempt M
	var topSum time.Duration // Σ top_k for k <= m
	for M := 1; M <= p.Attempts; M++ {
		m := time.Duration(M - 1)
		prevSum := topSum
		if M > 1 {
			top = min(cp, 3*top)
			topSum += top
		}
		room := B - 1 - m*c
		if m*base > room {
			break
		}
		hi = max(hi, min(room, topSum))
		switch {
		case M == p.Attempts:
			lo = min(lo, m*base)
		case M == 1:
			if c+min(cp, 3*base) >= B {
				lo = 0
			}
		default:
			if t, ok := decorrelatedLeast(base, cp, top, prevSum, room, B-(m+1)*c, int(m)); ok {
				lo = min(lo, t)
			}
		}
	}
	return lo, hi
}

// decorrelatedLeast is the least sum of a decorrelated path of m waits whose last wait x, in
// [base, top], lets the next wait (up to min(cap, 3x)) reach beyond: see decorrelatedWithin;
// reach is B - (m+1)·c, prevSum is Σ_(k<m) top_k. It reports false when no x fits.
func decorrelatedLeast(base, cp, top, prevSum, room, reach time.Duration, m int) (time.Duration, bool) {
	f := func(x time.Duration) time.Duration { return chainMin(x, base, m) }
	h := func(x time.Duration) time.Duration { return reach - min(cp, 3*x) }
	g := func(x time.Duration) time.Duration { return x + prevSum }
	// The x that fit form one interval: h(x) <= g(x) and h(x) <= room from some x on,
	// f(x) <= room up to some x.
	xlo := firstTrue(base, top, func(x time.Duration) bool { return h(x) <= g(x) && h(x) <= room })
	xhi := firstTrue(xlo, top, func(x time.Duration) bool { return f(x) > room }) - 1
	if xlo > xhi {
		return 0, false
	}
	cross := firstTrue(xlo, xhi, func(x time.Duration) bool { return f(x) >= h(x) })
	best := time.Duration(math.MaxInt64)
	for _, x := range []time.Duration{cross - 1, cross} {
		if x >= xlo && x <= xhi {
			best = min(best, max(f(x), h(x)))
		}
	}
	return best, true
}

// chainMin is the least sum of m decorrelated waits ending with x: going back, each wait is at
// least base and at least a third of the next, ⌈x/3⌉, ⌈x/9⌉, … (⌈⌈x/3⌉/3⌉ = ⌈x/9⌉).
func chainMin(x, base time.Duration, m int) time.Duration {
	var s time.Duration
	for j := range m {
		if x <= base {
			return s + time.Duration(m-j)*base
		}
		s += x
		x = (x + 2) / 3
	}
	return s
}

// firstTrue is the least x in [lo, hi] for which pred, false and then true as x grows, is
// true; hi+1 when there is none.
func firstTrue(lo, hi time.Duration, pred func(time.Duration) bool) time.Duration {
	if lo > hi {
		return hi + 1
	}
	return lo + time.Duration(sort.Search(int(hi-lo+1), func(i int) bool { return pred(lo + time.Duration(i)) }))
}
