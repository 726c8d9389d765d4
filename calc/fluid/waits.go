package fluid

import (
	"math"
	"time"

	"backoffcalc/calc"
)

// piece is a part of the wait before one retry: weight of the mass waits lo, or evenly from lo
// to hi (in ns), and leaves the state in bin next.
type piece struct {
	lo, hi, weight float64
	next           int32
}

// retryTable is the wait before one retry: pieces[b] is its law for state bin b.
type retryTable struct {
	pieces [][]piece
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
func lawPieces(l calc.WaitLaw) []piece {
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
