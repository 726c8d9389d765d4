package libs

import (
	"math"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

func number(x float64) string { return strconv.FormatFloat(x, 'g', 12, 64) }

// timeUnit is a unit to write times in.
type timeUnit struct {
	name string
	size float64
}

// unitFor is the unit for numbers up to d: the largest of s, ms, µs, ns that d reaches.
func unitFor(d time.Duration) timeUnit {
	for _, u := range []timeUnit{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}} {
		if float64(d) >= u.size {
			return u
		}
	}
	return timeUnit{"ns", 1}
}

// inUnit writes ns nanoseconds in unit u with at most 6 decimals: readable, and exact for whole
// nanoseconds up to seconds and for the milliseconds of any size.
func inUnit(ns float64, u timeUnit) string {
	s := strconv.FormatFloat(ns/u.size, 'f', 6, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// span writes a wait's bounds and mean in unit u: "80–120 ms (mean 100 ms)".
func span(lo, hi time.Duration, mean float64, u timeUnit) string {
	if lo == hi {
		return "exactly " + inUnit(float64(lo), u) + " " + u.name
	}
	return inUnit(float64(lo), u) + "–" + inUnit(float64(hi), u) + " " + u.name + " (mean " + inUnit(mean, u) + " " + u.name + ")"
}

// dur writes a duration exactly, for a sentence: "15 min", "1.5 s", "25.5 ms", "150 µs".
func dur(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + " h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + " min"
	}
	u := unitFor(d)
	return inUnit(float64(d), u) + " " + u.name
}

func attemptsText(n int) string {
	a, rt := "attempts", "retries"
	if n == 1 {
		a = "attempt"
	}
	if n == 2 {
		rt = "retry"
	}
	return strconv.Itoa(n) + " " + a + " (" + strconv.Itoa(n-1) + " " + rt + ")"
}

func inAllText(attempts int) string {
	if attempts == 1 {
		return "1 attempt in all"
	}
	return strconv.Itoa(attempts) + " attempts in all"
}

func growthText(g policy.Growth) string {
	if g == policy.Linear {
		return "linearly (base × k)"
	}
	return "by a factor each retry"
}

// jitterText says how p's mode draws a wait from the retry's delay d: "uniformly in [d/2, d]
// (equal jitter)", "uniformly in [d × 0.8, d × 1.2] (±20%)". The range is calc's (Jitter.Bounds),
// written as a formula of d; a classic mode names itself, a mode that reads ratio gives the
// percentage instead.
func jitterText(p calc.Params) string {
	j := p.Jitter
	lo, hi, step, ok := j.Bounds(p.Params, 0)
	if !ok {
		if f, ok := chainFormulas[j]; ok {
			return f
		}
		return "with jitter " + j.String()
	}
	lower := func(p calc.Params, d float64) float64 { lo, _, _, _ := j.Bounds(p.Params, d); return lo }
	upper := func(p calc.Params, d float64) float64 { _, hi, _, _ := j.Bounds(p.Params, d); return hi }
	loText, hiText := boundText(p, lower), boundText(p, upper)
	if step != 0 {
		n, unit := wholeUnit(step, [6]string{"hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"})
		steps := "a whole number of " + unit
		if n != 1 {
			steps = "a whole multiple of " + dur(step)
		}
		return steps + " in [" + loText + ", " + hiText + ")"
	}
	// A mode whose range is one point whatever ratio and add are draws nothing.
	probe := p
	probe.Ratio, probe.Add = 0.5, time.Second
	if lo, hi, _, _ = j.Bounds(probe.Params, 1); lo == hi {
		return "exactly " + loText
	}
	s := "uniformly in [" + loText + ", " + hiText + "]"
	switch {
	case j.UsesRatio() && readsRatio(p, lower):
		s += " (±" + number(p.Ratio*100) + "%)"
	case j.UsesRatio():
		s += " (+" + number(p.Ratio*100) + "%)"
	case j.Library() == "":
		s += " (" + strings.ToLower(j.Title()) + ")"
	}
	return s
}

// chainFormulas are the formulas of the modes whose wait depends on the previous one, whose law
// calc's table gives as code rather than as a range of d.
var chainFormulas = map[policy.Jitter]string{
	policy.Decorrelated: "min(cap, base + U × (3 × the previous wait − base)) (decorrelated jitter)",
	policy.DecorrelatedV2: "min(cap, (g(t) − g(t′)) × base / 1.4) in whole 100 ns ticks, with t = k − 1 + U, t′ the previous retry's t (g(t′) = 0 before the first) and " +
		"g(t) = 2^t × tanh(√(4t)) (Polly's DecorrelatedJitterBackoffV2)",
}

// boundText writes one end of a mode's range, bound(p, d), as a formula of d: "0", "d", "d/2",
// "d × 1.2" where ratio moves it, "d + 1 s" where add does.
func boundText(p calc.Params, bound func(p calc.Params, d float64) float64) string {
	offset := bound(p, 0)
	a := bound(p, 1) - offset
	var s string
	switch {
	case readsRatio(p, bound):
		s = "d × " + number(a)
	case a == 0:
		s = "0"
	case a == 1:
		s = "d"
	case 1/a == math.Trunc(1/a):
		s = "d/" + number(1/a)
	default:
		s = "d × " + number(a)
	}
	withAdd := p
	withAdd.Add = p.Add + time.Second
	if offset != 0 || bound(withAdd, 0) != offset {
		s += " + " + dur(time.Duration(offset))
	}
	return s
}

// readsRatio says whether bound moves with the ratio.
func readsRatio(p calc.Params, bound func(p calc.Params, d float64) float64) bool {
	q0, q1 := p, p
	q0.Ratio, q1.Ratio = 0, 0.5
	return bound(q0, 1) != bound(q1, 1)
}

func capAtText(c policy.CapAt) string {
	switch c {
	case policy.CapAfter:
		return "clamps the drawn wait at the cap"
	case policy.CapFixed:
		return "waits exactly the cap, without jitter, once the delay passes it"
	}
	return "caps the delay before the jitter"
}

// decimalSeconds writes d as an exact decimal number of seconds: 0.1, 2.5, 10.
func decimalSeconds(d time.Duration) string {
	s := strconv.FormatInt(int64(d/time.Second), 10)
	if frac := int64(d % time.Second); frac != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(1e9+frac, 10)[1:], "0")
	}
	return s
}

