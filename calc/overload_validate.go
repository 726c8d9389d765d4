package calc

import (
	"fmt"
	"time"

	"backoffcalc/calc/policy"
)

// The windows of an overload run run from 0 to the last event counted in one (an arrival, a
// serving, a failure, a timeout or a refusal), and, as the herd's, must number at most
// MaxHerdWindows. An open system's last event comes later than the herd's last attempt: the
// stream's requests start up to Run, a queued attempt waits for its turn, and an outcome comes a
// call or a timeout after its attempt.

// horizonCap is where the horizon's sums stop growing: far past any MaxHerdWindows windows, and
// safe from overflow (a queue of 1000000 in 1h windows waits 1000001h, 1000 times over).
const horizonCap = time.Duration(1 << 62)

// satAdd is a+b, at most horizonCap, for a and b in [0, horizonCap].
func satAdd(a, b time.Duration) time.Duration {
	if a > horizonCap-b {
		return horizonCap
	}
	return a + b
}

// outcomeDelay is the most time from an attempt's arrival to its outcome: a call (or the longest
// time in service), after at most queueWait in the queue, and never more than the timeout when
// there is one.
func (p Params) outcomeDelay() time.Duration {
	d := satAdd(p.longestService(), p.queueWait())
	if p.Timeout > 0 {
		d = min(d, p.Timeout)
	}
	return d
}

// longestService is the longest time from a start of service to its answer: Call, or with Latency
// or Slope the time in service with every attempt of the run in service at once.
func (p Params) longestService() time.Duration {
	if !p.Slow() {
		return p.Call
	}
	return p.ServiceTime((p.Clients + p.StreamRequests()) * max(p.Attempts, 1))
}

// queueWait is the longest an attempt waits in the queue: one that joins it in window k behind
// n others is served at the start of window k + 1 + n/Capacity, and n < Queue.
func (p Params) queueWait() time.Duration {
	if p.Queue <= 0 || p.Capacity <= 0 {
		return 0
	}
	w := int64(1 + (p.Queue-1)/p.Capacity)
	if w > int64(horizonCap/p.Window) {
		return horizonCap
	}
	return time.Duration(w) * p.Window
}

// overloadHorizon is the latest time an overload run of any mode of p.HerdModes, or of m, counts
// anything in a window: the last request's start (the crowd's or the stream's), plus for each
// retry an outcome delay and the longest wait (or just before the budget runs out, if sooner),
// plus the last attempt's outcome delay, or its longest wait in the queue if later: the server
// takes a queued attempt whose client stopped waiting (the timeout) all the same, and counts it
// wasted in the window it takes it in (sim's serveQueue). With a timeout and a queue that drains
// slowly, that came up to a million windows past the limit.
func (p Params) overloadHorizon(m HerdMode) time.Duration {
	d := p.outcomeDelay()
	start := max(p.ClientStart(p.Clients-1), p.lastStreamStart())
	return satAdd(satAdd(start, p.lastAttemptAfter(m, d)), max(d, p.queueWait()))
}

// OverloadWindows is HerdWindows for an overload run of mode m: the windows from 0 to
// overloadHorizon, or a *FieldError on window when they are more than MaxHerdWindows. p must be
// valid.
func (p Params) OverloadWindows(m HerdMode) (int, error) {
	h := p.overloadHorizon(m)
	if n := h/p.Window + 1; n <= MaxHerdWindows {
		return int(n), nil
	}
	fix := "lower attempts, cap, run, queue or timeout, or set a budget"
	if p.Slow() && p.Timeout == 0 {
		fix = "lower latency, slope, attempts or run, or set a timeout"
	}
	for _, step := range policy.TickSteps() {
		q := p
		q.Window = step // a queued attempt's wait grows with the window
		if step <= MaxWindow && step > p.Window && q.overloadHorizon(m)/step+1 <= MaxHerdWindows {
			fix = "make the window at least " + policy.FormatDuration(step)
			break
		}
	}
	return 0, &policy.FieldError{Key: "window", Value: policy.FormatDuration(p.Window), Err: fmt.Errorf(
		"the last event can come as late as %s: %d windows, over the limit of %d; %s",
		policy.Human(float64(h)), h/p.Window+1, MaxHerdWindows, fix)}
}
