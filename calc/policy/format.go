package policy

import (
	"math"
	"math/big"
	"slices"
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

// humanUnit is one of the units Human writes, with its name in Go's duration syntax.
type humanUnit struct {
	name, goName string
	size         int64 // nanoseconds
}

// humanUnits run from the largest down; the last, ns, takes whatever is below a microsecond.
var humanUnits = []humanUnit{
	{"d", "", 24 * 3600e9}, {"h", "h", 3600e9}, {"min", "m", 60e9}, {"s", "s", 1e9},
	{"ms", "ms", 1e6}, {"µs", "us", 1e3}, {"ns", "ns", 1},
}

// unitOf is the index in humanUnits of the largest unit that ns is at least one of.
func unitOf(ns float64) int {
	for i, u := range humanUnits[:len(humanUnits)-1] {
		if ns >= float64(u.size) {
			return i
		}
	}
	return len(humanUnits) - 1
}

// Human writes ns nanoseconds for people, with three significant digits and a unit that keeps
// the number small: "350 ms", "1.25 s", "3.4 min", "2 h", "7 d"; zero is "0". It rounds half up,
// as a person does by hand: 912.5 ms is "913 ms", 1.005 s "1.01 s". A number that rounds up to
// the next unit is written in it: 999.96 ms is "1 s", not "1000 ms", and 59.996 s is "1 min".
func Human(ns float64) string { return humanSig(ns, 3) }

// humanSig is Human with sig significant digits (or all of the integer part).
func humanSig(ns float64, sig int) string {
	if ns == 0 {
		return "0"
	}
	num, u := humanParts(ns, sig)
	return num + " " + u.name
}

// humanParts are humanSig's number and unit for ns > 0.
func humanParts(ns float64, sig int) (string, humanUnit) {
	i := unitOf(ns)
	u := humanUnits[i]
	num := sigDigits(ns/float64(u.size), sig)
	if i > 0 {
		// Rounded up to a whole larger unit (1000 ms, 60 s): write it in that unit.
		if v, _ := strconv.ParseFloat(num, 64); v*float64(u.size) >= float64(humanUnits[i-1].size) {
			u = humanUnits[i-1]
			num = sigDigits(ns/float64(u.size), sig)
		}
	}
	return num, u
}

// threeDigits writes v >= 0 with three significant digits (or all of its integer part), without
// trailing zeros: 1.25, 12.5, 350, 1234.
func threeDigits(v float64) string { return sigDigits(v, 3) }

// sigDigits writes v >= 0 with sig significant digits (or all of its integer part), rounded half
// up, without trailing zeros: 912.5 is 913 at 3, 1.0025 is 1.003 at 4.
func sigDigits(v float64, sig int) string { return trimZeros(halfUp(v, places(v, sig))) }

// places is how many decimals write v >= 0 with sig significant digits, or all of its integer
// part.
func places(v float64, sig int) int {
	n := sig - 1
	for x := 10.0; v >= x && n > 0; x *= 10 {
		n--
	}
	return n
}

// Decimal writes x with places decimals, trailing zeros kept, rounded half up as a person
// rounds the decimal x reads as: a mean of 123.45 calls is "123.5" at 1, where strconv writes
// "123.4" (the binary value is below the tie); 8 is "8.00" at 2.
func Decimal(x float64, places int) string {
	if x < 0 {
		return "-" + halfUp(-x, places)
	}
	return halfUp(x, places)
}

// halfUp writes x with places decimals, rounded half away from zero, as a person rounds the
// decimal that x reads as (its shortest, strconv's 'f' -1): 912.5 is "913" at 0 places, 1.005
// "1.01" at 2, where strconv rounds the binary value (1.00499999…) or a tie to even ("912").
func halfUp(x float64, places int) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	i := strings.IndexByte(s, '.')
	if i < 0 || len(s)-i-1 <= places {
		return strconv.FormatFloat(x, 'f', places, 64)
	}
	if len(s)-i-1 != places+1 || s[len(s)-1] != '5' {
		// Not a tie: the binary value and its decimal round the same way.
		return strconv.FormatFloat(x, 'f', places, 64)
	}
	// A tie of the decimal: cut its last digit, a 5, and add one in the last place kept.
	b := []byte(s[:len(s)-1])
	if places == 0 {
		b = b[:i]
	}
	for j := len(b) - 1; j >= 0; j-- {
		switch {
		case b[j] == '.':
			continue
		case b[j] < '9':
			b[j]++
			return string(b)
		}
		b[j] = '0'
	}
	return "1" + string(b)
}

// HumanExact writes d as Human does when that text is exactly d, and otherwise with every digit
// that d needs, in seconds or a smaller unit: a budget of 1.2345s is "1.2345 s", not "1.23 s",
// so that a number beside it can be told apart from it; 2s is "2 s"; 100.5s is "100.5 s" (1.675
// min would round). It is how the page writes a limit that it compares numbers with.
func HumanExact(d time.Duration) string {
	if d <= 0 {
		return Human(float64(d))
	}
	num, u := humanParts(float64(d), 3)
	if reads(num, u).Cmp(new(big.Rat).SetInt64(int64(d))) == 0 {
		return num + " " + u.name
	}
	num, u = exactParts(d)
	return num + " " + u.name
}

