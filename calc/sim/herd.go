package sim

import (
	"fmt"
	"time"

	"backoffcalc/calc"
)

// HerdRun is what the server sees when Params.Clients clients follow one mode through the
// outage. Every client ends either accepted or out of attempts or budget, so
// Accepted + GaveUp == Params.Clients.
type HerdRun struct {
	Mode     calc.HerdMode
	Attempts int // attempts the server received from all clients, accepted or not
	Accepted int // clients that got an attempt accepted
	GaveUp   int // clients whose attempts or budget ran out first
	// Peak is the most attempts in any window [t, t+Window), sliding; PeakAt is the earliest
	// arrival time t whose window holds Peak attempts.
	Peak   int
	PeakAt time.Duration
	// PeakDown and PeakBack split the fixed windows of Arrivals at the outage's end. PeakDown is
	// the most attempts that arrived before the outage ended in one window, the burst the
	// server meets while down; PeakBack the most that arrived at or after its end in one window,
	// what the recovering server receives and what the capacity judges: of a window's n attempts
	// once back, the server accepts min(n, Capacity), so PeakBack > Capacity says that some
	// window turned attempts away once back. The window the outage ends in, when the end is not
	// on a window's boundary, counts on both sides: its attempts before the end toward PeakDown,
	// the others toward PeakBack. PeakDownAt is the start of the earliest window holding
	// PeakDown; PeakBackAt the start of the earliest window's part once back holding PeakBack,
	// that is the window's start or, for the window the outage ends in, the outage's end. Each
	// time is -1 when no attempt arrived on its side (its peak 0). An OverloadRun's count its
	// Arrivals, which with a breaker hold the attempts it rejected too. With 1,000 clients, a 2s
	// outage and 100ms windows, full jitter's 2,275 attempts at 0 are its PeakDown (at 0) and
	// its 60 in [2s, 2.1s) its PeakBack (at 2s).
	PeakDown, PeakBack     int
	PeakDownAt, PeakBackAt time.Duration
	// MeanPerClient is Attempts/Clients; MaxPerClient the most attempts one client made.
	MeanPerClient float64
	MaxPerClient  int
	// LastAccepted is when the last accepted attempt arrived, that is when the last client got
	// through; it is -1 when none did (Accepted == 0).
	LastAccepted time.Duration
	// Arrivals counts the attempts in each fixed window [k*Window, (k+1)*Window), from k = 0 to
	// the window of the last attempt; it has at most MaxHerdWindows entries.
	Arrivals []int
}

// Herd runs the herd for every mode of p.HerdModes, in that order, on the same base, factor,
// cap, attempts, ratio, cap placement, call and budget. It returns the error of ValidateHerd, if any,
// and no runs, and an error on clients for a herd that is not HerdSimulated. The work is at most Clients*Attempts attempts per mode.
//
// With 6 clients, a fixed 50ms wait (jitter none, factor 1), no outage and a capacity of 2 per
// 100ms window, the server accepts clients 0 and 1 at 0 and fails 2..5 at 0 and again at 50ms;
// it accepts 2 and 3 at 100ms, fails 4 and 5 at 150ms and accepts them at 200ms: 18 attempts,
// all 6 clients accepted, the last at 200ms, and a peak of 10 attempts in [0, 100ms).
func Herd(p calc.Params) ([]HerdRun, error) {
	if err := p.Simulable(); err != nil && p.ValidateUnsampled() == nil {
		return nil, err
	}
	windows, err := p.HerdWindows(calc.Immediate)
	if err != nil {
		return nil, err
	}
	var s herdScratch
	var runs []HerdRun
	for _, m := range p.HerdModes() {
		run, _ := herd(p, m, windows, &s, herdHooks{})
		runs = append(runs, run)
	}
	return runs, nil
}

// HerdMode runs the herd for one mode, so that a caller can run the modes of p.HerdModes one by
// one; Herd runs them all. m can also be the backoff of a jitter mode that p.HerdModes leaves out
// (Backoff(j) for any j of AllJitters). It returns the error of ValidateHerd (for a mode outside
// p.HerdModes, the window must also hold that mode's slowest attempt), or an error for a mode
// that does not exist.
func HerdMode(p calc.Params, m calc.HerdMode) (HerdRun, error) {
	if !m.Exists() {
		return HerdRun{}, fmt.Errorf("calc: no herd mode %d", uint8(m))
	}
	if err := p.Simulable(); err != nil && p.ValidateUnsampled() == nil {
		return HerdRun{}, err
	}
	windows, err := p.HerdWindows(m)
	if err != nil {
		return HerdRun{}, err
	}
	s := herdScratches.Get()
	defer herdScratches.Put(s)
	run, _ := herd(p, m, windows, s, herdHooks{})
	return run, nil
}

// HerdModePausing runs one mode like HerdMode, but calls pause after every PauseEvery
// attempts; when pause returns false the run stops at once and done is false. A page calls it
// off the input path: pause hands the thread back to the browser and says whether the inputs
// are still the ones being run. Pausing does not change the result.
func HerdModePausing(p calc.Params, m calc.HerdMode, pause func() bool) (run HerdRun, done bool, err error) {
	if !m.Exists() {
		return HerdRun{}, false, fmt.Errorf("calc: no herd mode %d", uint8(m))
	}
	if err := p.Simulable(); err != nil && p.ValidateUnsampled() == nil {
		return HerdRun{}, false, err
	}
	windows, err := p.HerdWindows(m)
	if err != nil {
		return HerdRun{}, false, err
	}
	s := herdScratches.Get()
	defer herdScratches.Put(s)
	run, done = herd(p, m, windows, s, herdHooks{pause: pause})
	return run, done, nil
}
