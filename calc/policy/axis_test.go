package policy

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
