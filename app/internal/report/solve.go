package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// What fits in the budget, in the report's text and JSON: every number is calc's
// (Params.Solutions, Report.SolveSample); this file writes them down.

// FitText writes one answer: the value; "any" when the whole range fits (something else binds
// first), "none" when not even its least value does, "unused" when the mode does not read the
// input; and a "~" before a sampled value that a larger one might beat (Fit.Largest false). A
// value is the answer as typed (Fit.Typed: rounded down so that it still fits).
func FitText[T int | time.Duration | float64](f policy.Fit[T], value func(T) string) string {
	switch f.Kind {
	case policy.FitNone:
		return "none"
	case policy.FitAll:
		return "any"
	case policy.FitUnused:
		return "unused"
	}
	if !f.Largest {
		return "~" + value(f.Typed)
	}
	return value(f.Typed)
}

// MsText writes a base or cap with every digit it has: a typed answer has few.
func MsText(d time.Duration) string { return policy.HumanExact(d) }

// writeSolveText prints the fit to the budget: the most attempts, then the largest base, factor
// and cap for the policy's attempts, one row per mode.
func writeSolveText(w io.Writer, r calc.Report) {
	if len(r.Solutions) == 0 {
		return
	}
	p := r.Params
	fmt.Fprintf(w, "\nFit the %s budget (an attempt is made when it starts before the budget; call time included):\n", LimitText(p.Budget))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "jitter\tmost attempts, every path\tbest path\t50% of paths\t99% of paths\t")
	n := strconv.Itoa
	for _, s := range r.Solutions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", s.Jitter, FitText(s.Always, n), FitText(s.Can, n), FitText(s.P50, n), FitText(s.P99, n))
	}
	tw.Flush()
	fmt.Fprintf(w, "Largest value with which %s within the budget, the others kept:\n", AllAttemptsStart(p.Attempts))
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "jitter\tbase, every path\t99% of paths\tfactor, every path\t99% of paths\tcap, every path\t99% of paths\t")
	for _, s := range r.Solutions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.Jitter,
			FitText(s.Worst.Base, MsText), FitText(s.Sampled99.Base, MsText),
			FitText(s.Worst.Factor, Float), FitText(s.Sampled99.Factor, Float),
			FitText(s.Worst.Cap, MsText), FitText(s.Sampled99.Cap, MsText))
	}
	tw.Flush()
	fmt.Fprintf(w, "Every path: %s Best path: the earliest starts. Paths: of the %d sampled paths (seed %d). "+
		"any: the whole range fits, up to %d attempts, a base of the cap, a factor of %d, a cap of %s: the cap or the attempt count binds first. "+
		"none: not even the least value fits. unused: the mode does not read it. "+
		"~: a sampled answer that fits while one step more does not, but a larger value might fit again.\n",
		TypedWords, p.Samples, p.Seed, policy.MaxAttempts, policy.MaxFactor, policy.Human(float64(policy.MaxCap)))
}

// TypedWords say how a base, factor or cap answer is shown (Fit.Typed).
const TypedWords = "the answer for all paths. Each base, factor and cap is shown rounded down to 3 significant digits (a factor to 4; more where that would not fit), so that it still fits; table -format json has it exact (one nanosecond, or the next float64 factor, more does not fit)."

// jsonFit is one answer of fit_budget: kind is found, none, all or unused (see docs/fit-and-compare.md);
// value is the number of attempts or the factor, value_ms the base or cap; absent when unused.
type jsonFit struct {
	Kind    string       `json:"kind"`
	Value   *json.Number `json:"value,omitempty"`
	Ms      *json.Number `json:"value_ms,omitempty"`
	Largest bool         `json:"largest"`
}

type jsonLimits struct {
	Base   jsonFit `json:"base"`
	Factor jsonFit `json:"factor"`
	Cap    jsonFit `json:"cap"`
}

type jsonSolution struct {
	Jitter   string `json:"jitter"`
	Attempts struct {
		Always jsonFit `json:"every_path"`
		Can    jsonFit `json:"best_path"`
		P50    jsonFit `json:"p50_paths"`
		P99    jsonFit `json:"p99_paths"`
	} `json:"most_attempts"`
	Worst   jsonLimits  `json:"largest_every_path"`
	Sampled *jsonLimits `json:"largest_p99_paths"` // null until sampled
}

func fitJSON[T int | time.Duration | float64](f policy.Fit[T], number func(T) json.Number, ms bool) jsonFit {
	out := jsonFit{Kind: f.Kind.String(), Largest: f.Largest}
	if f.Kind != policy.FitUnused {
		v := number(f.Value)
		if ms {
			out.Ms = &v
		} else {
			out.Value = &v
		}
	}
	return out
}

func limitsJSON(l policy.Limits) jsonLimits {
	float := func(x float64) json.Number { return json.Number(Float(x)) }
	return jsonLimits{fitJSON(l.Base, ms, true), fitJSON(l.Factor, float, false), fitJSON(l.Cap, ms, true)}
}

// solutionsJSON is fit_budget: nil without a budget.
func solutionsJSON(r calc.Report) []jsonSolution {
	var out []jsonSolution
	count := func(n int) json.Number { return json.Number(strconv.Itoa(n)) }
	for _, s := range r.Solutions {
		j := jsonSolution{Jitter: s.Jitter.String(), Worst: limitsJSON(s.Worst)}
		j.Attempts.Always, j.Attempts.Can = fitJSON(s.Always, count, false), fitJSON(s.Can, count, false)
		if s.Sampled {
			j.Attempts.P50, j.Attempts.P99 = fitJSON(s.P50, count, false), fitJSON(s.P99, count, false)
			l := limitsJSON(s.Sampled99)
			j.Sampled = &l
		} else {
			j.Attempts.P50, j.Attempts.P99 = jsonFit{Kind: "unsampled"}, jsonFit{Kind: "unsampled"}
		}
		out = append(out, j)
	}
	return out
}

// Count is n and its noun: "1 client", "5 clients".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + policy.Plural(n, one, many)
}

// AllAttemptsStart says that every one of n attempts starts: "all 5 attempts start", or for a
// policy of one attempt, "its one attempt starts".
func AllAttemptsStart(n int) string {
	if n == 1 {
		return "its one attempt starts"
	}
	return "all " + strconv.Itoa(n) + " attempts start"
}
