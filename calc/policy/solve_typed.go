package policy

import (
	"math"
	"time"
)

// An answer found to the nanosecond or to the last bit of a float64 (157.142857 ms,
// 2.701562117553472) is not what a person types. Each base, factor and cap found also comes
// typed (Fit.Typed): rounded down, toward the values that fit, to three significant digits in the
// unit Human writes it in (four for a factor, which starts at 1), with more digits where the
// rounded value would not fit. Within a piece of the worst-case search everything below an
// answer fits, but with capat=fixed the piece can start above the rounded value, and a sampled
// answer that is not the largest need not fit below either: so each rounding is checked with the
// answer's own test, and the exact answer, which fits, ends the search.

// typedFit is position x, an answer of kind on axis a, as typed: see Fit.Typed. fits is the
// answer's test.
func (p Params) typedFit(a axis, kind FitKind, x int64, fits func(int64) bool) int64 {
	if kind != FitFound {
		return x
	}
	sig := 3
	if a.key == "factor" {
		sig = 4
	}
	tried := int64(-1)
	for ; sig <= 20; sig++ {
		y := a.floor(x, sig)
		if y >= x {
			break
		}
		if y != tried && y >= a.lo && fits(y) {
			return y
		}
		tried = y
	}
	return x
}

// floor is position x of a rounded down to sig significant digits.
func (a axis) floor(x int64, sig int) int64 {
	if a.key == "factor" {
		return int64(math.Float64bits(floorFactor(math.Float64frombits(uint64(x)), sig)))
	}
	return int64(floorDuration(time.Duration(x), sig))
}

// on is p with input a at position x.
func (p Params) on(a axis, x int64) Params {
	a.set(&p, x)
	return p
}
