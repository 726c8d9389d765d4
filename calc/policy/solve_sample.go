package policy

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"
)

// The sampled answers of a fit to the budget walk the same seeded paths as the percentiles
// (Params.Sample): path i draws from PCG seeded with (Seed, i), a u for each retry that draws, so
// that a path's waits for p.Attempts attempts are the first waits of the same path for more.
//
// The most attempts for 50% and 99% of the paths are exact: the share of paths that make
// attempt n only falls as n grows. The largest base, factor or cap for 99% of the paths is found
// by bisection between the worst-case answer (every path fits there) and the top of the range;
// the bisection's answer always fits and the next value up does not. It is the largest that fits
// (Fit.Largest) when each path's start of the last attempt grows with the input, which holds when
//   - the mode is decorrelated or decorrelatedv2: every retry draws, and each wait grows with
//     base, cap and the previous wait for its draw; or
//   - the same retries draw at both ends of the bisection and, as the input grows, a retry can
//     only start drawing (capat=before, or the cap as the input), or every retry that does not
//     draw at the ends never draws: each path then keeps its draws on the same retries and each
//     wait grows with its nominal delay.
// Otherwise (capat=after or fixed, where a retry whose delay passes the cap stops drawing and
// the later draws of every path shift by one retry) it is reported with Largest false.

// SolveSample fills in the sampled answers of sols (from p.Solutions()), calling pause as
// SamplePausing does; it reports whether it finished. The policy's own mode reuses sample, p's
// sampled paths (p.Sample, or the zero Sample while they are not in), for the most attempts
// where they reach far enough. p must be valid.
func (p Params) SolveSample(sample Sample, sols []Solution, pause func() bool) ([]Solution, bool) {
	out := slices.Clone(sols)
	for i := range out {
		s := &out[i]
		if s.Sampled {
			continue
		}
		q := p.WithJitter(s.Jitter)
		var ok bool
		if s.P50, s.P99, ok = q.sampledAttempts(p.Jitter, sample, s.Can, pause); !ok {
			return out, false
		}
		for j, a := range q.axes() {
			kind, x, typed, largest, ok := q.sampledFit(a, s.Worst, j, pause)
			if !ok {
				return out, false
			}
			s.Sampled99.set(j, kind, x, typed, largest, q.Growth)
		}
		s.Sampled = true
	}
	return out, true
}

// sampledAttempts is the most attempts that at least 50% and 99% of p's paths make, up to can's
// (no path makes more); sample is the sampled paths of the policy's own mode, own, if they are in.
func (p Params) sampledAttempts(own Jitter, sample Sample, can Fit[int], pause func() bool) (p50, p99 Fit[int], ok bool) {
	n := p.Samples
	var made []int // made[k]: paths that make attempt k+1
	if p.Jitter == own && sample.Starts != nil {
		st := sample.Starts
		if last := st[len(st)-1].Reached; last*100 < 50*n {
			// Past the policy's attempts no more than half the paths go on: they answer both.
			for _, s := range st {
				made = append(made, s.Reached)
			}
		}
	}
	if made == nil {
		q := p
		q.Attempts = can.Value
		if made, ok = q.pathsMaking(0, pause); !ok {
			return p50, p99, false
		}
	}
	most := func(pct int) Fit[int] {
		m := 1
		for k, c := range made {
			if c*100 >= pct*n {
				m = k + 1
			}
		}
		return attemptsFit(m)
	}
	return most(50), most(99), true
}

// need99 is how many of n paths are 99% of them, rounded up.
func need99(n int) int { return (99*n + 99) / 100 }

