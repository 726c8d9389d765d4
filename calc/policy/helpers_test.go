package policy_test

import (
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy/policytest"
)

// The core's tests read their policies from links, as calc's do: calc.Decode (the front) reads
// the link, and its Params embeds the core's.

const ms = time.Millisecond

func mustDecode(t testing.TB, q string) calc.Params {
	t.Helper()
	p, err := calc.Decode(q, testPresets...)
	if err != nil {
		t.Fatalf("calc.Decode(%q): %v", q, err)
	}
	return p
}

// pollyQuery is Polly v8's exponential backoff with jitter at its defaults, as calc's tests
// name it (calc/presets_test.go).
const pollyQuery = "base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0"

// testPresets are the presets that the core's tests name in links (mustDecode passes them).
var testPresets = []calc.Preset{{Name: "polly-exponential-jitter", Params: func() calc.Params {
	p, err := calc.Decode(pollyQuery)
	if err != nil {
		panic(err)
	}
	return p
}()}}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkInvariants is policytest's, naming p by its link.
func checkInvariants(t *testing.T, p calc.Params) {
	t.Helper()
	policytest.CheckInvariants(t, p.Params, p.Encode)
}
