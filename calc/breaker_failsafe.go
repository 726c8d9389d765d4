package calc

import "time"

// failsafe is failsafe-go v0.9.8's count-based circuit breaker (circuitbreaker/circuitstates.go,
// circuitbreaker.go) with the builder's defaults (circuitbreakerbuilder.go): failure threshold 1
// of the last 1 execution, no success threshold, Delay 1 minute.
//
// The closed state counts the last FailsafeOf results and opens when FailsafeFailures of them
// failed. The open state lets a call through once Delay has passed since it opened (≥), moving
// to half-open; its results are not looked at. The half-open state starts fresh counts over the
// same capacity and hands out as many permits; each result, whatever state let its call through,
// gives one back, and opens when failures reach the threshold or closes when successes exceed
// capacity − threshold (with the defaults: one success closes, one failure opens).
type failsafe struct {
	p        BreakerParams
	state    BreakerState
	openedAt time.Duration
	permits  int
	last     []bool // the last results, true for a failure; a ring
	next, n  int
}

func newFailsafe(p BreakerParams) *failsafe {
	b := &failsafe{p: p}
	b.clear()
	return b
}

func (b *failsafe) State() BreakerState { return b.state }

func (b *failsafe) clear() {
	b.last, b.next, b.n = make([]bool, max(b.p.FailsafeOf, 1)), 0, 0
}

func (b *failsafe) add(failed bool) {
	b.last[b.next] = failed
	b.next = (b.next + 1) % len(b.last)
	b.n = min(b.n+1, len(b.last))
}

func (b *failsafe) counts() (failures, successes int) {
	for i := range b.n {
		if b.last[i] {
			failures++
		} else {
			successes++
		}
	}
	return failures, successes
}

func (b *failsafe) Allow(now time.Duration) Permit {
	switch b.state {
	case BreakerOpen:
		if now-b.openedAt < b.p.FailsafeDelay {
			return Permit{}
		}
		b.state, b.permits = BreakerHalfOpen, b.p.FailsafeOf
		b.clear()
		fallthrough
	case BreakerHalfOpen:
		if b.permits == 0 {
			return Permit{}
		}
		b.permits--
		return Permit{Allowed: true, Probe: true}
	}
	return Permit{Allowed: true}
}

func (b *failsafe) Record(now time.Duration, _ Permit, failed bool, _ time.Duration) {
	if b.state == BreakerOpen {
		return
	}
	b.add(failed)
	failures, successes := b.counts()
	switch b.state {
	case BreakerClosed:
		if failures >= b.p.FailsafeFailures {
			b.state, b.openedAt = BreakerOpen, now
		}
	case BreakerHalfOpen:
		switch {
		case successes > b.p.FailsafeOf-b.p.FailsafeFailures:
			b.state = BreakerClosed
			b.clear()
		case failures >= b.p.FailsafeFailures:
			b.state, b.openedAt = BreakerOpen, now
		}
		b.permits++
	}
}