// exactParts writes d > 0 exactly, in Human's unit when d is a terminating decimal of it (204.6
// s is 3.41 min), otherwise in the largest of s, ms, µs and ns that d is at least one of.
func exactParts(d time.Duration) (string, humanUnit) {
	i := unitOf(float64(d))
	if num, ok := exactIn(d, humanUnits[i]); ok {
		return num, humanUnits[i]
	}
	for _, u := range humanUnits[3 : len(humanUnits)-1] {
		if int64(d) >= u.size {
			num, _ := exactIn(d, u) // a whole number of ns is a terminating decimal of s, ms, µs
			return num, u
		}
	}
	return strconv.FormatInt(int64(d), 10), humanUnits[len(humanUnits)-1]
}

// exactIn writes d in unit u as a decimal, reporting false when it does not terminate within
// 12 places (a third of a minute).
func exactIn(d time.Duration, u humanUnit) (string, bool) {
	r := new(big.Rat).SetFrac(big.NewInt(int64(d)), big.NewInt(u.size))
	s := r.FloatString(12)
	if back, _ := new(big.Rat).SetString(s); back.Cmp(r) != 0 {
		return "", false
	}
	return trimZeros(s), true
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// reads is the exact value, in nanoseconds, that a reader takes num u for.
func reads(num string, u humanUnit) *big.Rat {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return new(big.Rat)
	}
	return r.Mul(r, new(big.Rat).SetInt64(u.size))
}

// HumanBeside writes ns as Human does, beside limits the page states (a budget, an outage's
// end): rounding never puts it on the other side of one. A limit is crossed when a value below
// it would read as at least it, or a value at or above it would read as below it (a start
// before a budget is made, at the budget it is not). With a 2s budget, 1.999999999s is "< 2 s"
// where Human writes "2 s", and 2.0004s stays "2 s"; beside a 1.2345s budget, 1.2346s is
// "1.2346 s". Limits of 0 or less are none.
func HumanBeside(ns float64, limits ...time.Duration) string { return humanBeside(ns, 3, limits) }

// humanBeside is HumanBeside with sig significant digits.
func humanBeside(ns float64, sig int, limits []time.Duration) string {
	if ns <= 0 || math.IsNaN(ns) || math.IsInf(ns, 0) {
		return humanSig(ns, sig)
	}
	num, u := humanParts(ns, sig) // humanSig's, once: every number on the page is written here
	s := num + " " + u.name
	for _, b := range limits {
		// Three digits are off by less than 0.5%: far from a limit nothing can cross it.
		if b <= 0 || math.Abs(ns-float64(b)) > 0.01*float64(b) {
			continue
		}
		at := new(big.Rat).SetInt64(int64(b))
		v := new(big.Rat).SetFloat64(ns)
		shown := reads(num, u).Cmp(at)
		switch below := v.Cmp(at) < 0; {
		case below && shown >= 0:
			return "< " + HumanExact(b)
		case !below && shown < 0:
			// b reads as more digits than Human's (HumanExact): write ns rounded up in
			// b's unit with as many places as b needs, which is at least b.
			bnum, bu := exactParts(b)
			places := 0
			if i := strings.IndexByte(bnum, '.'); i >= 0 {
				places = len(bnum) - i - 1
			}
			return ceilIn(v, bu, places) + " " + bu.name
		}
	}
	return s
}

// HumanList writes times shown together (a column of window starts, the totals side by side)
// as HumanBeside writes each, with the digits that tell them apart: each has as many
// significant digits, three or more, as tell it from the times next to it in value. Windows of
// 100 ms from 1 min read "1 min", "1.002 min", "1.003 min" where three digits read "1 min" for
// each of the first six; totals of 20.4100 d, 20.4200 d and 20.4201 d read "20.41 d",
// "20.42 d" and "20.4201 d". Equal times read the same, and a time that reads "< 2 s" beside a
// 2 s limit keeps doing so.
func HumanList(ns []float64, limits ...time.Duration) []string {
	sorted := make([]float64, 0, len(ns))
	for _, x := range ns {
		if !math.IsNaN(x) {
			sorted = append(sorted, x)
		}
	}
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	// at is sorted[j] written with d digits, each written once: a time is compared with both
	// its neighbours, then written.
	memo := make([]string, len(sorted)*18)
	at := func(j, d int) string {
		if memo[j*18+d] == "" {
			memo[j*18+d] = humanBeside(sorted[j], d, limits)
		}
		return memo[j*18+d]
	}
	// need[j] is the digits that tell sorted[j-1] and sorted[j] apart; seventeen tell any two
	// float64 apart.
	need := make([]int, len(sorted)+1)
	most := 3
	for j := 1; j < len(sorted); j++ {
		need[j] = 3
		for need[j] < 17 && at(j-1, need[j]) == at(j, need[j]) {
			need[j]++
		}
		most = max(most, need[j])
	}
	pos := make(map[float64]int, len(sorted))
	for j, x := range sorted {
		pos[x] = j
	}
	// write is x with d digits, or with its own (d 0): the digits its neighbours need.
	write := func(x float64, d int) string {
		j, ok := pos[x]
		switch {
		case !ok:
			return humanBeside(x, d, limits) // NaN
		case d == 0:
			d = max(3, need[j], need[j+1])
		}
		return at(j, d)
	}
	out := make([]string, len(ns))
	of := make(map[string]float64, len(sorted))
	for i, x := range ns {
		out[i] = write(x, 0)
		if y, ok := of[out[i]]; ok && y != x && !math.IsNaN(x) {
			// Two times at different digits read the same: give every time the most digits
			// any two neighbours need. Rounding is monotonic, so that neighbours that read
			// differently make every two.
			for i, x := range ns {
				out[i] = write(x, most)
			}
			return out
		}
		of[out[i]] = x
	}
	return out
}

