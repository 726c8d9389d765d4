package calc

import (
	"math"
	"time"
)

// Load-dependent latency (OverloadInputs.Latency and Slope, docs/overload-model.md,
// "Load-dependent latency"), after the server of Brooker's collapse simulation
// (mbrooker/simulator_example, simple_collapse_sim/sim.py at bbfe394: Server.start adds the
// attempt to the concurrency, then answers base_server_time + concurrency × slope later, 1 s +
// 0.01 s × concurrency, and finishes every attempt even when its client has timed out).
// An attempt's time in service is fixed at its start of service, from the attempts in service
// then, itself counted: Call + Latency + n × Slope. It holds the server until its answer, whether
// its client still waits or not: that is the feedback loop, as a timed-out attempt still slows
// every attempt started after it. The simulation's side is calc/sim's overload_latency.go.

// ServiceTime is Call + Latency + n × Slope, at most horizonCap: an attempt's time in service
// when it finds n attempts in service at its start, itself counted.
func (p Params) ServiceTime(n int) time.Duration {
	d := satAdd(p.Call, p.Latency)
	if p.Slope > 0 && int64(n) > int64(horizonCap/p.Slope) {
		return horizonCap
	}
	return satAdd(d, time.Duration(n)*p.Slope)
}

// Collapse is the closed form of load-dependent latency for a stream of Rate new requests per
// second without retries, in the steady state: Rate × S attempts are in service (Little's law),
// so S = Base + Slope × Rate × S, that is S = Base / (1 − Slope × Rate) while Slope × Rate < 1,
// Brooker's 1/(1 − 0.01λ). An evenly spaced stream meets it exactly: an attempt finds the
// Rate × S − 1 started in the S before it (the one answered at its start is out) and itself. A
// poisson stream's attempt finds Rate × S others on average, and itself: S = (Base + Slope) /
// (1 − Slope × Rate), a little more. Retries add attempts on top of Rate, so they move the
// threshold down.
type Collapse struct {
	Base    time.Duration // Call + Latency: an attempt's time in service with no load
	Slope   time.Duration
	Timeout time.Duration
	Rate    float64 // the stream's new requests per second
	// Steady is S at Rate, in seconds; Bounded is false when Slope × Rate ≥ 1, where no steady
	// state exists and the time in service grows without bound.
	Steady  float64
	Bounded bool
	// Threshold is the rate, in requests per second, up to which S is at most the timeout:
	// (Timeout − Base) / (Slope × Timeout). HasThreshold is false without a timeout or a slope;
	// Threshold is 0 when an attempt is answered after its timeout even with no load.
	Threshold    float64
	HasThreshold bool
	// Limit is 1/Slope, the rate at and above which no steady state exists (0 without a slope).
	Limit float64
	// TimesOut says that at Rate the steady time in service is over the timeout (or unbounded):
	// without retries every request times out; with them each timeout adds an attempt.
	TimesOut bool
}

// Collapse is p's closed form. For Brooker's server (latency=1s, slope=10ms, timeout=3s) at
// rate=80 it gives S = 1 / (1 − 0.8) = 5 s, over 3 s, and a threshold of (3 − 1) / 0.03 = 66.67
// requests per second.
func (p Params) Collapse() Collapse {
	base := p.Call + p.Latency
	c := Collapse{Base: base, Slope: p.Slope, Timeout: p.Timeout, Rate: p.Rate}
	b, s, t := base.Seconds(), p.Slope.Seconds(), p.Timeout.Seconds()
	if s > 0 {
		c.Limit = 1 / s
	}
	if x := s * p.Rate; x < 1 {
		c.Steady, c.Bounded = b/(1-x), true
	}
	if t > 0 && s > 0 {
		c.HasThreshold = true
		c.Threshold = math.Max(0, (t-b)/(s*t))
	}
	c.TimesOut = p.Timeout > 0 && (!c.Bounded || c.Steady > t)
	return c
}
