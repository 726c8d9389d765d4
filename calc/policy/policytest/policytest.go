// Package policytest holds what the tests of the policy core and of the link's front check of
// any valid policy, in one place (as net/http/httptest does for handlers): calc's fuzzing and
// the core's tests call the same checks.
package policytest

import (
	"math"
	"testing"

	"backoffcalc/calc/policy"
)

// CheckInvariants fails t unless p holds what every valid policy does: 0 <= min <= mean <= max;
// starts never decrease; sampled percentiles are ordered and lie within [earliest, latest];
// paths only drop out. It draws p.Samples paths, so callers keep that small. name is the
// policy as a failure names it (a link), asked for only then.
func CheckInvariants(t testing.TB, p policy.Params, name func() string) {
	t.Helper()
	s, sm := p.Schedule(), p.Sample()
	for i, r := range s.Rows {
		if r.Min < 0 || float64(r.Min) > r.Mean || r.Mean > float64(r.Max) || math.IsNaN(r.Mean) {
			t.Fatalf("%s: attempt %d: min %d mean %v max %d", name(), r.Attempt, r.Min, r.Mean, r.Max)
		}
		if r.AtCap < 0 || r.AtCap > 1 {
			t.Fatalf("%s: attempt %d: share at cap %v", name(), r.Attempt, r.AtCap)
		}
		st := sm.Starts[i]
		if i > 0 {
			prev := s.Rows[i-1]
			if r.Earliest < prev.Earliest || r.Latest < prev.Latest || st.Reached > sm.Starts[i-1].Reached {
				t.Fatalf("%s: attempt %d goes backwards", name(), r.Attempt)
			}
		}
		q := st.Start
		if st.Reached > 0 && !(r.Earliest <= q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= r.Latest) {
			t.Fatalf("%s: attempt %d: %+v outside [%d, %d]", name(), r.Attempt, q, r.Earliest, r.Latest)
		}
	}
	// A budget cuts paths short, so only without one is the best case a floor.
	floor := s.Total.Min
	if p.Budget > 0 {
		floor = 0
	}
	if q := sm.Total; !(floor <= q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= s.Total.Max) {
		t.Fatalf("%s: total %+v outside [%d, %d]", name(), q, s.Total.Min, s.Total.Max)
	}
	// Without a budget every path makes every attempt: its total lies within the policy's, and so
	// does the mean (up to the rounding of a sum of floats).
	if p.Budget == 0 && (sm.TotalMin < s.Total.Min || sm.TotalMax > s.Total.Max) {
		t.Fatalf("%s: sampled totals [%d, %d] outside [%d, %d]", name(), sm.TotalMin, sm.TotalMax, s.Total.Min, s.Total.Max)
	}
	if m, slack := s.Total.Mean, 1e-12*float64(s.Total.Max); m < float64(s.Total.Min)-slack || m > float64(s.Total.Max)+slack {
		t.Fatalf("%s: mean total %v outside [%d, %d]", name(), m, s.Total.Min, s.Total.Max)
	}
	// Within the budget, every sampled path lies between the exact least and most.
	if w := p.WithinBudget(); w.Exact && !(w.Min <= sm.TotalMin && sm.TotalMax <= w.Max && w.Max <= s.Total.Max) {
		t.Fatalf("%s: sampled totals [%d, %d] outside the budget's exact [%d, %d]", name(), sm.TotalMin, sm.TotalMax, w.Min, w.Max)
	}
	if q := sm.Total; !(float64(sm.TotalMin) <= sm.TotalMean && sm.TotalMean <= float64(sm.TotalMax) && sm.TotalMin <= q.P50 && q.P99 <= sm.TotalMax) {
		t.Fatalf("%s: sampled mean %v, least %d, most %d, percentiles %+v", name(), sm.TotalMean, sm.TotalMin, sm.TotalMax, q)
	}
}
