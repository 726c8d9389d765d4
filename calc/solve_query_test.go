package calc

import (
	"strings"
	"testing"
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
		if err != nil || p.Solve != tt.want {
			t.Errorf("Decode(%q) = %v, %v; want %v", tt.query, p.Solve, err, tt.want)
		}
		if !strings.Contains(p.Encode(), tt.canon) {
			t.Errorf("Encode() = %q, want it to have %s", p.Encode(), tt.canon)
		}
		if back, err := Decode(p.Encode()); err != nil || back != p {
			t.Errorf("Decode(Encode()) = %+v, %v", back, err)
		}
		if !p.Solve.Has(tt.want) || tt.want != solveAll && p.Solve.Has(solveAll) {
			t.Errorf("%v.Has is wrong", p.Solve)
		}
	}
	if strings.Contains(Default().Encode(), "solve") {
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
		fes := FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != "solve" || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Decode(%q): %v; want one solve error with %q", tt.query, err, tt.msg)
		}
		if p.Solve != 0 {
			t.Errorf("Decode(%q) kept %v", tt.query, p.Solve)
		}
	}
	p := Default()
	p.Solve = 1 << 6
	if fes := FieldErrors(p.Validate()); len(fes) != 1 || fes[0].Key != "solve" {
		t.Errorf("Validate of SolveSet(0x40): %v", p.Validate())
	}
}
