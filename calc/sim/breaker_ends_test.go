package sim

import (
	"testing"

	"backoffcalc/calc"
)

// The breakers run at the ends of their keys' ranges, a breaker per process: their windows of
// calls grow only with the calls made, and no end divides by zero or overflows.
func TestBreakerParamEnds(t *testing.T) {
	for _, q := range []string{
		"breaker=gobreaker&gbfailures=0&gbhalfopen=1000000&gbopen=1ns",
		"breaker=gobreaker&gbfailures=1000000&gbopen=24h",
		"breaker=resilience4j&r4jwindow=1000000&r4jmincalls=1000000&r4jhalfopen=1000000&r4jopen=1ms&r4jrate=0.0001&r4jslowrate=100&r4jslowafter=1ns",
		"breaker=resilience4j&r4jwindow=1&r4jmincalls=1&r4jhalfopen=1&r4jopen=24h&r4jslowafter=24h",
		"breaker=polly&pollyratio=0&pollythroughput=2&pollysampling=500ms&pollyopen=500ms",
		"breaker=polly&pollyratio=1&pollythroughput=1000000&pollysampling=24h&pollyopen=24h",
		"breaker=failsafe&fsof=1000000&fsfailures=1000000&fssuccessof=1000000&fssuccesses=1000000&fsopen=1ns&fsexecutions=1000000",
		"breaker=failsafe&fsof=1000000&fsfailures=1&fssuccessof=1000000&fsperiod=1ms&fsrate=1&fsopen=24h",
		"breaker=failsafe&fsperiod=24h&fsrate=0.01&fsexecutions=1",
	} {
		p, err := calc.Decode("rate=200&run=5s&processes=10000&outage=2s&" + q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, at := range []calc.BreakerAt{calc.BreakerAtAttempt, calc.BreakerAtCall} {
			p.BreakerAt = at
			if _, err := Overload(p, p.OwnCase()); err != nil {
				t.Errorf("%s at %s: %v", q, at, err)
			}
		}
	}
}
