package policy

import (
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The language of durations as regular expressions: what the scanners (durationParts,
// decimalPrefix) were written from, and are held to.
var (
	decimalRe      = regexp.MustCompile(`^` + decimalSyntax + `$`)
	goDurationRe   = regexp.MustCompile(`^(` + decimalSyntax + `(ns|us|µs|μs|ms|s|m|h))+$`)
	durationPartRe = regexp.MustCompile(`(` + decimalSyntax + `)(ns|us|µs|μs|ms|s|m|h)`)
)

// The scanners accept what the regular expressions match, and split a duration into the same
// parts, on every string of up to 9 characters drawn from what durations are made of.
func TestDurationScannerAsRegexp(t *testing.T) {
	pieces := []string{"0", "1", "5", "9", ".", "n", "u", "µ", "μ", "m", "s", "h", "x", "-", " "}
	r := rand.New(rand.NewPCG(5, 6))
	valid := 0
	for range 400000 {
		var b strings.Builder
		for range 1 + r.IntN(9) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		v := b.String()
		if isDecimal(v) != decimalRe.MatchString(v) {
			t.Fatalf("%q: isDecimal %v, the regexp %v", v, isDecimal(v), !isDecimal(v))
		}
		var parts [][]string
		ok := durationParts(v, func(number, unit string) { parts = append(parts, []string{number + unit, number, unit}) })
		if ok != goDurationRe.MatchString(v) {
			t.Fatalf("%q: durationParts %v, the regexp %v", v, ok, !ok)
		}
		if !ok {
			continue
		}
		valid++
		if want := durationPartRe.FindAllStringSubmatch(v, -1); !slices.EqualFunc(parts, want, slices.Equal) {
			t.Fatalf("%q: parts %q, the regexp's %q", v, parts, want)
		}
	}
	if valid < 1000 {
		t.Fatalf("only %d durations among the strings", valid)
	}
}

// durationTests are durations as written and their exact value in nanoseconds, computed by hand;
// want -1 means refused as not a whole number of nanoseconds. They also seed FuzzParseDuration.
var durationTests = []struct {
	in   string
	want int64
}{
	{"250", 250e6},
	{"2.5", 2.5e6},
	{".5", 500e3},
	{"5.", 5e6},
	{"0.000001", 1},
	{"0.0000010", 1},
	{"0.0000001", -1},
	{"1.5s", 1.5e9},
	{"0.1ms", 100e3},
	{"1.9ns", -1},
	{"1.000000001s", 1e9 + 1},
	{"1.0000000001s", -1},
	{"1.5us", 1500},
	{"1.5µs", 1500},
	{"1.5μs", 1500},
	{"0.0001us", -1},
	{"0.00000000005m", 3},    // 5e-11 × 6e10
	{"0.00000000001m", -1},   // 0.6 ns
	{"0.0000000000025h", 9},  // 2.5e-12 × 3.6e12
	{"0.0000000000001h", -1}, // 0.36 ns
	{"1.0000000000025h", 3600e9 + 9},
	{"2m30s", 150e9},
	{"1h0.5m", 3600e9 + 30e9},
	{"0.5ns0.5ns", 1},            // time.ParseDuration: 0
	{"1.5ns1.5ns1h", 3600e9 + 3}, // time.ParseDuration: 1h2ns
	{"0.5ns0.4ns", -1},
	{"0." + strings.Repeat("3", 500) + "ns0." + strings.Repeat("6", 499) + "7ns", 1},
	{"1." + strings.Repeat("0", 1000) + "s", 1e9},
	{"000000000000000000000000001s", 1e9},
	{"9223372036854775807ns", math.MaxInt64},
	{"9223372036.854775807s", math.MaxInt64},
	{"2562047h47m16.854775807s", math.MaxInt64},
}

func TestParseDuration(t *testing.T) {
	for _, tt := range durationTests {
		d, err := parseDuration(tt.in)
		switch {
		case tt.want < 0 && (err == nil || !strings.Contains(err.Error(), "whole number of nanoseconds")):
			t.Errorf("parseDuration(%q) = %d, %v; want not a whole number of nanoseconds", tt.in, d, err)
		case tt.want >= 0 && (err != nil || int64(d) != tt.want):
			t.Errorf("parseDuration(%q) = %d, %v; want %d", tt.in, d, err, tt.want)
		}
		// The hand computation, checked against the oracle.
		if r := ratNanos(tt.in); tt.want < 0 && r.IsInt() || tt.want >= 0 && r.Cmp(big.NewRat(tt.want, 1)) != 0 {
			t.Errorf("the table's %q: %d, but big.Rat makes it %s ns", tt.in, tt.want, r.RatString())
		}
	}
}

func TestParseDurationTooLarge(t *testing.T) {
	for _, in := range []string{
		"9223372036854775808ns", "9223372036.854775808s", "2562048h", "18446744073709551616ns",
		"5124095576030431h", // times 36 × 10^11 wraps a uint64 to a small number
		"9223372036854775807ns1ns", "9223372036854775807ns0.5ns0.5ns", strings.Repeat("9", 100000),
		// The whole parts make 2^64 − 1 ns, and the fractions carry 1 and 6 ns: a uint64 wraps.
		"9223372036854775807ns9223372036854775808ns0.5ns0.5ns",
		"9223372036854775807ns9223372036854775808ns" + strings.Repeat("0.5ns", 12),
	} {
		if d, err := parseDuration(in); err == nil || err.Error() != "too large" {
			t.Errorf("parseDuration(%.40q) = %d, %v; want too large", in, d, err)
		}
	}
}

// ratNanos is the exact value of a duration in nanoseconds, with big.Rat: the tests' oracle,
// written apart from nanos. It reads the parts by hand: digits and points, then a unit.
func ratNanos(v string) *big.Rat {
	unitNanos := map[string]int64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}
	if !strings.ContainsAny(v, "nuµμmsh") {
		v += "ms"
	}
	sum := new(big.Rat)
	for v != "" {
		num := v[:strings.IndexFunc(v, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })]
		v = v[len(num):]
		end := strings.IndexAny(v, ".0123456789")
		if end < 0 {
			end = len(v)
		}
		x, _ := new(big.Rat).SetString(num)
		sum.Add(sum, x.Mul(x, big.NewRat(unitNanos[v[:end]], 1)))
		v = v[end:]
	}
	return sum
}

