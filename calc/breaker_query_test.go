package calc

import (
	"slices"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/policy"
)

// The breaker's keys are left out of a link at their defaults, written when set, read back, and
// each bad value is named with its key and the values it may take.
func TestBreakerKeys(t *testing.T) {
	stream, err := Decode("rate=10&run=10s")
	if err != nil {
		t.Fatal(err)
	}
	if q := stream.Encode(); strings.Contains(q, "breaker") {
		t.Errorf("Encode() = %q has a breaker key at its default", q)
	}
	for _, q := range []string{"breaker=gobreaker", "breaker=sre&breakerat=call", "breaker=polly&breakers=shared", "breaker=failsafe&breakerat=call&breakers=shared"} {
		p, err := Decode("rate=10&run=10s&" + q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		enc := p.Encode()
		for kv := range strings.SplitSeq(q, "&") {
			if !strings.Contains("&"+enc+"&", "&"+kv+"&") {
				t.Errorf("%s: Encode() = %q leaves out %s", q, enc, kv)
			}
		}
		if back, err := Decode(enc); err != nil || back != p {
			t.Errorf("%s: Decode(Encode()) = %+v, %v", q, back, err)
		}
	}
	for _, c := range []struct{ query, want string }{
		{"breaker=hystrix", `calc: breaker "hystrix": must be one of none, gobreaker, resilience4j, polly, failsafe, sre`},
		{"breaker=GOBREAKER", `calc: breaker "GOBREAKER": must be one of`},
		{"breakerat=retry", `calc: breakerat "retry": must be attempt (inside the retries: every attempt counts) or call (outside them: one call counts once)`},
		{"breakers=global", `calc: breakers "global": must be client (one breaker per client process) or shared (one for all)`},
	} {
		if _, err := Decode(c.query); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%q) = %v, want %q", c.query, err, c.want)
		}
	}
	p := Default()
	p.Breaker, p.BreakerAt, p.Breakers = breaker.Count, 2, 2
	var keys []string
	for _, fe := range policy.FieldErrors(p.Validate()) {
		keys = append(keys, fe.Key)
	}
	if got := strings.Join(keys, ","); got != "breaker,breakerat,breakers" {
		t.Errorf("Validate blamed %s, want breaker,breakerat,breakers", got)
	}
}

// breakerParamKeys are each breaker's parameter keys with a value in range other than the
// default, the breaker that reads it, and the keys the change needs beside it to show in
// breakerTrace (fsrate decides nothing over failsafe's default window of one result).
var breakerParamKeys = []struct {
	kind        breaker.Kind
	query, with string
}{
	{breaker.Gobreaker, "gbfailures=2", ""},
	{breaker.Gobreaker, "gbhalfopen=3", ""},
	{breaker.Gobreaker, "gbopen=10s", ""},
	{breaker.Resilience4j, "r4jrate=80", ""},
	{breaker.Resilience4j, "r4jslowrate=10", "r4jslowafter=1s"},
	{breaker.Resilience4j, "r4jslowafter=100ms", ""},
	{breaker.Resilience4j, "r4jwindow=20", ""},
	{breaker.Resilience4j, "r4jmincalls=20", ""},
	{breaker.Resilience4j, "r4jopen=10s", ""},
	{breaker.Resilience4j, "r4jhalfopen=2", ""},
	{breaker.Polly, "pollyratio=0.5", ""},
	{breaker.Polly, "pollythroughput=20", ""},
	{breaker.Polly, "pollysampling=5s", ""},
	{breaker.Polly, "pollyopen=1500ms", ""},
	{breaker.Failsafe, "fsof=4", ""},
	{breaker.Failsafe, "fsfailures=2", "fsof=4"},
	{breaker.Failsafe, "fssuccessof=3", ""},
	{breaker.Failsafe, "fssuccesses=2", "fssuccessof=3"},
	{breaker.Failsafe, "fsopen=10s", ""},
	{breaker.Failsafe, "fsperiod=10s", "fsof=4&fsfailures=3&fsopen=1s"},
	{breaker.Failsafe, "fsexecutions=5", ""},
	{breaker.Failsafe, "fsrate=0.5", "fsof=4"},
}

