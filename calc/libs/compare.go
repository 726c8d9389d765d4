package libs

import (
	"math"
	"strconv"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// near says whether two nanosecond values are the same up to a nanosecond of rounding.
func near(x, y float64) bool {
	return math.Abs(x-y) <= 1+1e-9*math.Max(math.Abs(x), math.Abs(y))
}

func rowsNear(a, b policy.Row) bool {
	return near(float64(a.Min), float64(b.Min)) && near(float64(a.Max), float64(b.Max)) && near(a.Mean, b.Mean)
}

// sameWaits says whether two schedules make the same attempts with the same waits.
func sameWaits(a, b policy.Schedule) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := 1; i < len(a.Rows); i++ {
		if !rowsNear(a.Rows[i], b.Rows[i]) {
			return false
		}
	}
	return true
}

// policyField is one part of a policy a library may do differently.
type policyField struct {
	key  string
	copy func(dst *calc.Params, src calc.Params)
	say  func(who string, lib, p calc.Params) string
}

var policyFields = []policyField{
	{"growth", func(d *calc.Params, s calc.Params) { d.Growth = s.Growth }, func(who string, lib, p calc.Params) string {
		return who + " grows the delay " + growthText(lib.Growth) + ", where the policy grows it " + growthText(p.Growth) + "."
	}},
	{"factor", func(d *calc.Params, s calc.Params) { d.Factor = s.Factor }, func(who string, lib, p calc.Params) string {
		return who + " multiplies the delay by " + number(lib.Factor) + " each retry, not by " + number(p.Factor) + "."
	}},
	{"base", func(d *calc.Params, s calc.Params) { d.Base = s.Base }, func(who string, lib, p calc.Params) string {
		return who + " starts from a delay of " + dur(lib.Base) + ", not " + dur(p.Base) + "."
	}},
	{"jitter", func(d *calc.Params, s calc.Params) { d.Jitter, d.Ratio, d.Add = s.Jitter, s.Ratio, s.Add }, func(who string, lib, p calc.Params) string {
		return who + " waits " + jitterText(lib) + ", where the policy waits " + jitterText(p) + "; d is the retry's delay."
	}},
	{"capat", func(d *calc.Params, s calc.Params) { d.CapAt = s.CapAt }, func(who string, lib, p calc.Params) string {
		return who + " " + capAtText(lib.CapAt) + ", where the policy " + capAtText(p.CapAt) + "."
	}},
	{"cap", func(d *calc.Params, s calc.Params) { d.Cap = s.Cap }, func(who string, lib, p calc.Params) string {
		if lib.Cap == capNone {
			return who + " does not cap the delay, where the policy caps it at " + dur(p.Cap) + "."
		}
		return who + " caps the delay at " + dur(lib.Cap) + ", not " + dur(p.Cap) + "."
	}},
	{"first", func(d *calc.Params, s calc.Params) { d.FirstExact = s.FirstExact }, func(who string, lib, p calc.Params) string {
		if p.FirstExact {
			return who + " jitters the first retry too, where the policy waits exactly " + dur(p.Base) + " before it."
		}
		return who + " waits exactly " + dur(lib.Base) + " before the first retry, where the policy jitters it too."
	}},
}

// whySkip in a why map leaves that part out: the library says it in its own words.
const whySkip = "-"

// causes lists each part of the policy that lib (what the library does) does differently in
// a way that changes a wait, with the policy's value or with the library's, in the words of who,
// with the library's reason where why gives one. Decorrelated jitter grows from the previous
// wait, and decorrelatedv2 from the previous retry's draw, neither by factor: beside either, when
// the other side waits another way, only the jitter is compared.
func causes(s *subject, who string, lib calc.Params, ls policy.Schedule, why map[string]string) []string {
	p, pol := s.p, s.schedule()
	var out []string
	for _, f := range policyFields {
		if why[f.key] == whySkip || f.key != "jitter" && (p.Jitter.FromPrevious() || lib.Jitter.FromPrevious()) && p.Jitter != lib.Jitter {
			continue
		}
		withLib, withPolicy := p, lib
		f.copy(&withLib, lib)
		f.copy(&withPolicy, p)
		if withLib == p || sameWaits(pol, withLib.Schedule()) && sameWaits(ls, withPolicy.Schedule()) {
			continue
		}
		line := f.say(who, lib, p)
		if reason := why[f.key]; reason != "" {
			line += " " + reason
		}
		out = append(out, line)
	}
	return out
}

