package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// Two policies side by side, in the report's formats: every number, the differences
// included, is calc.Compare's; this file only writes them down. A is the link's policy, B the
// one its vs key names.

// Compared is a comparison with what a report needs to say about B: its query as the link
// writes it, and the herds' headline runs (zero when not run).
type Compared struct {
	calc.Comparison
	Vs           string
	HerdA, HerdB *sim.HerdRun
	// ExpectedA, ExpectedB: that side's herd is over what the simulation runs, and its
	// headline the fluid model's expected counts (calc/fluid), rounded to whole attempts; it
	// has no sliding peak.
	ExpectedA, ExpectedB bool
	// The contention experiment's run of each one's own mode at its own contenders; nil when
	// not run (table runs it with -contention).
	ContA, ContB *contention.Result
}

// CompareCells are row i's values in milliseconds to the nanosecond: the waits of A, B and
// B − A (min, mean, max), then their starts (earliest, latest); a policy's cells are empty where
// it makes no such attempt, and so are the differences.
func CompareCells(c calc.Comparison, i int) []string {
	row := c.Rows[i]
	waits := func(in bool, r policy.Row) []string {
		if !in {
			return []string{"", "", ""}
		}
		return []string{policy.Millis(r.Min), msMean(r.Mean), policy.Millis(r.Max)}
	}
	starts := func(in bool, r policy.Row) []string {
		if !in {
			return []string{"", ""}
		}
		return []string{policy.Millis(r.Earliest), policy.Millis(r.Latest)}
	}
	both := row.InA && row.InB
	d := row.Diff
	out := []string{strconv.Itoa(row.Attempt)}
	out = append(out, waits(row.InA, row.A)...)
	out = append(out, waits(row.InB, row.B)...)
	out = append(out, waits(both, policy.Row{Min: d.Min, Mean: d.Mean, Max: d.Max})...)
	out = append(out, starts(row.InA, row.A)...)
	out = append(out, starts(row.InB, row.B)...)
	return append(out, starts(both, policy.Row{Earliest: d.Earliest, Latest: d.Latest})...)
}

// compareTotalCells are the totals as a last row, attempt "total": the waits only.
func compareTotalCells(c calc.Comparison) []string {
	ta, tb, d := c.A.Schedule.Total, c.B.Schedule.Total, c.Total
	return []string{"total", policy.Millis(ta.Min), msMean(ta.Mean), policy.Millis(ta.Max),
		policy.Millis(tb.Min), msMean(tb.Mean), policy.Millis(tb.Max),
		policy.Millis(d.Min), msMean(d.Mean), policy.Millis(d.Max), "", "", "", "", "", ""}
}

// compareFitCols are each policy's budget and what fits in it, for its own jitter mode (empty
// without a budget): the attempts that always and at most start within it, and the most
// attempts that would on every path and on the best one (policy.Solution's Always and Can).
var compareFitCols = [][2]string{{"policy", "policy"}, {"query", "query"}, {"budget_ms", msHead("budget")},
	{"always_start", "attempts that always start within it"}, {"at_most_start", "at most"},
	{"most_attempts_every_path", "most attempts that would fit, every path"}, {"most_attempts_best_path", "best path"}}

// compareHerdCols are the herd's headline of each policy in its own jitter mode (empty when
// not simulated); the peaks once back and while down come last, after the columns it had before
// them.
var compareHerdCols = [][2]string{{"policy", "policy"}, {"jitter", "jitter"}, {"peak", "peak attempts in any sliding window, down or back"},
	{"peak_at_ms", msHead("sliding peak at")}, {"accepted", "clients accepted"}, {"gave_up", "clients that gave up"},
	{"last_accepted_ms", msHead("last client through at")},
	{"peak_back", "peak once back, attempts per window"}, {"peak_back_at_ms", msHead("once back, at")},
	{"peak_down", "peak while down, attempts per window"}, {"peak_down_at_ms", msHead("while down, at")}}

