package calc

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"backoffcalc/calc/policy"
)

// Limits of the herd's work, beyond each input's own range: Validate refuses more than
// MaxHerdWork, ValidateHerd more than MaxHerdWindows.
const (
	// MaxHerdWork bounds Clients*Attempts, the most attempts a herd run can simulate per mode,
	// so that no input freezes the page.
	MaxHerdWork = 2000000
	// MaxHerdWindows bounds the arrivals series of a herd run; see Params.ValidateHerd.
	MaxHerdWindows = 10000
)

// ValidateHerd reports what Validate does and, as a *FieldError on window, a window too short
// for the herd's arrivals series. No attempt of any mode of p.HerdModes arrives after the
// horizon: the last client's start plus the latest start of the last attempt in the slowest of
// those modes (or just before the budget runs out, if sooner). The windows from 0 to the horizon
// must number at most MaxHerdWindows. The policy's own mode counts: additive jitter of a day
// (add=24h) needs far more windows than the five classic modes.
//
// When p.Open(), the windows run to the last event of the open system instead (see
// OverloadWindows): the stream, queue waits, outcomes and timeouts included.
//
// Validate and Decode leave this to ValidateHerd: with the default window, policies that are
// valid on their own (1000 attempts up to a 168h cap) would become invalid, some of them with no
// window up to MaxWindow that fits.
func (p Params) ValidateHerd() error {
	_, err := p.HerdWindows(Immediate)
	return err
}

// HerdWindows returns the number of windows from 0 to the horizon of p.HerdModes and m (see
// ValidateHerd and HerdHorizon).
func (p Params) HerdWindows(m HerdMode) (int, error) {
	if err := p.ValidateUnsampled(); err != nil { // the herd samples none of the policy's paths
		return 0, err
	}
	if p.Open() { // the stream, the queue and the timeouts come later than the herd's attempts
		return p.OverloadWindows(m)
	}
	h := p.HerdHorizon(m)
	n := h/p.Window + 1
	if n <= MaxHerdWindows {
		return int(n), nil
	}
	fix := "lower attempts or cap, or set a budget"
	for _, step := range policy.TickSteps() {
		if step <= MaxWindow && h/step+1 <= MaxHerdWindows {
			fix = "make the window at least " + policy.FormatDuration(step)
			break
		}
	}
	return 0, &policy.FieldError{Key: "window", Value: policy.FormatDuration(p.Window), Err: fmt.Errorf(
		"the last attempt can come as late as %s: %d windows, over the limit of %d; %s",
		policy.Human(float64(h)), n, MaxHerdWindows, fix)}
}

// HerdHorizon is the latest time any attempt of p.HerdModes, or of m, can arrive: the last
// client's start, then each retry a call after the attempt before and the longest wait of its
// mode (lastAttemptAfter).
func (p Params) HerdHorizon(m HerdMode) time.Duration {
	return p.ClientStart(p.Clients-1) + p.lastAttemptAfter(m, p.Call)
}

// lastAttemptAfter is the longest time, over the modes of p.HerdModes and m, from a request's
// first attempt to its last, when each retry comes d after the attempt before it plus the
// longest wait of its mode (none for Immediate), and before the budget runs out. A mode outside
// p.HerdModes counts only when it is run, so that it cannot make the others' windows invalid.
// The sums stop at horizonCap.
func (p Params) lastAttemptAfter(m HerdMode, d time.Duration) time.Duration {
	modes := p.HerdModes()
	if !slices.Contains(modes, m) {
		modes = append(modes, m)
	}
	var last time.Duration
	for _, mode := range modes {
		j, backoff := mode.Jitter()
		q := p.WithJitter(j)
		var s time.Duration
		for k := 1; k < p.Attempts; k++ {
			s = satAdd(s, d)
			if backoff {
				s = satAdd(s, q.MaxWait(k))
			}
		}
		last = max(last, s)
	}
	if p.Budget > 0 {
		last = min(last, p.Budget-1)
	}
	return last
}

// herdWork refuses a herd of more than MaxHerdWork client-attempts. An attempts count out of its
// own range is reported on its own key, not here.
func herdWork(clients, attempts int) error {
	if attempts >= 1 && attempts <= policy.MaxAttempts && clients*attempts > MaxHerdWork {
		return fmt.Errorf("%d clients × %d attempts is over the limit of %d client-attempts", clients, attempts, MaxHerdWork)
	}
	return nil
}

// HerdSimulated reports whether the herd of p is simulated client by client: at most MaxClients
// clients and MaxHerdWork client-attempts. A larger herd, up to MaxHerdClients, is counted by its
// expected counts (calc/fluid); Herd, HerdMode and HerdModePausing refuse it.
func (p Params) HerdSimulated() bool {
	return p.Clients <= MaxClients && herdWork(p.Clients, p.Attempts) == nil
}

// Simulable is the error of a herd too large to simulate, on clients.
func (p Params) Simulable() error {
	if p.HerdSimulated() {
		return nil
	}
	return &policy.FieldError{Key: "clients", Value: strconv.Itoa(p.Clients), Err: fmt.Errorf(
		"the simulation takes at most %d clients and %d client-attempts (%d × %d attempts here); the herd's expected counts (calc/fluid) take up to %d clients",
		MaxClients, MaxHerdWork, p.Clients, p.Attempts, MaxHerdClients)}
}

// openClients refuses an open system (Params.Open) of more clients than the herd simulates:
// it runs client by client, with no fluid model.
func openClients(p Params) error {
	if !p.Open() || p.Clients < 1 || p.Clients > MaxHerdClients || p.Attempts < 1 || p.Attempts > policy.MaxAttempts || p.HerdSimulated() {
		return nil
	}
	if p.Clients > MaxClients {
		return fmt.Errorf("an open system (a stream, a queue, a timeout, a limiter, a breaker, an error rate, latency or slope) is simulated client by client: at most %d clients", MaxClients)
	}
	return fmt.Errorf("an open system (a stream, a queue, a timeout, a limiter, a breaker, an error rate, latency or slope) is simulated client by client: %v", herdWork(p.Clients, p.Attempts))
}
