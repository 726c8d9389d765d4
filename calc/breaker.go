package calc

import (
	"fmt"
	"time"
)

// A circuit breaker is what a client puts in front of a failing server so that, once enough
// calls fail, it stops calling for a while and fails at once instead. Each type below follows one
// library's source at a named version and says which file; each starts from that library's
// defaults (DefaultBreakerParams), which the keys of its parameters change.
// All of them change state lazily, as the libraries do: an open breaker becomes half-open only
// when a call asks for a permit after the open period, and that call is the probe.

// BreakerKind names a circuit breaker. The zero value, BreakerNone, lets every call through. Each
// kind is one entry of the table of breakers below, the only place that tells the kinds apart.
type BreakerKind uint8

const (
	BreakerNone         BreakerKind = iota
	BreakerGobreaker                // sony/gobreaker v2: trips on more than 5 consecutive failures
	BreakerResilience4j             // resilience4j: failure rate over the last 100 calls
	BreakerPolly                    // Polly v8: failure ratio over 30 s once 100 calls are seen
	BreakerFailsafe                 // failsafe-go: opens on 1 failure, closes on 1 success
	BreakerSRE                      // Google SRE adaptive throttling, as go-zero's googlebreaker

	breakerCount // the number of kinds: the length of breakers
)

// BreakerAt says where a client's breaker sits around its retries: at each attempt (inside
// the retries, every attempt asks and counts; the .NET standard pipeline's order) or around the
// whole call (outside: one logical call asks once and counts once).
type BreakerAt uint8

const (
	BreakerAtAttempt BreakerAt = iota
	BreakerAtCall
)

var breakerAtNames = [...]string{"attempt", "call"}

func (a BreakerAt) String() string {
	if int(a) < len(breakerAtNames) {
		return breakerAtNames[a]
	}
	return fmt.Sprintf("BreakerAt(%d)", a)
}

// BreakerScope says whose breaker a call asks: its client process's own (as limiters are) or
// one shared by every process.
type BreakerScope uint8

const (
	BreakerPerClient BreakerScope = iota
	BreakerShared
)

var breakerScopeNames = [...]string{"client", "shared"}

func (s BreakerScope) String() string {
	if int(s) < len(breakerScopeNames) {
		return breakerScopeNames[s]
	}
	return fmt.Sprintf("BreakerScope(%d)", s)
}

// BreakerState is a breaker's state as of its last call. SRE throttling has no states: it is
// always closed and rejects calls at random.
type BreakerState uint8

const (
	BreakerClosed BreakerState = iota
	BreakerOpen
	BreakerHalfOpen
)

func (s BreakerState) String() string {
	switch s {
	case BreakerClosed:
		return "closed"
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half-open"
	}
	return fmt.Sprintf("BreakerState(%d)", s)
}

// Permit is a breaker's answer to a call. A call that is not Allowed fails at once without
// reaching the server. Probe says the call was let through while half-open. The call hands its
// permit back to Record with its result: gobreaker drops the results of calls permitted before
// its last change of state, which the permit's generation tells.
type Permit struct {
	Allowed, Probe bool
	generation     uint64
}

// Breaker is one circuit breaker. Calls come in time order (now, since the run began). A call
// asks Allow before it starts; if allowed, it calls Record once with its outcome: failed, and how
// long it took (resilience4j counts calls slower than a threshold).
type Breaker interface {
	Allow(now time.Duration) Permit
	Record(now time.Duration, p Permit, failed bool, took time.Duration)
	State() BreakerState
}

