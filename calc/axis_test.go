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
