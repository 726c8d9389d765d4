package sim

import (
	"fmt"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

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
// the HerdRun of HerdMode.
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

// Overload runs case c through the open system. It returns the error of Validate, of the work
// bound or of the windows bound (OverloadWindows, on window), or an error for a case that does
// not exist. It runs its own simulation even when p is not Open, where it gives the HerdRun of
// HerdMode (a test compares them).
func Overload(p calc.Params, c calc.OverloadCase) (OverloadRun, error) {
	run, _, err := OverloadPausing(p, c, nil)
	return run, err
}

// OverloadPausing is Overload calling pause every PauseEvery attempts, as HerdModePausing does:
// when pause returns false the run stops at once and done is false.
func OverloadPausing(p calc.Params, c calc.OverloadCase, pause func() bool) (run OverloadRun, done bool, err error) {
	if !c.Mode.Exists() {
		return OverloadRun{}, false, fmt.Errorf("calc: no herd mode %d", uint8(c.Mode))
	}
	if int(c.Limiter) >= int(limiter.Count) {
		return OverloadRun{}, false, fmt.Errorf("calc: no limiter %d", uint8(c.Limiter))
	}
	if c.Breaker >= breaker.Count {
		return OverloadRun{}, false, fmt.Errorf("calc: no breaker %d", uint8(c.Breaker))
	}
	if err := p.ValidateUnsampled(); err != nil {
		return OverloadRun{}, false, err
	}
	// Validate reports it too; here it also guards the simulation's request index bits.
	if err := calc.OverloadWork(p); err != nil {
		return OverloadRun{}, false, &policy.FieldError{Key: "rate", Value: policy.FormatFloat(p.Rate), Err: err}
	}
	windows, err := p.OverloadWindows(c.Mode)
	if err != nil {
		return OverloadRun{}, false, err
	}
	s := overloadScratches.Get()
	defer overloadScratches.Put(s)
	run, done = overload(p, c, windows, s, pause)
	return run, done, nil
}
