package calc

import (
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"
	"testing"

	"backoffcalc/calc/policy"
)

// checkInvariants holds for every valid policy: 0 <= min <= mean <= max; starts never decrease;
// sampled percentiles are ordered and lie within [earliest, latest]; paths only drop out.
// It draws Params.Samples paths, so callers keep that small.
func checkInvariants(t *testing.T, p Params) {
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

func FuzzDecode(f *testing.F) {
	for _, tt := range decodeTests {
		f.Add(tt.query)
	}
	for _, tt := range badQueries {
		f.Add(tt.query)
	}
	for _, k := range breakerParamKeys {
		f.Add(k.with + "&" + k.query)
	}
	for _, c := range breakerParamErrors {
		f.Add(c.query)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, err := Decode(q)
		if verr := p.Validate(); verr != nil {
			t.Fatalf("Decode(%q) returned invalid params: %v", q, verr)
		}
		for _, fe := range policy.FieldErrors(err) {
			if fe.Key == "" || len(fe.Error()) > 400 {
				t.Fatalf("Decode(%q): error %q", q, fe.Error())
			}
		}
		back, err := Decode(p.Encode())
		if err != nil || back != p {
			t.Fatalf("round trip of %q: %+v, %v", p.Encode(), back, err)
		}
		if back, err := DecodeValues(p.Values()); err != nil || back != p {
			t.Fatalf("round trip of %v through Values: %+v, %v", p.Values(), back, err)
		}
		// A query that parses is the same inputs as its values, unescaped.
		if v, perr := url.ParseQuery(q); perr == nil {
			got, gotErr := DecodeValues(v)
			want, wantErr := Decode(v.Encode())
			if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("DecodeValues(%v) = %+v, %v; Decode of its encoding = %+v, %v", v, got, gotErr, want, wantErr)
			}
		}
	})
}

// FuzzSchedule's seeds are the golden file's links and its corpus (testdata/fuzz); calc/policy's
// TestScheduleTestsInvariants holds the invariants for the worked schedules.
func FuzzSchedule(f *testing.F) {
	for _, q := range goldenQueries(f) {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, _ := Decode(q)
		p.Samples = policy.MinSamples // the invariants, not the statistics, are under test
		checkInvariants(t, p)
	})
}

func TestInvariants(t *testing.T) {
	for _, q := range goldenQueries(t) {
		checkInvariants(t, mustDecode(t, q))
	}
}

// goldenQueries are the links of calc/sim's golden file (its goldenQueries, as each report's
// "query" line encodes them): every mode, both cap placements, budgets, the grid, the overflow
// row, the herd and the open systems.
func goldenQueries(tb testing.TB) []string {
	tb.Helper()
	b, err := os.ReadFile("sim/testdata/golden.txt")
	if err != nil {
		tb.Fatal(err)
	}
	var qs []string
	for _, line := range strings.Split(string(b), "\n") {
		if q, ok := strings.CutPrefix(line, "query "); ok {
			qs = append(qs, q)
		}
	}
	if len(qs) < 20 {
		tb.Fatalf("sim/testdata/golden.txt holds %d queries", len(qs))
	}
	return qs
}
