package calc

import (
	"errors"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// decodeTests are valid queries and what they mean; they also seed FuzzDecode.
var decodeTests = []struct {
	name  string
	query string
	want  func(p *Params)
}{
	{"empty", "", func(p *Params) {}},
	{"bare milliseconds", "base=250", func(p *Params) { p.Base = 250 * time.Millisecond }},
	{"fractional milliseconds", "base=0.7&cap=0.7", func(p *Params) { p.Base, p.Cap = 700*time.Microsecond, 700*time.Microsecond }},
	{"go syntax", "base=1.5s&cap=2m30s", func(p *Params) { p.Base, p.Cap = 1500*time.Millisecond, 150*time.Second }},
	{"cap follows a large base", "base=20s", func(p *Params) { p.Base, p.Cap = 20*time.Second, 20*time.Second }},
	{"every key", "base=1s&factor=1.6&cap=120s&attempts=10&jitter=proportional&ratio=0.2&capat=after&call=25ms&budget=1m&layers=3&samples=500&seed=18446744073709551615" +
		"&clients=250&outage=2s&window=50ms&capacity=7&spread=300ms&contenders=50&runs=7",
		func(p *Params) {
			*p = Params{Inputs: contention.Inputs{Contenders: 50, Runs: 7},
				Params: policy.Params{Policy: policy.Policy{Base: time.Second, Factor: 1.6, Cap: 120 * time.Second, Attempts: 10, Jitter: policy.Proportional,
					Ratio: 0.2, CapAt: policy.CapAfter, Budget: time.Minute},
					CallInputs: policy.CallInputs{Call: 25 * time.Millisecond, Layers: 3}, SampleInputs: policy.SampleInputs{Samples: 500, Seed: 1<<64 - 1}},
				HerdInputs:     HerdInputs{Clients: 250, Outage: 2 * time.Second, Window: 50 * time.Millisecond, Capacity: 7, Spread: 300 * time.Millisecond},
				OverloadInputs: OverloadInputs{Processes: 1, Limits: limiter.Defaults(), BreakerParams: breaker.Defaults()}}
		}},
	// Every key at its limit but samples, whose work with 1000 attempts and a budget allows 600
	// (sampleSteps: 600 × (1000 × 5 × 33 + 150) path-steps).
	{"limits", "base=24h&cap=168h&factor=100&attempts=1000&layers=10&samples=600&budget=720h&call=24h&ratio=1" +
		"&clients=2000&outage=24h&window=1h&capacity=1000000000&spread=24h",
		func(p *Params) {
			p.Base, p.Cap, p.Factor, p.Attempts, p.Layers, p.Samples, p.Budget, p.Call, p.Ratio =
				24*time.Hour, 168*time.Hour, 100, 1000, 10, 600, 720*time.Hour, 24*time.Hour, 1
			p.Clients, p.Outage, p.Window, p.Capacity, p.Spread = 2000, 24*time.Hour, time.Hour, 1000000000, 24*time.Hour
		}},
	{"most samples", "samples=200000&attempts=100", func(p *Params) { p.Samples, p.Attempts = 200000, 100 }},
	// clients*attempts may reach MaxHerdWork exactly, however it is split.
	{"most clients", "clients=100000&attempts=20", func(p *Params) { p.Clients, p.Attempts = 100000, 20 }},
	{"low limits", "base=1ns&cap=1ns&factor=1&attempts=1&layers=1&samples=100&budget=0&call=0&ratio=0&seed=0" +
		"&clients=1&outage=0&window=1ns&capacity=0&spread=0",
		func(p *Params) {
			p.Base, p.Cap, p.Factor, p.Attempts, p.Samples, p.Ratio, p.Seed = 1, 1, 1, 1, 100, 0, 0
			p.Clients, p.Outage, p.Window, p.Capacity = 1, 0, 1, 0
		}},
	{"herd in milliseconds", "outage=700&window=200&spread=0.5", func(p *Params) {
		p.Outage, p.Window, p.Spread = 700*time.Millisecond, 200*time.Millisecond, 500*time.Microsecond
	}},
	{"contention limits", "contenders=500&runs=1000", func(p *Params) { p.Contenders, p.Runs = 500, 1000 }},
	{"contention low limits", "contenders=1&runs=1", func(p *Params) { p.Contenders, p.Runs = 1, 1 }},
	{"contention defaults given", "contenders=100&runs=100", func(p *Params) {}},
	{"unknown keys ignored", "utm_source=x&base=200ms&%zz=1", func(p *Params) { p.Base = 200 * time.Millisecond }},
	{"percent-encoded", "base=%31%30%30ms&jitter=%65qual", func(p *Params) { p.Base, p.Jitter = 100*time.Millisecond, policy.Equal }},
	{"decorrelated", "jitter=decorrelated", func(p *Params) { p.Jitter = policy.Decorrelated }},
	{"decorrelatedv2", "jitter=decorrelatedv2", func(p *Params) { p.Jitter = policy.DecorrelatedV2 }},
	// Decimals as people write them: a point with nothing on one side, zeros anywhere.
	{"decimal forms", "factor=002.50&ratio=.5&base=.5&cap=5.&call=0.0000010&add=0010ms", func(p *Params) {
		p.Factor, p.Ratio, p.Base, p.Cap, p.Call, p.Add = 2.5, 0.5, 500*time.Microsecond, 5*time.Millisecond, 1, 10*time.Millisecond
	}},
	// A duration is exact: any decimal that is a whole number of nanoseconds, however written.
	{"whole nanoseconds", "base=0.000001&cap=1.000000001s&call=2.5&add=0.1ms&budget=0.0000000000025h&outage=0.00000000005m&spread=1.5us",
		func(p *Params) {
			p.Base, p.Cap, p.Call, p.Add = 1, time.Second+1, 2500*time.Microsecond, 100*time.Microsecond
			p.Budget, p.Outage, p.Spread = 9, 3, 1500
		}},
	// Go's time.ParseDuration drops each part's fraction of a nanosecond (0.5ns0.5ns is 0 to it);
	// the sum is exact here.
	{"parts sum exactly", "base=0.5ns0.5ns&cap=1.5ns1.5ns1h", func(p *Params) { p.Base, p.Cap = 1, time.Hour+3 }},
	// factor and ratio read as the nearest float64, as docs/page.md says: here that is 0.
	{"ratio underflows", "ratio=0." + strings.Repeat("0", 400) + "1", func(p *Params) { p.Ratio = 0 }},
	{"trailing zeros", "base=1." + strings.Repeat("0", 1000) + "s", func(p *Params) { p.Base, p.Cap = time.Second, policy.DefaultCap }},
}

func TestDecode(t *testing.T) {
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) {
			want := Default()
			tt.want(&want)
			got, err := Decode(tt.query)
			if err != nil {
				t.Fatalf("Decode(%q): %v", tt.query, err)
			}
			if got != want {
				t.Errorf("Decode(%q)\n got %+v\nwant %+v", tt.query, got, want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("decoded params invalid: %v", err)
			}
			back, err := Decode(got.Encode())
			if err != nil || back != got {
				t.Errorf("round trip of %q: %+v, %v", got.Encode(), back, err)
			}
		})
	}
}

