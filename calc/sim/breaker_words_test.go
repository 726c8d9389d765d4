package sim

import (
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
)

// Each breaker's rule in words says the numbers its keys set, at the defaults and otherwise.
func TestBreakerRuleWords(t *testing.T) {
	for _, c := range []struct {
		query string
		kind  breaker.Kind
		want  string
	}{
		{"", breaker.Gobreaker, "gobreaker: opens on the 6th failure in a row, stays open 1 min, then lets 1 call through: its success closes, its failure opens again; results of calls made before a change are dropped."},
		{"gbfailures=0&gbhalfopen=3&gbopen=1500ms", breaker.Gobreaker, "gobreaker: opens on the 1st failure in a row, stays open 1.5 s, then lets 3 calls through: 3 successes in a row close, a failure opens again; results of calls made before a change are dropped."},
		{"gbfailures=10", breaker.Gobreaker, "gobreaker: opens on the 11th failure in a row, stays open 1 min, then lets 1 call through: its success closes, its failure opens again; results of calls made before a change are dropped."},
		{"", breaker.Resilience4j, "resilience4j: opens once 100 calls are recorded and at least 50% of the last 100 failed (or all were slower than 1 min), stays open 1 min, then lets 10 calls through and decides on their results; rejected calls are not counted."},
		{"r4jslowrate=10.5&r4jmincalls=5&r4jhalfopen=1&r4jrate=25&r4jslowafter=2s&r4jopen=30s&r4jwindow=50", breaker.Resilience4j, "resilience4j: opens once 5 calls are recorded and at least 25% of the last 50 failed (or at least 10.5% were slower than 2 s), stays open 30 s, then lets 1 call through and decides on their results; rejected calls are not counted."},
		{"r4jmincalls=500&r4jwindow=50", breaker.Resilience4j, "resilience4j: opens once 50 calls are recorded and at least 50% of the last 50 failed (or all were slower than 1 min), stays open 1 min, then lets 10 calls through and decides on their results; rejected calls are not counted."},
		{"", breaker.Polly, "polly: on a failure, opens if the last 30 s saw at least 100 calls and at least 10% of them failed; stays open 5 s, then lets exactly 1 call through and rejects the others until it returns."},
		{"pollyratio=0.07&pollysampling=10s&pollythroughput=20&pollyopen=1500ms", breaker.Polly, "polly: on a failure, opens if the last 10 s saw at least 20 calls and at least 7% of them failed; stays open 1.5 s, then lets exactly 1 call through and rejects the others until it returns."},
		{"", breaker.Failsafe, "failsafe: opens on 1 failure, stays open 1 min, then lets 1 call through: its success closes, its failure opens again."},
		{"fsof=4&fsfailures=2", breaker.Failsafe, "failsafe: opens on 2 failures of the last 4 results, stays open 1 min, then lets 4 calls through: 2 failures among them open again, more than 2 successes close."},
		{"fsof=5&fsfailures=3&fsopen=10s&fsexecutions=4", breaker.Failsafe, "failsafe: opens on 3 failures of the last 4 results once 4 are in, stays open 10 s, then lets 4 calls through: 3 failures among them open again, more than 2 successes close."},
		{"fsrate=0.25&fsperiod=10s&fsexecutions=20&fssuccesses=2&fssuccessof=3", breaker.Failsafe, "failsafe: opens when at least 25% of the results of the last 10 s failed once 20 are in, stays open 1 min, then lets 3 calls through: 2 successes among them close, more than 1 failure opens again."},
		{"fsrate=0.5&fsperiod=10s&fsexecutions=20", breaker.Failsafe, "failsafe: opens when at least 50% of the results of the last 10 s failed once 20 are in, stays open 1 min, then lets 20 calls through: a failure rate of at least 50% among them opens again, a success rate of at least 51% closes."},
	} {
		p, err := calc.Decode(c.query)
		if err != nil {
			t.Fatal(err)
		}
		if got := breakerSaid(c.kind).words(p); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.kind, c.query, got, c.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 101: "101st", 111: "111th", 1000001: "1000001st"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s, want %s", n, got, want)
		}
	}
}
