package policy

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/internal/reuse"
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
	// TotalMean, TotalMin and TotalMax are the mean (in nanoseconds), the least and the most of
	// the same totals.
	TotalMean          float64
	TotalMin, TotalMax time.Duration
}

// ReachedShare is the share of the paths that make attempt n (1-based): 17 of 2000 is 0.0085; 0
// when no path is sampled.
func (s Sample) ReachedShare(n int) float64 {
	if s.Paths == 0 || n < 1 || n > len(s.Starts) {
		return 0
	}
	return float64(s.Starts[n-1].Reached) / float64(s.Paths)
}

// Sample simulates p.Samples paths of the policy, each stopping before an attempt whose start
// would reach the budget. p must be valid.
func (p Params) Sample() Sample {
	out, _ := p.SamplePausing(nil)
	return out
}

// SamplePausing is Sample, calling pause (when not nil) after about every PauseEvery draws and
// quantile steps; when pause returns false it stops at once and done is false. A page calls it
// off the input path, as it does calc/sim's HerdModePausing. Pausing does not change the result.
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
	sc := sampleScratches.Get()
	defer sampleScratches.Put(sc)
	rngs, start, total, state, live, scratch := sc.take(paths)
	drawn := sc.drawn
	// The paths' draws are the same for every policy of the same seed and samples: kept, an
	// edit of base or jitter draws none (PCG's 128-bit steps were a third of the sampling in
	// wasm). draws[d] is every path's draw d+1; nil: drawn from rngs, as they would be.
	var draws [][]float64
	if random && keepDraws {
		draws = keptDraws(p.Seed, paths, waits.drawCount())
	}
	first := p.FirstState()
	for i := range paths {
		if draws == nil {
			rngs[i].Seed(p.Seed, uint64(i))
		}
		state[i] = first
		live[i] = int32(i)
		start[i], total[i] = 0, 0
	}
	d := 0 // the draws made by a live path before retry k
	out = Sample{Paths: p.Samples, Starts: make([]StartSample, n)}
	out.Starts[0] = StartSample{Reached: p.Samples}
	work := 0 // path steps since the last pause
	for k := 1; k < n; k++ {
		if work += 2 * len(live); pause != nil && work >= PauseEvery {
			if work = 0; !pause() {
				return out, false
			}
		}
		var us []float64
		if draws != nil && waits.draws[k] {
			us, d = draws[d], d+1
		}
		waits.fill(k, rngs, us, state, live, drawn)
		if p.Budget == 0 {
			// Every path goes on, each at its own index: the loop below without its indirection
			// and its bounds checks, a third of the sampling in wasm.
			stepAll(start, total, scratch, drawn[:len(start)], p.Call)
			out.Starts[k] = StartSample{Reached: paths * weight, Start: quantiles(scratch, &sc.quant)}
			continue
		}
		kept := live[:0]
		for j, i := range live {
			w := drawn[j]
			s := start[i] + p.Call + w
			if p.Budget > 0 && s >= p.Budget {
				continue // out of budget: this path makes no more attempts
			}
			start[i] = s
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
			ss.Start = quantiles(scratch[:len(live)], &sc.quant)
		}
	}
	out.TotalMean, out.TotalMin, out.TotalMax = meanMinMax(total)
	if shift := time.Duration(n-1) * p.Call; p.Budget == 0 && n > 1 && p.Call >= 0 &&
		p.Call <= math.MaxInt64/time.Duration(n) && out.TotalMax <= math.MaxInt64-shift {
		// Without a budget every path's total is its last start less the calls before it, the
		// same for every path, and no start overflowed: the starts' quantiles, shifted.
		last := out.Starts[n-1].Start
		out.Total = Quantiles{P50: last.P50 - shift, P90: last.P90 - shift, P99: last.P99 - shift}
		return out, true
	}
	out.Total = quantiles(total, &sc.quant)
	return out, true
}

// stepAll adds to each path's start the call and its wait, and the wait to its total, and
// copies the starts to scratch; the slices have the same length.
func stepAll(start, total, scratch, drawn []time.Duration, call time.Duration) {
	total = total[:len(start)]
	scratch = scratch[:len(start)]
	drawn = drawn[:len(start)]
	for i, w := range drawn {
		s := start[i] + call + w
		start[i], total[i], scratch[i] = s, total[i]+w, s
	}
}

// meanMinMax returns the mean, in nanoseconds, the least and the most of a, which is not empty.
// The sum is a float64 added in order (200000 totals of up to 720h overflow an int64), so it has
// the same bits everywhere.
func meanMinMax(a []time.Duration) (mean float64, lo, hi time.Duration) {
	lo, hi = a[0], a[0]
	var sum float64
	for _, x := range a {
		sum += float64(x)
		lo, hi = min(lo, x), max(hi, x)
	}
	return sum / float64(len(a)), lo, hi
}