// badQueries each break the keys listed in keys (in the form's order) and nothing else.
var badQueries = []struct {
	query string
	keys  []string
	msg   string // part of the first error
}{
	{"base=", []string{"base"}, `calc: base "": empty`},
	{"base=abc", []string{"base"}, `calc: base "abc": not a duration`},
	{"base=0", []string{"base"}, `calc: base "0": must be more than 0 and at most 24h`},
	{"base=-5ms", []string{"base"}, "negative"},
	{"base=-0", []string{"base"}, "negative"},
	{"base=25h", []string{"base"}, "at most 24h"},
	{"base=NaN", []string{"base"}, "not a duration"},
	{"base=Inf", []string{"base"}, "not a duration"},
	{"base=1e309", []string{"base"}, "not a duration"},
	{"base=true", []string{"base"}, "not a duration"},
	{"base=99999999999999999999h", []string{"base"}, "too large"},
	{"base=%D9%A1%D9%A0%D9%A0", []string{"base"}, "not a duration"}, // Arabic-Indic digits
	{"base=1%", []string{"base"}, "percent-encoding"},
	{"base=1s&base=2s", []string{"base"}, "given 2 times"},
	{"base=20s&cap=10s", []string{"cap"}, `calc: cap "10s": must be at least base (20s)`},
	{"cap=50ms&base=100ms", []string{"cap"}, `calc: cap "50ms": must be at least base (100ms)`},
	// A refused base leaves its default, which nobody gave: cap is not compared with it.
	{"base=abc&cap=50ms", []string{"base"}, `calc: base "abc": not a duration`},
	{"base=abc&cap=169h", []string{"base", "cap"}, `calc: base "abc": not a duration`},
	{"preset=nope&cap=50ms", []string{"preset"}, `calc: preset "nope"`},
	{"preset=nope&base=200ms&cap=50ms", []string{"preset", "cap"}, `calc: preset "nope"`},
	{"cap=169h", []string{"cap"}, "at most 168h"},
	{"factor=0.5", []string{"factor"}, "between 1 and 100"},
	{"factor=NaN", []string{"factor"}, "not a number"},
	{"factor=Inf", []string{"factor"}, "not a number"},
	{"factor=1e309", []string{"factor"}, "not a number"},
	{"factor=1" + strings.Repeat("0", 400), []string{"factor"}, "between 1 and 100"}, // overflows float64
	{"factor=-0", []string{"factor"}, "negative"},
	{"factor=two", []string{"factor"}, "not a number"},
	{"attempts=0", []string{"attempts"}, "between 1 and 1000"},
	{"attempts=1001", []string{"attempts"}, "between 1 and 1000"},
	{"attempts=1000000", []string{"attempts"}, "between 1 and 1000"},
	{"attempts=6.0", []string{"attempts"}, "whole number"},
	{"attempts=99999999999999999999", []string{"attempts"}, "between 1 and 1000"},
	{"jitter=random", []string{"jitter"}, "one of none, full, equal, decorrelated, proportional"},
	{"jitter=FULL", []string{"jitter"}, "one of"},
	{"ratio=1.5", []string{"ratio"}, "between 0 and 1"},
	{"capat=middle", []string{"capat"}, "before"},
	{"call=-1", []string{"call"}, "negative"},
	{"budget=721h", []string{"budget"}, `calc: budget "721h": must be 0 (none) or more and at most 720h`},
	{"layers=11", []string{"layers"}, "between 1 and 10"},
	{"samples=99", []string{"samples"}, "between 100 and 200000"},
	{"samples=1e9", []string{"samples"}, "whole number"},
	{"seed=-1", []string{"seed"}, "whole number"},
	{"seed=18446744073709551616", []string{"seed"}, "at most 18446744073709551615"},
	{"clients=0", []string{"clients"}, `calc: clients "0": must be between 1 and 1000000000`},
	{"clients=1000000001", []string{"clients"}, "between 1 and 1000000000"},
	{"clients=-1", []string{"clients"}, "between 1 and 1000000000"},
	{"clients=NaN", []string{"clients"}, "whole number"},
	{"clients=", []string{"clients"}, "empty"},
	{"clients=1e5", []string{"clients"}, "whole number"},
	{"clients=99999999999999999999", []string{"clients"}, "between 1 and 1000000000"},
	// Over the simulation's limits a herd has its expected counts; an open system, simulated
	// client by client, does not.
	{"clients=100001&timeout=1s", []string{"clients"}, "an open system (a stream, a queue, a timeout, a limiter, a breaker, an error rate, latency or slope) is simulated client by client: at most 100000 clients"},
	{"clients=100000&attempts=1000&queue=5", []string{"clients"},
		`calc: clients "100000": an open system (a stream, a queue, a timeout, a limiter, a breaker, an error rate, latency or slope) is simulated client by client: 100000 clients × 1000 attempts is over the limit of 2000000 client-attempts`},
	{"clients=100000&attempts=21&timeout=1s", []string{"clients"}, "100000 clients × 21 attempts is over the limit of 2000000"},
	{"attempts=1000&clients=2001&queue=1", []string{"clients"}, "2001 clients × 1000 attempts"},
	// A bad attempts keeps its default (6), which 100000 clients fit.
	{"clients=100000&attempts=1001", []string{"attempts"}, "between 1 and 1000"},
	{"outage=25h", []string{"outage"}, `calc: outage "25h": must be 0 or more and at most 24h`},
	{"outage=24h0m0.000000001s", []string{"outage"}, "at most 24h"},
	{"outage=-1ms", []string{"outage"}, "negative"},
	{"outage=NaN", []string{"outage"}, "not a duration"},
	{"outage=", []string{"outage"}, "empty"},
	{"window=0", []string{"window"}, `calc: window "0": must be more than 0 and at most 1h`},
	{"window=3600001ms", []string{"window"}, "at most 1h"},
	{"window=-100ms", []string{"window"}, "negative"},
	{"window=NaN", []string{"window"}, "not a duration"},
	{"window=", []string{"window"}, "empty"},
	{"capacity=1000000001", []string{"capacity"}, `calc: capacity "1000000001": must be between 0 and 1000000000`},
	{"capacity=-1", []string{"capacity"}, "between 0 and 1000000000"},
	{"capacity=NaN", []string{"capacity"}, "whole number"},
	{"capacity=", []string{"capacity"}, "empty"},
	{"capacity=99999999999999999999", []string{"capacity"}, "between 0 and 1000000000"},
	{"spread=24h1ns", []string{"spread"}, `calc: spread "24h1ns": must be 0 or more and at most 24h`},
	{"spread=-0", []string{"spread"}, "negative"},
	{"spread=NaN", []string{"spread"}, "not a duration"},
	{"spread=", []string{"spread"}, "empty"},
	{"contenders=501", []string{"contenders"}, `calc: contenders "501": must be between 1 and 500`},
	{"contenders=0", []string{"contenders"}, "between 1 and 500"},
	{"contenders=-0", []string{"contenders"}, "between 1 and 500"},
	{"contenders=%2B5", []string{"contenders"}, "without a sign"},
	{"contenders=1_0", []string{"contenders"}, "whole number"},
	{"contenders=99999999999999999999", []string{"contenders"}, "between 1 and 500"},
	{"contenders=", []string{"contenders"}, "empty"},
	{"contenders=1&contenders=2", []string{"contenders"}, "given 2 times"},
	{"runs=1001", []string{"runs"}, `calc: runs "1001": must be between 1 and 1000`},
	{"runs=0", []string{"runs"}, "between 1 and 1000"},
	{"runs=1.5", []string{"runs"}, "whole number"},
	{"runs=NaN", []string{"runs"}, "whole number"},
	{"runs=", []string{"runs"}, "empty"},
	{"runs=x&contenders=y&base=z", []string{"base", "contenders", "runs"}, "base"},
	{"base=x&factor=y&attempts=z&jitter=w", []string{"base", "factor", "attempts", "jitter"}, "base"},
	{"spread=x&window=y&outage=z&capacity=w&clients=v&base=u", []string{"base", "clients", "outage", "window", "capacity", "spread"}, "base"},
	{"base=%3Cscript%3Ealert(1)%3C/script%3E", []string{"base"}, `"<script>alert(1)</script>"`},
	{"base=" + strings.Repeat("9", 100000), []string{"base"}, "(100000 bytes)"},
	// strconv takes a sign; Decode does not, even where the number is in range.
	{"capacity=-0", []string{"capacity"}, "negative"},
	{"attempts=%2B6", []string{"attempts"}, "without a sign"},
	{"clients=%2B5", []string{"clients"}, "without a sign"},
	{"ratio=%2B0.5", []string{"ratio"}, "without a sign"},
	{"factor=%2BInf", []string{"factor"}, "without a sign"},
	{"base=%2B5ms", []string{"base"}, "without a sign"},
	{"spread=%2B0", []string{"spread"}, "without a sign"},
	// strconv also takes hex floats, underscores, exponents, Inf and NaN; Decode takes decimals.
	{"factor=0x1p1", []string{"factor"}, `calc: factor "0x1p1": not a number: write digits and at most one point, like 1.5`},
	{"factor=0X1P%2B1", []string{"factor"}, "not a number"},
	{"factor=0x1P1", []string{"factor"}, "not a number"},
	{"factor=1_0", []string{"factor"}, `calc: factor "1_0": not a number`},
	{"factor=1_5.2_5", []string{"factor"}, "not a number"},
	{"factor=1e1", []string{"factor"}, "not a number"},
	{"factor=2E0", []string{"factor"}, "not a number"},
	{"factor=infinity", []string{"factor"}, "not a number"},
	{"factor=inf", []string{"factor"}, "not a number"},
	{"factor=.", []string{"factor"}, "not a number"},
	{"factor=1.5.", []string{"factor"}, "not a number"},
	{"ratio=0x1p-1", []string{"ratio"}, `calc: ratio "0x1p-1": not a number`},
	{"ratio=0_5", []string{"ratio"}, "not a number"},
	{"ratio=0.2_5", []string{"ratio"}, "not a number"},
	{"ratio=5e-1", []string{"ratio"}, "not a number"},
	{"ratio=NaN", []string{"ratio"}, "not a number"},
	{"ratio=Inf", []string{"ratio"}, "not a number"},
	{"attempts=1_0", []string{"attempts"}, `calc: attempts "1_0": not a whole number`},
	{"attempts=0x10", []string{"attempts"}, "whole number"},
	{"attempts=1e1", []string{"attempts"}, "whole number"},
	{"layers=0x2", []string{"layers"}, "whole number"},
	{"layers=1_0", []string{"layers"}, "whole number"},
	{"samples=1_000", []string{"samples"}, "whole number"},
	{"samples=0x3e8", []string{"samples"}, "whole number"},
	{"seed=1_0", []string{"seed"}, "whole number"},
	{"seed=0x1", []string{"seed"}, "whole number"},
	{"seed=%2B1", []string{"seed"}, "whole number"},
	{"clients=1_0", []string{"clients"}, "whole number"},
	{"clients=0x10", []string{"clients"}, "whole number"},
	{"capacity=1_0", []string{"capacity"}, "whole number"},
	{"capacity=0x10", []string{"capacity"}, "whole number"},
	{"base=1_0ms", []string{"base"}, "not a duration"},
	{"base=0x1p1s", []string{"base"}, "not a duration"},
	{"base=1e3", []string{"base"}, "not a duration"}, // not Go syntax, and not how we write milliseconds
	{"cap=0x10s", []string{"cap"}, "not a duration"},
	{"cap=1_0s", []string{"cap"}, "not a duration"},
	{"add=1_0ms", []string{"add"}, "not a duration"},
	{"call=1_0", []string{"call"}, "not a duration"},
	{"call=0x10", []string{"call"}, "not a duration"},
	{"budget=0x1p1s", []string{"budget"}, "not a duration"},
	{"outage=1_0s", []string{"outage"}, "not a duration"},
	{"window=0x10ms", []string{"window"}, "not a duration"},
	{"spread=1_0ms", []string{"spread"}, "not a duration"},
	{"base=Infs", []string{"base"}, "not a duration"},
	// time.ParseDuration cuts a fraction of a nanosecond; Decode refuses it.
	{"base=1.9ns", []string{"base"}, `calc: base "1.9ns": must be a whole number of nanoseconds`},
	{"call=0.0000001", []string{"call"}, `calc: call "0.0000001": must be a whole number of nanoseconds (a bare number is milliseconds: 0.000001 is 1ns)`},
	{"base=1.0000000001s", []string{"base"}, "whole number of nanoseconds"},
	{"cap=10.0000000001s", []string{"cap"}, "whole number of nanoseconds"},
	{"add=0.5ns", []string{"add"}, "whole number of nanoseconds"},
	{"budget=0.0000000000001h", []string{"budget"}, "whole number of nanoseconds"},
	{"outage=0.0001us", []string{"outage"}, "whole number of nanoseconds"},
	{"window=100.0000001ms", []string{"window"}, "whole number of nanoseconds"},
	{"spread=0.00000000001m", []string{"spread"}, "whole number of nanoseconds"},
	{"base=1s0.5ns", []string{"base"}, "whole number of nanoseconds"},
	{"base=0.5ns0.4ns", []string{"base"}, "whole number of nanoseconds"},
	{"base=0." + strings.Repeat("0", 1000) + "1h", []string{"base"}, "whole number of nanoseconds"},
	{"base=1." + strings.Repeat("3", 1000) + "ms", []string{"base"}, "whole number of nanoseconds"},
}

