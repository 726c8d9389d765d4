package sim

import (
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

func TestValidateHerd(t *testing.T) {
	if err := calc.Default().ValidateHerd(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for _, tt := range []struct {
		query string
		msg   string // "" when valid
	}{
		// With ratio 0 every mode's latest start of attempt 2 is base: 9999ms in 1ms windows
		// ends in window 9999, the 10000th.
		{"base=9999ms&cap=9999ms&attempts=2&ratio=0&window=1ms", ""},
		{"base=10000ms&cap=10000ms&attempts=2&ratio=0&window=1ms",
			`calc: window "1ms": the last attempt can come as late as 10 s: 10001 windows, over the limit of 10000; make the window at least 2ms`},
		// The last client starts at floor(99*1s/100) = 990ms.
		{"base=9009ms&cap=9009ms&attempts=2&ratio=0&window=1ms&spread=1s", ""},
		{"base=9010ms&cap=9010ms&attempts=2&ratio=0&window=1ms&spread=1s", "10001 windows"},
		// Proportional ±20% reaches 1.2*cap: 12s in 1ms windows.
		{"base=10s&cap=10s&attempts=2&ratio=0.2&window=1ms", "as late as 12 s: 12001 windows"},
		// 999 waits of up to 168h: no window up to 1h fits.
		{"base=1ms&cap=168h&attempts=1000&jitter=decorrelated", "lower attempts or cap, or set a budget"},
		// A budget of 1h bounds it: (1h-1ns)/100ms + 1 = 36000 windows; 500ms windows fit. (With
		// 1000 attempts, a budget's fit samples 500 paths within sampling's work limit.)
		{"base=1ms&cap=168h&attempts=1000&budget=1h&samples=500", "36000 windows, over the limit of 10000; make the window at least 500ms"},
		{"base=1ms&cap=168h&attempts=1000&budget=1h&window=500ms&samples=500", ""},
	} {
		p := mustDecode(t, tt.query)
		err := p.ValidateHerd()
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.query, err)
			}
			continue
		}
		fes := policy.FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != "window" || !strings.Contains(fes[0].Error(), tt.msg) {
			t.Errorf("%s: %v, want an error on window with %q", tt.query, err, tt.msg)
		}
		if _, herr := Herd(p); herr == nil || herr.Error() != err.Error() {
			t.Errorf("%s: Herd returned %v", tt.query, herr)
		}
		if _, herr := HerdMode(p, calc.Immediate); herr == nil || herr.Error() != err.Error() {
			t.Errorf("%s: HerdMode returned %v", tt.query, herr)
		}
	}
	// Invalid params are reported, not simulated: a zero window must not divide by zero.
	if _, err := Herd(calc.Params{}); len(policy.FieldErrors(err)) == 0 {
		t.Errorf("Params{}.Herd(): %v", err)
	}
}