// Each breaker parameter's key is left out of a link at its default, written when set and read
// back; so is every other key's at the same time.
func TestBreakerParamKeys(t *testing.T) {
	def := Default().Encode()
	for _, k := range breakerParamKeys {
		name, _, _ := strings.Cut(k.query, "=")
		if strings.Contains("&"+def, "&"+name+"=") {
			t.Errorf("Default().Encode() = %q has %s at its default", def, name)
		}
		q := k.query
		if k.with != "" {
			q = k.with + "&" + q
		}
		for _, q := range []string{q, "rate=10&run=10s&" + q} {
			p, err := Decode(q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if err := p.Validate(); err != nil {
				t.Errorf("%s: Validate: %v", q, err)
			}
			enc := p.Encode()
			if !strings.Contains("&"+enc+"&", "&"+k.query+"&") {
				t.Errorf("%s: Encode() = %q leaves it out", q, enc)
			}
			if back, err := Decode(enc); err != nil || back != p {
				t.Errorf("%s: Decode(Encode()) = %+v, %v", q, back, err)
			}
		}
	}
	var all []string
	for _, k := range breakerParamKeys {
		all = append(all, k.query)
	}
	q := strings.Join(all, "&")
	p, err := Decode(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if back, err := Decode(p.Encode()); err != nil || back != p {
		t.Errorf("%s: Decode(Encode()) = %+v, %v", q, back, err)
	}
}

// breakerParamErrors are values out of each key's range, with the message.
var breakerParamErrors = []struct{ query, want string }{
	{"gbfailures=1000001", `calc: gbfailures "1000001": must be between 0 and 1000000`},
	{"gbfailures=-1", `calc: gbfailures "-1": must be between 0 and 1000000`},
	{"gbfailures=1.5", `calc: gbfailures "1.5": not a whole number`},
	{"gbhalfopen=0", `calc: gbhalfopen "0": must be between 1 and 1000000`},
	{"gbopen=0", `calc: gbopen "0": must be more than 0 and at most 24h`},
	{"gbopen=25h", `calc: gbopen "25h": must be more than 0 and at most 24h`},
	{"r4jrate=0", `calc: r4jrate "0": must be more than 0 and at most 100`},
	{"r4jrate=100.5", `calc: r4jrate "100.5": must be more than 0 and at most 100`},
	{"r4jrate=NaN", `calc: r4jrate "NaN": not a number`},
	{"r4jslowrate=0", `calc: r4jslowrate "0": must be more than 0 and at most 100`},
	{"r4jslowafter=0", `calc: r4jslowafter "0": must be more than 0 and at most 24h`},
	{"r4jwindow=0", `calc: r4jwindow "0": must be between 1 and 1000000`},
	{"r4jwindow=99999999999999999999", `calc: r4jwindow "99999999999999999999": must be between 1 and 1000000`},
	{"r4jmincalls=0", `calc: r4jmincalls "0": must be between 1 and 1000000`},
	{"r4jopen=0.5", `calc: r4jopen "0.5": must be at least 1ms and at most 24h`},
	{"r4jopen=1500us", `calc: r4jopen "1500us": must be whole milliseconds, as resilience4j keeps it`},
	{"r4jhalfopen=0", `calc: r4jhalfopen "0": must be between 1 and 1000000`},
	{"pollyratio=1.1", `calc: pollyratio "1.1": must be between 0 and 1`},
	{"pollythroughput=1", `calc: pollythroughput "1": must be between 2 and 1000000`},
	{"pollysampling=499ms", `calc: pollysampling "499ms": must be at least 500ms and at most 24h`},
	{"pollysampling=1s50ns", `calc: pollysampling "1s50ns": must be whole multiples of 100ns, .NET's tick`},
	{"pollyopen=24h1ms", `calc: pollyopen "24h1ms": must be at least 500ms and at most 24h`},
	{"fsof=0", `calc: fsof "0": must be between 1 and 1000000`},
	{"fsfailures=0", `calc: fsfailures "0": must be at least 1 and at most fsof (1)`},
	{"fsfailures=2", `calc: fsfailures "2": must be at least 1 and at most fsof (1)`},
	{"fsfailures=5&fsof=4", `calc: fsfailures "5": must be at least 1 and at most fsof (4)`},
	{"fssuccessof=1000001", `calc: fssuccessof "1000001": must be between 0 and 1000000`},
	{"fssuccesses=1", `calc: fssuccesses "1": must be at least 0 and at most fssuccessof (0)`},
	{"fssuccesses=3&fssuccessof=2", `calc: fssuccesses "3": must be at least 0 and at most fssuccessof (2)`},
	{"fsopen=0", `calc: fsopen "0": must be more than 0 and at most 24h`},
	{"fsperiod=999us", `calc: fsperiod "999us": must be 0 (count-based: the last results) or from 1ms to 24h`},
	{"fsperiod=48h", `calc: fsperiod "48h": must be 0 (count-based: the last results) or from 1ms to 24h`},
	{"fsexecutions=1000001", `calc: fsexecutions "1000001": must be between 0 and 1000000`},
	{"fsrate=2", `calc: fsrate "2": must be between 0 and 1`},
	{"fsrate=-0.5", `calc: fsrate "-0.5": must not be negative`},
}

// A breaker parameter out of range is named with its key and value, keeps its default, and
// Validate says the same of params built in code.
func TestBreakerParamErrors(t *testing.T) {
	for _, c := range breakerParamErrors {
		p, err := Decode(c.query)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%q) = %v, want %q", c.query, err, c.want)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("Decode(%q) returned invalid params: %v", c.query, err)
		}
	}
	p := Default()
	b := &p.BreakerParams
	b.GobreakerMaxRequests, b.R4jFailurePercent, b.PollySampling, b.FailsafeOf, b.FailsafeFailures = 0, 0, time.Second+1, 2, 3
	var got []string
	for _, fe := range policy.FieldErrors(p.Validate()) {
		got = append(got, fe.Error())
	}
	want := []string{
		`calc: gbhalfopen "0": must be between 1 and 1000000`,
		`calc: r4jrate "0": must be more than 0 and at most 100`,
		`calc: pollysampling "1000000001ns": must be whole multiples of 100ns, .NET's tick`,
		`calc: fsfailures "3": must be at least 1 and at most fsof (2)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Validate:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// breakerTrace plays one scripted stream on a fresh breaker of kind k and writes what each call
// met: a call every 100 ms for 5 minutes, mostly failing at first, then mostly not, then
// failing again; each takes 150 ms (so that calls overlap), every 7th 2 s, and its result comes
// then. Per call it writes r if rejected, else p for a probe and . otherwise, and the state after
// the results before it.
func breakerTrace(k breaker.Kind, bp breaker.Params) string {
	b := breaker.New(k, bp, func() float64 { return 0.5 })
	type pending struct {
		at     time.Duration
		p      breaker.Permit
		failed bool
		took   time.Duration
	}
	var inFlight []pending
	var out strings.Builder
	for i := range 3000 {
		now := time.Duration(i) * 100 * time.Millisecond
		for len(inFlight) > 0 && inFlight[0].at <= now {
			c := inFlight[0]
			inFlight = inFlight[1:]
			b.Record(c.at, c.p, c.failed, c.took)
		}
		out.WriteString(b.State().String()[:1])
		p := b.Allow(now)
		switch {
		case !p.Allowed:
			out.WriteByte('r')
			continue
		case p.Probe:
			out.WriteByte('p')
		default:
			out.WriteByte('.')
		}
		share := []int{70, 5, 100}[i/1000]
		took := 150 * time.Millisecond
		if i%7 == 0 {
			took = 2 * time.Second
		}
		c := pending{now + took, p, (i*7919)%100 < share, took}
		at := len(inFlight)
		for at > 0 && inFlight[at-1].at > c.at {
			at--
		}
		inFlight = slices.Insert(inFlight, at, c)
	}
	return out.String()
}

// Each breaker reads each of its keys: a link that changes one (beside the keys it needs)
// changes what the breaker does with the same stream of calls.
func TestBreakerParamKeysChangeBreaker(t *testing.T) {
	for _, k := range breakerParamKeys {
		base := "breaker=" + k.kind.String()
		if k.with != "" {
			base += "&" + k.with
		}
		before, err := Decode(base)
		if err != nil {
			t.Fatal(err)
		}
		after, err := Decode(base + "&" + k.query)
		if err != nil {
			t.Fatal(err)
		}
		if breakerTrace(k.kind, before.BreakerParams) == breakerTrace(k.kind, after.BreakerParams) {
			t.Errorf("%s: %s behaves as without it", base, k.query)
		}
	}
}

// gbfailures=2, gbopen=10s and gbhalfopen=2 set gobreaker's ReadyToTrip count, Timeout and
// MaxRequests (calc/breaker's TestGobreakerParams runs a breaker with them).
func TestGobreakerKeys(t *testing.T) {
	p, err := Decode("gbfailures=2&gbopen=10s&gbhalfopen=2")
	if err != nil {
		t.Fatal(err)
	}
	want := breaker.Defaults()
	want.GobreakerFailures, want.GobreakerTimeout, want.GobreakerMaxRequests = 2, 10*time.Second, 2
	if p.BreakerParams != want {
		t.Errorf("BreakerParams = %+v, want %+v", p.BreakerParams, want)
	}
}
