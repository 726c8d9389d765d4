package report

import (
	"strconv"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// The circuit breaker's columns and cells (calc's OverloadRun and OverloadWindow figures), shared
// by the page and the table's formats; every number is calc's. They are there only when the link
// chooses a breaker, so that a link without one shows what it showed.

// BreakerColumns are the side by side table's columns with a breaker: data-col, heading. A run
// without a breaker (the "none" row beside the others) has 0 in each.
var BreakerColumns = [][2]string{
	{"breakers", "breakers"},
	{"rejected", "attempts rejected"},
	{"blocked", "calls blocked (gave up)"},
	{"trips", "trips"},
	{"probes", "probes"},
	{"max_probes", "most probes in a window"},
	{"open_time", "time open, summed over the breakers"},
}

// BreakerCells are run r's cells of BreakerColumns: value for scripts (ms for the time open),
// text for people.
func BreakerCells(r sim.OverloadRun) [][2]string {
	return [][2]string{countCell(r.Breakers), countCell(r.Rejected), countCell(r.Blocked), countCell(r.Trips), countCell(r.Probes), countCell(r.MaxProbes),
		{policy.Millis(r.OpenTime), policy.Human(float64(r.OpenTime))}}
}

// BreakerSeries are the per-window columns with a breaker: data-col, heading.
var BreakerSeries = [][2]string{
	{"rejected", "attempts rejected by the breaker"},
	{"probes", "probes"},
	{"closed", "breakers closed at the window's end"},
	{"open", "breakers open"},
	{"half_open", "breakers half-open"},
}

// BreakerWindowCounts are window w's numbers of BreakerSeries.
func BreakerWindowCounts(w sim.OverloadWindow) [5]int {
	return [5]int{w.Rejected, w.Probes, w.Closed, w.Open, w.HalfOpen}
}

// CaseName names case c of p's overload view: its mode and limiter, and its breaker when p has
// one (then every other breaker is beside it, none among them).
func CaseName(p calc.Params, c calc.OverloadCase) string {
	name := c.Mode.String() + " with limiter " + c.Limiter.String()
	if p.Breaker != breaker.None {
		name += " with breaker " + c.Breaker.String()
	}
	return name
}

// caseOf is run r's case.
func caseOf(r sim.OverloadRun) calc.OverloadCase {
	return calc.OverloadCase{Mode: r.Mode, Limiter: r.Limiter, Breaker: r.Breaker}
}

// countCell is a count's cell: the same for scripts and people.
func countCell(n int) [2]string { s := strconv.Itoa(n); return [2]string{s, s} }

// BreakerFactsColumns are the answers about the link's breaker from its inputs alone (calc's
// BreakerFacts): data-col, heading.
var BreakerFactsColumns = [][2]string{
	{"breaker", "breaker"},
	{"at", "placement"},
	{"scope", "breakers"},
	{"fed_per_call", "failed results one failing call feeds it"},
	{"open_period", "open period"},
	{"schedule", "latest start of the last attempt"},
	{"open_longer", "open longer than the schedule"},
	{"min_calls", "results before it can open"},
	{"min_within", "within"},
	{"per_breaker", "new requests per second per breaker"},
	{"reach", "time the stream takes to give them"},
}

// BreakerFactsCells are f's cells of BreakerFactsColumns for p: value for scripts (durations in
// ms; "" for a reach that never comes), text for people.
func BreakerFactsCells(p calc.Params, f sim.BreakerFacts) [][2]string {
	word := func(s string) [2]string { return [2]string{s, s} }
	// The schedule and the reach are written beside the limits they are compared with (the
	// open period, the sampling time), so that rounding never puts them on the other side.
	dur := func(d time.Duration, zero string, beside ...time.Duration) [2]string {
		if d == 0 && zero != "" {
			return [2]string{"0", zero}
		}
		return [2]string{policy.Millis(d), policy.HumanBeside(float64(d), beside...)}
	}
	yes := [2]string{"false", "no"}
	if f.OpenLonger {
		yes = [2]string{"true", "yes"}
	}
	reach := [2]string{"", "never"}
	if f.Reach >= 0 {
		reach = dur(f.Reach, "", f.MinWithin)
	}
	return [][2]string{word(f.Kind.String()), word(p.BreakerAt.String()), word(p.Breakers.String()), countCell(f.FedPerCall),
		dur(f.OpenPeriod, "none (no open state)"), dur(f.Schedule, "", f.OpenPeriod), yes, countCell(f.MinCalls), dur(f.MinWithin, "no limit"),
		{Float(f.PerBreaker), Short(f.PerBreaker)}, reach}
}

// BreakerSourceWords says where the breaker's rule is read from.
func BreakerSourceWords(f sim.BreakerFacts) string { return "Source: " + f.Source + "." }

// BreakerIntro heads the breaker's facts: its rule in words, which starts with its name (where it
// sits, the facts' words say).
func BreakerIntro(f sim.BreakerFacts) string { return "Circuit breaker " + f.Rule }
