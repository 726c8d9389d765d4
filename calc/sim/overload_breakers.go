package sim

import (
	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
)

// What the overload model says of each circuit breaker of calc/breaker, which holds only the
// libraries' rules: its rule in words, what it needs before it can open with every call failing
// (BreakerFactsOf). Whether one per client process costs a run more is calc's bulky, as
// Validate weighs it. A new breaker is its package's entry and one entry here
// (TestBreakerSayingsComplete).

// breakerSaying is what the overload model says of one breaker.
type breakerSaying struct {
	// words says in one sentence what the breaker does, from p's breaker parameters, starting
	// with its name and a colon.
	words func(p calc.Params) string
	// gate is the breaker's threshold and open period as its parameters set them
	// (BreakerFactsOf); nil for no breaker.
	gate func(breaker.Params) breakerGate
}

// breakerSays is the overload model's table of breakers, indexed by breaker.Kind.
var breakerSays = [breaker.Count]breakerSaying{
	breaker.None: {
		words: func(calc.Params) string { return "none: every call is made." },
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
		// With every call failing, the 7th may be rejected: (6 − 5 − 0)/(6 + 1) > 0.
		gate: func(breaker.Params) breakerGate {
			return breakerGate{calls: breaker.SREProtection + 1, within: breaker.SREWindow}
		},
		words: func(calc.Params) string {
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
