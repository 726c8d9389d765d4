package policy

import (
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

// TickSteps are the round steps of an axis, smallest first; past a week, 1-2-5 multiples.
// The caller must not change them.
func TickSteps() []time.Duration { return tickSteps }

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

// YCut places n like Y, but no higher than the axis's end; cut says that n is past it.
func (a CountAxis) YCut(n int, height float64) (y float64, cut bool) {
	if n > a.End {
		return height, true
	}
	return a.Y(n, height), false
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
