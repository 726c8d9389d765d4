package calc

import (
	"errors"
	"fmt"
	"strings"
)

// SolveSet is which answers of a fit to the budget a page expands: the query's solve key, a
// comma-separated list of their names in any order, solve=attempts,base. Every answer is always
// computed (table -format json carries them all); the set only says which a page shows opened.
type SolveSet uint8

const (
	SolveAttempts SolveSet = 1 << iota // the most attempts
	SolveBase                          // the largest base
	SolveFactor                        // the largest factor
	SolveCap                           // the largest cap

	solveAll = SolveAttempts | SolveBase | SolveFactor | SolveCap
)

var solveNames = [...]string{"attempts", "base", "factor", "cap"}

// String is the canonical value of the solve key: the names in the order of solveNames; "" for
// none, the default, which a link leaves out.
func (s SolveSet) String() string {
	var names []string
	for i, name := range solveNames {
		if s&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if s&^solveAll != 0 {
		names = append(names, fmt.Sprintf("SolveSet(%#x)", uint8(s&^solveAll)))
	}
	return strings.Join(names, ",")
}

// Has reports whether s holds every answer of t.
func (s SolveSet) Has(t SolveSet) bool { return s&t == t }

// setSolve reads the solve key: names from solveNames, separated by commas, each at most once.
func setSolve(dst *SolveSet, v string) error {
	var s SolveSet
	for name := range strings.SplitSeq(v, ",") {
		i := indexOf(solveNames[:], name)
		switch {
		case name == "":
			return errors.New("an empty name: write names separated by single commas, like attempts,base")
		case i < 0:
			return fmt.Errorf("%s is not an answer: give one or more of %s, separated by commas", quote(name), strings.Join(solveNames[:], ", "))
		case s&(1<<i) != 0:
			return fmt.Errorf("names %s twice; give it once", name)
		}
		s |= 1 << i
	}
	*dst = s
	return nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// validateSolve reports a SolveSet with bits that name no answer, as Validate does the others.
func (p Params) validateSolve(bad func(key, value, format string, args ...any)) {
	if p.Solve&^solveAll != 0 {
		bad("solve", p.Solve.String(), "must name only %s", strings.Join(solveNames[:], ", "))
	}
}
