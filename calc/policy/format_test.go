package policy

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMillis(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0", 1: "0.000001", 700 * time.Microsecond: "0.7", 2500 * time.Millisecond: "2500",
		MaxCap: "604800000", -1500 * time.Microsecond: "-1.5", 1234567891: "1234.567891",
	} {
		if got := Millis(d); got != want {
			t.Errorf("Millis(%d) = %q, want %q", d, got, want)
		}
	}
	if got := MillisFloat(1.25e9); got != "1250" {
		t.Errorf("MillisFloat(1.25e9) = %q", got)
	}
}

func TestHuman(t *testing.T) {
	for ns, want := range map[float64]string{
		0: "0", 999: "999 ns", 350e6: "350 ms", 1.25e9: "1.25 s", 1.2e9: "1.2 s", 204e9: "3.4 min",
		7200e9: "2 h", 7 * 24 * 3600e9: "7 d", 12.5e6: "12.5 ms", 700e3: "700 µs",
	} {
		if got := Human(ns); got != want {
			t.Errorf("Human(%v) = %q, want %q", ns, got, want)
		}
	}
}

func TestPercent(t *testing.T) {
	for share, want := range map[float64]string{0: "0%", 1: "100%", 0.3921: "39.2%", 0.05: "5%", 1e-9: "< 0.01%", 0.0123: "1.23%"} {
		if got := Percent(share); got != want {
			t.Errorf("Percent(%v) = %q, want %q", share, got, want)
		}
	}
}

// A number that rounds up to a whole larger unit is written in that unit, so that a table never
// shows "1000 ms" beside "2 s".
func TestHumanCarries(t *testing.T) {
	for ns, want := range map[float64]string{
		999.95e6: "1 s", 999.4e6: "999 ms", 59.99e9: "1 min", 59.9e9: "59.9 s", 999.6: "1 µs",
		999.96e3: "1 ms", 59.996 * 60e9: "1 h", 23.999 * 3600e9: "1 d", 9.996e9: "10 s",
	} {
		if got := Human(ns); got != want {
			t.Errorf("Human(%v) = %q, want %q", ns, got, want)
		}
	}
}

