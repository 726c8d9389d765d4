package calc

import (
	"errors"
	"fmt"
	"net/url"
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

// DecodeSolve reads the solve key of a query by Decode's rules: the set it names, none when the
// key is absent, and for a bad value none and the *FieldError that Decode also reports.
func DecodeSolve(query string) (SolveSet, error) {
	var s SolveSet
	err := DecodeKey(query, solveKey, func(v string) (err error) {
		s, err = parseSolve(v)
		return err
	})
	return s, err
}

// DecodeSolveValues is DecodeSolve for values already unescaped, as DecodeValues is for Decode.
func DecodeSolveValues(v url.Values) (SolveSet, error) {
	var s SolveSet
	err := DecodeKeyValues(v, solveKey, func(v string) (err error) {
		s, err = parseSolve(v)
		return err
	})
	return s, err
}

// SetIn writes s into a link's values: the solve key, or none for no answer, the default, which
// a link leaves out (an empty value is an error).
func (s SolveSet) SetIn(v url.Values) {
	if s == 0 {
		v.Del(solveKey)
		return
	}
	v.Set(solveKey, s.String())
}

// Query is p's canonical query with s as its solve key: the link that shows p's numbers with
// s's answers opened, as Encode is p's alone.
func (s SolveSet) Query(p Params) string {
	v := p.Values()
	s.SetIn(v)
	return v.Encode()
}

const solveKey = "solve"

// parseSolve reads the solve key: names from solveNames, separated by commas, each at most once.
func parseSolve(v string) (SolveSet, error) {
	var s SolveSet
	for name := range strings.SplitSeq(v, ",") {
		i := indexOf(solveNames[:], name)
		switch {
		case name == "":
			return 0, errors.New("an empty name: write names separated by single commas, like attempts,base")
		case i < 0:
			return 0, fmt.Errorf("%s is not an answer: give one or more of %s, separated by commas", quote(name), strings.Join(solveNames[:], ", "))
		case s&(1<<i) != 0:
			return 0, fmt.Errorf("names %s twice; give it once", name)
		}
		s |= 1 << i
	}
	return s, nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
