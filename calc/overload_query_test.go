package calc

import (
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// The overload keys decode into their fields, and the canonical query carries them while the
// link uses the overload model.
func TestOverloadKeys(t *testing.T) {
	q := "rate=250.5&run=30s&arrivals=poisson&queue=40&timeout=2s&processes=4&limiter=finagle" +
		"&maxtokens=100&tokenratio=0.5&ttl=20s&minretries=0&retrypct=0.5&budgetpct=12.5&minconcurrency=1"
	p, err := Decode(q)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Rate, want.Run, want.Arrivals, want.Queue, want.Timeout, want.Processes, want.Limiter =
		250.5, 30*time.Second, Poisson, 40, 2*time.Second, 4, limiter.Finagle
	want.Limits = limiter.Params{GRPCMaxTokens: 100, GRPCTokenRatio: 0.5, FinagleTTL: 20 * time.Second,
		FinagleMinRetries: 0, FinaglePercent: 0.5, EnvoyPercent: 12.5, EnvoyMinConcurrency: 1,
		FailsafeMaxRate: 0.2, FailsafeMinConcurrency: 3}
	if p != want {
		t.Fatalf("Decode(%q)\n got %+v\nwant %+v", q, p, want)
	}
	if !p.Open() {
		t.Error("a stream, queue, timeout and limiter: Open() = false")
	}
	back, err := Decode(p.Encode())
	if err != nil || back != p {
		t.Errorf("Decode(Encode()) = %+v, %v", back, err)
	}
	for _, kv := range strings.Split(q, "&") {
		if !strings.Contains("&"+p.Encode()+"&", "&"+kv+"&") {
			t.Errorf("Encode() = %q lacks %s", p.Encode(), kv)
		}
	}

	// While rate is 0 the link uses no stream: each key at its default is left out, so that a
	// shared link stays short, and one set is written. With a stream every key is written, at its
	// default too, so that the link does not depend on today's defaults.
	keys := []string{"rate", "run", "arrivals", "queue", "timeout", "processes", "limiter", "maxtokens", "tokenratio", "ttl", "minretries", "retrypct", "budgetpct", "minconcurrency"}
	queued := Default()
	queued.Queue = 5
	stream := Default()
	stream.Rate = 0.5
	for _, key := range keys {
		if q := Default().Encode(); strings.Contains("&"+q, "&"+key+"=") {
			t.Errorf("Default().Encode() = %q has %s", q, key)
		}
		if q := queued.Encode(); strings.Contains("&"+q, "&"+key+"=") != (key == "queue") {
			t.Errorf("queue=5 without a stream: Encode() = %q; want %s only if it is queue", q, key)
		}
		if q := stream.Encode(); !strings.Contains("&"+q, "&"+key+"=") {
			t.Errorf("rate=0.5: Encode() = %q lacks %s", q, key)
		}
	}
	for _, p := range []Params{queued, stream} {
		if back, err := Decode(p.Encode()); err != nil || back != p {
			t.Errorf("Decode(%q) = %+v, %v", p.Encode(), back, err)
		}
	}
	d, err := Decode("rate=0&run=0&arrivals=even&queue=0&timeout=0&processes=1&limiter=none&maxtokens=10&tokenratio=0.1&ttl=10s&minretries=10&retrypct=0.2&budgetpct=20&minconcurrency=3")
	if err != nil || d != Default() || d.Encode() != Default().Encode() || d.Open() {
		t.Errorf("every overload key at its default: %+v, %v, %q", d, err, d.Encode())
	}
	// failrate is left out at its default even with a stream, written when set, and opens the
	// system on its own: the crowd meets a server that fails a share of attempts.
	if q := stream.Encode(); strings.Contains(q, "failrate") {
		t.Errorf("rate=0.5: Encode() = %q has failrate at its default", q)
	}
	if f, err := Decode("failrate=0.25"); err != nil || f.FailRate != 0.25 || !f.Open() || !strings.Contains(f.Encode(), "&failrate=0.25&") {
		t.Errorf("failrate=0.25: %+v, %v, %q", f, err, f.Encode())
	}
	// latency and slope likewise: left out at their defaults, written when set, and each opens
	// the system on its own.
	if q := stream.Encode(); strings.Contains(q, "latency") || strings.Contains(q, "slope") {
		t.Errorf("rate=0.5: Encode() = %q has latency or slope at its default", q)
	}
	for _, q := range []string{"latency=1s", "slope=10ms"} {
		if f, err := Decode(q); err != nil || !f.Open() || !f.Slow() || !strings.Contains(f.Encode(), "&"+q+"&") {
			t.Errorf("%s: %+v, %v, %q", q, f, err, f.Encode())
		}
	}
	// failsafe's budget keys likewise: left out at their defaults even with a stream, written
	// when set.
	if q := stream.Encode(); strings.Contains(q, "fsmaxrate") || strings.Contains(q, "fsminconcurrency") {
		t.Errorf("rate=0.5: Encode() = %q has failsafe's budget keys at their defaults", q)
	}
	f, err := Decode("limiter=failsafe&fsmaxrate=0.35&fsminconcurrency=7")
	if err != nil || f.Limits.FailsafeMaxRate != 0.35 || f.Limits.FailsafeMinConcurrency != 7 || !f.Open() ||
		!strings.Contains(f.Encode(), "&fsmaxrate=0.35&fsminconcurrency=7&") {
		t.Errorf("limiter=failsafe&fsmaxrate=0.35&fsminconcurrency=7: %+v, %v, %q", f.Limits, err, f.Encode())
	}
	// A stream needs both its rate and its length; processes alone share nothing.
	for _, q := range []string{"rate=10", "run=10s", "processes=8", "arrivals=poisson"} {
		if p, _ := Decode(q); p.Open() {
			t.Errorf("%s alone: Open() = true", q)
		}
	}
}

func TestOverloadKeyErrors(t *testing.T) {
	for _, tt := range []struct{ query, msg string }{
		{"rate=-1", `calc: rate "-1": must not be negative`},
		{"rate=NaN", "not a number"},
		{"rate=100001", "between 0 and 100000"},
		{"run=25h", "at most 24h"},
		{"arrivals=random", `calc: arrivals "random": must be even`},
		{"queue=1000001", "between 0 and 1000000"},
		{"queue=2.5", "whole number"},
		{"timeout=-1s", "negative"},
		{"timeout=25h", "at most 24h"},
		{"processes=0", `calc: processes "0": must be between 1 and 10000`},
		{"limiter=hystrix", `calc: limiter "hystrix": must be one of none, grpc, aws, aws2026, finagle, envoy`},
		{"maxtokens=0", "more than 0 and at most 1000"},
		{"maxtokens=1001", "more than 0 and at most 1000"},
		{"tokenratio=0", "more than 0"},
		{"ttl=0", "at least 1s"},
		{"ttl=1500ms", "whole seconds"},
		{"ttl=61s", "at most 1m"},
		{"minretries=-1", "between 0 and 1000000"},
		{"minretries=1000001", "between 0 and 1000000"},
		{"retrypct=1001", "between 0 and 1000"},
		{"budgetpct=100.5", "between 0 and 100"},
		{"minconcurrency=x", "whole number"},
		{"fsmaxrate=1.5", `calc: fsmaxrate "1.5": must be between 0 and 1`},
		{"fsmaxrate=-0.1", `calc: fsmaxrate "-0.1": must not be negative`},
		{"fsminconcurrency=-1", `calc: fsminconcurrency "-1": must be between 0 and 1000000`},
		{"fsminconcurrency=2.5", "whole number"},
		{"limiter=grpc&limiter=aws", "given 2 times"},
		{"failrate=1", `calc: failrate "1": must be at least 0 and less than 1`},
		{"failrate=-0.1", "must not be negative"},
		{"failrate=NaN", "not a number"},
		{"failrate=0.5.5", "not a number"},
		{"latency=25h", `calc: latency "25h": must be 0 or more and at most 24h`},
		{"latency=-1s", "must not be negative"},
		{"slope=x", `calc: slope "x"`},
		{"slope=25h", `calc: slope "25h": must be 0 or more and at most 24h`},
	} {
		p, err := Decode(tt.query)
		fes := policy.FieldErrors(err)
		key, _, _ := strings.Cut(tt.query, "=")
		if len(fes) != 1 || fes[0].Key != key || !strings.Contains(fes[0].Error(), tt.msg) {
			t.Errorf("Decode(%q) = %v, want one error on %s containing %q", tt.query, err, key, tt.msg)
		}
		if p != Default() {
			t.Errorf("Decode(%q) changed the params despite the error: %+v", tt.query, p)
		}
	}
}

// Validate checks the overload fields of params built in code, as the query's decoder does.
func TestValidateOverload(t *testing.T) {
	p := Default()
	p.Rate, p.Run, p.Queue, p.Timeout, p.Processes, p.Limiter = -1, MaxRun+1, -1, -1, 0, limiter.Count
	p.Limits, p.FailRate, p.Latency, p.Slope = limiter.Params{}, 1, -1, policy.MaxCall+1
	var keys []string
	for _, fe := range policy.FieldErrors(p.Validate()) {
		keys = append(keys, fe.Key)
	}
	want := "rate,run,queue,timeout,processes,limiter,maxtokens,tokenratio,ttl,failrate,latency,slope"
	if strings.Join(keys, ",") != want {
		t.Errorf("Validate blamed %v, want %s", keys, want)
	}
}

// The stream's work, (clients + its requests) × attempts, is bounded like the herd's: reported
// on rate, and Decode drops the stream so that its params stay valid.
func TestOverloadWorkLimit(t *testing.T) {
	// 100 clients + 1000/s × 1990 s = 1990000 requests... × 6 attempts is over 2000000;
	// 100 + 333233 = 333333 requests × 6 = 1999998 is within it.
	for _, tt := range []struct {
		query string
		over  bool
	}{
		{"rate=1000&run=1990s", true},
		{"rate=1000&run=333233ms", false}, // requests at 0, 1ms … 333232ms: 333233 of them
		{"rate=1000&run=333234ms", true},  // one more: 333334 × 6 = 2000004
		{"rate=100000&run=24h&attempts=1", true},
		{"rate=1000&run=333233ms&arrivals=poisson", true}, // poisson's bound is above the mean
	} {
		p, err := Decode(tt.query)
		fes := policy.FieldErrors(err)
		if !tt.over {
			if err != nil {
				t.Errorf("Decode(%q): %v", tt.query, err)
			}
			continue
		}
		if len(fes) != 1 || fes[0].Key != "rate" || !strings.Contains(fes[0].Error(), "over the limit of 2000000 request-attempts") {
			t.Errorf("Decode(%q) = %v, want the work limit on rate", tt.query, err)
		}
		if p.Rate != 0 || p.Validate() != nil {
			t.Errorf("Decode(%q) kept an invalid stream: %+v", tt.query, p)
		}
		// Validate says the same of params built in code.
		q, _ := Decode(strings.Replace(tt.query, "rate=", "ignored=", 1))
		q.Rate = 1000
		if strings.Contains(tt.query, "rate=100000") {
			q.Rate = 100000
		}
		if fes := policy.FieldErrors(q.Validate()); len(fes) != 1 || fes[0].Key != "rate" {
			t.Errorf("Validate of %q: %v", tt.query, fes)
		}
	}
}
