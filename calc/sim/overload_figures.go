package sim

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// Figures of an overload run that the page and table show as they are: ratios are computed
// here, so that the screen does no arithmetic.

// WastedShare is the share of the attempts the server served that were wasted: served for a
// client that had stopped waiting. 0 when the server served nothing. Served 30, wasted 10: 0.25.
func (r OverloadRun) WastedShare() float64 {
	all := float64(r.Served) + float64(r.Wasted) // in float64: the int sum could overflow
	if all == 0 {
		return 0
	}
	return float64(r.Wasted) / all
}

// Recovers reports whether the server recovered before the run ended (Recovered is then its
// time); false when the last window with an arrival was not clean.
func (r OverloadRun) Recovers() bool { return r.Recovered >= 0 }

// counts reports whether anything happened in w: the breakers' states, which every window of a
// run with a breaker has, are not events.
func (w OverloadWindow) counts() bool {
	w.Closed, w.Open, w.HalfOpen = 0, 0, 0
	return w != OverloadWindow{}
}

// Counts are w's numbers in the order the page and table show them: new, retries, served,
// wasted, failed, timed out, refused, queue.
func (w OverloadWindow) Counts() [8]int {
	return [8]int{w.New, w.Retries, w.Served, w.Wasted, w.Failed, w.TimedOut, w.Refused, w.Queue}
}

// OverloadAxes returns the axes of r's chart: time from 0 to the end of its last window (or the
// outage's end, if later), and one count axis for every series, from 0 to the largest count of
// any of them in any window, stretched to the capacity as HerdAxes does.
func OverloadAxes(p calc.Params, r OverloadRun) (policy.Axis, policy.CountAxis) {
	return OverloadSharedAxes(p, []OverloadRun{r})
}

// OverloadSharedAxes returns one pair of axes for the charts of every run of runs, so that the
// charts of different cases compare at a glance: time from 0 to the end of the longest run's
// last window (or the outage's end, if later), counts from 0 to the largest count of any series
// in any window of any run, stretched to the capacity as HerdAxes does. With the defaults, a run
// whose queue reaches 31 and one whose retries reach 260: 0 to 300 for both.
func OverloadSharedAxes(p calc.Params, runs []OverloadRun) (policy.Axis, policy.CountAxis) {
	most, windows := 0, 0
	for _, r := range runs {
		windows = max(windows, len(r.Windows))
		for _, w := range r.Windows {
			for _, n := range w.Counts() {
				most = max(most, n)
			}
		}
	}
	return policy.NewAxis(max(p.Outage, p.WindowStart(windows))), policy.NewCountAxis(herdMost(p, []int{most}))
}