// retryWaits is what drawing the wait before each retry of a policy needs, worked out once: the
// sampled paths and the herd's clients draw through it, so both follow Params.Wait exactly.
type retryWaits struct {
	p     Params
	chain chain  // the mode's, if a wait depends on the previous one
	laws  []law  // by retry k (laws[0] is unused); a chain's only max, the longest wait
	draws []bool // whether retry k draws a u (see waits)
	// fixed[k] is the wait before retry k when that retry draws nothing and the wait does not
	// depend on the state; nil for the chains, whose waits always do.
	fixed []time.Duration
}

// Waits draws the waits of a policy's retries, one stream per client, as the sampled paths do:
// the contention experiment's clients draw through it, so that they follow Params.Wait exactly.
type Waits struct{ w retryWaits }

// Waits returns p's waits for retries 1 to Attempts−1.
func (p Params) Waits() *Waits { return &Waits{p.waits()} }

// Next is the wait before retry k (1 <= k < Attempts) drawn from r (one draw, or none where
// the wait is fixed), and the state for retry k+1; state is what retry k−1 returned, or
// FirstState for retry 1.
func (w *Waits) Next(k int, r *rand.PCG, state float64) (time.Duration, float64) {
	return w.w.next(k, r, state)
}

// Fixed is the wait before retry k when that retry draws nothing and the wait does not depend
// on the state, and true; 0 and false otherwise (a chain's waits always depend on it). The
// simulations look such a wait up rather than call Next: Immediate's and none's runs are mostly
// that.
func (w *Waits) Fixed(k int) (time.Duration, bool) {
	if w.w.fixed != nil && !w.w.draws[k] {
		return w.w.fixed[k], true
	}
	return 0, false
}

// NextLinear is Next for the overload simulation: a wait without a draw is looked up, and a
// drawn wait of a law without a step is Next's without its calls (costly in wasm), as fill does;
// the others are Next's. It draws from r as Next does.
func (w *Waits) NextLinear(k int, r *rand.PCG, state float64) (time.Duration, float64) {
	ws := &w.w
	switch {
	case ws.fixed != nil && !ws.draws[k]:
		return ws.fixed[k], state
	case ws.fixed != nil && ws.laws[k].step == 0:
		return ws.laws[k].linear(mathx.Unit(r)), state
	}
	return ws.next(k, r, state)
}

// ImmediateWaits is the zero law for every retry of p, which waits 0 for any u, and no retry
// draws: the waits of calc's Immediate herd mode.
func (p Params) ImmediateWaits() Waits {
	return Waits{retryWaits{laws: make([]law, p.Attempts), draws: make([]bool, p.Attempts), fixed: make([]time.Duration, p.Attempts)}}
}

// waits works out the draws: retry k draws a u when its wait is not fixed (min < max), except
// where a chain says otherwise (decorrelatedv2 always draws).
func (p Params) waits() retryWaits {
	c := modes[p.Jitter].chain
	w := retryWaits{p: p, chain: c, laws: make([]law, p.Attempts), draws: make([]bool, p.Attempts)}
	if c != nil {
		for k := 1; k < p.Attempts; k++ {
			w.laws[k] = law{max: c.top(p, k)}
			w.draws[k] = c.draws(p, k)
		}
		return w
	}
	raws := p.raws()
	w.fixed = make([]time.Duration, p.Attempts)
	for k := 1; k < p.Attempts; k++ {
		w.laws[k] = p.law(k, raws[k])
		w.draws[k] = w.laws[k].min < w.laws[k].max
		w.fixed[k] = w.laws[k].at(0)
	}
	return w
}

// next returns the wait before retry k, drawing one u from r if retry k draws, and the state
// for retry k+1; state is as Params.Wait takes it.
func (w *retryWaits) next(k int, r *rand.PCG, state float64) (time.Duration, float64) {
	u := 0.0
	if w.draws[k] {
		u = mathx.Unit(r)
	}
	return w.wait(k, u, state)
}

// wait is next's wait for the draw u (0 when retry k draws none).
func (w *retryWaits) wait(k int, u, state float64) (time.Duration, float64) {
	if w.chain != nil {
		return w.chain.wait(w.p.Base, w.p.Cap, k, u, state, w.laws[k].max)
	}
	return w.laws[k].at(u), state
}