func TestHumanExact(t *testing.T) {
	for d, want := range map[time.Duration]string{
		2 * time.Second: "2 s", 1234500 * time.Microsecond: "1.2345 s", 100500 * time.Millisecond: "1.675 min", 100300 * time.Millisecond: "100.3 s",
		204600 * time.Millisecond: "3.41 min", 1: "1 ns", 1500: "1.5 µs", time.Hour: "1 h",
		1999999999: "1.999999999 s", 80 * time.Second: "80 s", 0: "0",
	} {
		if got := HumanExact(d); got != want {
			t.Errorf("HumanExact(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestHumanBeside(t *testing.T) {
	for _, c := range []struct {
		ns     float64
		limits []time.Duration
		want   string
	}{
		{1999999999, []time.Duration{2 * time.Second}, "< 2 s"},
		{2e9, []time.Duration{2 * time.Second}, "2 s"},
		{2.0004e9, []time.Duration{2 * time.Second}, "2 s"},
		{1999999999.5, []time.Duration{2 * time.Second}, "< 2 s"}, // a mean
		{1.9e9, []time.Duration{2 * time.Second}, "1.9 s"},
		{5e9, []time.Duration{2 * time.Second}, "5 s"},
		{1.23461e9, []time.Duration{1234500 * time.Microsecond}, "1.2347 s"}, // at least the limit, never "1.23 s"
		{1.2345e9, []time.Duration{1234500 * time.Microsecond}, "1.2345 s"},
		{1.2344e9, []time.Duration{1234500 * time.Microsecond}, "1.23 s"},
		{999.7, []time.Duration{time.Microsecond}, "< 1 µs"},
		{59.99e9, []time.Duration{time.Minute}, "< 1 min"},
		{999.96e6, []time.Duration{0, -1, time.Second}, "< 1 s"},
		{1999999999, nil, "2 s"},
		{0, []time.Duration{2 * time.Second}, "0"},
	} {
		if got := HumanBeside(c.ns, c.limits...); got != c.want {
			t.Errorf("HumanBeside(%v, %v) = %q, want %q", c.ns, c.limits, got, c.want)
		}
	}
}

// Around many limits, a value below one never reads as at least it, and one at or above it
// never reads as below it: what the text says is compared exactly with the limit.
func TestHumanBesideNeverCrosses(t *testing.T) {
	units := map[string]int64{"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "h": 3600e9, "d": 24 * 3600e9}
	for _, b := range []time.Duration{2 * time.Second, time.Second, 1234500 * time.Microsecond, 100500 * time.Millisecond,
		time.Minute, 80 * time.Second, 999 * time.Millisecond, 1500, 7 * time.Hour, 3 * 24 * time.Hour, 1999999999} {
		for _, rel := range []float64{-0.006, -0.005, -0.004, -0.0005, -1e-5, -1e-9, 0, 1e-9, 1e-5, 0.0004, 0.0049, 0.005, 0.006} {
			for _, v := range []float64{float64(b) * (1 + rel), float64(b) - 1, float64(b) + 1} {
				s := HumanBeside(v, b)
				if rest, ok := strings.CutPrefix(s, "< "); ok {
					if v >= float64(b) || rest != HumanExact(b) {
						t.Errorf("HumanBeside(%v, %v) = %q", v, b, s)
					}
					continue
				}
				num, unit, _ := strings.Cut(s, " ")
				r, ok := new(big.Rat).SetString(num)
				if !ok || units[unit] == 0 {
					t.Fatalf("HumanBeside(%v, %v) = %q: no number and unit", v, b, s)
				}
				r.Mul(r, new(big.Rat).SetInt64(units[unit]))
				if below, reads := v < float64(b), r.Cmp(new(big.Rat).SetInt64(int64(b))) < 0; below != reads {
					t.Errorf("HumanBeside(%v, %v) = %q reads on the other side of the limit", v, b, s)
				}
			}
		}
	}
}

func TestTypedDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		64500 * time.Microsecond: "64.5ms", 588 * time.Microsecond: "588us", 204600 * time.Millisecond: "3.41m",
		36 * time.Hour: "36h", 157 * time.Millisecond: "157ms", 1: "1ns", 1250 * time.Millisecond: "1.25s",
		100500 * time.Millisecond: "1.675m", 100300 * time.Millisecond: "100.3s", 157142857: "157.142857ms",
	} {
		if got := TypedDuration(d); got != want {
			t.Errorf("TypedDuration(%v) = %q, want %q", d, got, want)
		}
	}
	// What is typed reads back as the same duration: calc's TestTypedDurationReadsBack.
}

func TestFloorDigits(t *testing.T) {
	for _, c := range []struct {
		d, want time.Duration
		sig     int
	}{
		{64516129, 64500000, 3}, {204900 * time.Millisecond, 204600 * time.Millisecond, 3}, {1599999999, 1590000000, 3},
		{1599999999, 1599000000, 4}, {999, 999, 3}, {1, 1, 3}, {1599999999, 1599999999, 12}, {MaxCap, MaxCap, 3},
	} {
		if got := floorDuration(c.d, c.sig); got != c.want {
			t.Errorf("floorDuration(%d, %d) = %d, want %d", c.d, c.sig, got, c.want)
		}
	}
	for _, c := range []struct{ f, want float64 }{{2.701562117553472, 2.701}, {1.0016802034597139, 1.001}, {100, 100}, {1.5, 1.5}, {1, 1}, {12.34567, 12.34}} {
		if got := floorFactor(c.f, 4); got != c.want {
			t.Errorf("floorFactor(%v, 4) = %v, want %v", c.f, got, c.want)
		}
	}
}

// Display rounding is half up, as a person rounds by hand (issue 37): strconv rounds a tie to
// even (912.5 to 912) and rounds the binary value of 1.005 (1.00499999…) down. Each want is
// the decimal rounded by hand.
func TestHumanRoundsHalfUp(t *testing.T) {
	for ns, want := range map[float64]string{
		912.5e6: "913 ms", 1.005e9: "1.01 s", 1.125e9: "1.13 s", 12.25e6: "12.3 ms", 2.5e3: "2.5 µs",
		60.3e9: "1.01 min", 1.0625e9: "1.06 s", 912.4999e6: "912 ms", 999.5e6: "1 s", 0.5: "0.5 ns",
	} {
		if got := Human(ns); got != want {
			t.Errorf("Human(%v) = %q, want %q", ns, got, want)
		}
	}
	for share, want := range map[float64]string{0.03125: "3.13%", 0.0085: "0.85%", 0.14505: "14.5%", 0.9995: "99.95%", 0.99999: "99.999%", 1 - 1e-12: "> 99.9999%", 1: "100%"} {
		if got := Percent(share); got != want {
			t.Errorf("Percent(%v) = %q, want %q", share, got, want)
		}
	}
}

// Times shown together carry the digits that tell them apart (issue 37): the overload's windows
// of 100 ms from a minute on read "1 min" six times at three digits; Sidekiq's totals all read
// "20.4 d".
func TestHumanList(t *testing.T) {
	for _, c := range []struct {
		name   string
		ns     []float64
		limits []time.Duration
		want   []string
	}{
		{"windows", []float64{59.9e9, 60e9, 60.1e9, 60.2e9, 60.3e9, 60.4e9, 60.5e9, 60.6e9},
			nil, []string{"59.9 s", "1 min", "1.002 min", "1.003 min", "1.005 min", "1.007 min", "1.008 min", "1.01 min"}},
		// 20.41 d, 20.42 d and 20.43 d in seconds: 1763424, 1764288, 1765152.
		{"days", []float64{1763424e9, 1765152e9, 1764288e9}, nil, []string{"20.41 d", "20.43 d", "20.42 d"}},
		// Only the times that need them get more digits: 20.4100, 20.4200 and 20.4201 days.
		{"each its own", []float64{20.41 * 86400e9, 20.42 * 86400e9, 20.4201 * 86400e9, 1e9}, nil, []string{"20.41 d", "20.42 d", "20.4201 d", "1 s"}},
		{"already apart", []float64{1e9, 2e9, 3.5e9}, nil, []string{"1 s", "2 s", "3.5 s"}},
		{"equal", []float64{2e9, 2e9, 0}, nil, []string{"2 s", "2 s", "0"}},
		{"beside a limit", []float64{1999999999, 2e9, 1.5e9}, []time.Duration{2 * time.Second}, []string{"< 2 s", "2 s", "1.5 s"}},
		{"one", []float64{912.5e6}, nil, []string{"913 ms"}},
		{"none", nil, nil, []string{}},
	} {
		got := HumanList(c.ns, c.limits...)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: HumanList(%v) = %q, want %q", c.name, c.ns, got, c.want)
		}
	}
}

// Decimal rounds half up at a fixed number of places and keeps its zeros: a mean of 100 runs'
// calls, 123.45, is 123.5 at one place (strconv: 123.4, the binary value being below the tie).
func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		x      float64
		places int
		want   string
	}{{123.45, 1, "123.5"}, {0.125, 2, "0.13"}, {8, 2, "8.00"}, {5.54, 2, "5.54"}, {2.25, 1, "2.3"}, {-2.25, 1, "-2.3"}, {0, 1, "0.0"},
		// Ties that carry: through a 9, through the point, to a new digit.
		{1.095, 2, "1.10"}, {9.95, 1, "10.0"}, {999.5, 0, "1000"}, {0.5, 0, "1"}, {0.0095, 3, "0.010"}} {
		if got := Decimal(c.x, c.places); got != c.want {
			t.Errorf("Decimal(%v, %d) = %q, want %q", c.x, c.places, got, c.want)
		}
	}
}

// Every decimal tie rounds as math/big rounds the same decimal, half away from zero: the
// digits written by hand against big.Rat's FloatString.
func TestDecimalTiesAsBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ties := 0
	for range 20000 {
		places := r.IntN(5)
		// A decimal with places+1 decimals ending in 5, from 0.5 units to 10^6.
		digits := r.Int64N(1e6*int64(math.Pow10(places))) * 10
		x := float64(digits+5) / math.Pow10(places+1)
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if i := strings.IndexByte(s, '.'); i < 0 || len(s)-i-1 != places+1 || s[len(s)-1] != '5' {
			continue // not a tie in its shortest form
		}
		ties++
		want, _ := new(big.Rat).SetString(s)
		if got := Decimal(x, places); got != want.FloatString(places) {
			t.Fatalf("Decimal(%s, %d) = %q, want %q", s, places, got, want.FloatString(places))
		}
	}
	if ties < 10000 {
		t.Fatalf("only %d of 20000 decimals were ties", ties)
	}
}
