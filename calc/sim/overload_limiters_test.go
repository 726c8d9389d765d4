package sim

import (
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
)

// TestLimiterSayingsComplete fails for a limiter of calc/limiter without a complete entry in the
// overload model's table of what it says of each: its words start with the limiter's name, and
// the params of each limiter are valid while a kind past the table's is not.
func TestLimiterSayingsComplete(t *testing.T) {
	p := calc.Default()
	for _, k := range limiter.Kinds() {
		if limiterSays[k].words == nil {
			t.Fatalf("%s: no words", k)
		}
		if got := LimiterBoundWords(p, k); !strings.HasPrefix(got, k.String()+": ") {
			t.Errorf("%s: words %q do not start with its name", k, got)
		}
		p.Limiter = k
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	if p.Limiter = limiter.Count; p.Validate() == nil {
		t.Errorf("LimiterKind(%d) is valid", limiter.Count)
	}
}