func TestDecodeErrors(t *testing.T) {
	for _, tt := range badQueries {
		p, err := Decode(tt.query)
		fes := policy.FieldErrors(err)
		var keys []string
		for _, fe := range fes {
			keys = append(keys, fe.Key)
		}
		if strings.Join(keys, ",") != strings.Join(tt.keys, ",") {
			t.Errorf("Decode(%.60q): errors for %v, want %v (%v)", tt.query, keys, tt.keys, err)
			continue
		}
		if !strings.Contains(fes[0].Error(), tt.msg) {
			t.Errorf("Decode(%.60q): %q does not contain %q", tt.query, fes[0].Error(), tt.msg)
		}
		if len(fes[0].Error()) > 300 {
			t.Errorf("Decode(%.60q): message of %d bytes", tt.query, len(fes[0].Error()))
		}
		// The rest keeps its defaults, and the result is always usable.
		if err := p.Validate(); err != nil {
			t.Errorf("Decode(%.60q) returned invalid params: %v", tt.query, err)
		}
	}
}

func TestDecodeKeepsGoodKeys(t *testing.T) {
	p, err := Decode("base=250ms&attempts=abc&jitter=equal")
	if len(policy.FieldErrors(err)) != 1 {
		t.Fatalf("want one error, got %v", err)
	}
	if p.Base != 250*time.Millisecond || p.Jitter != policy.Equal || p.Attempts != Default().Attempts {
		t.Errorf("got %+v", p)
	}
}