// compareHerdCells is a policy's herd headline; expected (the fluid model's counts) names the
// model beside the policy and leaves the sliding peak, which that model has not, empty.
func compareHerdCells(name string, h *sim.HerdRun, expected bool) []string {
	if h == nil {
		return []string{name, "", "", "", "", "", "", "", "", "", ""}
	}
	last := ""
	if h.Accepted > 0 {
		last = policy.Millis(h.LastAccepted)
	}
	peak, peakAt := strconv.Itoa(h.Peak), policy.Millis(h.PeakAt)
	if expected {
		name, peak, peakAt = name+", expected counts (fluid model, rounded)", "", ""
	}
	return []string{name, h.Mode.String(), peak, peakAt, strconv.Itoa(h.Accepted), strconv.Itoa(h.GaveUp), last,
		strconv.Itoa(h.PeakBack), peakAtMillis(h.PeakBackAt), strconv.Itoa(h.PeakDown), peakAtMillis(h.PeakDownAt)}
}

// compareContentionCols are the contention experiment's headline of each policy's own mode.
var compareContentionCols = [][2]string{{"policy", "policy"}, {"mode", "mode"}, {"clients", "contenders"}, {"runs", "runs"},
	{"calls_mean", "mean calls (writes) per run"}, {"time_mean_ms", msHead("mean time until the last client is through")}}

func compareContentionCells(name string, r *contention.Result) []string {
	return []string{name, r.Mode.String(), strconv.Itoa(r.Clients), strconv.Itoa(r.Runs), millionths(r.Calls.Mean), msMean(r.Time.Mean)}
}

// CompareCols are CompareCells' columns: one table, as the page's, where the text format writes
// the waits and the starts apart.
var CompareCols = [][2]string{{"attempt", "attempt"},
	{"a_min_ms", msHead("A min wait")}, {"a_mean_ms", msHead("A mean wait")}, {"a_max_ms", msHead("A max wait")},
	{"b_min_ms", msHead("B min wait")}, {"b_mean_ms", msHead("B mean wait")}, {"b_max_ms", msHead("B max wait")},
	{"diff_min_ms", msHead("B − A min wait")}, {"diff_mean_ms", msHead("B − A mean wait")}, {"diff_max_ms", msHead("B − A max wait")},
	{"a_earliest_start_ms", msHead("A earliest start")}, {"a_latest_start_ms", msHead("A latest start")},
	{"b_earliest_start_ms", msHead("B earliest start")}, {"b_latest_start_ms", msHead("B latest start")},
	{"diff_earliest_start_ms", msHead("B − A earliest start")}, {"diff_latest_start_ms", msHead("B − A latest start")}}

// compareTables are the comparison's: every attempt, each one's fit to its budget, its
// herd's headline and, when run, its contention experiment's; A's query opens solve's answers.
func compareTables(c Compared, solve calc.SolveSet) []reportTable {
	each := reportTable{cols: CompareCols, words: []string{"## Compared with B", fmt.Sprintf("B (vs=%s): %s", c.Vs, Describe(c.B)),
		"Each attempt: the wait before it and its start, of A, of B, and B − A where both make it; the last row is the total wait, ignoring any budget:"}}
	for i := range c.Rows {
		each.rows = append(each.rows, CompareCells(c.Comparison, i))
	}
	each.rows = append(each.rows, compareTotalCells(c.Comparison))
	out := []reportTable{each,
		{cols: compareFitCols, words: []string{"A: " + FitLine(c.A, c.FitA), "B: " + FitLine(c.B, c.FitB)},
			rows: [][]string{fitCells("a", solve.Query(c.A.Params), c.A, c.FitA), fitCells("b", c.Vs, c.B, c.FitB)}},
		{cols: compareHerdCols, words: []string{"Herd, each in its own jitter mode: A " + herdLineOf(c.A.Params, c.HerdA, c.ExpectedA) + " B " + herdLineOf(c.B.Params, c.HerdB, c.ExpectedB)},
			rows: [][]string{compareHerdCells("a", c.HerdA, c.ExpectedA), compareHerdCells("b", c.HerdB, c.ExpectedB)}},
	}
	if c.ContA != nil && c.ContB != nil {
		out = append(out, reportTable{cols: compareContentionCols,
			words: []string{"Contention, each in its own jitter mode: A " + ContentionLineOf(c.ContA) + " B " + ContentionLineOf(c.ContB)},
			rows:  [][]string{compareContentionCells("a", c.ContA), compareContentionCells("b", c.ContB)}})
	}
	return out
}

func fitCells(name, query string, r calc.Report, fit *policy.Solution) []string {
	out := []string{name, query, "", "", "", "", ""}
	if fit != nil {
		s := r.Schedule
		out[2], out[3], out[4] = policy.Millis(r.Params.Budget), strconv.Itoa(s.Always), strconv.Itoa(s.AtMost)
		out[5], out[6] = FitText(fit.Always, strconv.Itoa), FitText(fit.Can, strconv.Itoa)
	}
	return out
}