// BreakerParams are the breakers' parameters, each library's defaults in DefaultBreakerParams.
// SRE's are go-zero's constants.
type BreakerParams struct {
	// GobreakerFailures: trip when consecutive failures exceed it (ReadyToTrip's 5);
	// GobreakerMaxRequests: calls let through while half-open (MaxRequests, 1);
	// GobreakerTimeout: the open period (Timeout, 60 s).
	GobreakerFailures, GobreakerMaxRequests int
	GobreakerTimeout                        time.Duration
	// Resilience4j: failureRateThreshold (50, percent), slowCallRateThreshold (100),
	// slowCallDurationThreshold (60 s), slidingWindowSize (100 calls, COUNT_BASED),
	// minimumNumberOfCalls (100), waitDurationInOpenState (60 s),
	// permittedNumberOfCallsInHalfOpenState (10).
	// The percentages are Java floats there: the rates are compared in float32.
	R4jFailurePercent, R4jSlowPercent float64
	R4jSlowAfter                      time.Duration
	R4jWindow, R4jMinCalls            int
	R4jWait                           time.Duration
	R4jHalfOpen                       int
	// Polly: FailureRatio (0.1), MinimumThroughput (100), SamplingDuration (30 s, in 10
	// windows), BreakDuration (5 s).
	PollyRatio      float64
	PollyThroughput int
	PollySampling   time.Duration
	PollyBreak      time.Duration
	// Failsafe: WithFailureThresholdRatio(failures, of last calls) (1 of 1),
	// WithSuccessThresholdRatio(successes, of calls) while half-open (0, 0: unset, the failure
	// threshold decides), Delay (1 min); for the time-based variants a Period (0: count-based),
	// the executions needed before a decision (failureExecutionThreshold, 0) and a failure Rate
	// (0: none). breaker_failsafe.go says how each builder call sets them.
	FailsafeFailures, FailsafeOf         int
	FailsafeSuccesses, FailsafeSuccessOf int
	FailsafeDelay                        time.Duration
	FailsafePeriod                       time.Duration
	FailsafeExecutions                   int
	FailsafeRate                         float64
}

// Limits of the breakers' parameters (their keys' ranges). The windows of calls grow with the
// calls recorded, so a count's limit bounds no memory by itself; 24 h is Polly's own limit of a
// duration.
const (
	MaxBreakerCount = 1000000
	MaxBreakerTime  = 24 * time.Hour
)

// DefaultBreakerParams returns each library's defaults.
func DefaultBreakerParams() BreakerParams {
	return BreakerParams{
		GobreakerFailures: 5, GobreakerMaxRequests: 1, GobreakerTimeout: 60 * time.Second,
		R4jFailurePercent: 50, R4jSlowPercent: 100, R4jSlowAfter: 60 * time.Second,
		R4jWindow: 100, R4jMinCalls: 100, R4jWait: 60 * time.Second, R4jHalfOpen: 10,
		PollyRatio: 0.1, PollyThroughput: 100, PollySampling: 30 * time.Second, PollyBreak: 5 * time.Second,
		FailsafeFailures: 1, FailsafeOf: 1, FailsafeDelay: time.Minute,
	}
}

// breakerInit is what a breaker is made from: the parameters and, for SRE's random rejections,
// a stream of uniform draws in [0, 1) (the client's, from the run's seed).
type breakerInit struct {
	BreakerParams
	draw func() float64
}

