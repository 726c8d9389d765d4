package calc

import (
	"math"
	"testing"
	"time"
)

const ms = time.Millisecond

// maxDraw is the largest u a draw takes, 1 − 2^−53 (calc/policy's maxDraw).
const maxDraw = 1 - 0x1p-53

func mustDecode(t testing.TB, q string) Params {
	t.Helper()
	p, err := Decode(q, testPresets...)
	if err != nil {
		t.Fatalf("Decode(%q): %v", q, err)
	}
	return p
}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}
