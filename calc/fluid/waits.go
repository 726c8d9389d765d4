package fluid

import (
	"math"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// piece is a part of the wait before one retry: weight of the mass waits lo, or evenly from lo
// to hi (in ns), and leaves the state in bin next.
type piece struct {
	lo, hi, weight float64
	next           int32
}

// retryTable is the wait before one retry: pieces[b] is its law for state bin b, or for
// decorrelated jitter mix.
type retryTable struct {
	pieces [][]piece
	mix    *mixture
	bins   int // the state bins of the retry after this one
	top    time.Duration
}

// tables works out the waits of mode m for retries 1..Attempts−1 (tables[0] is unused).
func tables(p calc.Params, m calc.HerdMode) []retryTable {
	t := make([]retryTable, p.Attempts)
	j, backoff := m.Jitter()
	if !backoff { // Immediate: no wait at all
		for k := 1; k < p.Attempts; k++ {
			t[k] = retryTable{pieces: [][]piece{{{weight: 1}}}, bins: 1}
		}
		return t
	}
	q := p.WithJitter(j)
	if _, ok := q.WaitLawFrom(q.FirstState()); ok {
		return mixtureTables(q, t)
	}
	if j.FromPrevious() {
		return chainTables(q, t)
	}
	for k := 1; k < p.Attempts; k++ {
		l, _ := q.WaitLaw(k)
		t[k] = retryTable{pieces: [][]piece{lawPieces(l)}, bins: 1, top: l.Max}
	}
	return t
}

// lawPieces is a wait law as pieces: a point, an even range, or an even range and the share
// clamped at its top.
func lawPieces(l policy.WaitLaw) []piece {
	off := float64(l.Offset)
	switch {
	case l.Min == l.Max:
		return []piece{{lo: float64(l.Min), hi: float64(l.Min), weight: 1}}
	case l.Steps > 0:
		// Whole steps (Envoy's milliseconds, Celery's and Sidekiq's seconds) land on whole
		// times, some on a window's edge, so each is a point of its own: every step up to
		// QuantilePoints of them, else the steps of QuantilePoints draws (j+½)/n.
		n := min(l.Steps, QuantilePoints)
		ps := make([]piece, n)
		for j := range ps {
			i := j
			if n < l.Steps {
				i = int(math.Floor((float64(j) + 0.5) / float64(n) * float64(l.Steps)))
			}
			w := float64(round(l.Lo+float64(i)*l.Step)) + off
			ps[j] = piece{lo: w, hi: w, weight: 1 / float64(n)}
		}
		return ps
	case l.Clamp <= l.Lo:
		return []piece{{lo: l.Clamp + off, hi: l.Clamp + off, weight: 1}}
	case l.Clamp < l.Hi:
		in := (l.Clamp - l.Lo) / (l.Hi - l.Lo)
		return []piece{{lo: l.Lo + off, hi: l.Clamp + off, weight: in}, {lo: l.Clamp + off, hi: l.Clamp + off, weight: 1 - in}}
	}
	return []piece{{lo: l.Lo + off, hi: l.Hi + off, weight: 1}}
}

// chainTables fills t for a mode whose wait depends on the previous one: the states before
// retry k are binned, each bin standing for the mean of its states (see the package's doc).
func chainTables(q calc.Params, t []retryTable) []retryTable {
	reps, mass := []float64{q.FirstState()}, []float64{1}
	n := ChainPoints
	for k := 1; k < len(t); k++ {
		r := retryTable{pieces: make([][]piece, len(reps))}
		waits := make([][]time.Duration, len(reps))
		states := make([][]float64, len(reps))
		lo, hi := math.Inf(1), math.Inf(-1)
		for b, s := range reps {
			waits[b], states[b] = make([]time.Duration, n), make([]float64, n)
			for i := range n {
				w, s2 := q.Wait(k, (float64(i)+0.5)/float64(n), s)
				waits[b][i], states[b][i] = w, s2
				r.top = max(r.top, w)
				if mass[b] > 0 {
					lo, hi = min(lo, s2), max(hi, s2)
				}
			}
		}
		bins := 1
		if hi > lo {
			bins = StateBins
		}
		// Bins even in the state's fourth root: close to a log scale over the states' range
		// (decorrelated's from base to cap), where a state of 0 fits too (decorrelatedv2's first),
		// and exact on every platform, as math.Sqrt is and math.Log is not.
		root := func(s float64) float64 { return math.Sqrt(math.Sqrt(max(0, s))) }
		rlo, rhi := root(lo), root(hi)
		edge := func(s float64) int32 {
			if bins == 1 || rhi <= rlo {
				return 0
			}
			f := (root(s) - rlo) / (rhi - rlo)
			return int32(max(0, min(bins-1, int(f*float64(bins)))))
		}
		sum, weight := make([]float64, bins), make([]float64, bins)
		for b := range reps {
			r.pieces[b] = make([]piece, n)
			for i := range n {
				nb := edge(states[b][i])
				w := float64(waits[b][i])
				r.pieces[b][i] = piece{lo: w, hi: w, weight: 1 / float64(n), next: nb}
				sum[nb] += mass[b] / float64(n) * states[b][i]
				weight[nb] += mass[b] / float64(n)
			}
		}
		reps, mass = make([]float64, bins), weight
		for b := range reps {
			if weight[b] > 0 {
				reps[b] = sum[b] / weight[b]
			}
		}
		r.bins = bins
		t[k] = r
	}
	return t
}

// mixture is the wait before one retry of decorrelated jitter, from every state bin at once:
// the mass of input bin b waits evenly over [lo, hi[b]] (Params.WaitLawFrom of the bin's
// representative), the share past clamp (cap) at clamp, and the wait is the next state, binned at
// edges. The mass of a cell's bins together has a density that is constant between the hi[b]
// and the edges, so it moves as at most 2 × StateBins ranges, where one range a bin and a draw
// would be StateBins × draws.
type mixture struct {
	lo, clamp float64
	hi        []float64 // by input bin, increasing
	edges     []float64 // bin i of the next state is [edges[i], edges[i+1]]
}

// walk calls part for each range [x0, x1] of the waits with its mass w and next state bin, and
// for the clamped share (x0 == x1 == clamp), of the input bins' masses m.
func (x *mixture) walk(m []float64, part func(x0, x1, w float64, bin int)) {
	d, atom := 0.0, 0.0 // the density, and the mass at clamp
	for b, mb := range m {
		if mb > 0 {
			d += mb / (x.hi[b] - x.lo)
			atom += mb * max(0, x.hi[b]-x.clamp) / (x.hi[b] - x.lo)
		}
	}
	bins := len(x.edges) - 1
	at, i, b := x.lo, 0, 0
	for d > 0 && at < x.clamp {
		for b < len(m) && (m[b] <= 0 || x.hi[b] <= at) {
			if m[b] > 0 {
				d -= m[b] / (x.hi[b] - x.lo)
			}
			b++
		}
		if b == len(m) || d <= 0 {
			break
		}
		for i < bins-1 && x.edges[i+1] <= at {
			i++
		}
		to := min(x.hi[b], x.clamp)
		if i < bins-1 {
			to = min(to, x.edges[i+1])
		}
		if to > at {
			part(at, to, d*(to-at), i)
		}
		at = to
	}
	if atom > 0 {
		part(x.clamp, x.clamp, atom, bins-1)
	}
}

// mixtureTables fills t for decorrelated jitter: the state bins of each retry come from a pass
// over the states alone, as chainTables does, each bin standing for the mean of its waits.
func mixtureTables(q calc.Params, t []retryTable) []retryTable {
	reps, mass := []float64{q.FirstState()}, []float64{1}
	for k := 1; k < len(t); k++ {
		x := &mixture{clamp: float64(q.Cap), hi: make([]float64, len(reps))}
		top := 0.0
		for b, r := range reps {
			l, _ := q.WaitLawFrom(r)
			x.lo, x.hi[b] = l.Lo, l.Hi
			if mass[b] > 0 {
				top = max(top, min(l.Hi, l.Clamp))
			}
		}
		for b := range x.hi { // an empty bin's range is never read: keep hi increasing
			if b > 0 && x.hi[b] < x.hi[b-1] {
				x.hi[b] = x.hi[b-1]
			}
		}
		bins := 1
		if top > x.lo {
			bins = StateBins
		}
		// Edges even in the fourth root (exact everywhere, as math.Sqrt is).
		root := func(s float64) float64 { return math.Sqrt(math.Sqrt(s)) }
		r0, r1 := root(x.lo), root(top)
		x.edges = make([]float64, bins+1)
		for i := range x.edges {
			r := r0 + (r1-r0)*float64(i)/float64(bins)
			x.edges[i] = r * r * r * r
		}
		x.edges[0], x.edges[bins] = x.lo, max(x.lo, top)
		sum, weight := make([]float64, bins), make([]float64, bins)
		x.walk(mass, func(x0, x1, w float64, bin int) {
			sum[bin] += w * (x0 + x1) / 2
			weight[bin] += w
		})
		reps, mass = make([]float64, bins), weight
		for b := range reps {
			if weight[b] > 0 {
				reps[b] = sum[b] / weight[b]
			}
		}
		t[k] = retryTable{mix: x, bins: bins, top: time.Duration(max(x.lo, top))}
	}
	return t
}
