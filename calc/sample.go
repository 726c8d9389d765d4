package calc

import (
	"math/rand/v2"
	"slices"
	"time"
)

// Quantiles are the nearest-rank p50, p90 and p99 of a set of times.
type Quantiles struct {
	P50, P90, P99 time.Duration
}

// StartSample is what the simulated paths say about one attempt's start.
type StartSample struct {
	Reached int       // paths that make this attempt (all of them without a budget)
	Start   Quantiles // of the start times of those paths; meaningless when Reached is 0
}

// Sample is the outcome of Params.Samples simulated paths (see the package doc for the draws).
type Sample struct {
	Paths  int
	Starts []StartSample // one per attempt
	Total  Quantiles     // of each path's total wait, counting only the waits before attempts it made
}

// Sample simulates p.Samples paths of the policy, each stopping before an attempt whose start
// would reach the budget. p must be valid.
func (p Params) Sample() Sample {
	out, _ := p.SamplePausing(nil)
	return out
}

// SamplePausing is Sample, calling pause (when not nil) after about every PauseEvery draws and
// quantile steps; when pause returns false it stops at once and done is false. A page calls it
// off the input path, as it does Params.HerdModePausing. Pausing does not change the result.
func (p Params) SamplePausing(pause func() bool) (out Sample, done bool) {
	n := p.Attempts
	waits := p.waits()
	random := slices.Contains(waits.draws, true)
	// With no draw at all every path is the same: simulate one and count it Samples times.
	paths, weight := p.Samples, 1
	if !random {
		paths, weight = 1, p.Samples
	}
	// The buffers are reused: a page samples six modes at every edit, and in wasm the garbage
	// collector's pauses cost more than the sampling.
	sc := sampleScratches.get()
	defer sampleScratches.put(sc)
	rngs, start, total, state, live, scratch := sc.take(paths)
	first := p.FirstState()
	for i := range paths {
		rngs[i].Seed(p.Seed, uint64(i))
		state[i] = first
		live[i] = int32(i)
		start[i], total[i] = 0, 0
	}
	out = Sample{Paths: p.Samples, Starts: make([]StartSample, n)}
	out.Starts[0] = StartSample{Reached: p.Samples}
	work := 0 // path steps since the last pause
	for k := 1; k < n; k++ {
		if work += 2 * len(live); pause != nil && work >= PauseEvery {
			if work = 0; !pause() {
				return out, false
			}
		}
		kept := live[:0]
		for _, i := range live {
			w, st := waits.next(k, &rngs[i], state[i])
			s := start[i] + p.Call + w
			if p.Budget > 0 && s >= p.Budget {
				continue // out of budget: this path makes no more attempts
			}
			start[i], state[i] = s, st
			total[i] += w
			kept = append(kept, i)
		}
		live = kept
		ss := &out.Starts[k]
		ss.Reached = len(live) * weight
		if len(live) > 0 {
			for j, i := range live {
				scratch[j] = start[i]
			}
			ss.Start = quantiles(scratch[:len(live)])
		}
	}
	out.Total = quantiles(total)
	return out, true
}

// retryWaits is what drawing the wait before each retry of a policy needs, worked out once: the
// sampled paths and the herd's clients draw through it, so both follow Params.Wait exactly.
type retryWaits struct {
	p     Params
	laws  []law  // by retry k (laws[0] is unused); decorrelatedv2 uses only max; decorrelated none
	draws []bool // whether retry k draws a u (see waits)
	v2    pollyV2
}

// waits works out the draws: retry k draws a u when its wait is not fixed (min < max), except
// that decorrelatedv2 always draws, as Polly does, because the next wait depends on this draw's t
// even when this one can only be 0 (a base of a few ns).
func (p Params) waits() retryWaits {
	w := retryWaits{p: p, laws: make([]law, p.Attempts), draws: make([]bool, p.Attempts), v2: p.pollyV2()}
	raws := p.raws()
	for k := 1; k < p.Attempts; k++ {
		switch p.Jitter {
		case Decorrelated:
			w.draws[k] = p.Base < p.Cap
		case DecorrelatedV2:
			w.laws[k] = law{max: w.v2.max(k)}
			w.draws[k] = true
		default:
			w.laws[k] = p.law(k, raws[k])
			w.draws[k] = w.laws[k].min < w.laws[k].max
		}
	}
	return w
}

// next returns the wait before retry k, drawing one u from r if retry k draws, and the state
// for retry k+1; state is as Params.Wait takes it.
func (w *retryWaits) next(k int, r *rand.PCG, state float64) (time.Duration, float64) {
	u := 0.0
	if w.draws[k] {
		u = unit(r)
	}
	switch w.p.Jitter {
	case Decorrelated:
		d := decorrelated(w.p.Base, w.p.Cap, u, state)
		return d, float64(d)
	case DecorrelatedV2:
		return w.v2.draw(k, u, state, w.laws[k].max)
	}
	return w.laws[k].at(u), state
}

// sampleScratch holds SamplePausing's per-path state between calls.
type sampleScratch struct {
	rngs                  []rand.PCG
	start, total, scratch []time.Duration
	state                 []float64
	live                  []int32
}

var sampleScratches kept[sampleScratch]

// take returns the buffers for n paths, growing them if needed; their contents are stale.
func (s *sampleScratch) take(n int) ([]rand.PCG, []time.Duration, []time.Duration, []float64, []int32, []time.Duration) {
	s.rngs = grow(s.rngs, n)
	s.start, s.total, s.scratch = grow(s.start, n), grow(s.total, n), grow(s.scratch, n)
	s.state, s.live = grow(s.state, n), grow(s.live, n)
	return s.rngs[:n], s.start[:n], s.total[:n], s.state[:n], s.live[:n], s.scratch[:n]
}

// unit turns one PCG output into [0, 1) exactly as rand.Rand.Float64 does.
func unit(r *rand.PCG) float64 {
	return float64(r.Uint64()<<11>>11) / (1 << 53)
}

// quantiles returns the nearest-rank percentiles of a, reordering a.
func quantiles(a []time.Duration) Quantiles {
	rank := func(pct int) int { return (pct*len(a)+99)/100 - 1 } // ceil(pct*n/100), 0-based
	r50, r90, r99 := rank(50), rank(90), rank(99)
	selectNth(a, r50)
	selectNth(a[r50:], r90-r50)
	selectNth(a[r90:], r99-r90)
	return Quantiles{P50: a[r50], P90: a[r90], P99: a[r99]}
}

// selectNth reorders a so that a[k] is the k-th smallest, everything before it no larger and
// everything after no smaller (quickselect, Hoare partition, median of three).
func selectNth(a []time.Duration, k int) {
	lo, hi := 0, len(a)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pivot := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < pivot {
				i++
			}
			for a[j] > pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
