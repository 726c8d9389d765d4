package sim

import (
	"slices"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// HerdAxes returns the axes of the charts of runs: one time axis they share, from 0 to the end
// of the last window any run has arrivals in, or to the end of the outage if that is later; and
// a count axis for each run, from 0 to its most arrivals in one window, stretched to hold the
// capacity when the capacity is at most twice that (further up, a capacity line would only
// flatten the chart). With the defaults: 0 to 4s; immediate 0 to 600, none 0 to 100.
func HerdAxes(p calc.Params, runs []HerdRun) (policy.Axis, []policy.CountAxis) {
	end := p.Outage
	counts := make([]policy.CountAxis, len(runs))
	for i, r := range runs {
		end = max(end, p.WindowStart(len(r.Arrivals)))
		counts[i] = policy.NewCountAxis(herdMost(p, r.Arrivals))
	}
	return policy.NewAxis(end), counts
}

// HerdCountAxis is one count axis for all of runs, so that their charts' heights compare. It is
// set by what the recovering server receives, so that the load after the outage and the
// capacity can be read: from 0 to the most attempts once back in one window (HerdRun.PeakBack)
// of the runs whose peak once back the others' do not dwarf (Dwarfed: a mode without jitter
// brings every client back in one window), stretched to the capacity as in HerdAxes. The burst
// while down is often many times that (2,275 at 0 against 60 once back with full jitter at
// clients=1000&outage=2s&capacity=50, on an axis to 200 that the 1,000 of no jitter would flatten):
// windows past the end are cut there (YCut) and the chart says the peaks it cuts. When no run
// has an attempt once back, the axis runs from 0 to the most arrivals in one window of any run,
// stretched alike. With the defaults: 0 to 100, set by none's 100 once back.
func HerdCountAxis(p calc.Params, runs []HerdRun) policy.CountAxis {
	var back, all []int
	for _, r := range runs {
		back = append(back, r.PeakBack)
		all = append(all, herdMost(p, r.Arrivals))
	}
	if !HerdScaleOnceBack(runs) {
		return policy.NewCountAxis(herdMost(p, all))
	}
	slices.Sort(back)
	ascending := make([]float64, len(back))
	for i, n := range back {
		ascending[i] = float64(n)
	}
	if k := policy.Dwarfed(ascending); k > 0 && back[k-1] > 0 {
		back = back[:k]
	}
	return policy.NewCountAxis(herdMost(p, back))
}

// HerdScaleOnceBack reports whether HerdCountAxis sets its axis by the peaks once back, that is
// whether any of runs has an attempt at or after the outage's end.
func HerdScaleOnceBack(runs []HerdRun) bool {
	for _, r := range runs {
		if r.PeakBack > 0 {
			return true
		}
	}
	return false
}

// herdMost is the largest of counts, or the capacity when that is larger but at most twice it
// (further up, a capacity line would only flatten the chart).
func herdMost(p calc.Params, counts []int) int {
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	if p.Capacity <= 2*most {
		most = max(most, p.Capacity)
	}
	return most
}
