// Package breaker holds the circuit breakers of real clients, each following one library's
// source at a named version: what the library does when a call asks and when its result comes,
// and nothing of what a simulation makes of it (the overload model in calc says that). It
// imports nothing of the project.
//
// A circuit breaker is what a client puts in front of a failing server so that, once enough
// calls fail, it stops calling for a while and fails at once instead. Each type below follows one
// library's source at a named version and says which file; each starts from that library's
// defaults (Defaults), which the keys of its parameters change.
// All of them change state lazily, as the libraries do: an open breaker becomes half-open only
// when a call asks for a permit after the open period, and that call is the probe.
package breaker

import (
	"fmt"
	"time"
)

// Kind names a circuit breaker. The zero value, None, lets every call through. Each kind is one
// entry of the table of breakers below, the only place that tells the kinds apart.
type Kind uint8

const (
	None         Kind = iota
	Gobreaker         // sony/gobreaker v2: trips on more than 5 consecutive failures
	Resilience4j      // resilience4j: failure rate over the last 100 calls
	Polly             // Polly v8: failure ratio over 30 s once 100 calls are seen
	Failsafe          // failsafe-go: opens on 1 failure, closes on 1 success
	SRE               // Google SRE adaptive throttling, as go-zero's googlebreaker

	Count // the number of kinds: the length of the table
)

// State is a breaker's state as of its last call. SRE throttling has no states: it is always
// closed and rejects calls at random.
type State uint8

const (
	Closed State = iota
	Open
	HalfOpen
)

func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case Open:
		return "open"
	case HalfOpen:
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
	State() State
}

// Params are the breakers' parameters, each library's defaults in Defaults. SRE's are go-zero's
// constants.
type Params struct {
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
	MaxCount = 1000000
	MaxTime  = 24 * time.Hour
)

// Defaults returns each library's defaults.
func Defaults() Params {
	return Params{
		GobreakerFailures: 5, GobreakerMaxRequests: 1, GobreakerTimeout: 60 * time.Second,
		R4jFailurePercent: 50, R4jSlowPercent: 100, R4jSlowAfter: 60 * time.Second,
		R4jWindow: 100, R4jMinCalls: 100, R4jWait: 60 * time.Second, R4jHalfOpen: 10,
		PollyRatio: 0.1, PollyThroughput: 100, PollySampling: 30 * time.Second, PollyBreak: 5 * time.Second,
		FailsafeFailures: 1, FailsafeOf: 1, FailsafeDelay: time.Minute,
	}
}

// made is what a breaker is made from: the parameters and, for SRE's random rejections, a
// stream of uniform draws in [0, 1) (the client's, from the run's seed).
type made struct {
	Params
	draw func() float64
}

// entry is one breaker: its name in links, where its rule is read from, and how a fresh one is
// made.
type entry struct {
	name   string // in links, the form and the tables
	source string // where its rule is read from: the library, its file and version
	// fresh returns a new one; nil for None.
	fresh func(made) Breaker
}

// breakers is the table of circuit breakers, indexed by Kind. What the overload model says of
// each (its rule in words, what it needs before it opens, its cost) is calc's table of the same
// kinds.
var breakers = [Count]entry{
	None: {name: "none", source: "no breaker: every call is made"},
	Gobreaker: {
		name: "gobreaker", source: "sony/gobreaker v2.4.0, gobreaker.go and counter.go (Settings defaults)",
		fresh: func(p made) Breaker { return newGobreaker(p.Params) },
	},
	Resilience4j: {
		name: "resilience4j", source: "resilience4j v2.4.0, resilience4j-circuitbreaker internal/CircuitBreakerStateMachine.java (ClosedState, OpenState, HalfOpenState), internal/CircuitBreakerMetrics.java, core metrics/SnapshotImpl.java, CircuitBreakerConfig.java (defaults)",
		fresh: func(p made) Breaker { return newResilience4j(p.Params) },
	},
	Polly: {
		name: "polly", source: "Polly v8 (Polly.Core at commit 008b952), CircuitBreaker/Controller/CircuitStateController.cs and AdvancedCircuitBehavior.cs, Health/HealthMetrics.cs and RollingHealthMetrics.cs, CircuitBreakerConstants.cs (defaults)",
		fresh: func(p made) Breaker { return newPolly(p.Params) },
	},
	Failsafe: {
		name: "failsafe", source: "failsafe-go v0.9.8, circuitbreaker/circuitbreaker.go, circuitstates.go and circuitbreakerbuilder.go (defaults)",
		fresh: func(p made) Breaker { return newFailsafe(p.Params) },
	},
	SRE: {
		name: "sre", source: "Google SRE book, \"Handling Overload\" (client-side adaptive throttling), as go-zero v1.10.3 core/breaker/googlebreaker.go on core/collection/rollingwindow.go",
		fresh: func(p made) Breaker { return newSRE(p.draw) },
	},
}

// Names returns the breakers' names, by Kind.
func Names() []string {
	names := make([]string, Count)
	for i, b := range breakers {
		names[i] = b.name
	}
	return names
}

func (k Kind) String() string {
	if k < Count {
		return breakers[k].name
	}
	return fmt.Sprintf("BreakerKind(%d)", k)
}

// entry is k's entry in the table; a value that names no breaker is None.
func (k Kind) entry() *entry {
	if k < Count {
		return &breakers[k]
	}
	return &breakers[None]
}

// Source is where breaker k's rule is read from: the library, its file and version.
func (k Kind) Source() string { return k.entry().source }

// Kinds lists every breaker kind, None first.
func Kinds() []Kind {
	ks := make([]Kind, Count)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// New returns a fresh breaker of kind k, or nil for None. draw gives SRE's uniform draws in
// [0, 1); the others ignore it. The parameters must be valid; the run starts at time 0.
func New(k Kind, p Params, draw func() float64) Breaker {
	if fresh := k.entry().fresh; fresh != nil {
		return fresh(made{p, draw})
	}
	return nil
}

// satAdd is a+b, at most 1<<62, for a and b in [0, 1<<62]: an open period that ends past any
// run, safe from overflow (calc's horizon stops at the same time).
func satAdd(a, b time.Duration) time.Duration {
	const most = time.Duration(1 << 62)
	if a > most-b {
		return most
	}
	return a + b
}
