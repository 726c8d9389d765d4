package sim

import (
	"fmt"
	"strconv"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/policy"
)

// Each breaker's rule in words, from p's breaker parameters: at the defaults, "gobreaker: opens
// on the 6th failure in a row, stays open 1 min, ...".

func gobreakerWords(p calc.Params) string {
	b := p.BreakerParams
	probes := "1 call through: its success closes, its failure opens again"
	if n := b.GobreakerMaxRequests; n > 1 {
		probes = fmt.Sprintf("%d calls through: %d successes in a row close, a failure opens again", n, n)
	}
	return fmt.Sprintf("gobreaker: opens on the %s failure in a row, stays open %s, then lets %s; results of calls made before a change are dropped.",
		ordinal(b.GobreakerFailures+1), human(b.GobreakerTimeout), probes)
}

func resilience4jWords(p calc.Params) string {
	b := p.BreakerParams
	slow := "all were"
	if b.R4jSlowPercent < 100 {
		slow = "at least " + percent(b.R4jSlowPercent) + " were"
	}
	return fmt.Sprintf("resilience4j: opens once %s recorded and at least %s of the last %d failed (or %s slower than %s), stays open %s, then lets %s through and decides on their results; rejected calls are not counted.",
		count(min(b.R4jMinCalls, b.R4jWindow), "call is", "calls are"), percent(b.R4jFailurePercent), b.R4jWindow, slow,
		human(b.R4jSlowAfter), human(b.R4jWait), count(b.R4jHalfOpen, "call", "calls"))
}

func pollyWords(p calc.Params) string {
	b := p.BreakerParams
	return fmt.Sprintf("polly: on a failure, opens if the last %s saw at least %d calls and at least %s of them failed; stays open %s, then lets exactly 1 call through and rejects the others until it returns.",
		human(b.PollySampling), b.PollyThroughput, percent(b.PollyRatio*100), human(b.PollyBreak))
}

// failsafeWords follows failsafe's states as breaker_failsafe.go does.
func failsafeWords(p calc.Params) string {
	b := p.BreakerParams
	last := count(b.FailsafeOf, "result", "results")
	if b.FailsafeExecutions != 0 {
		last = count(b.FailsafeExecutions, "result", "results")
	}
	last = "the last " + last
	if b.FailsafePeriod > 0 {
		last = "the results of the last " + human(b.FailsafePeriod)
	}
	opens := fmt.Sprintf("opens on %s of %s", count(b.FailsafeFailures, "failure", "failures"), last)
	if b.FailsafeRate != 0 {
		opens = fmt.Sprintf("opens when at least %s of %s failed", percent(b.FailsafeRate*100), last)
	}
	if b.FailsafeOf == 1 && b.FailsafeExecutions == 0 && b.FailsafePeriod == 0 && b.FailsafeRate == 0 {
		opens = "opens on 1 failure"
	}
	if b.FailsafeExecutions > 1 {
		opens += fmt.Sprintf(" once %d are in", b.FailsafeExecutions)
	}
	probes := b.FailsafeOf
	switch {
	case b.FailsafeSuccessOf != 0:
		probes = b.FailsafeSuccessOf
	case b.FailsafeExecutions != 0:
		probes = b.FailsafeExecutions
	}
	var decides string
	switch {
	case b.FailsafeSuccesses != 0:
		decides = fmt.Sprintf("%s, more than %s again", count(b.FailsafeSuccesses, "success among them closes", "successes among them close"),
			count(b.FailsafeSuccessOf-b.FailsafeSuccesses, "failure opens", "failures open"))
	case b.FailsafeRate != 0:
		decides = fmt.Sprintf("a failure rate of at least %s among them opens again, a success rate of at least %s closes",
			percent(b.FailsafeRate*100), percent(breaker.FailsafeClosesAt(b.FailsafeRate)*100))
	case probes == 1 && b.FailsafeFailures == 1 && b.FailsafeOf == 1:
		decides = "its success closes, its failure opens again"
	default:
		decides = fmt.Sprintf("%s again, more than %s", count(b.FailsafeFailures, "failure among them opens", "failures among them open"),
			count(b.FailsafeOf-b.FailsafeFailures, "success closes", "successes close"))
	}
	return fmt.Sprintf("failsafe: %s, stays open %s, then lets %s through: %s.", opens, human(b.FailsafeDelay),
		count(probes, "call", "calls"), decides)
}

// count is "n one" or "n many".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ordinal is n as "1st", "2nd", "3rd", "4th", "11th", "21st".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// percent writes x percent to 12 significant digits, so that a ratio times 100 (7.000000000000001
// of 0.07) reads as typed.
func percent(x float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return policy.FormatFloat(r) + "%"
}
