package sim

import (
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

func TestHerdAxes(t *testing.T) {
	p := calc.Default()
	runs, err := Herd(p)
	if err != nil {
		t.Fatal(err)
	}
	// The longest series is proportional's, 35 windows of 100ms, so time runs to 3.5s, in steps
	// of 1s; the most in one window is immediate's 600 at 0, in steps of 100. Un-jittered
	// backoff's windows hold 100 at most (the first attempts), and the capacity of 20 fits.
	x, y := HerdAxes(p, runs)
	if x.End != 4*time.Second || y[0].End != 600 || len(y[0].Ticks) != 7 || y[1].End != 100 || p.WindowStart(35) != 3500*ms {
		t.Errorf("axes %v, %v", x, y)
	}
	// A capacity far above the arrivals is left off the count axis.
	p.Capacity = 1000
	if _, y := HerdAxes(p, runs); y[1].End != 100 {
		t.Errorf("capacity 1000 stretched the axis to %d", y[1].End)
	}
	p.Capacity = 150
	if _, y := HerdAxes(p, runs); y[1].End != 150 {
		t.Errorf("capacity 150 is not on the axis: %d", y[1].End)
	}
	// An outage longer than every series stretches the time axis to it.
	p.Outage = 10 * time.Second
	if x, _ := HerdAxes(p, runs); x.End != 10*time.Second {
		t.Errorf("time axis %v does not reach the outage's end", x)
	}
}

// One count axis for every mode, set by the most attempts once back in one window.
func TestHerdCountAxis(t *testing.T) {
	p := calc.Default()
	runs, err := Herd(p)
	if err != nil {
		t.Fatal(err)
	}
	// Without jitter all 100 clients make their 5th attempt at 1.5s, the first after the 1s
	// outage: 100 in one window once back, which the jittered modes' (at most 35, proportional's)
	// do not dwarf. Immediate's 600 at 0, while down, is cut.
	if a := HerdCountAxis(p, runs); a.End != 100 || len(a.Ticks) != 6 {
		t.Errorf("shared axis %v, want 0 to 100 in steps of 20", a)
	}
	// The link: no jitter's 1,000 once back (at 3.1s) dwarfs the others' 60 to 164; the
	// axis holds 164 (proportional's) in steps of 50, and the capacity of 50.
	q := mustDecode(t, "clients=1000&outage=2s&capacity=50")
	if runs, _ := Herd(q); HerdCountAxis(q, runs).End != 200 {
		t.Errorf("clients=1000&outage=2s&capacity=50: axis to %d, want 200", HerdCountAxis(q, runs).End)
	}
	// Hand-made runs: the peaks once back set the axis, not the 300 while down.
	made := []HerdRun{{Arrivals: []int{300, 30}, PeakBack: 30}, {Arrivals: []int{300, 0, 45, 5}, PeakBack: 45}}
	// A capacity up to twice the most once back is on the axis; further up, it is not.
	for _, c := range []struct{ capacity, end int }{{80, 80}, {91, 50}, {0, 50}, {20, 50}} {
		p.Capacity = c.capacity
		if a := HerdCountAxis(p, made); a.End != c.end {
			t.Errorf("capacity %d: axis to %d, want %d", c.capacity, a.End, c.end)
		}
	}
	// A peak of 4 once back beside 1 and 0: 4 dwarfs 1 but not the zero of a mode with nothing
	// once back, which sets no axis: the axis holds 4.
	p.Capacity = 0
	if a := HerdCountAxis(p, []HerdRun{{PeakBack: 0}, {PeakBack: 0}, {PeakBack: 4}}); a.End != 4 {
		t.Errorf("peaks 0, 0, 4 once back: axis to %d, want 4", a.End)
	}
	// No attempt once back in any run: the most in any window, as before the outage's end.
	if a := HerdCountAxis(p, []HerdRun{{Arrivals: []int{10, 30}}, {Arrivals: []int{45, 5}}}); a.End != 50 {
		t.Errorf("nothing once back, most 45: axis to %d, want 50", a.End)
	}
	if a := HerdCountAxis(p, nil); a.End != 1 {
		t.Errorf("no runs: axis to %d, want 1", a.End)
	}
	a := policy.NewCountAxis(200)
	if y, cut := a.YCut(2275, 56); y != 56 || !cut {
		t.Errorf("2275 on 0 to 200: %v, cut %v", y, cut)
	}
	if y, cut := a.YCut(50, 56); y != 14 || cut {
		t.Errorf("50 on 0 to 200: %v, cut %v", y, cut)
	}
}