// FitLine says what fits in a policy's budget, or that it has none.
func FitLine(r calc.Report, fit *policy.Solution) string {
	if fit == nil {
		return "no budget."
	}
	s := r.Schedule
	return fmt.Sprintf("budget %s: %s; the most attempts that would fit: %s on every path, %s on the best path.",
		LimitText(r.Params.Budget), StartWithin(s), FitText(fit.Always, strconv.Itoa), FitText(fit.Can, strconv.Itoa))
}

// ContentionLineOf is the contention experiment's headline for a policy's own mode.
func ContentionLineOf(r *contention.Result) string {
	return fmt.Sprintf("%d contenders, mean over %d runs: %s calls, %s until the last is through.", r.Clients, r.Runs, policy.Decimal(r.Calls.Mean, 1), policy.Human(r.Time.Mean))
}

// herdLineOf is the herd's headline for a policy: its own jitter mode's run, or with expected
// the fluid model's expected counts, which it says.
func herdLineOf(p calc.Params, h *sim.HerdRun, expected bool) string {
	if h == nil {
		return "not simulated."
	}
	model, who := "", ""
	if expected {
		model = "expected counts (fluid model, rounded): "
	}
	if p.Open() {
		// Its overload run, as the page's headline: the stream's requests are counted with
		// the crowd's clients.
		model, who = "its overload run, limiter "+p.Limiter.String()+": ", " requests"
	}
	last := "none got through"
	if h.Accepted > 0 {
		last = "the last got through at " + HerdTime(p, h.LastAccepted)
	}
	peak := func(side string, n int, at time.Duration) string {
		if n == 0 {
			return "none " + side
		}
		return fmt.Sprintf("peak %s %d attempts per window at %s", side, n, HerdTime(p, at))
	}
	return fmt.Sprintf("%s%s, %s, %d%s accepted, %d%s gave up, %s.", model, peak("once back", h.PeakBack, h.PeakBackAt),
		peak("while down", h.PeakDown, h.PeakDownAt), h.Accepted, who, h.GaveUp, who, last)
}