// ceilIn writes v nanoseconds in unit u rounded up to places decimals.
func ceilIn(v *big.Rat, u humanUnit, places int) string {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)
	x := new(big.Rat).Quo(v, new(big.Rat).SetInt64(u.size))
	x.Mul(x, new(big.Rat).SetInt(scale))
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return trimZeros(new(big.Rat).SetFrac(q, scale).FloatString(places))
}

// TypedDuration writes d > 0 as a person types it into a duration field: Go's syntax, in the
// unit Human writes it in (hours for days), exactly: 64.5ms, 1.25s, 3.41m, 36h, 588us.
func TypedDuration(d time.Duration) string {
	if d <= 0 {
		return FormatDuration(d)
	}
	i := max(unitOf(float64(d)), 1) // Go's syntax has no days
	if num, ok := exactIn(d, humanUnits[i]); ok {
		return num + humanUnits[i].goName
	}
	num, u := exactParts(d)
	return num + u.goName
}

// floorDuration is d > 0 rounded down to sig significant digits in the unit Human writes it
// in (or all of its whole units): 64.516129ms is 64.5ms at 3 digits, 204.9s is 3.41 min.
func floorDuration(d time.Duration, sig int) time.Duration {
	u := humanUnits[unitOf(float64(d))]
	whole := len(strconv.FormatInt(int64(d)/u.size, 10))
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(0, sig-whole))), nil)
	// floor(d·10^places / size) · size / 10^places, in whole nanoseconds
	n := new(big.Int).Mul(big.NewInt(int64(d)), scale)
	n.Quo(n, big.NewInt(u.size))
	n.Mul(n, big.NewInt(u.size))
	n.Quo(n, scale)
	return time.Duration(n.Int64())
}

// floorFactor is f >= 1 rounded down to sig significant digits: 2.701562117553472 is 2.701 at
// 4. The result reads back from its shortest decimal (formatFloat) as itself.
func floorFactor(f float64, sig int) float64 {
	s := FormatFloat(f)
	whole, frac, _ := strings.Cut(s, ".")
	if places := sig - len(whole); places < len(frac) {
		frac = frac[:max(0, places)]
	}
	y, err := strconv.ParseFloat(whole+"."+frac+"0", 64)
	if err != nil || y > f {
		return f
	}
	return y
}

// Percent writes a share in [0, 1] as a percentage with three significant digits, rounded half
// up: 0.3921 is "39.2%", 0.03125 "3.13%"; a share too small to show that way is "< 0.01%", and
// one short of 1 that would read "100%" has the digits that tell it from all: 0.9995 is "99.95%".
func Percent(share float64) string {
	v := share * 100
	if v > 0 && v < 0.01 {
		return "< 0.01%"
	}
	// The share as it reads (its shortest decimal), times 100 exactly, rounded half up: 0.03125
	// is "3.13%", where share * 100 may fall just below a tie.
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(share, 'f', -1, 64))
	if !ok {
		return threeDigits(v) + "%"
	}
	r.Mul(r, big.NewRat(100, 1))
	n := places(v, 3)
	s := trimZeros(r.FloatString(n))
	// Short of all is never all: 0.9995 is "99.95%", not "100%" (an attempt that 1 path in 2000
	// does not make).
	for ; s == "100" && share < 1 && n < 6; n++ {
		s = trimZeros(r.FloatString(n + 1))
	}
	if s == "100" && share < 1 {
		return "> 99.9999%"
	}
	return s + "%"
}

// Plural is one for n = 1 and many otherwise: Plural(1, "retry", "retries") is "retry",
// Plural(0, "retry", "retries") "retries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// FormatDuration writes d in the largest of h, m, s, ms, us, ns that holds it whole, so that the
// text is short, ASCII, and parses back to exactly d: 1500ms, 10s, 700us, 168h.
func FormatDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	units := []struct {
		name string
		size time.Duration
	}{{"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}, {"ms", time.Millisecond}, {"us", time.Microsecond}}
	for _, u := range units {
		if d%u.size == 0 {
			return strconv.FormatInt(int64(d/u.size), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}

// FormatFloat writes the shortest decimal that parses back to x; -0 is written as 0.
func FormatFloat(x float64) string {
	return strconv.FormatFloat(x+0, 'f', -1, 64)
}