// contrast gives the numbers of a difference: the first retry whose waits differ, and the
// totals.
func contrast(who string, pol, lib policy.Schedule) []string {
	var out []string
	for i := 1; i < min(len(pol.Rows), len(lib.Rows)); i++ {
		if a, b := lib.Rows[i], pol.Rows[i]; !rowsNear(a, b) {
			u := unitFor(max(a.Max, b.Max))
			out = append(out, "Retry "+strconv.Itoa(i)+" (attempt "+strconv.Itoa(i+1)+") waits "+span(a.Min, a.Max, a.Mean, u)+
				" with "+who+", "+span(b.Min, b.Max, b.Mean, u)+" with the policy.")
			break
		}
	}
	lt, pt := lib.Total, pol.Total
	if !near(float64(lt.Max), float64(pt.Max)) || !near(lt.Mean, pt.Mean) || !near(float64(lt.Min), float64(pt.Min)) {
		u := unitFor(max(lt.Max, pt.Max))
		out = append(out, "Total wait when every attempt fails: "+span(lt.Min, lt.Max, lt.Mean, u)+" with "+who+", "+
			span(pt.Min, pt.Max, pt.Mean, u)+" with the policy.")
	}
	return out
}

// compare is the full comparison of a library modelled as lib: the parts it changes, then
// the numbers. Nothing when it waits as the policy does.
func compare(s *subject, who string, lib calc.Params, why map[string]string) []string {
	ls := lib.Schedule()
	return compareExact(s, who, lib, ls, ls, why)
}

// compareExact is compare where the library's own arithmetic (exact) is finer than calc's
// model of it (lib, with its schedule ls): the parts come from the model, the numbers from the
// arithmetic.
func compareExact(s *subject, who string, lib calc.Params, ls, exact policy.Schedule, why map[string]string) []string {
	if sameWaits(s.schedule(), exact) {
		return nil
	}
	return append(causes(s, who, lib, ls, why), contrast(who, s.schedule(), exact)...)
}

// budgetKind is how a library bounds the time a policy takes, where it cannot keep attempts
// from starting at or after the budget as the calculator does (cenkalti's WithMaxElapsedTime and
// tenacity's stop_before_delay can, and need no words).
type budgetKind uint8

const (
	// budgetDeadline is a deadline over the whole call: it also ends an attempt still running.
	budgetDeadline budgetKind = iota
	// budgetNone has no time limit.
	budgetNone
)

// budgetDiffs says what differs in how the library bounds time; how names the setting used. lib
// is the library as modelled (with the policy's budget): a library without a time limit makes
// all of its attempts, which the budget would cut only where lib's own attempts pass it.
func budgetDiffs(s *subject, who string, kind budgetKind, how string, lib calc.Params) []string {
	p := s.p
	if p.Budget == 0 {
		return nil
	}
	b := dur(p.Budget)
	switch kind {
	case budgetDeadline:
		return []string{how + " is a deadline: it also cancels an attempt still running at " + b + ", where the budget only keeps attempts from starting at or after " + b + "."}
	case budgetNone:
		lib.Budget = p.Budget
		if ls := lib.Schedule(); ls.Always == lib.Attempts {
			return nil
		}
		sc := s.schedule()
		return []string{who + " has no time limit here: it makes all " + attemptsText(lib.Attempts) + ", where within the budget of " + b +
			", " + strconv.Itoa(sc.Always) + " always start and at most " + strconv.Itoa(sc.AtMost) + " do."}
	}
	return nil
}

