package sim

import (
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
)

// The facts of each breaker worked out by hand for the default policy (100 ms doubling, 6
// attempts, full jitter: the last attempt starts at most 0.1 + 0.2 + 0.4 + 0.8 + 1.6 = 3.1 s
// after the first) and a stream of 50 requests per second through 5 processes.
func TestBreakerFacts(t *testing.T) {
	tests := []struct {
		query      string
		kind       breaker.Kind
		fed, calls int
		open       time.Duration
		longer     bool
		within     time.Duration
		per        float64
		reach      time.Duration
	}{
		// 10 requests per second per breaker; gobreaker needs 5 + 1 failures in a row: 0.6 s.
		{"breaker=gobreaker", breaker.Gobreaker, 6, 6, time.Minute, true, 0, 10, 600 * time.Millisecond},
		// At the call, one failed call is one result.
		{"breaker=gobreaker&breakerat=call", breaker.Gobreaker, 1, 6, time.Minute, true, 0, 10, 600 * time.Millisecond},
		// One shared breaker sees all 50 per second: 100 calls in 2 s.
		{"breaker=resilience4j&breakers=shared", breaker.Resilience4j, 6, 100, time.Minute, true, 0, 50, 2 * time.Second},
		// Polly's 100 calls within 30 s, at 10 per second: 10 s.
		{"breaker=polly", breaker.Polly, 6, 100, 5 * time.Second, true, 30 * time.Second, 10, 10 * time.Second},
		// At 15 per second, 3 per breaker: 100 calls take 33.3 s, past 30 s: never.
		{"breaker=polly&rate=15", breaker.Polly, 6, 100, 5 * time.Second, true, 30 * time.Second, 3, -1},
		// Polly's 5 s break is longer than a 3.1 s schedule, shorter than one of 8 attempts
		// (0.1 + … + 6.4 = 12.7 s).
		{"breaker=polly&attempts=8", breaker.Polly, 8, 100, 5 * time.Second, false, 30 * time.Second, 10, 10 * time.Second},
		{"breaker=failsafe", breaker.Failsafe, 6, 1, time.Minute, true, 0, 10, 100 * time.Millisecond},
		// sre: no open period; the 7th call may be rejected after 6 failures within 10 s.
		{"breaker=sre", breaker.SRE, 6, 6, 0, false, 10 * time.Second, 10, 600 * time.Millisecond},
	}
	for _, tt := range tests {
		q := tt.query
		if !strings.Contains(q, "rate=") {
			q += "&rate=50"
		}
		p, err := calc.Decode("run=1m&processes=5&" + q)
		if err != nil {
			t.Fatal(err)
		}
		f := BreakerFactsOf(p)
		if f.Kind != tt.kind || f.FedPerCall != tt.fed || f.MinCalls != tt.calls || f.OpenPeriod != tt.open ||
			f.OpenLonger != tt.longer || f.MinWithin != tt.within || f.PerBreaker != tt.per || f.Reach != tt.reach {
			t.Errorf("%s: %+v", tt.query, f)
		}
		if f.Schedule != 3100*time.Millisecond && tt.fed != 8 || tt.fed == 8 && f.Schedule != 12700*time.Millisecond {
			t.Errorf("%s: schedule %v", tt.query, f.Schedule)
		}
		if f.Source != tt.kind.Source() || !strings.HasPrefix(f.Rule, tt.kind.String()+":") || f.Words == "" {
			t.Errorf("%s: source %q, rule %q, words %q", tt.query, f.Source, f.Rule, f.Words)
		}
	}
	if f := BreakerFactsOf(calc.Default()); f != (BreakerFacts{}) {
		t.Errorf("no breaker: %+v", f)
	}
	// Without jitter the attempts start at 0, 0.1, 0.3, 0.7, 1.5 and 3.1 s: a 1 s budget lets
	// the first 4 start, and only those feed the breaker.
	if p, _ := calc.Decode("breaker=gobreaker&budget=1s&jitter=none"); BreakerFactsOf(p).FedPerCall != 4 {
		t.Errorf("with a budget: fed %d", BreakerFactsOf(p).FedPerCall)
	}
	// Without a stream there is nothing to reach.
	p, _ := calc.Decode("breaker=gobreaker")
	if f := BreakerFactsOf(p); f.PerBreaker != 0 || f.Reach != -1 || !strings.Contains(f.Words, "no stream") {
		t.Errorf("no stream: %+v", f)
	}
}

// The words never round a schedule just under the open period up to it.
func TestBreakerFactsWordsBeside(t *testing.T) {
	// 4 attempts of 19.9999 s waits: the last starts at 59.9997 s, under gobreaker's 60 s.
	p, err := calc.Decode("breaker=gobreaker&base=19.9999s&factor=1&attempts=4&jitter=none")
	if err != nil {
		t.Fatal(err)
	}
	f := BreakerFactsOf(p)
	if !f.OpenLonger || strings.Contains(f.Words, "at most 60 s") {
		t.Errorf("%v, %q", f.OpenLonger, f.Words)
	}
}

// BreakerWords says each figure of the run, and nothing without a breaker.
func TestBreakerWords(t *testing.T) {
	p := calc.Default()
	r := OverloadRun{Breaker: breaker.Gobreaker, Breakers: 2, Rejected: 1716, Trips: 2, Probes: 1, MaxProbes: 1, OpenTime: 5984 * time.Millisecond}
	want := "The 2 gobreaker breakers rejected 1716 attempts, opened 2 times, let 1 probe through (at most 1 in one window) and were open 5.98 s in all, summed over them."
	if got := BreakerWords(p, r); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	p.BreakerAt = calc.BreakerAtCall
	r = OverloadRun{Breaker: breaker.SRE, Breakers: 1, Rejected: 1, Blocked: 1}
	want = "The sre breaker rejected 1 call and never opened."
	if got := BreakerWords(p, r); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := BreakerWords(p, OverloadRun{}); got != "" {
		t.Errorf("without a breaker: %q", got)
	}
}