// FuzzParseDuration checks parseDuration against big.Rat on everything goDuration accepts: the
// exact value when it is a whole number of nanoseconds that fits, an error otherwise.
func FuzzParseDuration(f *testing.F) {
	for _, tt := range durationTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, err := parseDuration(v)
		if !decimalRe.MatchString(v) && !goDurationRe.MatchString(v) {
			if err == nil {
				t.Fatalf("parseDuration(%q) = %d, not an error", v, d)
			}
			return
		}
		want := ratNanos(v)
		fits := want.Cmp(big.NewRat(math.MaxInt64, 1)) <= 0
		switch {
		case !fits:
			if err == nil || err.Error() != "too large" {
				t.Fatalf("parseDuration(%q) = %d, %v; big.Rat: %s, too large", v, d, err, want.FloatString(3))
			}
		case !want.IsInt():
			if err == nil || !strings.Contains(err.Error(), "whole number of nanoseconds") {
				t.Fatalf("parseDuration(%q) = %d, %v; big.Rat: %s, not whole", v, d, err, want.FloatString(3))
			}
		case err != nil || big.NewRat(int64(d), 1).Cmp(want) != 0:
			t.Fatalf("parseDuration(%q) = %d, %v; big.Rat: %s", v, d, err, want.RatString())
		}
	})
}

// time.ParseDuration agrees wherever every part is a whole number of nanoseconds.
func TestParseDurationAsGo(t *testing.T) {
	for _, in := range []string{"250ms", "1.5s", "2m30s", "1h0.5m", "0.0000000000025h", "1.000000001s", "168h", "1.5µs"} {
		d, err := parseDuration(in)
		want, _ := time.ParseDuration(in)
		if err != nil || d != want {
			t.Errorf("parseDuration(%q) = %v, %v; time.ParseDuration: %v", in, d, err, want)
		}
	}
}

// What TypedDuration writes reads back as the same duration (TestTypedDuration holds what it
// writes).
func TestTypedDurationReadsBack(t *testing.T) {
	for _, d := range []time.Duration{1, 999, 1001, 64500000, 157142857, 1599999999, 204600 * time.Millisecond, 90061001001001, MaxCap, MaxCap - 1} {
		back, err := parseDuration(TypedDuration(d))
		if err != nil || back != d {
			t.Errorf("TypedDuration(%d) = %q reads back as %d (%v)", d, TypedDuration(d), back, err)
		}
	}
}
