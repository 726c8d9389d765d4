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
// every rule; the simulation (overload_run.go) and the independent model of the tests follow it.
// With none of its keys set (Open is false) the herd runs as before, from Params.Herd.

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

// OverloadWindow is what happened in one fixed window [k*Window, (k+1)*Window).
type OverloadWindow struct {
	New      int // first attempts of requests arriving in it
	Retries  int // other attempts arriving in it
	Served   int // attempts served in it whose client was waiting
	Wasted   int // attempts served in it whose client had stopped waiting (timed out)
	Failed   int // attempts failed at once in it: during the outage, or server and queue full
	TimedOut int // attempts whose client stopped waiting in it
	Refused  int // retries the limiter refused in it
	Queue    int // attempts waiting at its end
	Errors   int // attempts served in it whose client was waiting, and failed (FailRate)
	// With Latency or Slope only (else 0): InService is the most attempts in service, itself
	// counted, that an attempt starting service in it found; Latency is the mean time from an
	// attempt's start of service to its answer (Call + Latency + n × Slope) over those attempts.
	InService int
	Latency   time.Duration
	// With a breaker only (else 0): Rejected is the attempts its breaker rejected in it (they
	// fail at once and never reach the server), Probes the calls let through half-open; Closed,
	// Open and HalfOpen count the run's breakers in each state at its end, each as of its last
	// call (a breaker becomes half-open only when a call asks after its open period).
	Rejected, Probes       int
	Closed, Open, HalfOpen int
}

// OverloadRun is one mode with one limiter through the open system. The embedded HerdRun counts
// requests where the herd counts clients: Accepted requests succeeded, GaveUp is OutOfAttempts +
// Refused + OutOfBudget, and Arrivals is New + Retries of each window. With Open false it equals
// the HerdRun of Params.HerdMode.
type OverloadRun struct {
	HerdRun
	Limiter limiter.Kind
	Breaker breaker.Kind

	Requests int // the crowd's clients and the stream's requests
	Stream   int // the stream's requests

	OutOfAttempts int // requests whose last attempt failed
	Refused       int // requests whose retry the limiter refused
	OutOfBudget   int // requests whose next attempt would have started past the budget
	Blocked       int // requests whose call the breaker rejected (BreakerAtCall): in GaveUp

	Served   int // attempts served for a waiting client
	Wasted   int // attempts served for a client that had stopped waiting
	Failed   int // attempts failed at once
	TimedOut int // attempts the client stopped waiting for
	Errors   int // attempts served for a waiting client and failed (FailRate): not in Served
	// With Latency or Slope only (else 0): the most attempts in service any attempt found at its
	// start, itself counted, and the longest time from a start of service to its answer.
	MaxInService int
	MaxLatency   time.Duration

	// With a breaker only (else 0). Breakers is how many there are (one per process, or one
	// shared); Rejected the attempts they rejected, a failure at once that never reaches the
	// server (counted in Attempts, not in Failed); Trips how often one opened (from closed or
	// half-open); Probes the calls let through half-open, and MaxProbes the most in one window;
	// OpenTime the time the breakers spent open, summed over them, each from its trip to the call
	// that found its open period over (or to the run's last event).
	Breakers                           int
	Rejected, Trips, Probes, MaxProbes int
	OpenTime                           time.Duration

	// Recovered is the start of the first window, at or after the one holding the outage's end,
	// from which every window up to the last arrival is clean: each attempt arriving in it is
	// served at once and does not time out. It is -1 when the last window with an arrival is not
	// clean and comes at or after the outage's window (not recovered when the run ended).
	Recovered time.Duration
	// Idle says that no attempt arrived from the window holding the outage's end on: every
	// request had ended before (succeeded, gave up or was refused), so nothing tested the server
	// after the outage, and Recovered is that window's start (every window from it up to the
	// last arrival, none, is clean). A healthy server with nothing to do is not "not recovered".
	Idle bool
	// RecoveredInStream says that Recovered is before the stream's end (StreamEnd): the server
	// came back while new requests still arrived, not because they stopped. False without a
	// stream.
	RecoveredInStream bool

	Windows []OverloadWindow
}

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

// Overload runs case c through the open system. It returns the error of Validate, of the work
// bound or of the windows bound (overloadWindows, on window), or an error for a case that does
// not exist. It runs its own simulation even when p is not Open, where it gives the HerdRun of
// Params.HerdMode (a test compares them).
func (p Params) Overload(c OverloadCase) (OverloadRun, error) {
	run, _, err := p.OverloadPausing(c, nil)
	return run, err
}

// OverloadPausing is Overload calling pause every PauseEvery attempts, as HerdModePausing does:
// when pause returns false the run stops at once and done is false.
func (p Params) OverloadPausing(c OverloadCase, pause func() bool) (run OverloadRun, done bool, err error) {
	if !c.Mode.exists() {
		return OverloadRun{}, false, fmt.Errorf("calc: no herd mode %d", uint8(c.Mode))
	}
	if int(c.Limiter) >= int(limiter.Count) {
		return OverloadRun{}, false, fmt.Errorf("calc: no limiter %d", uint8(c.Limiter))
	}
	if c.Breaker >= breaker.Count {
		return OverloadRun{}, false, fmt.Errorf("calc: no breaker %d", uint8(c.Breaker))
	}
	if err := p.Validate(); err != nil {
		return OverloadRun{}, false, err
	}
	// Validate reports it too; here it also guards the simulation's request index bits.
	if err := overloadWork(p); err != nil {
		return OverloadRun{}, false, &FieldError{Key: "rate", Value: formatFloat(p.Rate), Err: err}
	}
	windows, err := p.overloadWindows(c.Mode)
	if err != nil {
		return OverloadRun{}, false, err
	}
	s := overloadScratches.Get()
	defer overloadScratches.Put(s)
	run, done = p.overload(c, windows, s, pause)
	return run, done, nil
}
