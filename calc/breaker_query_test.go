package calc

import (
	"strings"
	"testing"
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
	p.Breaker, p.BreakerAt, p.Breakers = breakerCount, 2, 2
	var keys []string
	for _, fe := range FieldErrors(p.Validate()) {
		keys = append(keys, fe.Key)
	}
	if got := strings.Join(keys, ","); got != "breaker,breakerat,breakers" {
		t.Errorf("Validate blamed %s, want breaker,breakerat,breakers", got)
	}
}
