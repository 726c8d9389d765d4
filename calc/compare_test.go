package calc

import (
	"testing"
	"time"

	"backoffcalc/calc/policy"
)

// Hand-worked comparisons: each row's difference is B − A, worked out from the two schedules
// without jitter, where min, mean and max are the same wait.
func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		name, a, b string
		waits      []time.Duration // B − A of the wait before attempts 2, 3, …, where both make them
		starts     []time.Duration // B − A of every attempt's start, where both make it
		inA, inB   int             // attempts of each
		total      time.Duration
	}{
		// B waits 200, 400, 800 where A waits 100, 200, 400: every difference is A's wait, and
		// every start's is A's start (0, 100, 300, 700).
		{"double base", "base=100ms&factor=2&attempts=4&jitter=none", "base=200ms&factor=2&attempts=4&jitter=none",
			[]time.Duration{100 * ms, 200 * ms, 400 * ms}, []time.Duration{0, 100 * ms, 300 * ms, 700 * ms}, 4, 4, 700 * ms},
		// The same policy: nothing differs.
		{"same", "base=100ms&attempts=3&jitter=none", "base=100ms&attempts=3&jitter=none",
			[]time.Duration{0, 0}, []time.Duration{0, 0, 0}, 3, 3, 0},
		// B makes two more attempts (waiting 400ms and 800ms before them): no difference there.
		// A's cap of 150ms binds at retry 2: A waits 100ms, 150ms; B 100ms, 200ms.
		{"longer B", "base=100ms&cap=150ms&attempts=3&jitter=none", "base=100ms&cap=30s&attempts=5&jitter=none",
			[]time.Duration{0, 50 * ms}, []time.Duration{0, 0, 50 * ms}, 3, 5, 1500*ms - 250*ms},
		// B shorter and waiting less: the differences are negative.
		{"shorter B", "base=1s&factor=3&attempts=3&jitter=none", "base=500ms&factor=3&attempts=2&jitter=none",
			[]time.Duration{-500 * ms}, []time.Duration{0, -500 * ms}, 3, 2, 500*ms - 4*time.Second},
		// Overflow: the longest policy against the shortest; a difference of two non-negative
		// durations cannot overflow, and it is the exact one.
		{"overflow", "base=1ns&factor=1&cap=1ns&attempts=1000&jitter=none",
			"base=24h&factor=100&cap=168h&attempts=1000&jitter=none&call=24h", nil, nil, 1000, 1000, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b := mustDecode(t, tt.a).ReportBounds(), mustDecode(t, tt.b).ReportBounds()
			c := Compare(a, b)
			if len(c.Rows) != max(tt.inA, tt.inB) {
				t.Fatalf("%d rows, want %d", len(c.Rows), max(tt.inA, tt.inB))
			}
			for i, row := range c.Rows {
				if row.Attempt != i+1 || row.InA != (i < tt.inA) || row.InB != (i < tt.inB) {
					t.Errorf("row %d: attempt %d, in A %v, in B %v", i, row.Attempt, row.InA, row.InB)
				}
				if !row.InA || !row.InB {
					if row.Diff != (Diff{}) {
						t.Errorf("attempt %d is not in both, but differs by %+v", row.Attempt, row.Diff)
					}
					continue
				}
				d := row.Diff
				// Exact, whatever the numbers: B − A of each.
				if d.Min != row.B.Min-row.A.Min || d.Max != row.B.Max-row.A.Max || d.Mean != row.B.Mean-row.A.Mean ||
					d.Earliest != row.B.Earliest-row.A.Earliest || d.Latest != row.B.Latest-row.A.Latest {
					t.Errorf("attempt %d: %+v is not B − A of %+v and %+v", row.Attempt, d, row.A, row.B)
				}
				if tt.name == "overflow" {
					if i > 0 && (d.Latest <= 0 || d.Max <= 0) {
						t.Errorf("attempt %d: B is longer, yet the difference is %+v", row.Attempt, d)
					}
					continue
				}
				if i < len(tt.starts) && (d.Earliest != tt.starts[i] || d.Latest != tt.starts[i]) {
					t.Errorf("attempt %d: starts differ by %v..%v, want %v", row.Attempt, d.Earliest, d.Latest, tt.starts[i])
				}
				if i > 0 && i-1 < len(tt.waits) {
					w := tt.waits[i-1]
					if d.Min != w || d.Max != w || d.Mean != float64(w) {
						t.Errorf("attempt %d: waits differ by %v/%v/%v, want %v", row.Attempt, d.Min, d.Mean, d.Max, w)
					}
				}
			}
			if tt.name != "overflow" && (c.Total.Min != tt.total || c.Total.Max != tt.total || c.Total.Mean != float64(tt.total)) {
				t.Errorf("total differs by %+v, want %v", c.Total, tt.total)
			}
		})
	}
}

// The fit to the budget is each policy's own mode's, and only with a budget: with base 100ms,
// factor 2, cap 1s, no jitter and a 3.1s budget, 6 attempts always start within it (attempt 7
// would start at 3.5s); with a 1.5s budget, 4 (attempt 5 at 1.5s is out).
func TestCompareFit(t *testing.T) {
	a := mustDecode(t, "base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s").ReportBounds()
	b := mustDecode(t, "base=100ms&factor=2&cap=1s&jitter=none&budget=1.5s").ReportBounds()
	c := Compare(a, b)
	if c.FitA == nil || c.FitB == nil || c.FitA.Jitter != policy.None || c.FitA.Always.Value != 6 || c.FitB.Always.Value != 4 {
		t.Fatalf("fit A %+v, fit B %+v; want 6 and 4 attempts, no jitter", c.FitA, c.FitB)
	}
	if c = Compare(a, mustDecode(t, "jitter=none").ReportBounds()); c.FitB != nil {
		t.Errorf("B has no budget, yet a fit %+v", c.FitB)
	}
}

func TestHumanDiff(t *testing.T) {
	for _, tt := range []struct {
		ns   float64
		want string
	}{{0, "0"}, {1e8, "+100 ms"}, {-1.5e9, "−1.5 s"}, {-1, "−1 ns"}, {float64(policy.MaxCap) * 1000, "+7000 d"}} {
		if got := HumanDiff(tt.ns); got != tt.want {
			t.Errorf("HumanDiff(%v) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}
