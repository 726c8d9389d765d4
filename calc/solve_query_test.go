package calc

import (
	"strings"
	"testing"

	"backoffcalc/calc/policy"
)

// The solve key: names in any order, written back in one order, left out at its default.
func TestSolveKey(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  SolveSet
		canon string
	}{
		{"solve=attempts", SolveAttempts, "solve=attempts"},
		{"solve=cap,base", SolveBase | SolveCap, "solve=base%2Ccap"},
		{"solve=factor,cap,attempts,base", solveAll, "solve=attempts%2Cbase%2Cfactor%2Ccap"},
	} {
		p, err := Decode(tt.query)
		s, serr := DecodeSolve(tt.query)
		if err != nil || serr != nil || s != tt.want {
			t.Errorf("Decode(%q) = %v, %v; DecodeSolve = %v, %v; want %v", tt.query, p, err, s, serr, tt.want)
		}
		v := p.Values()
		s.SetIn(v)
		if !strings.Contains(v.Encode(), tt.canon) {
			t.Errorf("Encode() = %q, want it to have %s", v.Encode(), tt.canon)
		}
		back, err := Decode(v.Encode())
		backS, serr := DecodeSolveValues(v)
		if err != nil || serr != nil || back != p || backS != s {
			t.Errorf("Decode(Encode()) = %+v, %v, %v, %v", back, backS, err, serr)
		}
		if !s.Has(tt.want) || tt.want != solveAll && s.Has(solveAll) {
			t.Errorf("%v.Has is wrong", s)
		}
	}
	v := Default().Values()
	SolveSet(0).SetIn(v)
	if strings.Contains(v.Encode(), "solve") {
		t.Errorf("Default().Encode() = %q has solve", Default().Encode())
	}
}

func TestSolveKeyErrors(t *testing.T) {
	for _, tt := range []struct{ query, msg string }{
		{"solve=", `calc: solve "": empty; give a value or leave the key out`},
		{"solve=budget", `calc: solve "budget": "budget" is not an answer: give one or more of attempts, base, factor, cap, separated by commas`},
		{"solve=base,base", `calc: solve "base,base": names base twice; give it once`},
		{"solve=base,", `calc: solve "base,": an empty name`},
		{"solve=base%2C%2Ccap", `calc: solve "base,,cap": an empty name`},
		{"solve=Base", `"Base" is not an answer`},
		{"solve=base&solve=cap", `calc: solve "base,cap": given 2 times`},
		{"solve=%3Cscript%3E", `calc: solve "<script>": "<script>" is not an answer`},
	} {
		p, err := Decode(tt.query)
		fes := policy.FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != "solve" || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Decode(%q): %v; want one solve error with %q", tt.query, err, tt.msg)
		}
		if p != Default() {
			t.Errorf("Decode(%q) changed the params: %+v", tt.query, p)
		}
		s, serr := DecodeSolve(tt.query)
		if s != 0 || serr == nil || serr.Error() != err.Error() {
			t.Errorf("DecodeSolve(%q) = %v, %v; want none and Decode's %v", tt.query, s, serr, err)
		}
	}
}
