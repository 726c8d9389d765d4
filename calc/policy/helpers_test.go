package policy_test

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
)

// The core's tests read their policies from links, as calc's do: calc.Decode (the front) reads
// the link, and its Params embeds the core's.

const ms = time.Millisecond

func mustDecode(t testing.TB, q string) calc.Params {
	t.Helper()
	p, err := calc.Decode(q, testPresets...)
	if err != nil {
		t.Fatalf("calc.Decode(%q): %v", q, err)
	}
	return p
}

// pollyQuery is Polly v8's exponential backoff with jitter at its defaults, as calc's tests
// name it (calc/presets_test.go).
const pollyQuery = "base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0"

// testPresets are the presets that the core's tests name in links (mustDecode passes them).
var testPresets = []calc.Preset{{Name: "polly-exponential-jitter", Params: func() calc.Params {
	p, err := calc.Decode(pollyQuery)
	if err != nil {
		panic(err)
	}
	return p
}()}}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkInvariants (calc/fuzz_test.go's, for the core's tests) holds for every valid policy: 0 <= min <= mean <= max; starts never decrease;
// sampled percentiles are ordered and lie within [earliest, latest]; paths only drop out.
// It draws Params.Samples paths, so callers keep that small.
func checkInvariants(t *testing.T, p calc.Params) {
	t.Helper()
	s, sm := p.Schedule(), p.Sample()
	for i, r := range s.Rows {
		if r.Min < 0 || float64(r.Min) > r.Mean || r.Mean > float64(r.Max) || math.IsNaN(r.Mean) {
			t.Fatalf("%s: attempt %d: min %d mean %v max %d", p.Encode(), r.Attempt, r.Min, r.Mean, r.Max)
		}
		if r.AtCap < 0 || r.AtCap > 1 {
			t.Fatalf("%s: attempt %d: share at cap %v", p.Encode(), r.Attempt, r.AtCap)
		}
		st := sm.Starts[i]
		if i > 0 {
			prev := s.Rows[i-1]
			if r.Earliest < prev.Earliest || r.Latest < prev.Latest || st.Reached > sm.Starts[i-1].Reached {
				t.Fatalf("%s: attempt %d goes backwards", p.Encode(), r.Attempt)
			}
		}
		q := st.Start
		if st.Reached > 0 && !(r.Earliest <= q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= r.Latest) {
			t.Fatalf("%s: attempt %d: %+v outside [%d, %d]", p.Encode(), r.Attempt, q, r.Earliest, r.Latest)
		}
	}
	// A budget cuts paths short, so only without one is the best case a floor.
	floor := s.Total.Min
	if p.Budget > 0 {
		floor = 0
	}
	if q := sm.Total; !(floor <= q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= s.Total.Max) {
		t.Fatalf("%s: total %+v outside [%d, %d]", p.Encode(), q, s.Total.Min, s.Total.Max)
	}
	// Without a budget every path makes every attempt: its total lies within the policy's, and so
	// does the mean (up to the rounding of a sum of floats).
	if p.Budget == 0 && (sm.TotalMin < s.Total.Min || sm.TotalMax > s.Total.Max) {
		t.Fatalf("%s: sampled totals [%d, %d] outside [%d, %d]", p.Encode(), sm.TotalMin, sm.TotalMax, s.Total.Min, s.Total.Max)
	}
	if m, slack := s.Total.Mean, 1e-12*float64(s.Total.Max); m < float64(s.Total.Min)-slack || m > float64(s.Total.Max)+slack {
		t.Fatalf("%s: mean total %v outside [%d, %d]", p.Encode(), m, s.Total.Min, s.Total.Max)
	}
	// Within the budget, every sampled path lies between the exact least and most.
	if w := p.WithinBudget(); w.Exact && !(w.Min <= sm.TotalMin && sm.TotalMax <= w.Max && w.Max <= s.Total.Max) {
		t.Fatalf("%s: sampled totals [%d, %d] outside the budget's exact [%d, %d]", p.Encode(), sm.TotalMin, sm.TotalMax, w.Min, w.Max)
	}
	if q := sm.Total; !(float64(sm.TotalMin) <= sm.TotalMean && sm.TotalMean <= float64(sm.TotalMax) && sm.TotalMin <= q.P50 && q.P99 <= sm.TotalMax) {
		t.Fatalf("%s: sampled mean %v, least %d, most %d, percentiles %+v", p.Encode(), sm.TotalMean, sm.TotalMin, sm.TotalMax, q)
	}
}
