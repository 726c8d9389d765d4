package sim

import (
	"math"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// brooker is the server of Brooker's collapse simulation (simple_collapse_sim/sim.py): 1 s +
// 0.01 s per attempt in service, a 3 s timeout, no retries, no capacity limit, at rate new
// requests per second for 2 minutes, seen in 1 s windows.
func brooker(t *testing.T, rate string) calc.Params {
	t.Helper()
	return mustDecode(t, "rate="+rate+"&run=2m&clients=1&outage=0&attempts=1&capacity=0&window=1s&timeout=3s&latency=1s&slope=10ms")
}

func TestCollapseClosedForm(t *testing.T) {
	for _, tt := range []struct {
		rate           string
		steady         float64
		bounded, times bool
		threshold, lim float64
	}{
		{"80", 1 / 0.2, true, true, 2 / 0.03, 100},
		{"60", 1 / 0.4, true, false, 2 / 0.03, 100},
		{"100", 0, false, true, 2 / 0.03, 100},
	} {
		c := brooker(t, tt.rate).Collapse()
		if math.Abs(c.Steady-tt.steady) > 1e-9 || c.Bounded != tt.bounded || c.TimesOut != tt.times ||
			!c.HasThreshold || math.Abs(c.Threshold-tt.threshold) > 1e-9 || math.Abs(c.Limit-tt.lim) > 1e-9 {
			t.Errorf("rate %s: %+v, want steady %v bounded %v times out %v threshold %v limit %v",
				tt.rate, c, tt.steady, tt.bounded, tt.times, tt.threshold, tt.lim)
		}
	}
	p := calc.Default()
	if c := p.Collapse(); c.HasThreshold || c.Limit != 0 || c.TimesOut || c.Steady != p.Call.Seconds() {
		t.Errorf("no latency: %+v, want no threshold, steady = call", c)
	}
	p.Slope, p.Timeout, p.Latency = 10*time.Millisecond, time.Second, 1001*time.Millisecond // over 1s with no load
	if c := p.Collapse(); !c.HasThreshold || c.Threshold != 0 {
		t.Errorf("an attempt alone over its timeout: %+v, want threshold 0", c)
	}
}

// TestCollapseSimulation: the simulation agrees with the closed form on both sides of the
// threshold, 66.67 per second. Below it (60/s) the time in service settles at S = 1/(1 − 0.6) =
// 2.5 s and every request succeeds; above it (80/s) it climbs to S = 5 s and from then on every
// request times out, while the server goes on serving attempts nobody waits for.
func TestCollapseSimulation(t *testing.T) {
	for _, tt := range []struct {
		rate     string
		collapse bool
	}{{"50", false}, {"60", false}, {"70", true}, {"80", true}} {
		p := brooker(t, tt.rate)
		run, err := Overload(p, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None})
		if err != nil {
			t.Fatal(err)
		}
		c := p.Collapse()
		// The last windows of the stream (100s to 120s) are in the steady state, within 2% of
		// the closed form, which the even stream meets exactly once settled.
		for k := 100; k < 120; k++ {
			w := run.Windows[k]
			got := w.Latency.Seconds()
			if math.Abs(got-c.Steady) > 0.02*c.Steady {
				t.Errorf("rate %s window %d: mean time in service %v, closed form %.4fs", tt.rate, k, w.Latency, c.Steady)
			}
			if tt.collapse && (w.Served != 0 || w.Wasted != w.New) {
				t.Errorf("rate %s window %d: %+v, want every attempt wasted", tt.rate, k, w)
			}
			if !tt.collapse && (w.Wasted != 0 || w.TimedOut != 0) {
				t.Errorf("rate %s window %d: %+v, want every attempt served in time", tt.rate, k, w)
			}
		}
		if c.TimesOut != tt.collapse {
			t.Errorf("rate %s: closed form times out %v, simulation %v", tt.rate, c.TimesOut, tt.collapse)
		}
	}
}

// TestServiceTimeSaturates: a slope times a count past the horizon saturates.
func TestServiceTimeSaturates(t *testing.T) {
	p := calc.Default()
	p.Slope, p.Latency, p.Call = policy.MaxCall, policy.MaxCall, policy.MaxCall
	if d := p.ServiceTime(math.MaxInt32); d != horizonCap {
		t.Errorf("ServiceTime = %v, want %v", d, horizonCap)
	}
	if d := p.ServiceTime(1); d != 3*policy.MaxCall {
		t.Errorf("ServiceTime(1) = %v, want %v", d, 3*policy.MaxCall)
	}
}

func TestEndHeap(t *testing.T) {
	var h []time.Duration
	for _, d := range []time.Duration{5, 3, 9, 1, 7, 3, 0} {
		h = pushEnd(h, d)
	}
	var got []time.Duration
	for len(h) > 0 {
		got = append(got, h[0])
		h = popEnd(h)
	}
	want := []time.Duration{0, 1, 3, 3, 5, 7, 9}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("popped %v, want %v", got, want)
		}
	}
}

// TestSlopeWorkLimit: without a timeout an attempt's answer may come as late as every attempt of
// the run in service at once; where that is too many windows the window key says so and what
// to change.
func TestSlopeWorkLimit(t *testing.T) {
	p := mustDecode(t, "rate=100&run=60s&slope=1s&window=10ms")
	_, err := Overload(p, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None})
	fes := policy.FieldErrors(err)
	if len(fes) != 1 || fes[0].Key != "window" || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("slope=1s without a timeout: %v", err)
	}
	p.Timeout = time.Second
	if _, err := Overload(p, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None}); err != nil {
		t.Errorf("with a timeout: %v", err)
	}
}
