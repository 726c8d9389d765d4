package calc

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"backoffcalc/calc/policy"
	"backoffcalc/calc/policy/policytest"
)

// checkInvariants is policytest's, naming p by its link.
func checkInvariants(t *testing.T, p Params) {
	t.Helper()
	policytest.CheckInvariants(t, p.Params, p.Encode)
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
