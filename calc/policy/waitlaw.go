package policy

import (
	"math"
	"time"
)

// WaitLaw is the distribution of the wait before one retry of a mode whose wait does not depend
// on the previous one, for a model that works with distributions rather than draws (the herd's
// expected counts, calc/fluid). The wait is X clamped to Clamp, plus Offset, where X is uniform
// on [Lo, Hi] (in nanoseconds) or, when Steps > 0, Lo plus i × Step for i a whole number from 0
// to Steps−1, each as likely. Min and Max are the shortest and the longest wait, Offset included.
// With base 100ms, full jitter and retry 2, X is uniform on [0, 200ms]: Lo 0, Hi 2e8, Clamp +Inf.
type WaitLaw struct {
	Lo, Hi, Clamp float64
	Step          float64
	Steps         int
	Offset        time.Duration
	Min, Max      time.Duration
}

// WaitLaw returns the law of the wait before retry k (1 <= k < Attempts) that Wait draws from;
// ok is false for a mode whose wait depends on the previous one (Jitter.FromPrevious). p must be
// valid.
func (p Params) WaitLaw(k int) (l WaitLaw, ok bool) {
	if modes[p.Jitter].chain != nil {
		return WaitLaw{}, false
	}
	w := p.law(k, p.rawNominal(k))
	l = WaitLaw{Lo: w.lo, Hi: w.hi, Clamp: w.clamp, Offset: w.off, Min: w.min, Max: w.max}
	if w.step > 0 {
		l.Step, l.Steps = w.step, int(max(1, math.Floor(w.hi/w.step)))
		l.Hi = w.lo + float64(l.Steps-1)*w.step
	}
	return l, true
}

// WaitLawFrom is WaitLaw for decorrelated jitter, whose wait depends on the previous one: for the
// state Wait takes (the previous wait in nanoseconds, FirstState for retry 1) the wait before
// any retry is uniform on [base, 3 × state] clamped to cap, and the state it leaves is the wait
// itself. ok is false for every other mode (decorrelatedv2's wait is not of this form). With base
// 100ms and a previous wait of 200ms, the wait is uniform on [100ms, 600ms].
func (p Params) WaitLawFrom(state float64) (l WaitLaw, ok bool) {
	if c, ok := modes[p.Jitter].chain.(evenChain); ok {
		return c.evenFrom(p, state), true
	}
	return WaitLaw{}, false
}

// evenChain is a chain whose wait from a state is even over a range, clamped (decorrelated's).
type evenChain interface {
	evenFrom(p Params, state float64) WaitLaw
}
