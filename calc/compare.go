package calc

import (
	"math"
	"time"

	"backoffcalc/calc/policy"
)

// Comparison is two policies side by side, A and B, attempt by attempt: each one's waits and
// starts, and the difference B − A. Every number is exact (the bounds and means of Schedule);
// nothing here is sampled.
type Comparison struct {
	A, B  Report
	Rows  []CompareRow // one per attempt of the longer policy
	Total Diff         // B's total wait − A's, ignoring any budget (Schedule.Total)
	// Fit is what fits in each one's budget, for its own jitter mode; nil without a budget.
	FitA, FitB *policy.Solution
}

// CompareRow is one attempt of A and of B. An attempt only one of them makes has no
// difference: InA or InB is false, that side's Row is zero, and Diff is zero.
type CompareRow struct {
	Attempt  int
	InA, InB bool
	A, B     policy.Row
	Diff     Diff // B − A, where both make the attempt
}

// Diff is B − A of a wait or a start, signed: negative where B waits less or starts earlier.
// Mean is in nanoseconds. The other fields cannot overflow: both sides are at least 0.
type Diff struct {
	Min, Max time.Duration
	Mean     float64
	// Earliest and Latest are the differences of the attempt's start (zero in Total).
	Earliest, Latest time.Duration
}

// Compare puts a and b side by side. With A at base 100ms, factor 2, no jitter, 4 attempts, and
// B at base 200ms, B waits twice A's wait before each retry: every difference is A's own wait
// (100ms, 200ms, 400ms), and every start's difference is A's start (0, 100ms, 300ms, 700ms).
func Compare(a, b Report) Comparison {
	c := Comparison{A: a, B: b, FitA: ownSolution(a), FitB: ownSolution(b)}
	ra, rb := a.Schedule.Rows, b.Schedule.Rows
	for i := range max(len(ra), len(rb)) {
		row := CompareRow{Attempt: i + 1, InA: i < len(ra), InB: i < len(rb)}
		if row.InA {
			row.A = ra[i]
		}
		if row.InB {
			row.B = rb[i]
		}
		if row.InA && row.InB {
			row.Diff = Diff{Min: row.B.Min - row.A.Min, Max: row.B.Max - row.A.Max, Mean: row.B.Mean - row.A.Mean,
				Earliest: row.B.Earliest - row.A.Earliest, Latest: row.B.Latest - row.A.Latest}
		}
		c.Rows = append(c.Rows, row)
	}
	ta, tb := a.Schedule.Total, b.Schedule.Total
	c.Total = Diff{Min: tb.Min - ta.Min, Max: tb.Max - ta.Max, Mean: tb.Mean - ta.Mean}
	return c
}

// ownSolution is the fit to the budget of r's own jitter mode, or nil without a budget.
func ownSolution(r Report) *policy.Solution {
	for i, s := range r.Solutions {
		if s.Jitter == r.Params.Jitter {
			return &r.Solutions[i]
		}
	}
	return nil
}

// HumanDiff writes a signed difference of ns nanoseconds as Human does, with its sign: "+100 ms",
// "−1.5 s" (a minus sign, U+2212); no difference is "0".
func HumanDiff(ns float64) string {
	switch {
	case ns > 0:
		return "+" + policy.Human(ns)
	case ns < 0:
		return "−" + policy.Human(math.Abs(ns))
	}
	return "0"
}
