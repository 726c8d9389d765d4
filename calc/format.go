package calc

import (
	"strconv"
	"strings"
	"time"
)

// Millis writes d in milliseconds as an exact decimal: 700us is "0.7", 1ns is "0.000001".
func Millis(d time.Duration) string {
	neg := d < 0
	u := uint64(d)
	if neg {
		u = -u
	}
	s := strconv.FormatUint(u/1e6, 10)
	if frac := u % 1e6; frac != 0 {
		s += "." + strings.TrimRight(strconv.FormatUint(1e6+frac, 10)[1:], "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// MillisFloat writes a fractional number of nanoseconds (a mean) in milliseconds, with the
// shortest decimal that reads back to the same float64.
func MillisFloat(ns float64) string {
	return strconv.FormatFloat(ns/1e6, 'f', -1, 64)
}

// Human writes ns nanoseconds for people, with three significant digits and a unit that keeps
// the number small: "350 ms", "1.25 s", "3.4 min", "2 h", "7 d"; zero is "0".
func Human(ns float64) string {
	if ns == 0 {
		return "0"
	}
	units := []struct {
		name string
		size float64
	}{{"d", 24 * 3600e9}, {"h", 3600e9}, {"min", 60e9}, {"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}}
	unit, size := "ns", 1.0
	for _, u := range units {
		if ns >= u.size {
			unit, size = u.name, u.size
			break
		}
	}
	return threeDigits(ns/size) + " " + unit
}

// threeDigits writes v >= 0 with three significant digits (or all of its integer part), without
// trailing zeros: 1.25, 12.5, 350, 1234.
func threeDigits(v float64) string {
	digits := 0
	switch {
	case v < 10:
		digits = 2
	case v < 100:
		digits = 1
	}
	s := strconv.FormatFloat(v, 'f', digits, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Percent writes a share in [0, 1] as a percentage with three significant digits: 0.3921 is
// "39.2%"; a share too small to show that way is "< 0.01%".
func Percent(share float64) string {
	v := share * 100
	if v > 0 && v < 0.01 {
		return "< 0.01%"
	}
	return threeDigits(v) + "%"
}
