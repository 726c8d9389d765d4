package fluid

import (
	"errors"
	"math"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/sim"
)

// Limits of the model. None depends on the number of clients.
const (
	// MaxClients is the most clients the model counts: calc's MaxHerdClients.
	MaxClients = calc.MaxHerdClients
	// MaxWork bounds the steps of one mode: a step moves one cell's mass of one attempt and one
	// state by one draw.
	MaxWork = 20000000
	// MaxCells bounds the cells the model holds at once: the cells one wait spans, times the
	// attempts, times the state bins.
	MaxCells = 4000000
	// StateBins is the most bins of the previous wait's state (decorrelated, decorrelatedv2):
	// 16 made decorrelated's accepted 0.35% of the clients off the simulation at 10^4 clients,
	// where 48 makes it 0.15%.
	StateBins = 48
	// ChainPoints is the draws per retry and state bin of the modes whose wait depends on the
	// previous one; QuantilePoints the most whole steps of a wait moved one by one.
	ChainPoints    = 96
	QuantilePoints = 2048
	// StartGroups is how many groups of starts a spread herd with a budget is counted in.
	StartGroups = 8
)

// Run is a mode's expected herd: sim.HerdRun's counts, as the mean over many runs of the
// simulation, in clients (Params.Clients times the probabilities).
type Run struct {
	Mode calc.HerdMode
	// Attempts, Accepted and GaveUp are the expected attempts, accepted clients and clients that
	// gave up; Accepted + GaveUp is Clients (up to rounding).
	Attempts, Accepted, GaveUp float64
	MeanPerClient              float64 // Attempts / Clients
	// MaxPerClient is the highest attempt that at least half a client is expected to make.
	MaxPerClient int
	// PeakDown and PeakBack are sim.HerdRun's, of the expected Arrivals, with their times (-1
	// when a side has nothing).
	PeakDown, PeakBack     float64
	PeakDownAt, PeakBackAt time.Duration
	// LastAccepted is when fewer than half a client is expected to get through later: the time
	// of the last accepted client, expected; -1 when less than half a client gets through.
	LastAccepted time.Duration
	// Arrivals are the expected attempts in each fixed window [k*Window, (k+1)*Window), from 0 to
	// the last window with any; SD their standard deviation for Clients clients, each window's
	// count taken as a sum of independent attempts: Clients × Σ_k p_k(1−p_k), for p_k the
	// probability that one client's attempt k arrives in the window. It is 0 where every client
	// does the same (no jitter, no spread), and relative to the count it shrinks as 1/√Clients.
	Arrivals, SD []float64
	// CellsPerWindow is the grid's resolution and Work the steps the run took.
	CellsPerWindow int
	Work           int
}

// Herd runs the model for every mode of p.HerdModes, in that order. Its errors are those of
// Mode.
func Herd(p calc.Params) ([]Run, error) {
	var runs []Run
	for _, m := range p.HerdModes() {
		r, err := Mode(p, m)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// Mode runs the model for one herd mode of p, of any number of clients up to MaxClients, whether
// the simulation can run it or not. It returns p's own errors (calc.Params.Validate's), and a
// *policy.FieldError on window when the model would hold more than MaxCells cells,
// take more than MaxWork steps or count more than calc.MaxHerdWindows windows.
//
// With 1,000 clients, no jitter and the defaults otherwise (a 1s outage, 20 a 100ms window), all
// 1,000 clients fail at 0, 100ms, 300ms and 700ms, and make attempt 5 at 1.5s, where 20 get
// through: Arrivals holds 1000 in windows 0, 1, 3, 7 and 15, with an SD of 0 in each, and 980
// in window 31 (3.1s), where 20 more get through.
func Mode(p calc.Params, m calc.HerdMode) (Run, error) {
	r, _, err := ModePausing(p, m, nil)
	return r, err
}

// ModePausing is Mode that calls pause now and then, as calc's simulations do (the page's
// engine worker hands its thread back to its messages then); it stops, reporting done false,
// when pause returns false.
func ModePausing(p calc.Params, m calc.HerdMode, pause func() bool) (run Run, done bool, err error) {
	if err := p.ValidateUnsampled(); err != nil {
		return Run{}, false, err
	}
	if p.Open() {
		return Run{}, false, errors.New("calc/fluid: an open system (a stream, a queue, a timeout, a limiter, a breaker, an error rate, latency or slope) has no fluid model")
	}
	g, err := newGrid(p, m)
	if err != nil {
		return Run{}, false, err
	}
	g.pause = pause
	switch err := g.sweep(); {
	case err == errStopped:
		return Run{}, false, nil
	case err != nil:
		return Run{}, false, err
	}
	return g.result(), true, nil
}

// cellsPerWindow is the grid's resolution: the fewest cells, from 16 to 64 a window, whose width
// divides the window, the outage, the call, the spread and the base, so that a herd without
// jitter keeps every client's attempt k in one cell and the outage's end on a cell's edge; 16
// when no such width exists.
func cellsPerWindow(p calc.Params) int {
	for c := 16; c <= 64; c++ {
		if p.Window%time.Duration(c) != 0 {
			continue
		}
		dt := p.Window / time.Duration(c)
		if p.Outage%dt == 0 && p.Call%dt == 0 && p.Spread%dt == 0 && p.Base%dt == 0 {
			return c
		}
	}
	return 16
}

// round is the count's value in whole ns for a time in ns.
func round(x float64) time.Duration { return mathx.RoundNs(x) }

// floorInt is floor(x) for x well within int's range.
func floorInt(x float64) int { return int(math.Floor(x)) }

// Rounded is r as a sim.HerdRun of whole counts, each the nearest (halves away from zero), for
// what draws a herd's windows from its runs: the arrivals chart and its scales. Peak and PeakAt,
// which the model does not compute (a sliding window), are the most arrivals in one fixed window
// and its start, for window, the herd's (Params.Window).
func (r Run) Rounded(window time.Duration) sim.HerdRun {
	n := func(x float64) int { return int(math.Round(x)) }
	h := sim.HerdRun{Mode: r.Mode, Attempts: n(r.Attempts), Accepted: n(r.Accepted), GaveUp: n(r.GaveUp),
		PeakDown: n(r.PeakDown), PeakBack: n(r.PeakBack), PeakDownAt: r.PeakDownAt, PeakBackAt: r.PeakBackAt,
		MeanPerClient: r.MeanPerClient, MaxPerClient: r.MaxPerClient, LastAccepted: r.LastAccepted,
		Arrivals: make([]int, len(r.Arrivals))}
	for w, x := range r.Arrivals {
		h.Arrivals[w] = n(x)
		if h.Arrivals[w] > h.Peak {
			h.Peak, h.PeakAt = h.Arrivals[w], time.Duration(w)*window
		}
	}
	return h
}
