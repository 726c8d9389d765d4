package report

import (
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/sim"
)

// The facts' times never round across the limit they are compared with: three waits of 19.9999 s (four attempts)
// put the last attempt at 59.9997 s, under gobreaker's 1 min open period, and 6 results at 0.2
// per second take 30 s, exactly Polly's sampling time.
func TestBreakerFactsCellsBeside(t *testing.T) {
	p, err := calc.Decode("breaker=gobreaker&base=19.9999s&factor=1&attempts=4&jitter=none")
	if err != nil {
		t.Fatal(err)
	}
	f := sim.BreakerFactsOf(p)
	cells := BreakerFactsCells(p, f)
	if got := cells[5]; got[0] != "59999.7" || got[1] != "< 1 min" {
		t.Errorf("schedule %q, want 59999.7 and < 1 min", got)
	}
	p, err = calc.Decode("breaker=polly&pollythroughput=6&rate=0.2&run=1m")
	if err != nil {
		t.Fatal(err)
	}
	f = sim.BreakerFactsOf(p)
	if got := BreakerFactsCells(p, f)[10]; got[1] != "30 s" {
		t.Errorf("reach %q, want 30 s", got)
	}
}
