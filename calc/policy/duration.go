package policy

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// A duration in a query is Go syntax (250ms, 1.5s, 2m30s) or a bare number of milliseconds, read
// exactly: time.ParseDuration drops each part's fraction of a nanosecond (1.9ns is 1ns to it,
// 0.5ns0.5ns is 0), and a value that is not a whole number of nanoseconds is refused here rather
// than cut.

// durationParts calls part with each number and unit of v, which is Go duration syntax: one or
// more decimals (decimalSyntax) each followed by a unit (ns, us, µs, μs, ms, s, m, h); it
// reports false, having called part for the parts before it, at anything else. A scanner, not
// the regexp it was: in wasm the regexp was most of reading a link, at every keystroke
// (TestDurationScannerAsRegexp holds them to the same language and parts).
func durationParts(v string, part func(number, unit string)) bool {
	if v == "" {
		return false
	}
	for v != "" {
		n := decimalPrefix(v)
		u := unitPrefix(v[n:])
		if n == 0 || u == 0 {
			return false
		}
		part(v[:n], v[n:n+u])
		v = v[n+u:]
	}
	return true
}

// decimalPrefix is the length of the longest decimal that v starts with, 0 for none: digits
// with at most one point, a point needing a digit on one side at least.
func decimalPrefix(v string) int {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i < len(v) && v[i] == '.' {
		j := i + 1
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		if i > 0 || j > i+1 {
			return j
		}
	}
	return i
}

// unitPrefix is the length of the unit that v starts with, 0 for none.
func unitPrefix(v string) int {
	for _, u := range [...]string{"ns", "us", "µs", "μs", "ms", "s", "m", "h"} {
		if strings.HasPrefix(v, u) {
			return len(u)
		}
	}
	return 0
}

// isDecimal reports whether v is one decimal (decimalSyntax).
func isDecimal(v string) bool { return v != "" && decimalPrefix(v) == len(v) }

// units write each unit as 10^shift × times nanoseconds, so that reading a number in a unit
// moves its point and multiplies it by at most 36.
var units = map[string]struct {
	shift int
	times uint64
}{
	"ns": {0, 1}, "us": {3, 1}, "µs": {3, 1}, "μs": {3, 1}, "ms": {6, 1}, "s": {9, 1},
	"m": {10, 6},  // 6 × 10^10 ns
	"h": {11, 36}, // 36 × 10^11 ns
}

// parseDuration reads Go duration syntax or a bare number of milliseconds, in decimal only (no
// exponent: Go's syntax has none, and 1e3 is not how anyone writes a number of milliseconds).
// Signs are refused: no input of ours is negative, and "-0" is more likely a typo than a zero.
func parseDuration(v string) (time.Duration, error) {
	if err := signed(v); err != nil {
		return 0, err
	}
	bare := isDecimal(v)
	if bare {
		v += "ms"
	}
	if !durationParts(v, func(string, string) {}) {
		return 0, errors.New("not a duration: write 250ms, 1.5s, 2m, or a number of milliseconds")
	}
	d, whole, fits := nanos(v)
	switch {
	case !fits:
		return 0, errors.New("too large")
	case !whole && bare:
		return 0, errors.New("must be a whole number of nanoseconds (a bare number is milliseconds: 0.000001 is 1ns)")
	case !whole:
		return 0, errors.New("must be a whole number of nanoseconds")
	}
	return d, nil
}

// nanos sums the parts of v, which goDuration matched, exactly: the whole nanoseconds in a
// uint64 and the fractions of a nanosecond digit by digit, so that nothing is rounded however
// many digits a fraction has, in time linear in len(v). It reports whether the sum is a whole
// number of nanoseconds and whether it fits a time.Duration.
func nanos(v string) (d time.Duration, whole, fits bool) {
	var (
		ns   uint64   // whole nanoseconds so far
		frac []uint64 // frac[i]: the sum of the parts' (i+1)-th digits after the point, each times its unit's multiplier
	)
	fits = true
	durationParts(v, func(number, unit string) {
		if !fits {
			return
		}
		u := units[unit]
		intDigits, fracDigits, _ := strings.Cut(number, ".")
		// Move the point to nanoseconds: 1.5 in ms is 1500000.0 in ns.
		fracDigits += strings.Repeat("0", max(0, u.shift-len(fracDigits)))
		intDigits, fracDigits = strings.TrimLeft(intDigits+fracDigits[:u.shift], "0"), strings.TrimRight(fracDigits[u.shift:], "0")
		if len(intDigits) > 19 { // 10^19 ns is over math.MaxInt64
			fits = false
			return
		}
		n, _ := strconv.ParseUint("0"+intDigits, 10, 64) // at most 19 digits: fits a uint64
		hi, lo := bits.Mul64(n, u.times)
		sum, carry := bits.Add64(ns, lo, 0)
		if hi != 0 || carry != 0 {
			fits = false
			return
		}
		ns = sum
		for len(frac) < len(fracDigits) {
			frac = append(frac, 0)
		}
		for i := range len(fracDigits) {
			frac[i] += uint64(fracDigits[i]-'0') * u.times // at most 324 a part: no overflow for any string
		}
	})
	if !fits {
		return 0, false, false
	}
	// Carry the fractions from the last place to the first: a whole sum leaves a 0 in each.
	var carry uint64
	whole = true
	for i := len(frac) - 1; i >= 0; i-- {
		x := frac[i] + carry
		whole = whole && x%10 == 0
		carry = x / 10
	}
	// The whole parts alone can come to just under 2^64 ns, so the carry can wrap ns to a few
	// nanoseconds: "9223372036854775807ns9223372036854775808ns0.5ns0.5ns" read as 0.
	ns, wrapped := bits.Add64(ns, carry, 0)
	if wrapped != 0 || ns > math.MaxInt64 {
		return 0, false, false
	}
	return time.Duration(ns), whole, true
}

// decimalSyntax is a number as people write it: digits with at most one point, on either side
// of them. strconv also takes signs, exponents, hex floats (0x1p1), underscores (1_0), Inf and
// NaN; a query takes none of them, in any key.
const decimalSyntax = `(?:[0-9]+\.?[0-9]*|\.[0-9]+)`

// BareNumber reports whether v is a number as a query writes it, digits with at most one point:
// a duration key reads it as milliseconds (Key.Duration).
func BareNumber(v string) bool { return isDecimal(v) }

// signed refuses a sign, which strconv accepts: no input of ours is negative, "-0" is more
// likely a typo than a zero, and a "+" that survives the query (where + is a space) was
// written as %2B on purpose.
func signed(v string) error {
	switch {
	case strings.HasPrefix(v, "-"):
		return errors.New("must not be negative")
	case strings.HasPrefix(v, "+"):
		return errors.New("must be written without a sign")
	}
	return nil
}

// numError turns a strconv error into a message: a number too large for its type is out of
// range, anything else is not a number at all.
func numError(err error, kind, outside string) error {
	if errors.Is(err, strconv.ErrRange) {
		return errors.New(outside)
	}
	return fmt.Errorf("not %s", kind)
}