// sampledFit is the largest position of a with which at least 99% of p's paths make every
// attempt, that position as typed (typedFit), and whether it is known to be the largest; worst
// holds the worst-case answers, the i-th of which is a's.
func (p Params) sampledFit(a axis, worst Limits, i int, pause func() bool) (kind FitKind, x, typed int64, largest, ok bool) {
	kind, lo := worst.position(i)
	switch kind {
	case FitUnused:
		return FitUnused, 0, 0, true, true
	case FitAll:
		return FitAll, a.hi, a.hi, true, true // every path fits at the top: 99% of them do
	case FitNone:
		lo = a.lo
	}
	at := func(x int64) Params {
		q := p
		a.set(&q, x)
		return q
	}
	need := need99(p.Samples)
	done := true
	fits := func(x int64) bool {
		if !done {
			return false
		}
		made, ok := at(x).pathsMaking(p.Samples-need, pause)
		done = done && ok
		return ok && made[len(made)-1] >= need
	}
	if kind == FitNone && !fits(lo) {
		return FitNone, lo, lo, true, done
	}
	largest = p.sampledMonotone(a, at(lo), at(a.hi))
	if fits(a.hi) {
		return FitAll, a.hi, a.hi, true, done
	}
	x = lo + int64(sort.Search(int(a.hi-lo), func(i int) bool { return !fits(lo + 1 + int64(i)) }))
	return FitFound, x, p.typedFit(a, FitFound, x, fits), largest, done
}

// position is the i-th answer of l (in the order of axes) as a position.
func (l Limits) position(i int) (FitKind, int64) {
	switch i {
	case 0:
		return l.Base.Kind, int64(l.Base.Value)
	case 1:
		return l.Factor.Kind, int64(math.Float64bits(l.Factor.Value))
	}
	return l.Cap.Kind, int64(l.Cap.Value)
}

// sampledMonotone reports whether the share of paths that fit falls as a grows from lo to hi
// (see the top of this file).
func (p Params) sampledMonotone(a axis, lo, hi Params) bool {
	if modes[p.Jitter].chain != nil {
		return true
	}
	dl, dh := lo.waits().draws, hi.waits().draws
	if !slices.Equal(dl, dh) {
		return false
	}
	if p.CapAt == CapBefore || !a.grows {
		return true
	}
	for k := 1; k < len(dl); k++ {
		if !dl[k] && !(k == 1 && p.FirstExact) && !p.neverDraws() {
			return false
		}
	}
	return true
}

// neverDraws reports whether the mode's every wait is its nominal delay: no jitter, or a ratio
// or add of 0.
func (p Params) neverDraws() bool {
	m := &modes[p.Jitter]
	if m.chain != nil || m.step != nil {
		return false
	}
	lo, hi := m.bounds(p, 1, float64(time.Hour))
	return lo == hi
}

// pathsMaking walks p's seeded paths as SamplePausing does and returns made[k], the number of
// paths that make attempt k+1 (made[0] is every path). It stops early, with made's last entry
// then too small, once more than giveUp paths have stopped before the last attempt (giveUp 0
// never stops early). It calls pause as SamplePausing does.
func (p Params) pathsMaking(giveUp int, pause func() bool) ([]int, bool) {
	w := p.waits()
	paths, weight := p.Samples, 1
	if !slices.Contains(w.draws, true) {
		paths, weight = 1, p.Samples // every path is the same
	}
	made := make([]int, p.Attempts)
	first := p.FirstState()
	var rng rand.PCG
	short, work := 0, 0
	for i := range paths {
		rng.Seed(p.Seed, uint64(i))
		state, start, n := first, time.Duration(0), 1
		for ; n < p.Attempts; n++ {
			var d time.Duration
			d, state = w.next(n, &rng, state)
			if start += p.Call + d; start >= p.Budget {
				break
			}
		}
		made[n-1] += weight
		if work += n; pause != nil && work >= PauseEvery {
			if work = 0; !pause() {
				return nil, false
			}
		}
		if n < p.Attempts {
			if short += weight; giveUp > 0 && short > giveUp {
				break
			}
		}
	}
	for k := len(made) - 2; k >= 0; k-- {
		made[k] += made[k+1]
	}
	return made, true
}
