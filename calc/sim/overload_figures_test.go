package sim

import (
	"testing"
	"time"

	"backoffcalc/calc"
)

func TestOverloadRunFigures(t *testing.T) {
	tests := []struct {
		name     string
		run      OverloadRun
		share    float64
		recovers bool
	}{
		{"nothing served", OverloadRun{Recovered: -1}, 0, false},
		{"none wasted", OverloadRun{Served: 40}, 0, true},
		{"a quarter", OverloadRun{Served: 30, Wasted: 10, Recovered: 2 * time.Second}, 0.25, true},
		{"all wasted", OverloadRun{Wasted: 7, Recovered: -1}, 1, false},
		// Counts near the int limit still give a share in [0, 1].
		{"overflow", OverloadRun{Served: 1 << 62, Wasted: 1 << 62}, 0.5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run.WastedShare(); got != tt.share {
				t.Errorf("WastedShare = %v, want %v", got, tt.share)
			}
			if got := tt.run.Recovers(); got != tt.recovers {
				t.Errorf("Recovers = %v, want %v", got, tt.recovers)
			}
		})
	}
}

func TestOverloadAxes(t *testing.T) {
	p := calc.Default() // outage 1s, window 100ms, capacity 20
	run := OverloadRun{Windows: []OverloadWindow{{New: 5}, {Retries: 12, Queue: 31}, {Served: 3}}}
	// Three windows end at 300ms, before the outage's 1s end; the largest count is the queue's 31,
	// and the capacity 20 is under it: steps of 5 would take 7 ticks (over 6), so 0 to 40 by 10.
	time, count := OverloadAxes(p, run)
	if time.End != p.Outage || count.End != 40 {
		t.Errorf("axes to %v and %d, want %v and 40", time.End, count.End, p.Outage)
	}
	if got := (OverloadWindow{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0, 0}).Counts(); got != [8]int{1, 2, 3, 4, 5, 6, 7, 8} {
		t.Errorf("Counts in the wrong order: %v", got)
	}
	p.Capacity = 50 // under twice the largest count: the axis holds it
	if _, count := OverloadAxes(p, run); count.End != 50 {
		t.Errorf("count axis to %d, want 50 (the capacity)", count.End)
	}
}

func TestOverloadSharedAxes(t *testing.T) {
	p := calc.Default() // outage 1s, window 100ms, capacity 20
	short := OverloadRun{Windows: []OverloadWindow{{New: 5}, {Retries: 12, Queue: 31}}}
	long := OverloadRun{Windows: make([]OverloadWindow, 15)}
	long.Windows[14] = OverloadWindow{Retries: 260}
	tests := []struct {
		name  string
		runs  []OverloadRun
		time  time.Duration
		count int
	}{
		// No run in yet: the outage, and 0 to 1 (the capacity 20 is more than twice 0).
		{"none", nil, time.Second, 1},
		// One run: the same axes as OverloadAxes.
		{"one", []OverloadRun{short}, time.Second, 40},
		// The long run's 260 retries set the count for both, its 15 windows (1.5s) the time;
		// steps of 50 fit 300 in 6 ticks.
		{"shared", []OverloadRun{short, long}, 1500 * time.Millisecond, 300},
		{"either order", []OverloadRun{long, short}, 1500 * time.Millisecond, 300},
		// Counts near the int limit saturate the axis rather than wrap.
		{"overflow", []OverloadRun{{Windows: []OverloadWindow{{Queue: 1 << 61}}}}, time.Second, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeAxis, count := OverloadSharedAxes(p, tt.runs)
			if timeAxis.End != tt.time {
				t.Errorf("time axis to %v, want %v", timeAxis.End, tt.time)
			}
			if tt.count < 0 {
				if count.End < 1<<61 {
					t.Errorf("count axis to %d, under the largest count", count.End)
				}
				return
			}
			if count.End != tt.count {
				t.Errorf("count axis to %d, want %d", count.End, tt.count)
			}
			if len(tt.runs) == 1 {
				if _, own := OverloadAxes(p, tt.runs[0]); own.End != count.End {
					t.Errorf("one run's shared axis %d is not its own %d", count.End, own.End)
				}
			}
		})
	}
}
