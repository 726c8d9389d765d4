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
// every attempt started after it.

// service starts an attempt's service at now and returns its time to its answer: Call without
// Latency and Slope, else Call + Latency + n × Slope for the n attempts in service, itself
// counted. It keeps the window's and the run's figures.
func (sim *overloadSim) service(now time.Duration) time.Duration {
	p := &sim.p
	if !sim.slow {
		return p.Call
	}
	s := sim.s
	for len(s.busy) > 0 && s.busy[0] <= now { // an attempt answered at now is out of service
		s.busy = popEnd(s.busy)
	}
	n := len(s.busy) + 1
	d := serviceTime(*p, n)
	s.busy = pushEnd(s.busy, satAdd(now, d))
	w := &sim.run.Windows[sim.b]
	w.InService = max(w.InService, n)
	sim.run.MaxInService = max(sim.run.MaxInService, n)
	sim.run.MaxLatency = max(sim.run.MaxLatency, d)
	sim.inSum, sim.inN = satAdd(sim.inSum, d), sim.inN+1
	return d
}

// serviceTime is Call + Latency + n × Slope, at most horizonCap.
func serviceTime(p Params, n int) time.Duration {
	d := satAdd(p.Call, p.Latency)
	if p.Slope > 0 && int64(n) > int64(horizonCap/p.Slope) {
		return horizonCap
	}
	return satAdd(d, time.Duration(n)*p.Slope)
}

// pushEnd adds end to the min-heap h.
func pushEnd(h []time.Duration, end time.Duration) []time.Duration {
	h = append(h, end)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if h[up] <= h[i] {
			break
		}
		h[up], h[i] = h[i], h[up]
		i = up
	}
	return h
}

// popEnd removes the least end from the min-heap h.
func popEnd(h []time.Duration) []time.Duration {
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1] < h[c] {
			c++
		}
		if h[i] <= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return h
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
