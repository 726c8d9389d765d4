package calc

import "time"

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

// HerdCountAxis is one count axis for all of runs, so that their charts' heights compare: from
// 0 to the most arrivals in one window of any run, stretched to the capacity as in HerdAxes.
// With the defaults: 0 to 600, immediate's scale.
func HerdCountAxis(p Params, runs []HerdRun) CountAxis {
	var all []int
	for _, r := range runs {
		all = append(all, herdMost(p, r.Arrivals))
	}
	return NewCountAxis(herdMost(p, all))
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