// fill draws the wait before retry k of each live path into drawn (by position in live), as
// next does, and moves on each path's state; a path's draw is us[i], or from rngs[i] when us is
// nil. The loop of the laws without a step calls nothing: in wasm the calls of next cost about
// as much as the draws.
func (w *retryWaits) fill(k int, rngs []mathx.PCG, us []float64, state []float64, live []int32, drawn []time.Duration) {
	l := w.laws[k]
	unit := func(i int32) float64 {
		if us != nil {
			return us[i]
		}
		return mathx.Unit53(rngs[i].Uint64())
	}
	switch {
	case w.fixed == nil || l.step > 0:
		for j, i := range live {
			u := 0.0
			if w.draws[k] {
				u = unit(i)
			}
			drawn[j], state[i] = w.wait(k, u, state[i])
		}
	case !w.draws[k]:
		for j := range live {
			drawn[j] = w.fixed[k]
		}
	default:
		// law.linear, its fields read once: the call was a fifth of the sampling in wasm.
		lo, span, clamp, off, least, most := l.lo, l.hi-l.lo, l.clamp, l.off, l.min, l.max
		drawn := drawn[:len(live)]
		linear := func(u float64) time.Duration {
			v := lo + float64(u*span)
			if v > clamp {
				v = clamp
			}
			return max(least, min(most, mathx.RoundNs(v)+off))
		}
		if us != nil {
			for j, i := range live {
				drawn[j] = linear(us[i])
			}
			return
		}
		for j, i := range live {
			drawn[j] = linear(mathx.Unit53(rngs[i].Uint64()))
		}
	}
}

// drawCount is how many of the retries draw a u: every path draws that many, in order.
func (w *retryWaits) drawCount() int {
	n := 0
	for _, d := range w.draws {
		if d {
			n++
		}
	}
	return n
}

// keepDraws is whether SamplePausing keeps its draws between calls; its tests turn it off to
// compare.
var keepDraws = true

// maxKeptDraws bounds the draws kept between calls (8 bytes each): 10,000 paths of 26 draws,
// 2 MB; a sample with more draws them as it goes.
const maxKeptDraws = 1 << 18

// kept are the draws of the last seed and number of paths sampled: rows[d][i] is path i's draw
// d+1 (mathx.Unit53 of its stream's Uint64, the stream seeded (seed, i)), and next each
// stream after len(rows) draws. A row, once made, never changes: a caller reads the rows it
// got without the lock while another call adds rows or starts over for another seed.
var kept struct {
	sync.Mutex
	seed  uint64
	paths int
	rows  [][]float64
	next  []mathx.PCG
}

// keptDraws returns the first n draws of each of the paths' streams of seed, drawing only those
// not kept already; nil when they are more than maxKeptDraws.
func keptDraws(seed uint64, paths, n int) [][]float64 {
	if paths*n > maxKeptDraws || n == 0 {
		return nil
	}
	kept.Lock()
	defer kept.Unlock()
	if kept.next == nil || kept.seed != seed || kept.paths != paths {
		kept.seed, kept.paths, kept.rows = seed, paths, nil
		kept.next = make([]mathx.PCG, paths)
		for i := range kept.next {
			kept.next[i].Seed(seed, uint64(i))
		}
	}
	for len(kept.rows) < n {
		row := make([]float64, paths)
		for i := range row {
			row[i] = mathx.Unit53(kept.next[i].Uint64())
		}
		kept.rows = append(kept.rows, row)
	}
	return kept.rows[:n:n]
}

// sampleScratch holds SamplePausing's per-path state between calls.
type sampleScratch struct {
	rngs                  []mathx.PCG // rand.PCG's streams, drawn with one call less
	start, total, scratch []time.Duration
	state                 []float64
	live                  []int32
	drawn                 []time.Duration    // the waits of one retry, for fill
	quant                 [3][]time.Duration // for quantiles
}

var sampleScratches reuse.Kept[sampleScratch]

// take returns the buffers for n paths, growing them if needed; their contents are stale.
func (s *sampleScratch) take(n int) ([]mathx.PCG, []time.Duration, []time.Duration, []float64, []int32, []time.Duration) {
	s.rngs = reuse.Grow(s.rngs, n)
	s.start, s.total, s.scratch = reuse.Grow(s.start, n), reuse.Grow(s.total, n), reuse.Grow(s.scratch, n)
	s.state, s.live, s.drawn = reuse.Grow(s.state, n), reuse.Grow(s.live, n), reuse.Grow(s.drawn, n)
	return s.rngs[:n], s.start[:n], s.total[:n], s.state[:n], s.live[:n], s.scratch[:n]
}

