package calc

import (
	"slices"
	"time"
)

// Axis is a time axis from 0 to End with ticks at round steps, for charts: the page draws where
// calc says, so even the axis labels are calc's numbers.
type Axis struct {
	End   time.Duration   // the axis's right end: the first tick at or past the largest value
	Ticks []time.Duration // 0, step, 2*step, ..., End
}

// tickSteps are the steps people read easily, smallest first; past a week, 1-2-5 multiples.
var tickSteps = func() []time.Duration {
	var s []time.Duration
	for mag := time.Duration(1); mag < 500*time.Millisecond; mag *= 10 {
		s = append(s, mag, 2*mag, 5*mag)
	}
	const m, h, d = time.Minute, time.Hour, 24 * time.Hour
	return append(s, time.Second, 2*time.Second, 5*time.Second, 10*time.Second, 15*time.Second, 30*time.Second,
		m, 2*m, 5*m, 10*m, 15*m, 30*m, h, 2*h, 3*h, 6*h, 12*h, d, 2*d, 7*d, 14*d, 28*d)
}()

// maxTicks bounds the number of steps on an axis.
const maxTicks = 6

// NewAxis returns an axis that holds [0, max] in at most maxTicks round steps: 2.5s gets ticks
// every 500ms up to 2.5s.
func NewAxis(max time.Duration) Axis {
	if max <= 0 {
		return Axis{End: 1, Ticks: []time.Duration{0, 1}}
	}
	step := tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		if (max+s-1)/s <= maxTicks {
			step = s
			break
		}
	}
	for step*maxTicks < max { // beyond the list: keep doubling
		step *= 2
	}
	a := Axis{End: (max + step - 1) / step * step}
	for t := time.Duration(0); t <= a.End; t += step {
		a.Ticks = append(a.Ticks, t)
	}
	return a
}

// X places d on an axis drawn width units wide.
func (a Axis) X(d time.Duration, width float64) float64 {
	return float64(d) / float64(a.End) * width
}

// CountAxis is a count axis from 0 to End with ticks at round steps, for charts of counts.
type CountAxis struct {
	End   int   // the first tick at or past the largest count; at least 1
	Ticks []int // 0, step, 2*step, ..., End
}

// NewCountAxis returns an axis that holds [0, most] in at most maxTicks steps of 1, 2 or 5 times
// a power of ten: 224 gets ticks every 50 up to 250.
func NewCountAxis(most int) CountAxis {
	step := 0
	for mag := 1; step == 0; mag *= 10 {
		step = fitStep(most, mag)
	}
	a := CountAxis{End: max(1, (most+step-1)/step*step)}
	for n := 0; n <= a.End; n += step {
		a.Ticks = append(a.Ticks, n)
	}
	return a
}

// fitStep is the first of mag, 2*mag and 5*mag that covers most in maxTicks steps, or 0.
func fitStep(most, mag int) int {
	for _, s := range []int{mag, 2 * mag, 5 * mag} {
		if (most+s-1)/s <= maxTicks {
			return s
		}
	}
	return 0
}

// Y places n on an axis drawn height units tall, measured up from 0.
func (a CountAxis) Y(n int, height float64) float64 {
	return float64(n) / float64(a.End) * height
}

// HerdAxes returns the axes of the charts of runs: one time axis they share, from 0 to the end
// of the last window any run has arrivals in, or to the end of the outage if that is later; and
// a count axis for each run, from 0 to its most arrivals in one window, stretched to hold the
// capacity when the capacity is at most twice that (further up, a capacity line would only
// flatten the chart). With the defaults: 0 to 4s; immediate 0 to 600, none 0 to 100.
func HerdAxes(p Params, runs []HerdRun) (Axis, []CountAxis) {
	end := p.Outage
	counts := make([]CountAxis, len(runs))
	for i, r := range runs {
		end = max(end, p.WindowStart(len(r.Arrivals)))
		counts[i] = NewCountAxis(herdMost(p, r.Arrivals))
	}
	return NewAxis(end), counts
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
func HerdCountAxis(p Params, runs []HerdRun) CountAxis {
	var back, all []int
	for _, r := range runs {
		back = append(back, r.PeakBack)
		all = append(all, herdMost(p, r.Arrivals))
	}
	if !HerdScaleOnceBack(runs) {
		return NewCountAxis(herdMost(p, all))
	}
	slices.Sort(back)
	ascending := make([]float64, len(back))
	for i, n := range back {
		ascending[i] = float64(n)
	}
	if k := Dwarfed(ascending); k > 0 && back[k-1] > 0 {
		back = back[:k]
	}
	return NewCountAxis(herdMost(p, back))
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

// YCut places n like Y, but no higher than the axis's end; cut says that n is past it.
func (a CountAxis) YCut(n int, height float64) (y float64, cut bool) {
	if n > a.End {
		return height, true
	}
	return a.Y(n, height), false
}

// herdMost is the largest of counts, or the capacity when that is larger but at most twice it
// (further up, a capacity line would only flatten the chart).
func herdMost(p Params, counts []int) int {
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	if p.Capacity <= 2*most {
		most = max(most, p.Capacity)
	}
	return most
}

// StartAxis is the start chart's time axis: from 0 to latest, the last attempt's latest start,
// stretched to hold the budget when that is at most twice latest (further out, a budget marker
// would only squeeze the bars). Starts up to 1.6s with a 2s budget: 0 to 2s; with a 1h
// budget: 0 to 2s, the budget past the end.
func StartAxis(latest, budget time.Duration) Axis {
	if budget > latest && budget-latest <= latest { // not 2*latest, which can overflow
		latest = budget
	}
	return NewAxis(latest)
}

// dwarfRatio is how many times the rest a value must be to dwarf them on one linear scale.
const dwarfRatio = 4

// Dwarfed is how many values at the start of ascending (sorted, none negative) the others
// dwarf: the most k, at least 2, such that each of the first k is at most a quarter of each
// of the rest; otherwise 0. A chart draws those k on a second, zoomed scale, where they are not
// flat: [1 2 3 40] gives 3, [1 2 10 40] 2, [1 2 3] and [1 2 3 5] 0.
func Dwarfed(ascending []float64) int {
	for k := len(ascending) - 1; k >= 2; k-- {
		if ascending[k-1]*dwarfRatio <= ascending[k] && ascending[k] > 0 {
			return k
		}
	}
	return 0
}
