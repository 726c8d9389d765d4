package calc

import (
	"strings"
	"testing"

	"backoffcalc/calc/breaker"
)

// TestBreakerSayingsComplete fails for a breaker of calc/breaker without a complete entry in the
// overload model's table of what it says of each: words that start with the breaker's name, and
// a gate for every breaker but none (caseWeight and BreakerFacts read none from its missing gate).
func TestBreakerSayingsComplete(t *testing.T) {
	for _, k := range breaker.Kinds() {
		b := breakerSays[k]
		if b.words == nil {
			t.Fatalf("%s: no words", k)
		}
		if got := b.words(Default()); !strings.HasPrefix(got, k.String()+": ") {
			t.Errorf("%s: words %q do not start with its name", k, got)
		}
		if (b.gate == nil) != (k == breaker.None) {
			t.Errorf("%s: only none has no gate", k)
		}
	}
}

// TestNoBreakerBranchOutsideTable fails where code in calc or app tells breakers apart by name
// rather than through the tables of breakers. Comparing with None asks whether there is a
// breaker at all.
func TestNoBreakerBranchOutsideTable(t *testing.T) {
	checkNoBranchOutsideTable(t, "breaker", []string{"breaker/breaker.go", "overload_breakers.go"}, "Kind", "Breaker", int(breaker.Count), "None")
}