// quantiles returns the nearest-rank percentiles of a, reordering a; bufs is scratch space.
func quantiles(a []time.Duration, bufs *[3][]time.Duration) Quantiles {
	rank := func(pct int) int { return (pct*len(a)+99)/100 - 1 } // ceil(pct*n/100), 0-based
	ranks := [3]int{rank(50), rank(90), rank(99)}
	if q, ok := bracketQuantiles(a, ranks, bufs); ok {
		return q
	}
	r50, r90, r99 := ranks[0], ranks[1], ranks[2]
	selectNth(a, r50)
	selectNth(a[r50:], r90-r50)
	selectNth(a[r90:], r99-r90)
	return Quantiles{P50: a[r50], P90: a[r90], P99: a[r99]}
}

// bracketSample is how many elements bracketQuantiles looks at to bracket each rank.
const bracketSample = 512

// bracketQuantiles finds the elements of a of the three ranks in one pass, for large a: a sorted
// sample of a brackets where each rank's value should lie, one pass counts the elements below
// each bracket and gathers those in it, and a selection in each bracket (a few percent of a)
// finds the value. It reports false, leaving a as it was, when a is small or a rank's value
// fell outside its bracket; quantiles then selects in all of a. Three selections over a, with
// their mispredicted branches, took 45% of the sampling.
func bracketQuantiles(a []time.Duration, ranks [3]int, bufs *[3][]time.Duration) (Quantiles, bool) {
	n := len(a)
	if n < 4*bracketSample {
		return Quantiles{}, false
	}
	var sample [bracketSample]time.Duration
	for i := range sample {
		sample[i] = a[(2*i+1)*n/(2*bracketSample)]
	}
	// The sample's rank of each value spreads like a binomial: its bracket is 3 standard
	// deviations either side, from the sample's elements of those ranks, or unbounded.
	var from, to [3]int
	var ks [6]int
	needed := ks[:0]
	for j, r := range ranks {
		q := float64(r) / float64(n)
		d := int(3*math.Sqrt(bracketSample*q*(1-q))) + 3
		at := r * bracketSample / n
		from[j], to[j] = at-d, at+d
		if at-d > 0 {
			needed = append(needed, at-d)
		}
		if at+d < bracketSample-1 {
			needed = append(needed, at+d)
		}
	}
	// Only those ranks of the sample are needed: selecting each in what lies above the last
	// costs a third of sorting it.
	slices.Sort(needed)
	done := 0
	for _, k := range needed {
		if k >= done {
			selectNth(sample[done:], k-done)
			done = k + 1
		}
	}
	var lo, hi [3]time.Duration
	for j := range ranks {
		lo[j], hi[j] = math.MinInt64, math.MaxInt64
		if from[j] > 0 {
			lo[j] = sample[from[j]]
		}
		if to[j] < bracketSample-1 {
			hi[j] = sample[to[j]]
		}
	}
	// Branch-free: whether an element is below or in a bracket is a coin toss for the median,
	// and mispredicted branches cost more than the pass. Every element is written to each
	// buffer's next slot, which only counts when it is in the bracket.
	for j := range bufs {
		bufs[j] = reuse.Grow(bufs[j], n)
	}
	b0, b1, b2 := bufs[0][:n], bufs[1][:n], bufs[2][:n]
	lo0, lo1, lo2 := lo[0], lo[1], lo[2]
	w0, w1, w2 := uint64(hi[0]-lo0), uint64(hi[1]-lo1), uint64(hi[2]-lo2)
	var below0, below1, below2, in0, in1, in2 int
	for _, x := range a {
		below0 += b2i(x < lo0)
		below1 += b2i(x < lo1)
		below2 += b2i(x < lo2)
		// x - lo wraps below lo, so one unsigned comparison tests lo <= x <= hi.
		b0[in0] = x
		in0 += b2i(uint64(x-lo0) <= w0)
		b1[in1] = x
		in1 += b2i(uint64(x-lo1) <= w1)
		b2[in2] = x
		in2 += b2i(uint64(x-lo2) <= w2)
	}
	bufs[0], bufs[1], bufs[2] = b0[:in0], b1[:in1], b2[:in2]
	below := [3]int{below0, below1, below2}
	var v [3]time.Duration
	for j, b := range bufs {
		k := ranks[j] - below[j]
		if k < 0 || k >= len(b) {
			return Quantiles{}, false
		}
		selectNth(b, k)
		v[j] = b[k]
	}
	return Quantiles{P50: v[0], P90: v[1], P99: v[2]}, true
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

// PauseEvery is how many steps a simulation that pauses takes between calls to pause: the
// attempts of calc/sim's HerdModePausing and OverloadPausing, the writes of calc/contention's
// RunPausing.
const PauseEvery = 1 << 12
