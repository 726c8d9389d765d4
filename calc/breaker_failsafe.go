package calc

import "time"

// failsafe is failsafe-go v0.9.8's count-based circuit breaker (circuitbreaker/circuitstates.go,
// circuitbreaker.go) with the builder's defaults (circuitbreakerbuilder.go): failure threshold 1
// of the last 1 execution, no success threshold, Delay 1 minute.
//
// The closed state counts the last FailsafeOf results and opens when FailsafeFailures of them
// failed. The open state lets a call through once Delay has passed since it opened (≥), moving
// to half-open; its results are not looked at. The half-open state starts fresh counts over its
// capacity (the success threshold's, else the failure threshold's) and hands out as many
// permits; each result, whatever state let its call through, gives one back. With a success
// threshold it closes when successes reach it and opens when failures exceed capacity −
// threshold; without, it opens when failures reach the failure threshold and closes when
// successes exceed capacity − that threshold (with the defaults: one success closes, one failure
// opens). WithSuccessThreshold(n) is WithSuccessThresholdRatio(n, n).
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
	b.clear(p.FailsafeOf)
	return b
}

func (b *failsafe) State() BreakerState { return b.state }

// halfOpenCapacity is newHalfOpenState's capacity: successThresholdingCapacity, else
// failureThresholdingCapacity (failureExecutionThreshold is 0 for the count-based breaker).
func (b *failsafe) halfOpenCapacity() int {
	if b.p.FailsafeSuccessOf > 0 {
		return b.p.FailsafeSuccessOf
	}
	return b.p.FailsafeOf
}

func (b *failsafe) clear(capacity int) {
	b.last, b.next, b.n = make([]bool, max(capacity, 1)), 0, 0
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
		b.state, b.permits = BreakerHalfOpen, b.halfOpenCapacity()
		b.clear(b.permits)
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
		closes := successes > b.p.FailsafeOf-b.p.FailsafeFailures
		opens := failures >= b.p.FailsafeFailures
		if b.p.FailsafeSuccesses > 0 {
			closes = successes >= b.p.FailsafeSuccesses
			opens = failures > b.p.FailsafeSuccessOf-b.p.FailsafeSuccesses
		}
		switch {
		case closes:
			b.state = BreakerClosed
			b.clear(b.p.FailsafeOf)
		case opens:
			b.state, b.openedAt = BreakerOpen, now
		}
		b.permits++
	}
}