// protoDuration writes d in protobuf JSON form, with 0, 3, 6 or 9 decimals: "0.100s", "10s".
func protoDuration(d time.Duration) string {
	s := strconv.FormatInt(int64(d/time.Second), 10)
	frac := int64(d % time.Second)
	switch {
	case frac == 0:
		return s + "s"
	case frac%1e6 == 0:
		return s + "." + strconv.FormatInt(1e3+frac/1e6, 10)[1:] + "s"
	case frac%1e3 == 0:
		return s + "." + strconv.FormatInt(1e6+frac/1e3, 10)[1:] + "s"
	}
	return s + "." + strconv.FormatInt(1e9+frac, 10)[1:] + "s"
}

// wholeUnit writes d as n × the largest unit that holds it whole, with the unit's name from names
// (hour, minute, second, millisecond, microsecond, nanosecond); an empty name is a unit the
// language lacks, and the result is then (d, names[5]).
func wholeUnit(d time.Duration, names [6]string) (n int64, name string) {
	sizes := [...]time.Duration{time.Hour, time.Minute, time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}
	for i, size := range sizes {
		if names[i] != "" && d%size == 0 {
			return int64(d / size), names[i]
		}
	}
	return int64(d), names[5]
}

// goDurationExpr writes d as Go; gofmt writes the product without spaces where it is an
// argument of a call (compact).
func goDurationExpr(d time.Duration, compact bool) string {
	if d == 0 {
		return "0"
	}
	n, unit := wholeUnit(d, [6]string{"time.Hour", "time.Minute", "time.Second", "time.Millisecond", "time.Microsecond", "time.Nanosecond"})
	switch {
	case n == 1:
		return unit
	case compact:
		return strconv.FormatInt(n, 10) + "*" + unit
	}
	return strconv.FormatInt(n, 10) + " * " + unit
}

// goStruct writes a Go composite literal's fields aligned as gofmt aligns them.
func goStruct(b *strings.Builder, indent string, fields [][2]string) {
	w := 0
	for _, f := range fields {
		w = max(w, len(f[0]))
	}
	for _, f := range fields {
		b.WriteString(indent + f[0] + ":" + strings.Repeat(" ", w-len(f[0])+1) + f[1] + ",\n")
	}
}