// breakers is the table of circuit breakers, indexed by BreakerKind.
var breakers = [breakerCount]kind[breakerInit, Breaker]{
	BreakerNone: {
		name: "none", source: "no breaker: every call is made",
		words: func(Params) string { return "none: every call is made." },
	},
	BreakerGobreaker: {
		name: "gobreaker", source: "sony/gobreaker v2.4.0, gobreaker.go and counter.go (Settings defaults)",
		fresh: func(p breakerInit) Breaker { return newGobreaker(p.BreakerParams) },
		gate: func(p breakerInit) breakerGate {
			return breakerGate{open: p.GobreakerTimeout, calls: p.GobreakerFailures + 1}
		},
		words: gobreakerWords,
	},
	BreakerResilience4j: {
		name: "resilience4j", source: "resilience4j v2.4.0, resilience4j-circuitbreaker internal/CircuitBreakerStateMachine.java (ClosedState, OpenState, HalfOpenState), internal/CircuitBreakerMetrics.java, core metrics/SnapshotImpl.java, CircuitBreakerConfig.java (defaults)",
		fresh: func(p breakerInit) Breaker { return newResilience4j(p.BreakerParams) },
		gate: func(p breakerInit) breakerGate {
			return breakerGate{open: p.R4jWait, calls: min(p.R4jMinCalls, p.R4jWindow)}
		},
		words: resilience4jWords,
	},
	BreakerPolly: {
		name: "polly", source: "Polly v8 (Polly.Core at commit 008b952), CircuitBreaker/Controller/CircuitStateController.cs and AdvancedCircuitBehavior.cs, Health/HealthMetrics.cs and RollingHealthMetrics.cs, CircuitBreakerConstants.cs (defaults)",
		fresh: func(p breakerInit) Breaker { return newPolly(p.BreakerParams) },
		gate: func(p breakerInit) breakerGate {
			return breakerGate{open: p.PollyBreak, calls: p.PollyThroughput, within: p.PollySampling}
		},
		words: pollyWords,
	},
	BreakerFailsafe: {
		name: "failsafe", source: "failsafe-go v0.9.8, circuitbreaker/circuitbreaker.go, circuitstates.go and circuitbreakerbuilder.go (defaults)",
		fresh: func(p breakerInit) Breaker { return newFailsafe(p.BreakerParams) },
		gate: func(p breakerInit) breakerGate {
			calls := max(p.FailsafeFailures, p.FailsafeExecutions)
			if p.FailsafeRate != 0 {
				calls = max(p.FailsafeExecutions, 1)
			}
			return breakerGate{open: p.FailsafeDelay, calls: calls, within: p.FailsafePeriod}
		},
		words: failsafeWords,
	},
	BreakerSRE: {
		name: "sre", source: "Google SRE book, \"Handling Overload\" (client-side adaptive throttling), as go-zero v1.10.3 core/breaker/googlebreaker.go on core/collection/rollingwindow.go",
		fresh: func(p breakerInit) Breaker { return newSRE(p.draw) },
		// Its window of 40 buckets is about a kilobyte a breaker.
		bulky: true,
		// With every call failing, the 7th may be rejected: (6 − 5 − 0)/(6 + 1) > 0.
		gate: func(breakerInit) breakerGate {
			return breakerGate{calls: sreProtection + 1, within: sreBuckets * sreBucket}
		},
		words: func(Params) string {
			return "sre: rejects each call at random with probability (requests − 5 − 1.5 × successes)/(requests + 1) over the last 10 s, when above 0; at least one call a second goes through."
		},
	},
}

// breakerNames are the breakers' names, by BreakerKind.
var breakerNames = kindNames(breakers[:])

func (k BreakerKind) String() string {
	if k < breakerCount {
		return breakers[k].name
	}
	return fmt.Sprintf("BreakerKind(%d)", k)
}

// entry is k's entry in the table; a value that names no breaker is BreakerNone.
func (k BreakerKind) entry() *kind[breakerInit, Breaker] {
	if k < breakerCount {
		return &breakers[k]
	}
	return &breakers[BreakerNone]
}

// Source is where breaker k's rule is read from: the library, its file and version.
func (k BreakerKind) Source() string { return k.entry().source }

// Breakers lists every breaker kind, BreakerNone first.
func Breakers() []BreakerKind {
	ks := make([]BreakerKind, breakerCount)
	for i := range ks {
		ks[i] = BreakerKind(i)
	}
	return ks
}

// NewBreaker returns a fresh breaker of kind k, or nil for BreakerNone. draw gives SRE's uniform
// draws in [0, 1); the others ignore it. The parameters must be valid; the run starts at time 0.
func NewBreaker(k BreakerKind, p BreakerParams, draw func() float64) Breaker {
	if fresh := k.entry().fresh; fresh != nil {
		return fresh(breakerInit{p, draw})
	}
	return nil
}