func TestEncodeCanonical(t *testing.T) {
	got := Default().Encode()
	// The policy's keys, the budget's, the layers', the sampling's and the herd's; no key of the
	// overload model (rate is 0) or of the contention experiment, which are at their defaults.
	want := "add=0&attempts=6&base=100ms&budget=0&call=0&cap=10s&capacity=20&capat=before&clients=100" +
		"&factor=2&first=jittered&growth=exponential&jitter=full&layers=1" +
		"&outage=1s&ratio=0.2&samples=10000&seed=1&spread=0&window=100ms"
	if got != want {
		t.Errorf("Default().Encode() = %q, want %q", got, want)
	}
	p := Default()
	p.Base, p.Cap, p.Ratio = 700*time.Microsecond, 90*time.Second+1, -0.0
	if got := p.Encode(); !strings.Contains(got, "base=700us") || !strings.Contains(got, "cap=90000000001ns") || !strings.Contains(got, "ratio=0&") {
		t.Errorf("Encode() = %q", got)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0", 1: "1ns", 1500 * time.Millisecond: "1500ms", 2 * time.Minute: "2m", 90 * time.Second: "90s",
		168 * time.Hour: "168h", 700 * time.Microsecond: "700us",
	} {
		if got := policy.FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestValidate(t *testing.T) {
	p := Default()
	p.Factor, p.Attempts, p.Cap = 0, 0, p.Base-1
	p.Clients, p.Outage, p.Window, p.Capacity, p.Spread = MaxHerdClients+1, -1, 0, -1, MaxSpread+1
	var keys []string
	for _, fe := range policy.FieldErrors(p.Validate()) {
		keys = append(keys, fe.Key)
	}
	if strings.Join(keys, ",") != "factor,cap,attempts,clients,outage,window,capacity,spread" {
		t.Errorf("Validate blamed %v", keys)
	}
	// The simulation's work is clients × attempts: over it, a herd is counted by its expected
	// counts (valid, not HerdSimulated, and refused by calc/sim's Herd with Simulable's error), an
	// open system refused on clients.
	p = Default()
	p.Clients, p.Attempts = 100000, 21
	if err := p.Validate(); err != nil || p.HerdSimulated() {
		t.Errorf("Validate of a herd of 100000 × 21: %v, simulated %v", err, p.HerdSimulated())
	}
	if err := p.Simulable(); err == nil || !strings.Contains(err.Error(), `calc: clients "100000": the simulation takes at most 100000 clients and 2000000 client-attempts (100000 × 21 attempts here)`) {
		t.Errorf("Simulable of 100000 × 21: %v", err)
	}
	p.Rate, p.Run = 1, time.Second
	fes := policy.FieldErrors(p.Validate())
	if len(fes) != 1 || fes[0].Error() != `calc: clients "100000": an open system (a stream, a queue, a timeout, a limiter, a breaker, an error rate, latency or slope) is simulated client by client: 100000 clients × 21 attempts is over the limit of 2000000 client-attempts` {
		t.Errorf("Validate of an open system of 100000 × 21: %v", fes)
	}
	p.Rate, p.Run = 0, 0
	p.Attempts = 20
	if err := p.Validate(); err != nil {
		t.Errorf("100000 × 20 is at the limit, not over it: %v", err)
	}
	if err := Default().Validate(); err != nil {
		t.Errorf("Default() invalid: %v", err)
	}
}

// DecodeKey reads another package's key by Decode's rules, from a query and from a form's values.
func TestDecodeKey(t *testing.T) {
	onlyYes := func(v string) error {
		if v != "yes" {
			return errors.New("must be yes")
		}
		return nil
	}
	for _, tt := range []struct {
		name, query string
		read        string // the value decode saw; "" when it was not called
		msg         string // the error; "" for none
	}{
		{"absent", "base=1s", "", ""},
		{"good", "base=1s&k=yes", "yes", ""},
		{"escaped", "k=y%65s", "yes", ""},
		{"refused", "k=nope", "nope", `calc: k "nope": must be yes`},
		{"empty", "k=", "", `calc: k "": empty; give a value or leave the key out`},
		{"twice", "k=yes&k=yes", "", `calc: k "yes,yes": given 2 times; give it once`},
		{"broken", "k=%zz", "", `calc: k "%zz": broken percent-encoding`},
		{"long", "k=" + strings.Repeat("x", 100000), strings.Repeat("x", 100000), "(100000 bytes): must be yes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var read string
			err := DecodeKey(tt.query, "k", func(v string) error { read = v; return onlyYes(v) })
			if read != tt.read || (err == nil) != (tt.msg == "") || err != nil && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("DecodeKey(%.40q): read %.40q, error %v; want %.40q, %q", tt.query, read, err, tt.read, tt.msg)
			}
			if fes := policy.FieldErrors(err); err != nil && (len(fes) != 1 || fes[0].Key != "k") {
				t.Errorf("DecodeKey(%.40q): %v is not one FieldError for k", tt.query, err)
			}
			if tt.name == "broken" {
				return // a form's value has no percent-encoding to break
			}
			v, _ := url.ParseQuery(tt.query)
			read = ""
			err = DecodeKeyValues(v, "k", func(v string) error { read = v; return onlyYes(v) })
			if read != tt.read || (err == nil) != (tt.msg == "") || err != nil && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("DecodeKeyValues(%.40q): read %.40q, error %v; want %.40q, %q", tt.query, read, err, tt.read, tt.msg)
			}
		})
	}
}

