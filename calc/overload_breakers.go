package calc

import (
	"fmt"

	"backoffcalc/calc/breaker"
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

// What the overload model says of each circuit breaker of calc/breaker, which holds only the
// libraries' rules: its rule in words, what it needs before it can open with every call failing
// (Params.BreakerFacts), and whether one per client process costs a run more (caseWeight). A new
// breaker is its package's entry and one entry here (TestBreakerSayingsComplete).

// breakerSaying is what the overload model says of one breaker.
type breakerSaying struct {
	// words says in one sentence what the breaker does, from p's breaker parameters, starting
	// with its name and a colon.
	words func(p Params) string
	// gate is the breaker's threshold and open period as its parameters set them
	// (Params.BreakerFacts); nil for no breaker.
	gate func(breaker.Params) breakerGate
	// bulky says one breaker per client process no longer fits the processor's cache in more
	// than wideProcesses processes, so that a run with it costs more (caseWeight).
	bulky bool
}

// breakerSays is the overload model's table of breakers, indexed by breaker.Kind.
var breakerSays = [breaker.Count]breakerSaying{
	breaker.None: {
		words: func(Params) string { return "none: every call is made." },
	},
	breaker.Gobreaker: {
		gate: func(p breaker.Params) breakerGate {
			return breakerGate{open: p.GobreakerTimeout, calls: p.GobreakerFailures + 1}
		},
		words: gobreakerWords,
	},
	breaker.Resilience4j: {
		gate: func(p breaker.Params) breakerGate {
			return breakerGate{open: p.R4jWait, calls: min(p.R4jMinCalls, p.R4jWindow)}
		},
		words: resilience4jWords,
	},
	breaker.Polly: {
		gate: func(p breaker.Params) breakerGate {
			return breakerGate{open: p.PollyBreak, calls: p.PollyThroughput, within: p.PollySampling}
		},
		words: pollyWords,
	},
	breaker.Failsafe: {
		gate: func(p breaker.Params) breakerGate {
			calls := max(p.FailsafeFailures, p.FailsafeExecutions)
			if p.FailsafeRate != 0 {
				calls = max(p.FailsafeExecutions, 1)
			}
			return breakerGate{open: p.FailsafeDelay, calls: calls, within: p.FailsafePeriod}
		},
		words: failsafeWords,
	},
	breaker.SRE: {
		// Its window of 40 buckets is about a kilobyte a breaker.
		bulky: true,
		// With every call failing, the 7th may be rejected: (6 − 5 − 0)/(6 + 1) > 0.
		gate: func(breaker.Params) breakerGate {
			return breakerGate{calls: breaker.SREProtection + 1, within: breaker.SREWindow}
		},
		words: func(Params) string {
			return "sre: rejects each call at random with probability (requests − 5 − 1.5 × successes)/(requests + 1) over the last 10 s, when above 0; at least one call a second goes through."
		},
	},
}

// breakerSaid is what the overload model says of k; of none for a value that names no breaker.
func breakerSaid(k breaker.Kind) *breakerSaying {
	if k < breaker.Count {
		return &breakerSays[k]
	}
	return &breakerSays[breaker.None]
}
