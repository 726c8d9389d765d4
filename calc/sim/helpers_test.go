package sim

import (
	"testing"
	"time"

	"backoffcalc/calc"
)

// What calc's tests share that the simulation's need too (calc's schedule_test.go and
// presets_test.go).

const ms = time.Millisecond

// pollyQuery is Polly v8's exponential backoff with jitter (calc's presets_test.go).
const pollyQuery = "base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0"

// testPresets are the presets that the tests name in links (mustDecode passes them).
var testPresets = []calc.Preset{{Name: "polly-exponential-jitter", Params: func() calc.Params {
	p, err := calc.Decode(pollyQuery)
	if err != nil {
		panic(err)
	}
	return p
}()}}

func mustDecode(t testing.TB, q string) calc.Params {
	t.Helper()
	p, err := calc.Decode(q, testPresets...)
	if err != nil {
		t.Fatalf("Decode(%q): %v", q, err)
	}
	return p
}
