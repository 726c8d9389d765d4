package breaker

import (
	"math"
	"time"
)

// failsafe is failsafe-go v0.9.8's circuit breaker (circuitbreaker/circuitstates.go,
// circuitbreaker.go, internal/util/stats.go and windows.go) with the builder's defaults
// (circuitbreakerbuilder.go): failure threshold 1 of the last 1 execution, no success
// threshold, Delay 1 minute. Its variants are Params' Failsafe fields, as the builder
// sets them: WithFailureThresholdRatio(f, n) is Failures f of n; WithFailureThresholdPeriod(f,
// period) is Failures = Of = Executions = f over Period; WithFailureRateThreshold(r, e, period)
// is Rate r once Executions e over Period; WithSuccessThresholdRatio(s, n) is Successes s of
// SuccessOf n.
//
// The closed state counts the last Of results (or, with a Period, those of the period in 10
// buckets of Period/10 from time 0, a bucket expired when a result comes) and opens, once it
// has Executions of them, when the failure rate (rounded to hundredths) reaches Rate, or without
// a Rate when Failures of them failed. The open state lets a call through once Delay has passed
// since it opened (≥), moving to half-open; its results are not looked at. The half-open state
// counts the last results over its capacity (SuccessOf, else Executions, else Of) and hands out
// as many permits; each result, whatever state let its call through, gives one back. With a
// success threshold it closes when successes reach it and opens when failures exceed capacity −
// threshold; with a Rate, once Executions results are in, it opens at a failure rate of Rate and
// closes at a success rate over 1 − Rate; else it opens when failures reach Failures and closes
// when successes exceed Of − Failures (with the defaults: one success closes, one failure opens).
type failsafe struct {
	p        Params
	state    State
	openedAt time.Duration
	permits  int
	stats    failsafeStats
}

// failsafeStats is util's countingStats (a ring of the last size results, grown with them) or,
// with buckets, timedStats (a BucketedWindow); successes and failures are what either holds.
type failsafeStats struct {
	last                []bool // the last results, true for a failure; a ring
	size, next          int
	buckets             []struct{ successes, failures int }
	bucket              time.Duration
	head                int64
	successes, failures int
}

// countingStats is a ring of the last size results.
func countingStats(size int) failsafeStats { return failsafeStats{size: max(size, 1)} }

func newFailsafe(p Params) *failsafe {
	b := &failsafe{p: p}
	b.closedStats()
	return b
}

func (b *failsafe) State() State { return b.state }

func (b *failsafe) closedStats() {
	if b.p.FailsafePeriod > 0 {
		b.stats = failsafeStats{buckets: make([]struct{ successes, failures int }, 10), bucket: b.p.FailsafePeriod / 10}
		return
	}
	capacity := b.p.FailsafeOf
	if b.p.FailsafeExecutions != 0 {
		capacity = b.p.FailsafeExecutions
	}
	b.stats = countingStats(capacity)
}

// halfOpenCapacity is newHalfOpenState's capacity.
func (b *failsafe) halfOpenCapacity() int {
	switch {
	case b.p.FailsafeSuccessOf != 0:
		return b.p.FailsafeSuccessOf
	case b.p.FailsafeExecutions != 0:
		return b.p.FailsafeExecutions
	}
	return b.p.FailsafeOf
}

func (s *failsafeStats) add(now time.Duration, failed bool) {
	if s.buckets == nil {
		if len(s.last) < s.size {
			s.last = append(s.last, false)
		} else if s.last[s.next] {
			s.failures--
		} else {
			s.successes--
		}
		s.last[s.next] = failed
		s.next = (s.next + 1) % s.size
		if failed {
			s.failures++
		} else {
			s.successes++
		}
		return
	}
	// ExpireBuckets: the head is the bucket of now; those it moves past are emptied.
	n := int64(len(s.buckets))
	if head := int64(now / s.bucket); head > s.head {
		for i := range min(n, head-s.head) {
			old := &s.buckets[(s.head+i+1)%n]
			s.successes -= old.successes
			s.failures -= old.failures
			*old = struct{ successes, failures int }{}
		}
		s.head = head
	}
	cur := &s.buckets[s.head%n]
	if failed {
		cur.failures++
		s.failures++
	} else {
		cur.successes++
		s.successes++
	}
}

func (s *failsafeStats) counts() (failures, successes int) { return s.failures, s.successes }

// rate is util.Round(part / all): to hundredths; 0 with no results.
func rate(part, all int) float64 {
	if all == 0 {
		return 0
	}
	return math.Round(float64(part)/float64(all)*100) / 100
}

// closesAt is the least success rate, in hundredths as rate gives them, over 1 − r: what closes
// a half-open breaker with a Rate of r. Said as "at least", it is exact where "over 1 − r" is
// not: 1 − 0.07 is 0.9299999999999999 in float64, so a success rate of exactly 93% closes.
func closesAt(r float64) float64 {
	for k := range 101 {
		if h := float64(k) / 100; h > 1-r {
			return h
		}
	}
	return math.Inf(1)
}

func (b *failsafe) Allow(now time.Duration) Permit {
	switch b.state {
	case Open:
		if now-b.openedAt < b.p.FailsafeDelay {
			return Permit{}
		}
		b.state, b.permits = HalfOpen, b.halfOpenCapacity()
		b.stats = countingStats(b.permits)
		fallthrough
	case HalfOpen:
		if b.permits == 0 {
			return Permit{}
		}
		b.permits--
		return Permit{Allowed: true, Probe: true}
	}
	return Permit{Allowed: true}
}

func (b *failsafe) Record(now time.Duration, _ Permit, failed bool, _ time.Duration) {
	if b.state == Open {
		return
	}
	b.stats.add(now, failed)
	failures, successes := b.stats.counts()
	all, p := failures+successes, b.p
	switch b.state {
	case Closed:
		if all >= p.FailsafeExecutions && ((p.FailsafeRate != 0 && rate(failures, all) >= p.FailsafeRate) ||
			(p.FailsafeRate == 0 && failures >= p.FailsafeFailures)) {
			b.state, b.openedAt = Open, now
		}
	case HalfOpen:
		var closes, opens bool
		switch {
		case p.FailsafeSuccesses != 0:
			closes = successes >= p.FailsafeSuccesses
			opens = failures > p.FailsafeSuccessOf-p.FailsafeSuccesses
		case p.FailsafeRate != 0:
			enough := all >= p.FailsafeExecutions
			opens = enough && rate(failures, all) >= p.FailsafeRate
			closes = enough && rate(successes, all) > 1-p.FailsafeRate
		default:
			opens = failures >= p.FailsafeFailures
			closes = successes > p.FailsafeOf-p.FailsafeFailures
		}
		switch {
		case closes:
			b.state = Closed
			b.closedStats()
		case opens:
			b.state, b.openedAt = Open, now
		}
		b.permits++
	}
}

// FailsafeClosesAt is closesAt, for the breaker's rule in words: the least success rate that
// closes a half-open failsafe breaker with a failure Rate of r (93% at 0.07).
func FailsafeClosesAt(r float64) float64 { return closesAt(r) }