// Every input of Params has a row of keyTable: changing any field (those of embedded structs and
// of Limits included) changes what some row writes. Preset has a key of its own (Decode's
// preset=NAME), not a row.
func TestEveryFieldHasAKey(t *testing.T) {
	var leaves func(typ reflect.Type, index []int, name string)
	fields := 0
	leaves = func(typ reflect.Type, index []int, name string) {
		if typ.Kind() == reflect.Struct {
			for i := range typ.NumField() {
				f := typ.Field(i)
				leaves(f.Type, append(slices.Clone(index), i), name+"."+f.Name)
			}
			return
		}
		if name == ".Preset" {
			return
		}
		fields++
		p, d := Default(), Default()
		v := reflect.ValueOf(&p).Elem().FieldByIndex(index)
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint8, reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		default:
			t.Errorf("Params%s: a %s, which this test cannot change", name, v.Kind())
			return
		}
		for _, k := range keyTable() {
			if k.Encode != nil && k.Encode(&p) != k.Encode(&d) {
				return
			}
		}
		t.Errorf("Params%s has no row in keyTable", name)
	}
	leaves(reflect.TypeFor[Params](), nil, "")
	if fields < 36 {
		t.Errorf("only %d fields of Params were changed", fields)
	}
}

// TestModelKeysAreTheirPackages: the key table holds the limiters' keys right after limiter and
// the breakers' right after breakers, in their packages' order (limiter.Keys, breaker.Keys), so
// that a new limiter's or breaker's key is a row of its package's and of no calc file.
func TestModelKeysAreTheirPackages(t *testing.T) {
	var names []string
	for _, k := range keyTable() {
		names = append(names, k.Name)
	}
	for _, c := range []struct {
		after string
		keys  []string
	}{
		{"limiter", func() (ns []string) {
			for _, k := range limiter.Keys() {
				ns = append(ns, k.Name)
			}
			return ns
		}()},
		{"breakers", func() (ns []string) {
			for _, k := range breaker.Keys() {
				ns = append(ns, k.Name)
			}
			return ns
		}()},
	} {
		i := slices.Index(names, c.after)
		if i < 0 || len(c.keys) == 0 || i+1+len(c.keys) > len(names) || !slices.Equal(names[i+1:i+1+len(c.keys)], c.keys) {
			t.Errorf("after %s the table has %v, want %v", c.after, names[i+1:], c.keys)
		}
	}
}

