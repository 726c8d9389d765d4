package calc

import (
	"math/bits"
	"time"

	"backoffcalc/calc/policy"
)

// HerdMode is how the clients of a herd wait between attempts: Immediate, or the policy's
// backoff with one of the jitter modes.
type HerdMode uint8

// Immediate retries with no wait at all: only the call separates a client's attempts. It is the
// baseline that shows what backing off changes.
const Immediate HerdMode = 0

// Backoff returns the herd mode that waits as the policy does with jitter j.
func Backoff(j policy.Jitter) HerdMode { return HerdMode(j) + 1 }

// HerdModes lists the modes every herd runs, in order: Immediate, then the backoff of each of
// the five classic jitter modes, in the order of Jitters. Params.HerdModes adds the policy's
// own mode when it is another.
func HerdModes() []HerdMode {
	modes := []HerdMode{Immediate}
	for _, j := range policy.Jitters() {
		modes = append(modes, Backoff(j))
	}
	return modes
}

// HerdModes lists the modes the herd of p runs, in the order Herd runs them: those of the
// package's HerdModes, then the backoff of p's own jitter when it is not one of the classic five
// (a library's mode, as Jitter.Library says), so that the herd always shows
// the policy itself. With jitter=decorrelatedv2 they are immediate, none, full, equal,
// decorrelated, proportional and decorrelatedv2; with jitter=full, the first six.
func (p Params) HerdModes() []HerdMode {
	modes := []HerdMode{Immediate}
	for _, j := range p.ComparedJitters() { // the jitter modes the report compares
		modes = append(modes, Backoff(j))
	}
	return modes
}

// Jitter returns the jitter mode of a backoff mode; ok is false for Immediate.
func (m HerdMode) Jitter() (j policy.Jitter, ok bool) {
	if m == Immediate {
		return 0, false
	}
	return policy.Jitter(m - 1), true
}

// Exists reports whether m is Immediate or the backoff of a jitter mode.
func (m HerdMode) Exists() bool { return int(m) <= len(policy.JitterNames()) }

// String is "immediate" or the name of the jitter mode.
func (m HerdMode) String() string {
	if j, ok := m.Jitter(); ok {
		return j.String()
	}
	return "immediate"
}

// WindowStart is when fixed window k starts: k*Window. Window k of a herd run's Arrivals covers
// [WindowStart(k), WindowStart(k+1)).
func (p Params) WindowStart(k int) time.Duration { return time.Duration(k) * p.Window }

// ClientStart is when client i (0-based) of the herd makes its first attempt:
// floor(i*Spread/Clients), so the clients start evenly over [0, Spread).
func (p Params) ClientStart(i int) time.Duration {
	hi, lo := bits.Mul64(uint64(i), uint64(p.Spread))
	q, _ := bits.Div64(hi, lo, uint64(p.Clients)) // hi < Clients because i < Clients
	return time.Duration(q)
}

// ModeWaits is the waits of herd mode m in calc/sim's herd and overload runs, and the state
// before the first retry: the policy's with m's jitter, or for Immediate the zero law, which
// waits 0 for any u, and no retry draws.
func (p Params) ModeWaits(m HerdMode) (policy.Waits, float64) {
	if j, ok := m.Jitter(); ok {
		q := p.WithJitter(j)
		return *q.Waits(), q.FirstState()
	}
	return p.ImmediateWaits(), 0
}
