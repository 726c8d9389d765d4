package calc

import (
	"fmt"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
)

// The overload model is the herd as an open system: besides the crowd, a stream of
// new requests keeps arriving, the server may queue attempts, clients time out, and each client
// process may put a retry limiter between a failure and its retry. docs/overload-model.md states
// every rule; the simulation (calc/sim's overload_run.go) and the independent model of its tests
// follow it. With none of its keys set (Open is false) the herd runs as before, from calc/sim's
// Herd. Here are its inputs as data and what Validate needs of them; the runs are calc/sim's.

// Spacing is how the stream's requests are spaced in time.
type Spacing uint8

const (
	Even    Spacing = iota // request k at k/Rate seconds
	Poisson                // exponential gaps of mean 1/Rate, seeded
)

var spacingNames = [...]string{"even", "poisson"}

func (s Spacing) String() string {
	if int(s) < len(spacingNames) {
		return spacingNames[s]
	}
	return fmt.Sprintf("Spacing(%d)", uint8(s))
}

// Open reports whether the herd is an open system: a stream, a queue, a timeout, a limiter, a
// circuit breaker, or a server that fails a share of attempts or slows under load. Processes
// alone changes nothing: without a limiter or a breaker the processes share nothing.
func (o OverloadInputs) Open() bool {
	return o.Rate > 0 && o.Run > 0 || o.Queue > 0 || o.Timeout > 0 || o.Limiter != limiter.None || o.FailRate > 0 || o.Slow() ||
		o.Breaker != breaker.None
}

// HasStream reports whether new requests keep arriving: Rate and Run both over 0. Without it
// the crowd of Clients is all that arrives, and nothing is per second of a stream.
func (o OverloadInputs) HasStream() bool { return o.Rate > 0 && o.Run > 0 }

// StreamEnd is when the stream stops: Run with a stream, 0 without one.
func (o OverloadInputs) StreamEnd() time.Duration {
	if !o.HasStream() {
		return 0
	}
	return o.Run
}

// Slow reports whether an attempt's time in service grows with the load (Latency or Slope).
func (o OverloadInputs) Slow() bool { return o.Latency > 0 || o.Slope > 0 }

// The cases stay with the inputs, not with the simulation (calc/sim) that runs them: which runs
// the view makes is a function of the link alone, and Validate bounds their cost (overloadCost
// weighs each case), so the link's check cannot wait for the simulation's package.

// OverloadCase is one run of the overload view: a herd mode with a limiter and a breaker.
type OverloadCase struct {
	Mode    HerdMode
	Limiter limiter.Kind
	Breaker breaker.Kind
}

// OwnCase is the run of p's own jitter mode with its limiter and its breaker: the one the
// overload view's headline and window table show first.
func (p Params) OwnCase() OverloadCase { return OverloadCase{Backoff(p.Jitter), p.Limiter, p.Breaker} }

// OverloadCases lists the runs the overload view shows side by side: every mode of p.HerdModes
// with p's limiter and breaker, then the policy's own mode with each other limiter p.Shown lists,
// in its order, then, with a breaker, the policy's own mode and limiter with every other breaker
// (none first).
func (p Params) OverloadCases() []OverloadCase {
	var cases []OverloadCase
	for _, m := range p.HerdModes() {
		cases = append(cases, OverloadCase{m, p.Limiter, p.Breaker})
	}
	own := Backoff(p.Jitter)
	for _, l := range p.Shown() {
		if l != p.Limiter {
			cases = append(cases, OverloadCase{own, l, p.Breaker})
		}
	}
	if p.Breaker != breaker.None {
		for _, b := range breaker.Kinds() {
			if b != p.Breaker {
				cases = append(cases, OverloadCase{own, p.Limiter, b})
			}
		}
	}
	return cases
}

// errorsOnly lists the limiters made for error rates (Brooker's two client strategies), which the
// overload view shows beside the others only with an error rate (Shown). It is what the cases,
// and so Validate's cost, need of the overload model's saying of a limiter (calc/sim's
// overload_limiters.go); a new limiter is false here unless it is made for error rates.
var errorsOnly = [limiter.Count]bool{limiter.Adaptive: true, limiter.RetryBreaker: true}

// Shown lists the limiters p's overload view shows, in the order of limiter.Kinds: all of them,
// but that the ones made for error rates (Brooker's) are only there when the server fails a share
// of attempts (FailRate > 0) or one of them is p's limiter. So the runs and tables of a link
// without a failrate are as they were before those limiters came.
func (p Params) Shown() []limiter.Kind {
	var ks []limiter.Kind
	for _, k := range limiter.Kinds() {
		if !errorsOnly[k] || p.FailRate > 0 || k == p.Limiter {
			ks = append(ks, k)
		}
	}
	return ks
}
