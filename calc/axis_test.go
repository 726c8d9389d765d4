package calc

import (
	"slices"
	"testing"
	"time"
)

func TestNewAxis(t *testing.T) {
	for _, tt := range []struct {
		max   time.Duration
		end   time.Duration
		ticks int
	}{
		{2500 * ms, 2500 * ms, 6},             // every 500 ms
		{2501 * ms, 3 * time.Second, 7},       // 500 ms steps, rounded up
		{7 * time.Minute, 8 * time.Minute, 5}, // 2 min steps
		{1, 1, 2},                             // 1 ns
		{0, 1, 2},                             // nothing to show
		{1000 * 168 * time.Hour, 172032 * time.Hour, 5}, // past the list: 28 d doubled to 1792 d
	} {
		a := NewAxis(tt.max)
		if a.End != tt.end || len(a.Ticks) != tt.ticks || a.Ticks[0] != 0 || a.Ticks[len(a.Ticks)-1] != a.End || !slices.IsSorted(a.Ticks) {
			t.Errorf("NewAxis(%v) = %v", tt.max, a)
		}
		if a.End < tt.max || a.X(a.End, 100) != 100 {
			t.Errorf("NewAxis(%v): end %v", tt.max, a.End)
		}
	}
}

func TestNewCountAxis(t *testing.T) {
	for _, tt := range []struct {
		most, end, step int
	}{
		{0, 1, 1}, {1, 1, 1}, {6, 6, 1}, {7, 8, 2}, {12, 12, 2}, {13, 15, 5}, {224, 250, 50},
		{600, 600, 100}, {601, 800, 200}, {2000000, 2000000, 500000},
	} {
		a := NewCountAxis(tt.most)
		if a.End != tt.end || a.Ticks[0] != 0 || a.Ticks[len(a.Ticks)-1] != a.End || len(a.Ticks) > maxTicks+1 ||
			len(a.Ticks) > 1 && a.Ticks[1] != tt.step || a.Y(a.End, 50) != 50 {
			t.Errorf("NewCountAxis(%d) = %+v, want end %d in steps of %d", tt.most, a, tt.end, tt.step)
		}
	}
}

func TestHerdAxes(t *testing.T) {
	p := Default()
	runs, err := p.Herd()
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
	p := Default()
	runs, err := p.Herd()
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
	if runs, _ := q.Herd(); HerdCountAxis(q, runs).End != 200 {
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
	a := NewCountAxis(200)
	if y, cut := a.YCut(2275, 56); y != 56 || !cut {
		t.Errorf("2275 on 0 to 200: %v, cut %v", y, cut)
	}
	if y, cut := a.YCut(50, 56); y != 14 || cut {
		t.Errorf("50 on 0 to 200: %v, cut %v", y, cut)
	}
}

func TestStartAxis(t *testing.T) {
	for _, tt := range []struct {
		name           string
		latest, budget time.Duration
		end            time.Duration
	}{
		{"no budget", 1600 * ms, 0, 2 * time.Second},
		{"budget within twice", 1600 * ms, 3 * time.Second, 3 * time.Second},
		{"budget before the last start", 1600 * ms, time.Second, 2 * time.Second},
		{"budget far out", 1600 * ms, time.Hour, 2 * time.Second},
		{"overflow", time.Duration(1<<62) + 1, MaxBudget, NewAxis(time.Duration(1<<62) + 1).End},
	} {
		if a := StartAxis(tt.latest, tt.budget); a.End != tt.end {
			t.Errorf("%s: StartAxis(%v, %v) ends at %v, want %v", tt.name, tt.latest, tt.budget, a.End, tt.end)
		}
	}
}

func TestDwarfed(t *testing.T) {
	for _, tt := range []struct {
		values []float64
		want   int
	}{
		{[]float64{1, 2, 3, 40}, 3},
		{[]float64{1, 2, 10, 40}, 3}, // exactly a quarter
		{[]float64{1, 2, 11, 40}, 2}, // 11 is more than a quarter of 40
		{[]float64{1, 2, 3, 5}, 0},
		{[]float64{1, 2, 10, 11}, 2},
		{[]float64{1, 20, 30, 40}, 0}, // one small value: nothing to zoom in on
		{[]float64{1, 2, 3}, 0},
		{[]float64{0, 0, 0}, 0},
		{[]float64{0, 0, 1}, 2},
		{[]float64{5}, 0},
		{nil, 0},
	} {
		if got := Dwarfed(tt.values); got != tt.want {
			t.Errorf("Dwarfed(%v) = %d, want %d", tt.values, got, tt.want)
		}
	}
}
