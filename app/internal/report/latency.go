package report

import (
	"fmt"
	"strconv"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// The load-dependent latency's words, columns and cells (calc's Collapse and the runs' figures),
// shared by the page and the table's formats; every number is calc's.

// LatencyNotModelled says, in words, what the load-dependent latency leaves out.
const LatencyNotModelled = "Not modelled: network delay (Brooker's simulation adds a random 0.1 s each way), a server that drops the work of a client that has gone, latency that varies from attempt to attempt other than by the load, and a stream whose rate changes over time; the time in service is fixed at the attempt's start, so attempts started after it do not slow it."

// CollapseWords is the closed form of p's load-dependent latency in words; "" without latency or
// slope.
func CollapseWords(p calc.Params) string {
	if !p.Slow() {
		return ""
	}
	c := p.Collapse()
	s := fmt.Sprintf("Load-dependent latency: the server answers an attempt %s + %s × the attempts in service at its start (itself counted), fixed then, and finishes it even when its client has stopped waiting (Brooker's collapse simulation, simple_collapse_sim).",
		policy.Human(float64(c.Base)), policy.Human(float64(c.Slope)))
	switch {
	case c.Rate == 0 || p.Run == 0:
		s += " Without a stream there is no steady state to compute."
	case c.Bounded:
		s += fmt.Sprintf(" Without retries, at %s requests per second the steady time in service is %s / (1 − %s × %s) = %s", Short(c.Rate),
			policy.Human(float64(c.Base)), Short(c.Slope.Seconds()), Short(c.Rate), policy.Human(c.Steady*1e9))
		if c.Timeout > 0 {
			if c.TimesOut {
				s += fmt.Sprintf(", over the %s timeout: every request times out, and each retry adds load.", policy.Human(float64(c.Timeout)))
			} else {
				s += fmt.Sprintf(", within the %s timeout.", policy.Human(float64(c.Timeout)))
			}
		} else {
			s += "."
		}
	default:
		s += fmt.Sprintf(" At %s requests per second there is no steady state: the time in service grows while the stream runs.", Short(c.Rate))
	}
	if c.HasThreshold {
		s += fmt.Sprintf(" It stays within the timeout up to %s requests per second (retries count among them).", Short(c.Threshold))
	}
	if c.Limit > 0 {
		s += fmt.Sprintf(" No steady state exists from %s per second.", Short(c.Limit))
	}
	return s + " " + LatencyNotModelled
}

// LatencyColumns are the side by side table's columns with latency or slope: data-col, heading.
var LatencyColumns = [][2]string{
	{"max_in_service", "most attempts in service"},
	{"max_latency", "longest time in service"},
}

// LatencyCells are run r's cells of LatencyColumns: value for scripts (ms), text for people.
func LatencyCells(r sim.OverloadRun) [][2]string { return latencyCells(r.MaxInService, r.MaxLatency) }

// LatencySeries are the per-window series with latency or slope: data-series, heading.
var LatencySeries = [][2]string{
	{"in_service", "attempts in service"},
	{"latency", "latency"},
}

// LatencyWindowCells are window w's cells of LatencySeries: value for scripts (ms), text.
func LatencyWindowCells(w sim.OverloadWindow) [][2]string {
	return latencyCells(w.InService, w.Latency)
}

// latencyCells are the cells of a count in service and a time in service.
func latencyCells(inService int, latency time.Duration) [][2]string {
	n := strconv.Itoa(inService)
	return [][2]string{{n, n}, {policy.Millis(latency), policy.Human(float64(latency))}}
}
