package breaker

import "time"

// resilience4j is resilience4j v2.4.0's CircuitBreakerStateMachine (its inner ClosedState,
// OpenState and HalfOpenState; CircuitBreakerMetrics.java; core SnapshotImpl.java) with the default
// CircuitBreakerConfig: COUNT_BASED sliding window of 100 calls, minimumNumberOfCalls 100,
// failureRateThreshold 50, slowCallRateThreshold 100, slowCallDurationThreshold 60 s,
// waitDurationInOpenState 60 s, permittedNumberOfCallsInHalfOpenState 10, no automatic
// transition from open to half-open.
//
// ClosedState lets every call through and, after each result, opens when
// CircuitBreakerMetrics.checkIfThresholdsExceeded finds the failure rate or the slow-call rate at
// or above its threshold; with fewer calls than minimumNumberOfCalls there is no rate. OpenState
// moves to half-open when a call asks strictly after the wait (Instant.isAfter). HalfOpenState
// hands out 10 permits, never given back, and decides on its own metrics (a window of 10 calls,
// minimum min(minimumNumberOfCalls, 10)): above a threshold opens, below closes. Results go to
// the state current when they arrive, whatever state let the call through; those that arrive
// while open go to metrics that are thrown away. Rejected calls are "not permitted", not failures.
type resilience4j struct {
	p       Params
	state   State
	retryAt time.Duration // OpenState's retryAfterWaitDuration
	permits int
	m       r4jMetrics
}

// r4jMetrics is FixedSizeSlidingWindowMetrics with its minimum number of calls: the last size
// outcomes, each failed and/or slow. The ring grows with the outcomes up to size, so that a
// window of a million calls costs only the calls a run makes.
type r4jMetrics struct {
	ring              []uint8 // bit 0 failed, bit 1 slow
	size, next, n     int
	failed, slow, min int
}

// newR4jMetrics is a count-based CircuitBreakerMetrics: its minimum number of calls is at most
// its window's size.
func newR4jMetrics(size, minCalls int) r4jMetrics {
	return r4jMetrics{size: max(size, 1), min: min(minCalls, size)}
}

func (m *r4jMetrics) add(failed, slow bool) {
	if m.n == m.size {
		old := m.ring[m.next]
		m.failed -= int(old & 1)
		m.slow -= int(old >> 1)
	} else {
		m.n++
		m.ring = append(m.ring, 0)
	}
	var v uint8
	if failed {
		v |= 1
	}
	if slow {
		v |= 2
	}
	m.ring[m.next] = v
	m.next = (m.next + 1) % m.size
	m.failed += int(v & 1)
	m.slow += int(v >> 1)
}

// above is checkIfThresholdsExceeded: decided says there are enough calls for a rate; above
// that one rate is at or over its threshold. The rates are Java's float percentages.
func (m *r4jMetrics) above(p Params) (decided, above bool) {
	if m.n == 0 || m.n < m.min {
		return false, false
	}
	failureRate := float32(m.failed) * 100 / float32(m.n)
	slowRate := float32(m.slow) * 100 / float32(m.n)
	return true, failureRate >= float32(p.R4jFailurePercent) || slowRate >= float32(p.R4jSlowPercent)
}

func newResilience4j(p Params) *resilience4j {
	return &resilience4j{p: p, m: newR4jMetrics(p.R4jWindow, p.R4jMinCalls)}
}

func (b *resilience4j) State() State { return b.state }

func (b *resilience4j) to(s State, now time.Duration) {
	b.state = s
	switch s {
	case Open:
		b.retryAt = satAdd(now, b.p.R4jWait)
		b.m = newR4jMetrics(1, 1) // OpenState's metrics decide nothing
	case HalfOpen:
		b.permits = b.p.R4jHalfOpen
		b.m = newR4jMetrics(b.p.R4jHalfOpen, b.p.R4jMinCalls)
	default:
		b.m = newR4jMetrics(b.p.R4jWindow, b.p.R4jMinCalls)
	}
}

func (b *resilience4j) Allow(now time.Duration) Permit {
	if b.state == Open {
		if now <= b.retryAt {
			return Permit{}
		}
		b.to(HalfOpen, now)
	}
	if b.state == HalfOpen {
		if b.permits == 0 {
			return Permit{}
		}
		b.permits--
		return Permit{Allowed: true, Probe: true}
	}
	return Permit{Allowed: true}
}

func (b *resilience4j) Record(now time.Duration, _ Permit, failed bool, took time.Duration) {
	b.m.add(failed, took > b.p.R4jSlowAfter)
	decided, above := b.m.above(b.p)
	switch {
	case b.state == Open || !decided:
	case above:
		b.to(Open, now)
	case b.state == HalfOpen:
		b.to(Closed, now)
	}
}
