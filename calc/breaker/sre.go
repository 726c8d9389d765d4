package breaker

import "time"

// sre is the client-side adaptive throttling of the Google SRE book ("Handling Overload"), as
// go-zero v1.10.3 writes it in core/breaker/googlebreaker.go on the rolling window of
// core/collection/rollingwindow.go. Its constants are go-zero's, not settable there either.
const (
	sreBuckets    = 40                     // buckets of the window
	sreBucket     = 250 * time.Millisecond // 10 s / 40
	sreK          = 1.5                    // k
	sreMinK       = 1.1                    // minK
	sreProtection = 5                      // protection
	sreForcePass  = time.Second            // forcePassDuration
)

// sre rejects a call with probability (total − 5 − w·accepts)/(total + 1) over the window, when
// that is above 0, where total counts every call asked about (rejected ones too) and accepts the
// successes; w is 1.5 lowered towards 1.1 by the trailing buckets with failures and no success;
// the probability is scaled down by the trailing buckets with successes and no failure; and a
// call more than a second after the last one let through while throttling always passes.
//
// The window keeps 40 buckets of 250 ms; the current bucket is the one of the last result or
// rejection, and the buckets a later event skips are cleared, as RollingWindow.updateOffset does
// (its start stays aligned to 250 ms from the breaker's creation).
type sre struct {
	draw     func() float64
	buckets  [sreBuckets]sreCounts
	offset   int
	lastTime time.Duration
	lastPass time.Duration
	passed   bool // go-zero's lastPass > 0: its clock never reads 0
	// older is the reduction of the buckets before the current one, oldest first, while
	// olderOK: a call asks at each attempt, and scanning the 40 buckets for every one made
	// the breaker the run's main cost. Only the current bucket changes until the offset moves.
	older   sreScan
	olderOK bool
}

type sreCounts struct{ sum, success, failure int64 }

// sreScan is what accept reduces the buckets to, in their order.
type sreScan struct{ accepts, total, failing, working int64 }

func (r *sreScan) add(c sreCounts) {
	r.accepts += c.success
	r.total += c.sum
	if c.failure > 0 {
		r.working = 0
	} else if c.success > 0 {
		r.working++
	}
	if c.success > 0 {
		r.failing = 0
	} else if c.failure > 0 {
		r.failing++
	}
}

// scan reduces n buckets from the one at from, in order.
func (b *sre) scan(from, n int) sreScan {
	var r sreScan
	for i := range n {
		r.add(b.buckets[(from+i)%sreBuckets])
	}
	return r
}

func newSRE(draw func() float64) *sre { return &sre{draw: draw} }

func (b *sre) State() State { return Closed }

// span is how many buckets have begun since the current one.
func (b *sre) span(now time.Duration) int {
	if off := int((now - b.lastTime) / sreBucket); 0 <= off && off < sreBuckets {
		return off
	}
	return sreBuckets
}

// add is RollingWindow.Add.
func (b *sre) add(now time.Duration, failed, dropped bool) {
	if span := b.span(now); span > 0 {
		for i := range span {
			b.buckets[(b.offset+i+1)%sreBuckets] = sreCounts{}
		}
		b.offset = (b.offset + span) % sreBuckets
		b.olderOK = false
		b.lastTime = now - (now-b.lastTime)%sreBucket
	}
	c := &b.buckets[b.offset]
	c.sum++
	switch {
	case dropped:
	case failed:
		c.failure++
	default:
		c.success++
	}
}

func (b *sre) Allow(now time.Duration) Permit {
	if b.accept(now) {
		return Permit{Allowed: true}
	}
	b.add(now, false, true)
	return Permit{}
}

// accept is googleBreaker.accept with history and RollingWindow.Reduce.
func (b *sre) accept(now time.Duration) bool {
	// The window as of now: the buckets that now has not expired, oldest first, up to the
	// current one (those that expire would be cleared, and empty buckets change nothing).
	var r sreScan
	if span := b.span(now); span > 0 {
		r = b.scan(b.offset+span+1, sreBuckets-span)
	} else {
		if !b.olderOK {
			b.older, b.olderOK = b.scan(b.offset+1, sreBuckets-1), true
		}
		r = b.older
		r.add(b.buckets[b.offset])
	}
	accepts, total, failing, working := r.accepts, r.total, r.failing, r.working
	w := sreK - (sreK-sreMinK)*float64(failing)/sreBuckets
	weighted := max(w, sreMinK) * float64(accepts)
	drop := (float64(total-sreProtection) - weighted) / float64(total+1)
	if drop <= 0 {
		return true
	}
	if b.passed && now-b.lastPass > sreForcePass {
		b.lastPass = now
		return true
	}
	drop *= float64(sreBuckets-working) / sreBuckets
	if b.draw() < drop {
		return false
	}
	b.lastPass, b.passed = now, true
	return true
}

func (b *sre) Record(now time.Duration, _ Permit, failed bool, _ time.Duration) {
	b.add(now, failed, false)
}

// SRE's window and protection, for what the overload model says of it: with every call failing,
// the (SREProtection+2)th within SREWindow may be rejected.
const (
	SREProtection = sreProtection
	SREWindow     = sreBuckets * sreBucket
)
