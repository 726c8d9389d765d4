package calc

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc/policy"
)

func TestWaitLaw(t *testing.T) {
	below1 := math.Nextafter(1, 0)
	for _, c := range []struct {
		name     string
		p        Params
		k        int
		lo, hi   float64
		steps    int
		min, max time.Duration
	}{
		{"full, retry 2", Default(), 2, 0, 200e6, 0, 0, 200 * time.Millisecond},
		{"equal, retry 1", Default().WithJitter(policy.Equal), 1, 50e6, 100e6, 0, 50 * time.Millisecond, 100 * time.Millisecond},
		{"none, retry 3", Default().WithJitter(policy.None), 3, 400e6, 400e6, 0, 400 * time.Millisecond, 400 * time.Millisecond},
		// Envoy's whole milliseconds below 100ms: 0, 1, ..., 99ms.
		{"fullms, retry 1", Default().WithJitter(policy.FullMs), 1, 0, 99e6, 100, 0, 99 * time.Millisecond},
		// Celery's whole seconds up to and including 2s at base 2s: 0, 1 and 2s.
		{"fullsec, retry 1", func() Params { p := Default().WithJitter(policy.FullSec); p.Base = 2 * time.Second; return p }(), 1, 0, 2e9, 3, 0, 2 * time.Second},
	} {
		l, ok := c.p.WaitLaw(c.k)
		if !ok || l.Lo != c.lo || l.Hi != c.hi || l.Steps != c.steps || l.Min != c.min || l.Max != c.max {
			t.Errorf("%s: %+v, %v; want [%v, %v] in %d steps, %v to %v", c.name, l, ok, c.lo, c.hi, c.steps, c.min, c.max)
		}
		// The law's ends are Wait's at the least and the greatest draw.
		if w, _ := c.p.Wait(c.k, 0, 0); w != l.Min {
			t.Errorf("%s: Wait at u=0 is %v, the law's Min %v", c.name, w, l.Min)
		}
		if w, _ := c.p.Wait(c.k, below1, 0); w != l.Max {
			t.Errorf("%s: Wait at u→1 is %v, the law's Max %v", c.name, w, l.Max)
		}
	}
	if _, ok := Default().WithJitter(policy.Decorrelated).WaitLaw(1); ok {
		t.Error("decorrelated has a law of its own retry's: its wait depends on the previous one")
	}
	// Decorrelated's law from a previous wait: AWS's min(cap, base + U × (3 × previous − base)).
	p := Default().WithJitter(policy.Decorrelated)
	p.Cap = 500 * time.Millisecond
	l, ok := p.WaitLawFrom(200e6)
	if !ok || l.Lo != 100e6 || l.Hi != 600e6 || l.Clamp != 500e6 || l.Min != 100*time.Millisecond || l.Max != 500*time.Millisecond {
		t.Errorf("decorrelated after 200ms: %+v, %v", l, ok)
	}
	for _, u := range []float64{0, 0.25, 0.5, below1} {
		w, state := p.Wait(2, u, 200e6)
		want := min(500*time.Millisecond, time.Duration(100e6+u*500e6+0.5))
		if w != want || state != float64(w) {
			t.Errorf("Wait(2, %v, 200ms) = %v, %v; the law says %v", u, w, state, want)
		}
	}
	if _, ok := Default().WithJitter(policy.DecorrelatedV2).WaitLawFrom(1); ok {
		t.Error("decorrelatedv2 has no law of this form")
	}
}
