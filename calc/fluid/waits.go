package fluid

import (
	"math"
	"time"

	"backoffcalc/calc"
)

// retryTable is the wait before one retry at its draws: for state bin b, wait[b][j] is the wait
// at draw u = (j+½)/points and next[b][j] the bin of the state it leaves for the next retry.
type retryTable struct {
	points int
	wait   [][]time.Duration
	next   [][]int32
	bins   int // the state bins of the retry after this one
	top    time.Duration
}

// tables works out the waits of mode m for retries 1..Attempts−1 (tables[0] is unused); bins0 is
// 1, the one state before retry 1.
func tables(p calc.Params, m calc.HerdMode, dt float64) []retryTable {
	t := make([]retryTable, p.Attempts)
	j, backoff := m.Jitter()
	if !backoff { // Immediate: no wait at all
		for k := 1; k < p.Attempts; k++ {
			t[k] = retryTable{points: 1, wait: [][]time.Duration{{0}}, next: [][]int32{{0}}, bins: 1}
		}
		return t
	}
	q := p.WithJitter(j)
	if j.FromPrevious() {
		return chainTables(q, t)
	}
	below1 := math.Nextafter(1, 0)
	for k := 1; k < p.Attempts; k++ {
		lo, _ := q.Wait(k, 0, 0)
		hi, _ := q.Wait(k, below1, 0)
		n := 1
		if hi > lo {
			n = int(min(QuantilePoints, max(16, math.Ceil(4*float64(hi-lo)/dt))))
		}
		w := make([]time.Duration, n)
		for i := range w {
			w[i], _ = q.Wait(k, (float64(i)+0.5)/float64(n), 0)
		}
		t[k] = retryTable{points: n, wait: [][]time.Duration{w}, next: [][]int32{make([]int32, n)}, bins: 1, top: max(hi, w[n-1])}
	}
	return t
}

// chainTables fills t for a mode whose wait depends on the previous one: the states before
// retry k are binned, each bin standing for the mean of its states (see the package's doc).
func chainTables(q calc.Params, t []retryTable) []retryTable {
	reps, mass := []float64{q.FirstState()}, []float64{1}
	n := ChainPoints
	for k := 1; k < len(t); k++ {
		r := retryTable{points: n, wait: make([][]time.Duration, len(reps)), next: make([][]int32, len(reps))}
		states := make([][]float64, len(reps))
		lo, hi := math.Inf(1), math.Inf(-1)
		for b, s := range reps {
			r.wait[b], r.next[b], states[b] = make([]time.Duration, n), make([]int32, n), make([]float64, n)
			for i := range n {
				w, s2 := q.Wait(k, (float64(i)+0.5)/float64(n), s)
				r.wait[b][i], states[b][i] = w, s2
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
			for i := range n {
				nb := edge(states[b][i])
				r.next[b][i] = nb
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
