package sim

import (
	"strings"
	"time"

	"backoffcalc/calc/policy"
)

// The few helpers the simulations and their words share with calc, which keeps its own
// unexported: each is one line there too.

// human writes d as policy.Human does.
func human(d time.Duration) string { return policy.Human(float64(d)) }

// trimZeros drops a decimal's trailing zeros, and its point when nothing follows it.
func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// horizonCap is where the simulation's sums of times stop growing, as calc's horizon does
// (calc's overload_validate.go): far past any MaxHerdWindows windows, and safe from overflow.
const horizonCap = time.Duration(1 << 62)

// satAdd is a+b, at most horizonCap, for a and b in [0, horizonCap].
func satAdd(a, b time.Duration) time.Duration {
	if a > horizonCap-b {
		return horizonCap
	}
	return a + b
}