// TestCoreKeysAreTheCores: the key table begins with the policy core's keys, in their order
// (policy.Keys), and no other row writes a field of the core's inputs (policy.Params), so that a
// key of the policy is a row of calc/policy's and of no calc file (policy's
// TestEveryFieldHasAKey holds that each of its fields has one).
func TestCoreKeysAreTheCores(t *testing.T) {
	var core []string
	for _, k := range policy.Keys() {
		core = append(core, k.Name)
	}
	table := keyTable()
	var names []string
	for _, k := range table {
		names = append(names, k.Name)
	}
	if len(core) == 0 || len(names) < len(core) || !slices.Equal(names[:len(core)], core) {
		t.Fatalf("the table begins with %v, want the core's keys %v", names[:min(len(core), len(names))], core)
	}
	d := Default()
	changed := 0
	// Each field of policy.Params, changed alone.
	var walk func(typ reflect.Type, index []int, name string)
	walk = func(typ reflect.Type, index []int, name string) {
		if typ.Kind() == reflect.Struct {
			for i := range typ.NumField() {
				walk(typ.Field(i).Type, append(slices.Clone(index), i), name+"."+typ.Field(i).Name)
			}
			return
		}
		p := d
		v := reflect.ValueOf(&p.Params).Elem().FieldByIndex(index)
		switch v.Kind() {
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint8, reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		default:
			t.Errorf("policy.Params%s: a %s, which this test cannot change", name, v.Kind())
			return
		}
		changed++
		for _, k := range table[len(core):] {
			if k.Encode != nil && k.Encode(&p) != k.Encode(&d) {
				t.Errorf("policy.Params%s is written by %s, a key of calc's; the core's keys are policy.Keys", name, k.Name)
			}
		}
	}
	walk(reflect.TypeFor[policy.Params](), nil, "")
	if changed < len(core) {
		t.Errorf("only %d fields of policy.Params were changed, for %d keys", changed, len(core))
	}
}
