package policy

import (
	"time"

	"backoffcalc/calc/internal/mathx"
)

// Decorrelated jitter draws s_k = min(cap, base + U*(3*s_(k-1) - base)) with s_0 = base. While
// 3^k*base <= cap the clamp never bites and the mean is exactly m_k = (base + 3*m_(k-1))/2. Past
// that, probability piles up at cap and the mean has no closed form; sampling would miss the rare
// long paths that dominate it when cap/base is large (1ms to 168h), so the distribution itself is
// carried on a grid.
//
// The grid has bins between base and cap, gridPerOctave to each doubling (so every bin is at most
// 1/64 of its start wide, at any scale), each holding its probability mass and the mean of that
// mass, plus the point mass at cap. One step replaces each bin by its mean s and spreads its mass
// uniformly on [base, 3s], clamping at cap. Where 3s stays under cap the next mean is linear in s,
// so the grid is exact there; the approximation only touches bins near cap/3..cap. Bins split at
// powers of two and simple fractions, so no math.Log or math.Exp is needed and the result is the
// same on every platform.

const gridPerOctave = 64

// source is one bin's mass p reaching up to t = 3*mean (or cap), with density w = p/(3*mean-base).
type source struct{ t, w float64 }

// decorrelatedMeans returns the mean wait and the share of waits at cap for retries 1..n: exact
// while the cap cannot bite, from the grid after.
func decorrelatedMeans(base, cap float64, n int) (means, atCap []float64) {
	means, atCap = gridMeans(base, cap, n, gridPerOctave)
	exact, top := base, base // the recurrence's mean, and 3^k*base
	for k := 0; k < n && 3*top <= cap; k++ {
		top *= 3
		exact = (base + 3*exact) / 2
		means[k] = exact
	}
	return means, atCap
}

// gridMeans carries the distribution on a grid of perOctave bins to a doubling.
func gridMeans(base, cap float64, n, perOctave int) (means, atCap []float64) {
	means, atCap = make([]float64, n), make([]float64, n)
	edges := gridEdges(base, cap, perOctave)
	bins := len(edges) - 1
	mass, msum := make([]float64, bins), make([]float64, bins)
	var capMass float64
	if bins > 0 {
		mass[0], msum[0] = 1, base
	} else {
		capMass = 1
	}
	src := make([]source, 0, bins+1)
	suffix := make([]float64, bins+2)
	for k := range n {
		src = src[:0]
		for j := range mass {
			if mass[j] > 0 {
				src = append(src, source{t: 3 * msum[j] / mass[j], w: mass[j]})
			}
		}
		if capMass > 0 {
			src = append(src, source{t: 3 * cap, w: capMass})
		}
		// Means grow with the bin, so sources are sorted by reach.
		newCap := 0.0
		for i := range src {
			s := &src[i]
			s.w /= s.t - base
			if s.t > cap {
				newCap += s.w * (s.t - cap)
				s.t = cap
			}
		}
		suffix[len(src)] = 0
		for i := len(src) - 1; i >= 0; i-- {
			suffix[i] = suffix[i+1] + src[i].w
		}
		delta := abs(newCap - capMass)
		i := 0
		for j := range bins {
			lo, hi := edges[j], edges[j+1]
			for i < len(src) && src[i].t <= lo {
				i++
			}
			var m, s float64
			for ; i < len(src) && src[i].t < hi; i++ { // sources ending inside this bin
				l := src[i].t - lo
				m += src[i].w * l
				s += src[i].w * l * (lo + l/2)
			}
			m += suffix[i] * (hi - lo) // sources covering the whole bin
			s += suffix[i] * (hi - lo) * (lo/2 + hi/2)
			delta += abs(m - mass[j])
			mass[j], msum[j] = m, s
		}
		capMass = min(1, newCap)
		mean := capMass * cap
		for _, s := range msum {
			mean += s
		}
		// Sums of masses can stray past the bounds in the last bit (base == cap gives 0.99..98).
		mean = max(base, min(cap, mean))
		means[k], atCap[k] = mean, capMass
		// Once the chain has settled, every later step gives the same answer.
		if k > 0 && delta < 1e-15 && abs(mean-means[k-1]) <= 1e-15*mean {
			for r := k + 1; r < n; r++ {
				means[r], atCap[r] = mean, capMass
			}
			break
		}
	}
	return means, atCap
}

