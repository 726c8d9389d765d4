package sim

import (
	"fmt"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/policy"
)

// breakerGate is what a breaker needs before it can open, with every call failing: calls results
// (within that time, for the breakers that forget older ones; 0: no limit), and how long it then
// stays open before the next call probes (0: it has no open state).
type breakerGate struct {
	open   time.Duration
	calls  int
	within time.Duration
}

// BreakerFacts are the answers about p's breaker that its inputs give without a simulation: what
// one call feeds it, how its open period compares with the retry schedule, and how long the
// stream takes to give it enough calls to open.
type BreakerFacts struct {
	Kind   breaker.Kind
	Source string // the library, its file and version
	Rule   string // its rule in words
	// FedPerCall is how many failed results one logical call that fails every attempt feeds the
	// breaker: every attempt that can start within the budget at BreakerAtAttempt, one at
	// BreakerAtCall.
	FedPerCall int
	// OpenPeriod is how long it stays open before the next call is let through as a probe; 0
	// for sre, which has no open state.
	OpenPeriod time.Duration
	// Schedule is the latest start of the policy's last attempt after its first (the worst-case
	// total wait, calls included). OpenLonger says OpenPeriod is longer: a call whose attempts
	// opened the breaker meets it still open at every later retry.
	Schedule   time.Duration
	OpenLonger bool
	// MinCalls is how many results it needs, every one a failure, before it can open; MinWithin,
	// when not 0, the time they must fall within.
	MinCalls  int
	MinWithin time.Duration
	// PerBreaker is the new requests per second each breaker sees from the stream (the processes
	// take the stream's requests in turn, or share one breaker); Reach is MinCalls / PerBreaker,
	// how long the stream alone takes to give it MinCalls, or -1 when it never does (no stream,
	// or not within MinWithin).
	PerBreaker float64
	Reach      time.Duration
	Words      string // the above in one paragraph
}

// BreakerFactsOf works out p's breaker's facts; the zero BreakerFacts, Kind none, without one. p
// must be valid.
func BreakerFactsOf(p calc.Params) BreakerFacts {
	e := breakerSaid(p.Breaker)
	if e.gate == nil {
		return BreakerFacts{}
	}
	g := e.gate(p.BreakerParams)
	sched := p.Schedule()
	f := BreakerFacts{Kind: p.Breaker, Source: p.Breaker.Source(), Rule: e.words(p), FedPerCall: sched.AtMost, OpenPeriod: g.open,
		MinCalls: g.calls, MinWithin: g.within, Reach: -1}
	if p.BreakerAt == calc.BreakerAtCall {
		f.FedPerCall = 1
	}
	if len(sched.Rows) > 0 {
		f.Schedule = sched.Rows[len(sched.Rows)-1].Latest
	}
	f.OpenLonger = f.OpenPeriod > f.Schedule
	if p.StreamRequests() > 0 {
		f.PerBreaker = p.Rate
		if p.Breakers == calc.BreakerPerClient {
			f.PerBreaker /= float64(max(p.Processes, 1))
		}
		reach := time.Duration(float64(f.MinCalls) / f.PerBreaker * float64(time.Second))
		if f.MinWithin == 0 || reach <= f.MinWithin {
			f.Reach = reach
		}
	}
	f.Words = f.words(p)
	return f
}

// words says f in one paragraph, each number at the precision a person reads.
func (f BreakerFacts) words(p calc.Params) string {
	whose := "one per client process"
	if p.Breakers == calc.BreakerShared || p.Processes == 1 {
		whose = "one for every client"
	}
	s := fmt.Sprintf("Every attempt asks the %s breaker (%s) first: a rejected attempt fails at once without reaching the server, and the policy retries it after its wait as after any failure (the limiter is asked as usual), as most libraries do by default. ", f.Kind, whose)
	if p.BreakerAt == calc.BreakerAtCall {
		s = fmt.Sprintf("Each call asks the %s breaker (%s) once, before its first attempt, and gives it one result when it ends: a rejected call fails at once and ends, since the breaker sits outside the retries. ", f.Kind, whose)
	}
	s += fmt.Sprintf("One call that fails every attempt feeds the breaker %d failed %s. ", f.FedPerCall, policy.Plural(f.FedPerCall, "result", "results"))
	switch {
	case f.OpenPeriod == 0:
		s += "It has no open period: it rejects calls at random while too few succeed. "
	case f.OpenLonger:
		s += fmt.Sprintf("Its open period, %s, is longer than the policy's whole schedule (its last attempt starts at most %s after the first): the retries of a call that opened it meet it open. ",
			policy.Human(float64(f.OpenPeriod)), policy.HumanBeside(float64(f.Schedule), f.OpenPeriod))
	default:
		s += fmt.Sprintf("Its open period, %s, is not longer than the policy's whole schedule (its last attempt starts at most %s after the first): a call's later retries can probe it. ",
			policy.Human(float64(f.OpenPeriod)), policy.HumanBeside(float64(f.Schedule), f.OpenPeriod))
	}
	need := fmt.Sprintf("It can open after %d failed %s", f.MinCalls, policy.Plural(f.MinCalls, "result", "results"))
	if f.MinWithin > 0 {
		need += " within " + policy.Human(float64(f.MinWithin))
	}
	switch {
	case f.PerBreaker == 0:
		return s + need + "; there is no stream of new requests."
	case f.Reach < 0:
		return s + need + fmt.Sprintf("; the stream gives each breaker %s new requests per second, too few to get there.", policy.FormatFloat(f.PerBreaker))
	}
	return s + need + fmt.Sprintf("; the stream gives each breaker %s new requests per second: %s to get there from its first attempts alone.",
		policy.FormatFloat(f.PerBreaker), policy.HumanBeside(float64(f.Reach), f.MinWithin))
}

// BreakerWords says in one sentence what run r's breakers did; "" without a breaker. "The 2
// gobreaker breakers rejected 1716 attempts, opened 2 times, let 0 probes through (at most 0 in
// one window) and were open 5.98 s in all, summed over them." sre, which has no open state,
// never opens.
func BreakerWords(p calc.Params, r OverloadRun) string {
	if r.Breakers == 0 {
		return ""
	}
	who, all := fmt.Sprintf("The %d %s breakers", r.Breakers, r.Breaker), " in all, summed over them"
	if r.Breakers == 1 {
		who, all = "The "+r.Breaker.String()+" breaker", ""
	}
	rejected := fmt.Sprintf("rejected %d %s", r.Rejected, policy.Plural(r.Rejected, "attempt", "attempts"))
	if p.BreakerAt == calc.BreakerAtCall {
		rejected = fmt.Sprintf("rejected %d %s", r.Blocked, policy.Plural(r.Blocked, "call", "calls"))
	}
	if r.Trips == 0 {
		return who + " " + rejected + " and never opened."
	}
	return fmt.Sprintf("%s %s, opened %d %s, let %d %s through (at most %d in one window) and %s open %s%s.",
		who, rejected, r.Trips, policy.Plural(r.Trips, "time", "times"), r.Probes, policy.Plural(r.Probes, "probe", "probes"), r.MaxProbes,
		policy.Plural(r.Breakers, "was", "were"), policy.Human(float64(r.OpenTime)), all)
}
