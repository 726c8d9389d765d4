package calc

import (
	"fmt"
	"strings"

	"backoffcalc/calc/breaker"
)

// The overload view runs every case of OverloadCases, each over every request-attempt of the
// crowd and the stream, and a run's cost per request-attempt depends on its guard: measured
// natively at rate=100000&run=3s&clients=1 (300001 requests × 6 attempts), a run with no breaker
// took 0.21 s of CPU, one with a breaker 0.34 to 0.41 s (polly, go-zero's SRE throttling with one
// process, gobreaker), and one with SRE throttling in each of 10000 processes 0.88 s: its window of
// 40 buckets, a kilobyte a breaker, no longer fits the processor's cache past about a thousand
// of them. Those are weighted 1, 2 and 6 (4.2 measured; at 5, a denser stream at the limit,
// rate=19300&run=3s&clients=1&breaker=sre&processes=10000, took 3.4 s). OverloadWork bounds the request-attempts of one run (MaxHerdWork); overloadCost bounds
// them times the weight of every run, so that the heaviest view accepted takes about 2.5 s
// natively, where links with a breaker used to take 5 to 12 s (23 to 40 s on a busy machine).

const (
	// MaxOverloadWork bounds the overload view's work in request-attempts of a run without a
	// breaker: 12 such runs (the six modes and six limiters of a stream with no failure rate) of
	// MaxHerdWork request-attempts each.
	MaxOverloadWork = 12 * MaxHerdWork
	// wideProcesses is how many breakers of a bulky kind (SRE throttling's), one per process,
	// the weight of 2 holds for.
	wideProcesses = 1000
)

// Weights of an overload run per request-attempt (see caseWeight).
const (
	weightRun      = 1
	weightBreaker  = 2
	weightSREWide  = 6
	weightLegendSR = "with SRE throttling in each of more than 1000 processes"
)

// bulky lists the breakers one of which per client process no longer fits the processor's cache
// in more than wideProcesses processes, so that a run with them costs more (caseWeight): SRE
// throttling's window of 40 buckets is about a kilobyte a breaker. It is what Validate's cost
// needs of the overload model's saying of a breaker (calc/sim's overload_breakers.go); a new
// breaker is false here unless it is measured to cost as much.
var bulky = [breaker.Count]bool{breaker.SRE: true}

// caseWeight is what one run of case c costs per request-attempt, in runs without a breaker.
func (p Params) caseWeight(c OverloadCase) int {
	switch {
	case c.Breaker == breaker.None || c.Breaker >= breaker.Count: // no breaker
		return weightRun
	case bulky[c.Breaker] && p.Breakers == BreakerPerClient && p.Processes > wideProcesses:
		return weightSREWide
	}
	return weightBreaker
}

// overloadCost refuses an overload view of more than MaxOverloadWork: its requests (the crowd's
// clients and the stream's, StreamRequests) × attempts × the weights of its runs (caseWeight of
// each of OverloadCases). key is the input it is reported on: rate with a stream, clients
// without. p's inputs must each be in their range and within OverloadWork; without an open
// system (no overload view) it says nothing.
func overloadCost(p Params) (key string, err error) {
	if !p.Open() {
		return "", nil
	}
	cases := p.OverloadCases()
	var weight int
	runs := map[int]int{} // by weight
	for _, c := range cases {
		w := p.caseWeight(c)
		weight += w
		runs[w]++
	}
	n := p.StreamRequests()
	work := (p.Clients + n) * p.Attempts * weight
	if work <= MaxOverloadWork {
		return "", nil
	}
	var legend []string
	for _, w := range []struct {
		weight int
		text   string
	}{{weightRun, "without a breaker"}, {weightBreaker, "with a breaker"}, {weightSREWide, weightLegendSR}} {
		if k := runs[w.weight]; k > 0 {
			legend = append(legend, fmt.Sprintf("%d %s, %d each", k, w.text, w.weight))
		}
	}
	weights := fmt.Sprintf("%d, the weight of its %d runs (%s),", weight, len(cases), strings.Join(legend, "; "))
	unit := fmt.Sprintf("is %d request-attempts of a run without a breaker, over the limit of %d", work, MaxOverloadWork)
	fewer := ""
	if runs[weightSREWide] > 0 {
		fewer = fmt.Sprintf(", or use at most %d processes", wideProcesses)
	}
	if n == 0 {
		return "clients", fmt.Errorf("%d clients × %d attempts × %s %s; lower clients or attempts%s",
			p.Clients, p.Attempts, weights, unit, fewer)
	}
	of := fmt.Sprintf("%d of the stream", n)
	if p.Arrivals == Poisson {
		of = fmt.Sprintf("at most %d of the stream", n)
	}
	return "rate", fmt.Errorf("%d requests (%d clients + %s) × %d attempts × %s %s; lower rate, run or attempts%s",
		p.Clients+n, p.Clients, of, p.Attempts, weights, unit, fewer)
}