// cannotExpress says why a library whose delays grow by a factor from a fixed base cannot express
// p at all, or "" when it can: decorrelated jitter grows from the previous wait, decorrelatedv2
// from the previous retry's draw, and linear growth is not a factor.
func cannotExpress(p calc.Params, who string, linear bool) string {
	switch {
	case p.Jitter == policy.Decorrelated:
		return who + " cannot express decorrelated jitter: each of its waits depends on the retry's number, never on the previous wait."
	case p.Jitter == policy.DecorrelatedV2:
		return who + " cannot express Polly's DecorrelatedJitterBackoffV2 (jitter decorrelatedv2): each of its waits depends on the retry's number, " +
			"never on the previous retry's draw, and none is a difference of 2^t × tanh(√(4t)) between two draws."
	case p.Growth == policy.Linear && !linear:
		return who + " has no linear growth: its delay grows by a constant factor each retry."
	}
	return ""
}

// asProportional rewrites p's jitter as d·scale·U[1−ratio, 1+ratio], the form of cenkalti's
// RandomizationFactor and resilience4j's randomizationFactor: full jitter is half the delay
// ±100%, equal jitter three quarters ±1/3. ok is false for modes it cannot write.
func asProportional(j policy.Jitter, r float64) (scale, ratio float64, ok bool) {
	switch j {
	case policy.None:
		return 1, 0, true
	case policy.Proportional:
		return 1, r, true
	case policy.Full:
		return 0.5, 1, true
	case policy.Equal:
		return 0.75, 1.0 / 3, true
	case policy.Upward:
		return 1 + r/2, r / (2 + r), true
	}
	return 0, 0, false
}

// asUpward rewrites p's jitter as d·scale·U[1, 1+jitter], the form of k8s wait.Jitter. ok is
// false where the lowest wait is 0, which an upward jitter cannot reach.
func asUpward(j policy.Jitter, r float64) (scale, jitter float64, ok bool) {
	switch j {
	case policy.None:
		return 1, 0, true
	case policy.Upward:
		return 1, r, true
	case policy.Equal:
		return 0.5, 1, true
	case policy.Proportional:
		if r < 1 {
			return 1 - r, 2 * r / (1 - r), true
		}
	}
	return 0, 0, false
}

func scaled(d time.Duration, s float64) time.Duration {
	return time.Duration(math.Round(float64(d) * s))
}

// capBinds says whether lib's cap changes any of its waits: whether the library needs the
// cap set at all. Beyond calc's largest cap it compares the uncapped delay itself.
func capBinds(lib calc.Params) bool {
	noCap := lib
	noCap.Cap = capNone
	return !sameWaits(lib.Schedule(), noCap.Schedule()) ||
		(lib.Cap == capNone && lib.Attempts > 1 && lib.Uncapped(lib.Attempts-1) > float64(capNone))
}

// pickCap decides whether a library that can cap (lib, with the cap set) should: when the
// cap changes its waits and setting it brings them closer to the policy's (by the worst-case
// total). It returns lib without the cap when not.
func pickCap(s *subject, lib calc.Params) (calc.Params, bool) {
	noCap := lib
	noCap.Cap = capNone
	if !capBinds(lib) {
		return noCap, false
	}
	pol, with, without := s.schedule(), lib.Schedule(), noCap.Schedule()
	switch {
	case sameWaits(pol, with):
		return lib, true
	case sameWaits(pol, without):
		return noCap, false
	}
	if math.Abs(float64(with.Total.Max-pol.Total.Max)) <= math.Abs(float64(without.Total.Max-pol.Total.Max)) {
		return lib, true
	}
	return noCap, false
}

// floorMs is d in whole milliseconds, rounded down, at least 1 ms.
func floorMs(d time.Duration) time.Duration {
	return max(time.Millisecond, d/time.Millisecond*time.Millisecond)
}