// gridEdges splits [base, cap] into bins perOctave to a doubling: base*2^o*(1 + m/perOctave).
func gridEdges(base, cap float64, perOctave int) []float64 {
	var edges []float64
	for oct := base; oct < cap; oct *= 2 {
		for m := range perOctave {
			e := oct + oct*float64(m)/float64(perOctave)
			if e >= cap {
				break
			}
			edges = append(edges, e)
		}
	}
	return append(edges, cap)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// decorrelatedChain is decorrelated jitter's entry in the table of modes: retry k waits
// min(cap, base + U*(3*previous - base)), in [base, min(cap, 3^k*base)].
type decorrelatedChain struct{}

// first is base: the first retry draws as if the previous wait had been base.
func (decorrelatedChain) first(p Params) float64 { return float64(p.Base) }

// top is min(cap, 3^k*base), the path whose every draw is the largest; it reaches cap within 31
// steps (3^31 ns is over MaxCap).
func (decorrelatedChain) top(p Params, k int) time.Duration {
	t := p.Base
	for i := 0; i < k && t < p.Cap; i++ {
		t = min(p.Cap, 3*t)
	}
	return t
}

// least is base: no draw waits less.
func (decorrelatedChain) least(p Params, k int) time.Duration { return p.Base }

func (decorrelatedChain) rows(p Params, rows []Row) {
	means, atCap := decorrelatedMeans(float64(p.Base), float64(p.Cap), len(rows)-1)
	top := p.Base
	for k := 1; k < len(rows); k++ {
		top = min(p.Cap, 3*top)
		r := &rows[k]
		r.Min, r.Max, r.Mean, r.AtCap = p.Base, top, means[k-1], atCap[k-1]
	}
}

// sums is nil: the path whose every draw is the least waits base each time, and the one whose
// every draw is the largest waits top_k at every retry k, so the totals' bounds are the sums of
// the rows'.
func (decorrelatedChain) sums(p Params, n int) (lo, hi []time.Duration) { return nil, nil }

// draws is false only when base is cap: every wait is then base.
func (decorrelatedChain) draws(p Params, k int) bool { return p.Base < p.Cap }

func (decorrelatedChain) wait(base, cap time.Duration, k int, u, state float64, top time.Duration) (time.Duration, float64) {
	w := decorrelated(base, cap, u, state)
	return w, float64(w)
}

func (decorrelatedChain) within(p Params) WithinBudget {
	lo, hi := p.decorrelatedWithin()
	return WithinBudget{Min: lo, Max: hi, Exact: true}
}

// evenFrom is the law of the wait from the previous one, prev: even on [base, 3*prev], clamped
// to cap (Params.WaitLawFrom).
func (decorrelatedChain) evenFrom(p Params, prev float64) WaitLaw {
	return WaitLaw{Lo: float64(p.Base), Hi: 3 * prev, Clamp: float64(p.Cap), Min: min(p.Cap, p.Base), Max: min(p.Cap, mathx.RoundNs(3*prev))}
}

// decorrelated is AWS's min(cap, base + u*(3*prev - base)), in [base, min(cap, 3*prev)], for
// the previous wait prev in nanoseconds (exact as a float64: waits are under 2^53 ns).
func decorrelated(base, cap time.Duration, u, prev float64) time.Duration {
	b := float64(base)
	return min(cap, mathx.RoundNs(b+float64(u*(3*prev-b))))
}
