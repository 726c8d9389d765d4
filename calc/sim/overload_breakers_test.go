package sim

import (
	"strings"
	"testing"

	"backoffcalc/calc"
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
		if got := b.words(calc.Default()); !strings.HasPrefix(got, k.String()+": ") {
			t.Errorf("%s: words %q do not start with its name", k, got)
		}
		if (b.gate == nil) != (k == breaker.None) {
			t.Errorf("%s: only none has no gate", k)
		}
	}
}
