package breaker

import "time"

// gobreaker is sony/gobreaker v2.4.0's CircuitBreaker (gobreaker.go, counter.go) with its
// default Settings: Interval 0 (closed counts are never cleared but at a change of state),
// BucketPeriod 0, ReadyToTrip "ConsecutiveFailures > 5", MaxRequests 1, Timeout 60 s.
//
// currentState moves an open breaker to half-open only when a call looks, and only strictly
// after the expiry (expiry.Before(now)). Every change of state starts a new generation and clears
// the counts; afterRequest drops the result of a call whose generation is not the current one.
// While half-open, beforeRequest rejects once Requests reach MaxRequests, and a failure opens
// again; MaxRequests consecutive successes close.
type gobreaker struct {
	p                   Params
	state               State
	generation          uint64
	requests, successes int // Requests, ConsecutiveSuccesses
	failures            int // ConsecutiveFailures
	expiry              time.Duration
}

func newGobreaker(p Params) *gobreaker { return &gobreaker{p: p} }

func (b *gobreaker) State() State { return b.state }

// current is currentState: the lazy move from open to half-open.
func (b *gobreaker) current(now time.Duration) {
	if b.state == Open && b.expiry < now {
		b.set(HalfOpen, now)
	}
}

// set is setState and toNewGeneration.
func (b *gobreaker) set(s State, now time.Duration) {
	if b.state == s {
		return
	}
	b.state = s
	b.generation++
	b.requests, b.successes, b.failures = 0, 0, 0
	if s == Open {
		b.expiry = satAdd(now, b.p.GobreakerTimeout)
	}
}

func (b *gobreaker) Allow(now time.Duration) Permit {
	b.current(now)
	if b.state == Open || (b.state == HalfOpen && b.requests >= b.p.GobreakerMaxRequests) {
		return Permit{generation: b.generation}
	}
	b.requests++
	return Permit{Allowed: true, Probe: b.state == HalfOpen, generation: b.generation}
}

func (b *gobreaker) Record(now time.Duration, p Permit, failed bool, _ time.Duration) {
	b.current(now)
	if p.generation != b.generation {
		return
	}
	if !failed {
		b.successes++
		b.failures = 0
		if b.state == HalfOpen && b.successes >= b.p.GobreakerMaxRequests {
			b.set(Closed, now)
		}
		return
	}
	b.failures++
	b.successes = 0
	if b.state == HalfOpen || b.failures > b.p.GobreakerFailures {
		b.set(Open, now)
	}
}
