package sim

import "time"

// Load-dependent latency (OverloadInputs.Latency and Slope, docs/overload-model.md,
// "Load-dependent latency"): calc's overload_latency.go states the server's rule and its
// closed form (Params.ServiceTime, Params.Collapse); here the simulation keeps the attempts in
// service and their figures.

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
	d := p.ServiceTime(n)
	s.busy = pushEnd(s.busy, satAdd(now, d))
	w := &sim.run.Windows[sim.b]
	w.InService = max(w.InService, n)
	sim.run.MaxInService = max(sim.run.MaxInService, n)
	sim.run.MaxLatency = max(sim.run.MaxLatency, d)
	sim.inSum, sim.inN = satAdd(sim.inSum, d), sim.inN+1
	return d
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
