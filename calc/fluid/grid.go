package fluid

import (
	"errors"
	"fmt"
	"math"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// grid is one mode's run of the model.
type grid struct {
	p       calc.Params
	mode    calc.HerdMode
	c       int     // cells per window
	dt      float64 // a cell's width in ns
	tab     []retryTable
	groups  int // start groups (StartGroups with a spread, else 1)
	classes int // groups × the most state bins of any retry
	ring    int // cells held at once: one past the longest call+wait, in cells, and one
	// pending[(cell%ring)*(attempts+1)*classes + k*classes + class] is the mass of attempt k
	// pending in that cell, in that class (group × state bins + bin).
	pending []float64
	// Mass spread evenly over many cells is added to a run: diff[i] (indexed as pending) is what
	// the run of its attempt and class gains from that cell on, runs[i] how many such spreads
	// start there (minus those ending), so that a run with none left is exactly 0.
	diff    []float64
	runs    []int32
	run     []float64 // by attempt and class: the mass a cell gets from the runs
	open    []int32   // by attempt and class: the runs under way
	spreads bool      // whether any wait is spread over a range
	fails   []float64 // by class: the mass of a cell that failed (decorrelated's mixture)
	last    int       // the last cell with mass pending
	draws   bool      // whether any wait is drawn
	work    int
	pause   func() bool // asked every pauseEvery cells; nil: never

	capacity float64 // per window, in clients' mass; 0 is none
	// per window
	arrivals, down, variance []float64
	perAttempt               []float64 // of the window being swept, by attempt
	byAttempt                []float64 // by attempt, all windows
	acceptedAt               []float64 // by cell
	accepted, gaveUp         float64
}

func newGrid(p calc.Params, m calc.HerdMode) (*grid, error) {
	g := &grid{p: p, mode: m}
	g.groups = 1
	if p.Spread > 0 {
		g.groups = StartGroups
	}
	// The finest grid first; a coarser one where the finest would hold more than MaxCells.
	var span, cells float64
	var top time.Duration
	for _, c := range []int{cellsPerWindow(p), 8, 4} {
		g.c, g.dt = c, float64(p.Window)/float64(c)
		g.tab = tables(p, m)
		bins := 1
		top = 0
		for k := 1; k < p.Attempts; k++ {
			if g.tab[k].mix != nil {
				g.draws, g.spreads = true, true
			}
			for _, ps := range g.tab[k].pieces {
				g.draws = g.draws || len(ps) > 1 || ps[0].hi > ps[0].lo
				for _, pc := range ps {
					g.spreads = g.spreads || pc.hi > pc.lo
				}
			}
			bins = max(bins, len(g.tab[k].pieces), g.tab[k].bins)
			top = max(top, g.tab[k].top)
		}
		g.classes = g.groups * bins
		span = (float64(p.Call) + float64(top)) / g.dt
		if cells = float64(p.Attempts+1) * float64(g.classes) * (span + 4); cells <= MaxCells {
			break
		}
	}
	if cells > MaxCells {
		return nil, &policy.FieldError{Key: "window", Value: policy.FormatDuration(p.Window), Err: fmt.Errorf(
			"the fluid model would hold %.0f cells (a wait of up to %s in cells of %s, × %d attempts × %d states), over the limit of %d; make the window longer or lower attempts or cap",
			cells, policy.Human(float64(top)), policy.Human(g.dt), p.Attempts, g.classes, MaxCells)}
	}
	g.ring = int(span) + 4
	g.pending = make([]float64, g.ring*(p.Attempts+1)*g.classes)
	if g.spreads {
		g.diff, g.runs = make([]float64, len(g.pending)), make([]int32, len(g.pending))
		g.run, g.open = make([]float64, (p.Attempts+1)*g.classes), make([]int32, (p.Attempts+1)*g.classes)
	}
	g.perAttempt = make([]float64, (p.Attempts+1)*g.groups)
	g.fails = make([]float64, g.classes)
	g.byAttempt = make([]float64, p.Attempts+1)
	g.capacity = float64(p.Capacity) / float64(p.Clients)
	if p.Spread > 0 {
		g.last = int(math.Ceil(float64(p.Spread)/g.dt)) - 1
	}
	return g, nil
}

// at is the index of attempt k's mass of class c in cell.
func (g *grid) at(cell, k, c int) int {
	return ((cell%g.ring)*(g.p.Attempts+1)+k)*g.classes + c
}

// start puts attempt 1 of the cell: all at 0 without a spread, else evenly over [0, Spread), in
// start groups. It is called as the sweep reaches the cell, so that a long spread holds no cells.
func (g *grid) start(cell int) {
	if g.p.Spread == 0 {
		if cell == 0 {
			g.pending[g.at(0, 1, 0)] = 1
		}
		return
	}
	s := float64(g.p.Spread)
	bins := g.classes / g.groups
	lo, hi := float64(cell)*g.dt, float64(cell+1)*g.dt
	for gr := range g.groups {
		from, to := s*float64(gr)/float64(g.groups), s*float64(gr+1)/float64(g.groups)
		if in := min(to, hi) - max(from, lo); in > 0 {
			g.pending[g.at(cell, 1, gr*bins)] += in / s
		}
	}
}

// pauseEvery is how many cells the sweep runs between pauses: each costs at most a few thousand
// steps (a cell's attempts × its parts), well under a millisecond in wasm.
const pauseEvery = 64

// errStopped is a sweep's end when its pause said to stop.
var errStopped = errors.New("calc/fluid: stopped")

// sweep runs the cells in order of time until no mass is pending.
func (g *grid) sweep() error {
	p, A := g.p, g.p.Attempts
	outage := float64(p.Outage)
	rem := 0.0
	for cell := 0; cell <= g.last; cell++ {
		if g.pause != nil && cell%pauseEvery == pauseEvery-1 && !g.pause() {
			return errStopped
		}
		w := cell / g.c
		if cell%g.c == 0 {
			if w >= calc.MaxHerdWindows {
				return &policy.FieldError{Key: "window", Value: policy.FormatDuration(p.Window), Err: fmt.Errorf(
					"the herd's attempts run past %d windows, the limit; make the window longer", calc.MaxHerdWindows)}
			}
			g.endWindow()
			g.arrivals, g.down, g.variance = append(g.arrivals, 0), append(g.down, 0), append(g.variance, 0)
			rem = g.capacity
		}
		g.start(cell)
		from := float64(cell) * g.dt
		// The share of the cell before the outage's end; attempt 1 without a spread is a point
		// at 0.
		downShare := max(0, min(1, (outage-from)/g.dt))
		g.acceptedAt = append(g.acceptedAt, 0)
		for k := 1; k <= A; k++ {
			base := g.at(cell, k, 0)
			row := g.pending[base : base+g.classes]
			if g.spreads {
				g.addRuns(base, k, row)
			}
			m := 0.0
			for _, x := range row {
				m += x
			}
			if m == 0 {
				continue
			}
			share := downShare
			point := k == 1 && p.Spread == 0 && cell == 0
			if point {
				share = 0
				if p.Outage > 0 {
					share = 1
				}
			}
			g.arrivals[w] += m
			g.down[w] += m * share
			for c, x := range row {
				g.perAttempt[k*g.groups+c*g.groups/g.classes] += x
			}
			g.byAttempt[k] += m
			acc := m * (1 - share)
			if p.Capacity > 0 {
				acc = min(acc, rem)
				rem -= acc
			}
			g.accepted += acc
			g.acceptedAt[cell] += acc
			fail := (m - acc) / m
			if k < A && g.tab[k].mix != nil {
				for c, x := range row {
					g.fails[c], row[c] = x*fail, 0
				}
				g.moveMixture(cell, k, point)
				if err := g.overWork(); err != nil {
					return err
				}
				continue
			}
			for c, x := range row {
				row[c] = 0
				if f := x * fail; f > 0 {
					if k == A {
						g.gaveUp += f
					} else if err := g.move(f, cell, k, c, point); err != nil {
						return err
					}
				}
			}
		}
	}
	g.endWindow()
	return nil
}

// endWindow adds the variance of the window just swept: Σ_k p_k(1−p_k).
func (g *grid) endWindow() {
	if len(g.variance) == 0 {
		return
	}
	// Each start group's clients are a binomial of their own: Σ_group (1/groups) Σ_k q(1−q),
	// q the group's share making attempt k in the window.
	v, G := 0.0, float64(g.groups)
	for i, x := range g.perAttempt {
		// Attempt 1 is where the client starts, certain; so is every attempt of a mode that
		// draws nothing.
		if k := i / g.groups; k > 1 && g.draws {
			q := min(1, x*G)
			v += q * (1 - q) / G
		}
		g.perAttempt[i] = 0
	}
	g.variance[len(g.variance)-1] = v
}

// move sends mass f of attempt k, class c, failed in cell, on to attempt k+1 after the call and
// retry k's wait, or to those that gave up where the budget ends first. Positions are in cells:
// the mass is even over [cell, cell+1), or at cell (attempt 1 without a spread) when point.
func (g *grid) move(f float64, cell, k, c int, point bool) error {
	t := &g.tab[k]
	bins := g.classes / g.groups
	gr, b := c/bins, c%bins
	pieces := t.pieces[b]
	g.work += len(pieces)
	if err := g.overWork(); err != nil {
		return err
	}
	cutoff, width, call := g.cutoff(gr), g.width(point), float64(g.p.Call)
	for _, pc := range pieces {
		to := gr*bins + int(pc.next)
		lo, hi := (call+pc.lo)/g.dt, (call+pc.hi)/g.dt // after the cell's start
		if hi > lo {
			g.spread(f*pc.weight, cell, width, lo, hi, cutoff, k+1, to)
			continue
		}
		g.shift(f*pc.weight, cell, width, lo, cutoff, k+1, to)
	}
	return nil
}

// overWork is the error of a run past MaxWork steps.
func (g *grid) overWork() error {
	if g.work <= MaxWork {
		return nil
	}
	return &policy.FieldError{Key: "window", Value: policy.FormatDuration(g.p.Window), Err: fmt.Errorf(
		"the fluid model would take more than %d steps (cells of %s × attempts × the parts of each wait); make the window longer or lower attempts",
		MaxWork, policy.Human(g.dt))}
}

// cutoff is when, in cells, the budget ends for start group gr: a retry is made if its start,
// from the client's own first attempt, is before the budget.
func (g *grid) cutoff(gr int) float64 {
	if g.p.Budget == 0 {
		return math.Inf(1)
	}
	c := float64(g.p.Budget)
	if g.p.Spread > 0 {
		c += float64(g.p.Spread) * (float64(gr) + 0.5) / float64(g.groups)
	}
	return c / g.dt
}

// width is how much of its cell the mass takes: all of it, or none for a point.
func (g *grid) width(point bool) float64 {
	if point {
		return 0
	}
	return 1
}

// moveMixture moves the failed mass of a cell's attempt k (fails, by class) on by decorrelated's
// wait, each start group's bins together (mixture).
func (g *grid) moveMixture(cell, k int, point bool) {
	x := g.tab[k].mix
	bins := g.classes / g.groups
	width, call := g.width(point), float64(g.p.Call)
	for gr := range g.groups {
		m := g.fails[gr*bins : gr*bins+len(x.hi)]
		cutoff := g.cutoff(gr)
		x.walk(m, func(x0, x1, w float64, bin int) {
			g.work++
			to := gr*bins + bin
			if x1 > x0 {
				g.spread(w, cell, width, (call+x0)/g.dt, (call+x1)/g.dt, cutoff, k+1, to)
				return
			}
			g.shift(w, cell, width, (call+x0)/g.dt, cutoff, k+1, to)
		})
		clear(g.fails[gr*bins : (gr+1)*bins])
	}
}

// shift moves mass x, even over [cell, cell+width), by d cells, onto the one or two cells it
// overlaps, less what lands at or past cutoff.
func (g *grid) shift(x float64, cell int, width, d, cutoff float64, k, c int) {
	q := floorInt(d)
	a := float64(cell) + d // where the mass now starts
	if width == 0 {
		if a >= cutoff {
			g.gaveUp += x
			return
		}
		g.put(cell+q, k, c, x)
		return
	}
	edge := float64(cell + q + 1)
	in1 := max(0, min(edge, cutoff)-a)
	in2 := max(0, min(a+1, cutoff)-edge)
	if in1 > 0 {
		g.put(cell+q, k, c, x*in1)
	}
	if in2 > 0 {
		g.put(cell+q+1, k, c, x*in2)
	}
	if gone := 1 - in1 - in2; gone > 0 {
		g.gaveUp += x * gone
	}
}

// spread moves mass x, even over [cell, cell+width), by a wait even over [lo, hi) cells: the sum
// is even over [cell+lo+width, cell+hi) (the plateau), where whole cells go to a run, and ramps
// up and down over width on either side, whose cells are worked out from the sum's CDF.
func (g *grid) spread(x float64, cell int, width, lo, hi, cutoff float64, k, c int) {
	base := float64(cell)
	cdf := func(s float64) float64 { return sumCDF(s, width, lo, hi) }
	end := cell + floorInt(hi+width) // the last cell the sum reaches
	cut := end
	if !math.IsInf(cutoff, 1) {
		cut = min(end, floorInt(cutoff)) // the cell the cutoff falls in
		if gone := 1 - cdf(cutoff-base); gone > 0 {
			g.gaveUp += x * gone
		}
	}
	// The whole cells of the plateau, before the cutoff's cell.
	p0, p1 := cell+int(math.Ceil(lo+width)), min(cell+floorInt(hi)-1, cut-1)
	if p1-p0 < 2 {
		p0, p1 = cut+1, cut // no run: every cell on its own
	} else {
		i := g.at(p0, k, c)
		v := x / (hi - lo)
		g.diff[i] += v
		g.runs[i]++
		j := g.at(p1+1, k, c)
		g.diff[j] -= v
		g.runs[j]--
		g.last = max(g.last, p1)
	}
	// Each cell's mass is the CDF's rise over it; a cell's top is the next one's bottom.
	below, after := 0.0, -1 // the CDF at the bottom of cell after
	for j := cell + floorInt(lo); j <= cut; j++ {
		if j == p0 {
			j = p1
			continue
		}
		if j != after {
			below = cdf(float64(j) - base)
		}
		top := cdf(min(float64(j+1), cutoff) - base)
		if m := top - below; m > 0 {
			g.put(j, k, c, x*m)
		}
		below, after = top, j+1
	}
}

// sumCDF is P(T + W <= s) for T even on [0, width) (or 0 when width is 0) and W even on [lo, hi).
func sumCDF(s, width, lo, hi float64) float64 {
	if width == 0 {
		return max(0, min(1, (s-lo)/(hi-lo)))
	}
	return max(0, min(1, (half(s-lo)-half(s-lo-width)-half(s-hi)+half(s-hi-width))/(width*(hi-lo))))
}

// half is max(0, v)²/2, the area under the even law's CDF up to v.
func half(v float64) float64 {
	v = max(0, v)
	return v * v / 2
}

// addRuns adds the runs of attempt k to its row of the cell whose index in pending is at.
func (g *grid) addRuns(at, k int, row []float64) {
	r := k * g.classes
	for c := range row {
		g.open[r+c] += g.runs[at+c]
		g.run[r+c] += g.diff[at+c]
		g.diff[at+c], g.runs[at+c] = 0, 0
		if g.open[r+c] == 0 {
			g.run[r+c] = 0 // exactly: what the runs added, less what they took off
			continue
		}
		row[c] += g.run[r+c]
	}
}

func (g *grid) put(cell, k, c int, x float64) {
	g.pending[g.at(cell, k, c)] += x
	g.last = max(g.last, cell)
}

// result scales the run to Clients and finds its peaks and last acceptance.
func (g *grid) result() Run {
	p := g.p
	n := float64(p.Clients)
	r := Run{Mode: g.mode, CellsPerWindow: g.c, Work: g.work, PeakDownAt: -1, PeakBackAt: -1, LastAccepted: -1}
	// A window's mass is a difference of running sums: where it is none, it can come out a
	// rounding's residue below 0 (−1.2e-8 of the clients at 12 attempts of full jitter, and its
	// variance so a square root of less than 0, NaN, which JSON cannot carry). No count is
	// less than none.
	for w := range g.arrivals {
		g.arrivals[w], g.down[w], g.variance[w] = max(0, g.arrivals[w]), max(0, g.down[w]), max(0, g.variance[w])
	}
	last := len(g.arrivals)
	for last > 0 && g.arrivals[last-1] == 0 {
		last--
	}
	r.Arrivals, r.SD = make([]float64, last), make([]float64, last)
	for w := range last {
		r.Arrivals[w] = n * g.arrivals[w]
		r.SD[w] = math.Sqrt(n * g.variance[w])
		r.Attempts += r.Arrivals[w]
		d := n * g.down[w]
		from := p.WindowStart(w)
		if d > r.PeakDown {
			r.PeakDown, r.PeakDownAt = d, from
		}
		if b := r.Arrivals[w] - d; b > r.PeakBack {
			r.PeakBack, r.PeakBackAt = b, max(from, p.Outage)
		}
	}
	r.Accepted, r.GaveUp = n*g.accepted, n*g.gaveUp
	r.MeanPerClient = r.Attempts / n
	for k := len(g.byAttempt) - 1; k >= 1; k-- {
		if n*g.byAttempt[k] >= 0.5 {
			r.MaxPerClient = k
			break
		}
	}
	// The last acceptance: where fewer than half a client is accepted later, the mass taken as
	// even within its cell.
	if r.Accepted >= 0.5 {
		after := 0.0
		for cell := len(g.acceptedAt) - 1; cell >= 0; cell-- {
			a := n * g.acceptedAt[cell]
			if after+a >= 0.5 {
				end := float64(cell+1) * g.dt
				r.LastAccepted = max(p.Outage, round(end-g.dt*(0.5-after)/a))
				break
			}
			after += a
		}
	}
	return r
}
