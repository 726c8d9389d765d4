package calc

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// overloadCostTests are links at the overload view's work limit (24000000) and one step over
// it. The weights are worked out by hand: with a breaker, the view runs 17 cases (the 6 modes
// and the 6 limiters with the breaker, the 5 other breakers, none among them): 16 runs with a
// breaker weigh 2 each and one without 1, 33 in all; with SRE throttling in each of more than
// 1000 processes, its 12 runs weigh 6 each: 72 + 4 × 2 + 1 = 81. An even stream of 1000 a
// second for 121200ms sends 121200 requests (0ms to 121199ms).
var overloadCostTests = []struct {
	name, query string
	key         string // the key refused; "" for accepted
	want        string // the message, or a part of it
}{
	// 12 clients + 121200 = 121212 requests × 6 attempts × 33 = 23999976.
	{"breaker at the limit", "breaker=polly&clients=12&rate=1000&run=121200ms", "", ""},
	{"breaker one client over", "breaker=polly&clients=13&rate=1000&run=121200ms", "rate",
		`calc: rate "1000": 121213 requests (13 clients + 121200 of the stream) × 6 attempts × 33, the weight of its 17 runs ` +
			`(1 without a breaker, 1 each; 16 with a breaker, 2 each), is 24000174 request-attempts of a run without a breaker, ` +
			`over the limit of 24000000; lower rate, run or attempts`},
	// 1 + 49381 = 49382 requests × 6 × 81 = 23999652; a millisecond more of the stream is
	// 49383 × 486 = 24000138; in 1000 processes, or with one breaker shared, the weight is 33.
	{"sre in 1001 processes at the limit", "breaker=sre&processes=1001&clients=1&rate=1000&run=49381ms", "", ""},
	{"sre in 1001 processes one request over", "breaker=sre&processes=1001&clients=1&rate=1000&run=49382ms", "rate",
		`calc: rate "1000": 49383 requests (1 clients + 49382 of the stream) × 6 attempts × 81, the weight of its 17 runs ` +
			`(1 without a breaker, 1 each; 4 with a breaker, 2 each; 12 with SRE throttling in each of more than 1000 processes, 6 each), ` +
			`is 24000138 request-attempts of a run without a breaker, over the limit of 24000000; lower rate, run or attempts, or use at most 1000 processes`},
	{"sre in 1000 processes", "breaker=sre&processes=1000&clients=1&rate=1000&run=49382ms", "", ""},
	{"shared sre", "breaker=sre&breakers=shared&processes=10000&clients=1&rate=1000&run=49382ms", "", ""},
	// The reproducers of issue 38: 40 s, 31 s and 23 s on a busy machine (12, 5.7 and 6.7 s of CPU).
	{"sre in 10000 processes", "rate=100000&run=3s&clients=1&breaker=sre&processes=10000", "rate", "× 6 attempts × 81, the weight of its 17 runs"},
	{"polly", "rate=100000&run=3s&clients=1&breaker=polly&pollysampling=24h&pollythroughput=1000000", "rate", "is 59400198 request-attempts"},
	{"gobreaker", "rate=100000&run=3s&clients=1&breaker=gobreaker&gbfailures=0&gbopen=1ns", "rate", "is 59400198 request-attempts"},
	// 300001 × 6 × 12 runs without a breaker = 21600072: accepted, 2.6 s of CPU.
	{"no breaker", "rate=100000&run=3s&clients=1", "", ""},
	// A crowd with a breaker and no stream is an open system too: 100000 × 20 × 81 = 162000000.
	{"crowd", "clients=100000&attempts=20&breaker=sre&processes=10000", "clients",
		`calc: clients "100000": 100000 clients × 20 attempts × 81, the weight of its 17 runs (1 without a breaker, 1 each; ` +
			`4 with a breaker, 2 each; 12 with SRE throttling in each of more than 1000 processes, 6 each), is 162000000`},
}

func TestOverloadCost(t *testing.T) {
	for _, tt := range overloadCostTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(tt.query)
			if tt.key == "" {
				if err != nil {
					t.Fatalf("Decode(%q): %v", tt.query, err)
				}
				// calc/sim's TestOverloadCost runs one at the limit.
				if _, err := p.OverloadWindows(p.OwnCase().Mode); err != nil {
					t.Errorf("OverloadWindows: %v", err)
				}
				return
			}
			fes := policy.FieldErrors(err)
			if len(fes) != 1 || fes[0].Key != tt.key || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Decode(%q):\n got %v\nwant on %s: %s", tt.query, err, tt.key, tt.want)
			}
			// The stream is dropped, or the crowd falls back to the default clients, as a bad
			// value does: what is left is valid.
			if err := p.Validate(); err != nil {
				t.Errorf("Decode(%q) left %v", tt.query, err)
			}
			// Params built in code are refused with the same words by Validate (and so by calc/sim's
			// Overload, TestOverloadCost there).
			v, _ := url.ParseQuery(tt.query)
			rate, clients := v.Get("rate"), v.Get("clients")
			v.Del("rate")
			v.Del("clients")
			q := mustDecode(t, v.Encode())
			q.Rate, _ = strconv.ParseFloat(rate, 64)
			q.Clients, _ = strconv.Atoi(clients)
			var fe *policy.FieldError
			if err := q.Validate(); !errors.As(err, &fe) || fe.Key != tt.key || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate: %v, want on %s: %s", err, tt.key, tt.want)
			}
		})
	}
}

// TestOverloadCasesWithBreaker: with a breaker the page runs every mode with p's limiter, the
// policy's mode with each other limiter shown, all with p's breaker, then the policy's mode and
// limiter with every other breaker, none first.
func TestOverloadCasesWithBreaker(t *testing.T) {
	p := Default()
	p.Jitter, p.Limiter, p.Breaker = policy.Full, limiter.GRPC, breaker.Polly
	var want []OverloadCase
	for _, m := range p.HerdModes() {
		want = append(want, OverloadCase{m, limiter.GRPC, breaker.Polly})
	}
	for _, l := range p.Shown() {
		if l != limiter.GRPC {
			want = append(want, OverloadCase{Backoff(policy.Full), l, breaker.Polly})
		}
	}
	for _, b := range []breaker.Kind{breaker.None, breaker.Gobreaker, breaker.Resilience4j, breaker.Failsafe, breaker.SRE} {
		want = append(want, OverloadCase{Backoff(policy.Full), limiter.GRPC, b})
	}
	if got := p.OverloadCases(); !slices.Equal(got, want) {
		t.Errorf("cases:\n got %v\nwant %v", got, want)
	}
	p.Breaker = breaker.None
	for _, c := range p.OverloadCases() {
		if c.Breaker != breaker.None {
			t.Fatalf("without a breaker: %v", c)
		}
	}
}
