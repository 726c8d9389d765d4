package policy

import "time"

// Bounds is the range [lo, hi] that mode j draws a wait from for the nominal delay d, in
// nanoseconds, as the table of modes gives it (before any cap), and the step of a mode that
// draws whole steps from lo up to, not including, hi (Envoy's 1 ms, Celery's 1 s; 0 for the
// others): for Equal and d = 100 ms, [50 ms, 100 ms]. ok is false for a mode whose wait depends
// on the previous one (FromPrevious) or on the retry's number (ByRetry), which has no range for
// a delay alone, and for a j that is no mode. Of p, Bounds reads only what the mode reads
// (ratio, add).
func (j Jitter) Bounds(p Params, d float64) (lo, hi float64, step time.Duration, ok bool) {
	if j >= jitterCount || modes[j].chain != nil || modes[j].byRetry {
		return 0, 0, 0, false
	}
	m := &modes[j]
	lo, hi = m.bounds(p, 1, d)
	if m.step != nil {
		step = m.step(1)
	}
	return lo, hi, step, true
}