// writeCompareText prints the comparison for a terminal: the waits, then the starts, then the
// totals, the budgets and the herds.
func writeCompareText(w io.Writer, c Compared) error {
	fmt.Fprintf(w, "\nCompared with B (vs=%s): %s\n\nWait before each attempt (B − A where both make it):\n", c.Vs, Describe(c.B))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "attempt\tA min\tA mean\tA max\tB min\tB mean\tB max\tB−A min\tB−A mean\tB−A max\t")
	// A side's waits never read across its own budget, as its starts (and the schedule's).
	side := func(in bool, attempt int, min, max time.Duration, mean float64, diff bool, budget time.Duration) string {
		switch {
		case !in:
			return "\t\t\t"
		case attempt == 1:
			return "-\t-\t-\t"
		case diff:
			return calc.HumanDiff(float64(min)) + "\t" + calc.HumanDiff(mean) + "\t" + calc.HumanDiff(float64(max)) + "\t"
		}
		return policy.HumanBeside(float64(min), budget) + "\t" + policy.HumanBeside(mean, budget) + "\t" + policy.HumanBeside(float64(max), budget) + "\t"
	}
	for _, r := range c.Rows {
		d := r.Diff
		fmt.Fprintln(tw, strconv.Itoa(r.Attempt)+"\t"+side(r.InA, r.Attempt, r.A.Min, r.A.Max, r.A.Mean, false, c.A.Params.Budget)+
			side(r.InB, r.Attempt, r.B.Min, r.B.Max, r.B.Mean, false, c.B.Params.Budget)+side(r.InA && r.InB, r.Attempt, d.Min, d.Max, d.Mean, true, 0))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nStart of each attempt:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "attempt\tA earliest\tA latest\tB earliest\tB latest\tB−A earliest\tB−A latest\t")
	for _, r := range c.Rows {
		cells := []string{strconv.Itoa(r.Attempt), "", "", "", "", "", ""}
		if r.InA {
			cells[1], cells[2] = policy.HumanBeside(float64(r.A.Earliest), c.A.Params.Budget), policy.HumanBeside(float64(r.A.Latest), c.A.Params.Budget)
		}
		if r.InB {
			cells[3], cells[4] = policy.HumanBeside(float64(r.B.Earliest), c.B.Params.Budget), policy.HumanBeside(float64(r.B.Latest), c.B.Params.Budget)
		}
		if r.InA && r.InB {
			cells[5], cells[6] = calc.HumanDiff(float64(r.Diff.Earliest)), calc.HumanDiff(float64(r.Diff.Latest))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	tw.Flush()
	ta, tb, d := c.A.Schedule.Total, c.B.Schedule.Total, c.Total
	fmt.Fprintf(w, "\nTotal wait, ignoring any budget: A best case %s, expected %s, worst case %s; B %s, %s, %s; B − A %s, %s, %s.\n",
		policy.HumanBeside(float64(ta.Min), c.A.Params.Budget), policy.HumanBeside(ta.Mean, c.A.Params.Budget), policy.HumanBeside(float64(ta.Max), c.A.Params.Budget),
		policy.HumanBeside(float64(tb.Min), c.B.Params.Budget), policy.HumanBeside(tb.Mean, c.B.Params.Budget), policy.HumanBeside(float64(tb.Max), c.B.Params.Budget),
		calc.HumanDiff(float64(d.Min)), calc.HumanDiff(d.Mean), calc.HumanDiff(float64(d.Max)))
	fmt.Fprintf(w, "Budget: A %s B %s\n", FitLine(c.A, c.FitA), FitLine(c.B, c.FitB))
	_, err := fmt.Fprintf(w, "Herd, each in its own jitter mode: A %s B %s\n", herdLineOf(c.A.Params, c.HerdA, c.ExpectedA), herdLineOf(c.B.Params, c.HerdB, c.ExpectedB))
	if c.ContA != nil && c.ContB != nil {
		_, err = fmt.Fprintf(w, "Contention, each in its own jitter mode: A %s B %s\n", ContentionLineOf(c.ContA), ContentionLineOf(c.ContB))
	}
	return err
}

// jsonCompare is table -format json's "compare" (see docs/fit-and-compare.md): B's query and policy in
// words, each attempt's waits and starts of A, B and B − A (null where a policy makes no such
// attempt), the totals, each one's fit to its budget (null without one) and herd headline.
type jsonCompare struct {
	Vs       string                   `json:"vs"`
	PolicyB  string                   `json:"policy_b"`
	Attempts []jsonCompareRow         `json:"attempts"`
	Total    jsonCompareTotal         `json:"total_wait"`
	Budget   map[string]*jsonFitOf    `json:"budget"`
	Herd     map[string]*jsonHerdHead `json:"herd"`
	// Contention is each one's own mode's contention result (as in "contention"), with -contention.
	Contention map[string]jsonContention `json:"contention,omitempty"`
}

type jsonSide struct {
	Min      json.Number `json:"min_ms"`
	Mean     json.Number `json:"mean_ms"`
	Max      json.Number `json:"max_ms"`
	Earliest json.Number `json:"earliest_start_ms"`
	Latest   json.Number `json:"latest_start_ms"`
}

type jsonCompareRow struct {
	Attempt int       `json:"attempt"`
	A       *jsonSide `json:"a"`
	B       *jsonSide `json:"b"`
	Diff    *jsonSide `json:"diff"`
}

type jsonWaits struct {
	Min  json.Number `json:"min_ms"`
	Mean json.Number `json:"mean_ms"`
	Max  json.Number `json:"max_ms"`
}

type jsonCompareTotal struct {
	A    jsonWaits `json:"a"`
	B    jsonWaits `json:"b"`
	Diff jsonWaits `json:"diff"`
}

type jsonFitOf struct {
	Budget   json.Number `json:"budget_ms"`
	Always   int         `json:"always_start"`
	AtMost   int         `json:"at_most_start"`
	Every    jsonFit     `json:"most_attempts_every_path"`
	BestPath jsonFit     `json:"most_attempts_best_path"`
}

type jsonHerdHead struct {
	Model        string       `json:"model,omitempty"` // "expected, fluid model"; none for the simulation's
	Jitter       string       `json:"jitter"`
	Peak         *int         `json:"peak,omitempty"` // the sliding peak: the simulation's only
	PeakAt       json.Number  `json:"peak_at_ms,omitempty"`
	Accepted     int          `json:"accepted"`
	GaveUp       int          `json:"gave_up"`
	LastAccepted *json.Number `json:"last_accepted_ms"`
	PeakBack     int          `json:"peak_back"`
	PeakBackAt   *json.Number `json:"peak_back_at_ms"`
	PeakDown     int          `json:"peak_down"`
	PeakDownAt   *json.Number `json:"peak_down_at_ms"`
}

func compareJSON(c Compared) *jsonCompare {
	side := func(r policy.Row) *jsonSide {
		return &jsonSide{ms(r.Min), json.Number(policy.MillisFloat(r.Mean)), ms(r.Max), ms(r.Earliest), ms(r.Latest)}
	}
	waits := func(t policy.Totals) jsonWaits {
		return jsonWaits{ms(t.Min), json.Number(policy.MillisFloat(t.Mean)), ms(t.Max)}
	}
	fit := func(r calc.Report, s *policy.Solution) *jsonFitOf {
		if s == nil {
			return nil
		}
		count := func(n int) json.Number { return json.Number(strconv.Itoa(n)) }
		return &jsonFitOf{ms(r.Params.Budget), r.Schedule.Always, r.Schedule.AtMost, fitJSON(s.Always, count, false), fitJSON(s.Can, count, false)}
	}
	herd := func(h *sim.HerdRun, expected bool) *jsonHerdHead {
		if h == nil {
			return nil
		}
		out := &jsonHerdHead{Jitter: h.Mode.String(), Peak: &h.Peak, PeakAt: ms(h.PeakAt), Accepted: h.Accepted, GaveUp: h.GaveUp,
			PeakBack: h.PeakBack, PeakDown: h.PeakDown}
		if expected {
			out.Model, out.Peak, out.PeakAt = "expected, fluid model", nil, ""
		}
		if h.Accepted > 0 {
			out.LastAccepted = msp(h.LastAccepted)
		}
		if h.PeakBackAt >= 0 {
			out.PeakBackAt = msp(h.PeakBackAt)
		}
		if h.PeakDownAt >= 0 {
			out.PeakDownAt = msp(h.PeakDownAt)
		}
		return out
	}
	out := &jsonCompare{Vs: c.Vs, PolicyB: Describe(c.B),
		Total:  jsonCompareTotal{waits(c.A.Schedule.Total), waits(c.B.Schedule.Total), waits(policy.Totals{Min: c.Total.Min, Mean: c.Total.Mean, Max: c.Total.Max})},
		Budget: map[string]*jsonFitOf{"a": fit(c.A, c.FitA), "b": fit(c.B, c.FitB)},
		Herd:   map[string]*jsonHerdHead{"a": herd(c.HerdA, c.ExpectedA), "b": herd(c.HerdB, c.ExpectedB)}}
	if c.ContA != nil && c.ContB != nil {
		out.Contention = map[string]jsonContention{"a": contentionJSON([]contention.Result{*c.ContA})[0], "b": contentionJSON([]contention.Result{*c.ContB})[0]}
	}
	for _, r := range c.Rows {
		row := jsonCompareRow{Attempt: r.Attempt}
		if r.InA {
			row.A = side(r.A)
		}
		if r.InB {
			row.B = side(r.B)
		}
		if r.InA && r.InB {
			d := r.Diff
			row.Diff = side(policy.Row{Min: d.Min, Mean: d.Mean, Max: d.Max, Earliest: d.Earliest, Latest: d.Latest})
		}
		out.Attempts = append(out.Attempts, row)
	}
	return out
}

// OwnFluid is p's own jitter mode's expected counts (calc/fluid), rounded to whole attempts, as
// the compare headlines show a herd over what the simulation runs; nil when runs has none.
func OwnFluid(p calc.Params, runs []fluid.Run) *sim.HerdRun {
	for _, r := range runs {
		if r.Mode == calc.Backoff(p.Jitter) {
			rounded := r.Rounded(p.Window)
			return &rounded
		}
	}
	return nil
}

// OwnHerd is the run of a policy's own jitter mode among a herd's runs (or its open system's), or nil.
func OwnHerd(p calc.Params, runs []sim.HerdRun, over ...sim.OverloadRun) *sim.HerdRun {
	for i, h := range runs {
		if h.Mode == calc.Backoff(p.Jitter) {
			return &runs[i]
		}
	}
	// An open system's herd is its overload run in its own mode with its own limiter, as the
	// page's headline shows it.
	for i, o := range over {
		if o.Mode == calc.Backoff(p.Jitter) && o.Limiter == p.Limiter {
			return &over[i].HerdRun
		}
	}
	return nil
}
