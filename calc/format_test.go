package calc

import (
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
