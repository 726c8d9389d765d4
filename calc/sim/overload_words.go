package sim

import (
	"fmt"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// The overload view in words, from the inputs alone: what the stream would ask of the server if
// every attempt failed, and what each limiter's rule bounds that to. Nothing here runs the
// simulation; each bound is derived from the limiter's rule (limiter_*.go), as its comment says,
// and each limiter's sentence is its entry's words in the table of limiters (limiter.go).

// FailingLoad returns the attempts per second the stream would send if every attempt failed and
// every request made all its attempts (Rate × Attempts; 0 without a stream), and the attempts per second the server
// serves (Capacity per Window; 0 for no limit). 50 requests per second with 4 attempts: 200,
// against 200 per second for 20 per 100ms.
func FailingLoad(p calc.Params) (offered, capacity float64) {
	if p.HasStream() {
		offered = p.Rate * float64(p.Attempts)
	}
	if p.Capacity > 0 {
		capacity = float64(p.Capacity) / p.Window.Seconds()
	}
	return offered, capacity
}

// FinagleRetriesPerSecond is the most retries per second, over time, that the finagle budgets of
// all processes admit: each process's reserve gives minretries per second (minretries × ttl
// retries that expire after ttl), and each request deposits what pays for 1000/⌊1000/retrypct⌋
// retries (retrypct, up to the integer rounding of the withdrawal, as the limiter keeps it), which
// also expires after ttl. So: Processes × minretries + Rate × that share. It is not more than the
// policy asks: Rate × (Attempts − 1). Defaults and 100 requests per second, 3 attempts:
// 10 + 100 × 0.2 = 30 per second.
func FinagleRetriesPerSecond(p calc.Params) float64 {
	l := p.Limits
	share := 0.0
	if l.FinaglePercent > 0 {
		share = 1000 / float64(int64(1000/l.FinaglePercent))
	}
	budget := float64(p.Processes)*float64(l.FinagleMinRetries) + p.Rate*share
	return min(budget, p.Rate*float64(p.Attempts-1))
}

// FailingLoadWords says, in one sentence, what the stream would ask of the server if every
// attempt failed, against its capacity: "If every attempt failed, the stream of 50 requests per
// second, each making its 4 attempts, would send 200 attempts per second; the server serves 200
// per second (20 per 100 ms window)."
func FailingLoadWords(p calc.Params) string {
	offered, capacity := FailingLoad(p)
	serves := "the server has no capacity limit"
	if capacity > 0 {
		serves = fmt.Sprintf("the server serves %s per second (%d per %s window)", perSecond(capacity), p.Capacity, policy.Human(float64(p.Window)))
	}
	if p.Rate == 0 || p.Run == 0 {
		return fmt.Sprintf("There is no stream of new requests (rate or run is 0): only the crowd of %d clients arrives; %s.", p.Clients, serves)
	}
	return fmt.Sprintf("If every attempt failed, the stream of %s requests per second for %s, each making its %d %s, would send %s attempts per second; %s.",
		perSecond(p.Rate), policy.Human(float64(p.Run)), p.Attempts, policy.Plural(p.Attempts, "attempt", "attempts"), perSecond(offered), serves)
}

// LimiterBoundWords says what limiter k bounds that load to when every attempt fails, from its
// rule (see the functions above) and p's parameters, per process and for all of them.
func LimiterBoundWords(p calc.Params, k limiter.Kind) string { return saying(k).words(p) }

// retriesInAll says n retries per process, and for all of p's processes.
func retriesInAll(p calc.Params, n int) string {
	if p.Processes == 1 {
		return fmt.Sprintf("%d %s in all", n, policy.Plural(n, "retry", "retries"))
	}
	return fmt.Sprintf("%d per process, %d in all over %d processes", n, n*p.Processes, p.Processes)
}

// firstAttemptsOnly says what is left once a limiter refuses every retry: with a stream, at its
// rate; without one, only the crowd's first attempts, which no rate describes.
func firstAttemptsOnly(p calc.Params) string {
	return "then only first attempts" + withStream(p, ": "+perSecond(p.Rate)+" attempts per second")
}

// withStream is s with a stream, and "" without one: a rate per second of a stream that does
// not exist (0) answers no question of the crowd's.
func withStream(p calc.Params, s string) string {
	if p.HasStream() {
		return s
	}
	return ""
}

// perSecond writes a rate with at most three decimals, rounded half up: 0.5, 200, 33.333,
// 0.0625 is 0.063.
func perSecond(x float64) string { return trimZeros(policy.Decimal(x, 3)) }

// HeadlineWords says in one sentence how run r ended, what the overload view shows first:
// whether and when the server recovered (Recovered), how many requests succeeded, and the share
// of served attempts that were wasted. "The server recovered at 2 s, while the stream still ran;
// 300 of 600 requests succeeded; 25% of the 40 attempts it served went to a client that had
// stopped waiting (wasted)." run is the stream's end (StreamEnd: 0 without a stream, and the sentence
// then names none). The time of the recovery never reads across run, which the sentence says it
// came before or after: recovered at 119.9 s in a 2 min stream is "< 2 min", not "2 min". A
// server that nothing reached after the outage (Idle) recovered when it ended, and the sentence
// says it was idle; a run that served nothing says so, not "0% wasted".
func (r OverloadRun) HeadlineWords(run time.Duration) string {
	recovered := "The server had not recovered when the run ended: in its last window with an arrival, an attempt failed, waited or timed out"
	if r.Recovers() {
		when := ""
		switch {
		case r.Idle:
			when = ", when the outage ended: no attempt arrived after it, and it stayed idle"
		case run == 0:
		case r.RecoveredInStream:
			when = ", while the stream still ran"
		default:
			when = ", after the stream ended"
		}
		recovered = fmt.Sprintf("The server recovered at %s%s", policy.HumanBeside(float64(r.Recovered), run), when)
	}
	served := r.Served + r.Wasted
	wasted := "it served no attempt"
	if served > 0 {
		wasted = fmt.Sprintf("%s of the %d %s it served went to a client that had stopped waiting (wasted)", policy.Percent(r.WastedShare()), served, policy.Plural(served, "attempt", "attempts"))
	}
	return fmt.Sprintf("%s; %d of %d %s succeeded; %s.", recovered, r.Accepted, r.Requests, policy.Plural(r.Requests, "request", "requests"), wasted)
}
