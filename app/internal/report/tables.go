package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// The report's tables as CSV and Markdown write them: one list (reportTables, contentionTables,
// compareTables), so that the two formats carry the same tables, and every table the text
// format has (app's table_formats_test.go counts them).

// reportTable is one table: each column's key (CSV) and head in words (Markdown, as the page
// heads it), its rows of exact values, and the sentences Markdown writes before it.
type reportTable struct {
	words []string
	cols  [][2]string // key, head
	rows  [][]string
}

// Keys are the columns' keys.
func Keys(cols [][2]string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c[0]
	}
	return out
}

// Heads are the columns' heads in words.
func Heads(cols [][2]string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c[1]
	}
	return out
}

// msMean writes a mean in nanoseconds as milliseconds to the nanosecond, as the exact columns
// beside it are; JSON keeps the float.
func msMean(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return ""
	case ns >= math.MaxInt64:
		return policy.Millis(math.MaxInt64)
	case ns <= math.MinInt64:
		return policy.Millis(math.MinInt64)
	}
	return policy.Millis(time.Duration(math.Round(ns)))
}

// millionths writes a share, or a mean of counts, to the millionth, as milliseconds are written
// to the nanosecond: past that a float's digits say nothing; JSON keeps the float.
func millionths(x float64) string {
	s := strconv.FormatFloat(x, 'f', 6, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

// number is a cell that is a number, with what comes before it ("~" for a sampled fit answer).
var number = regexp.MustCompile(`^(~?-?[0-9]+)(?:\.([0-9]+))?$`)

// aligned are t's rows with one precision per column: every number in a column is written with
// the most decimals any of them has, padded with zeros, so no digit is lost. That is at most 6:
// milliseconds are to the nanosecond, shares and means of counts to the millionth; only the fit's
// factors, exact float64 answers, can have more.
func aligned(t reportTable) [][]string {
	decimals := make([]int, len(t.cols))
	for _, row := range t.rows {
		for j, c := range row {
			if m := number.FindStringSubmatch(c); m != nil && j < len(decimals) {
				decimals[j] = max(decimals[j], len(m[2]))
			}
		}
	}
	out := make([][]string, len(t.rows))
	for i, row := range t.rows {
		out[i] = make([]string, len(row))
		for j, c := range row {
			out[i][j] = c
			if m := number.FindStringSubmatch(c); m != nil && j < len(decimals) && decimals[j] > 0 {
				out[i][j] = m[1] + "." + m[2] + strings.Repeat("0", decimals[j]-len(m[2]))
			}
		}
	}
	return out
}

// writeTablesCSV writes the tables, each after an empty line but the first when first.
func writeTablesCSV(w io.Writer, tables []reportTable, first bool) error {
	cw := csv.NewWriter(w)
	for i, t := range tables {
		if i > 0 || !first {
			cw.Write(nil)
		}
		cw.Write(Keys(t.cols))
		cw.WriteAll(aligned(t))
	}
	cw.Flush()
	return cw.Error()
}

// writeTablesMarkdown writes each table after its sentences, each a paragraph.
func writeTablesMarkdown(w io.Writer, tables []reportTable) error {
	var err error
	for _, t := range tables {
		for _, s := range t.words {
			fmt.Fprintf(w, "\n%s\n", s)
		}
		fmt.Fprintln(w)
		rows := aligned(t)
		err = mdTable(w, Heads(t.cols), len(rows), func(i int) []string { return rows[i] })
	}
	return err
}

// msHead is a column head in words for a column in milliseconds.
func msHead(words string) string { return words + " (ms)" }

// ScheduleCols are the schedule's, in the order of cells.
var ScheduleCols = [][2]string{{"attempt", "attempt"}, {"retry", "retry"}, {"nominal_ms", msHead("nominal delay")},
	{"min_ms", msHead("min wait")}, {"mean_ms", msHead("mean wait")}, {"max_ms", msHead("max wait")},
	{"earliest_start_ms", msHead("earliest start")}, {"latest_start_ms", msHead("latest start")},
	{"p50_start_ms", msHead("p50 start")}, {"p90_start_ms", msHead("p90 start")}, {"p99_start_ms", msHead("p99 start")},
	{"reached_share", "share of paths that make it"}, {"at_cap_share", "share of waits at the cap"}, {"budget", "starts within budget"}}

// totalCols are the totals of every mode, in the order of totalCells.
var totalCols = [][2]string{{"jitter", "jitter"}, {"scope", "of"}, {"min_ms", msHead("best-case total wait")},
	{"mean_ms", msHead("expected total wait")}, {"max_ms", msHead("worst-case total wait")},
	{"p50_ms", msHead("p50 total wait, sampled")}, {"p90_ms", msHead("p90 total wait, sampled")}, {"p99_ms", msHead("p99 total wait, sampled")},
	{"min_max_exact", "best and worst case exact"}}

// summaryCols are what the text format says in sentences of the whole policy.
var summaryCols = [][2]string{{"layers", "layers"}, {"worst_case_attempts", "attempts at the innermost service, at most"},
	{"wait_can_exceed_cap", "a wait can be longer than the cap"}, {"budget_ms", msHead("budget")},
	{"always_start", "attempts that always start within the budget"}, {"at_most_start", "attempts that can start within it, at most"}}

var fitAttemptsCols = [][2]string{{"jitter", "jitter"}, {"every_path", "most attempts, every path"}, {"best_path", "best path"},
	{"p50_paths", "50% of paths (sampled)"}, {"p99_paths", "99% of paths (sampled)"}}

var fitLargestCols = [][2]string{{"jitter", "jitter"}, {"base_every_path_ms", msHead("base, every path")}, {"base_p99_paths_ms", msHead("base, 99% of paths")},
	{"factor_every_path", "factor, every path"}, {"factor_p99_paths", "factor, 99% of paths"},
	{"cap_every_path_ms", msHead("cap, every path")}, {"cap_p99_paths_ms", msHead("cap, 99% of paths")}}

// HerdCols are the herd's, in the order of herdCells. The peaks while down and once back
// (HerdPeakWords) come last, after the columns the herd had before them; "peak" is the most in
// any window [t, t+window), down or back.
var HerdCols = [][2]string{{"mode", "mode"}, {"attempts", "attempts received"}, {"accepted", "clients accepted"},
	{"gave_up", "clients that gave up"}, {"peak", "peak attempts in any sliding window, down or back"}, {"peak_at_ms", msHead("sliding peak at")},
	{"mean_per_client", "attempts per client, mean"}, {"max_per_client", "attempts per client, max"},
	{"last_accepted_ms", msHead("last client through at")},
	{"peak_back", "peak once back, attempts per window"}, {"peak_back_at_ms", msHead("once back, at")},
	{"peak_down", "peak while down, attempts per window"}, {"peak_down_at_ms", msHead("while down, at")}, {"model", "model"}}

var limiterCols = [][2]string{{"limiter", "limiter"}, {"under_total_failure", "under total failure"}, {"source", "source"}}

// reportTables are the report's tables after the schedule's description: the schedule, the
// totals of every mode, the fit to the budget, the summary, then the herd or the overload runs.
// Before sampling, what sampling gives is "" (a page can copy before then).
func reportTables(res Results) []reportTable {
	r, herd, over := res.Report, res.Herd, res.Over
	p := r.Params
	schedule := reportTable{cols: ScheduleCols}
	for i := range r.Schedule.Rows {
		schedule.rows = append(schedule.rows, cells(r, i))
	}
	t := r.Schedule.Total
	totalWords := []string{fmt.Sprintf("Total wait: best %s ms, expected %s ms, worst %s ms.", policy.Millis(t.Min), msMean(t.Mean), policy.Millis(t.Max))}
	if p.Budget > 0 {
		totalWords = []string{fmt.Sprintf("Total wait of the policy, ignoring the budget: best %s ms, expected %s ms, worst %s ms.",
			policy.Millis(t.Min), msMean(t.Mean), policy.Millis(t.Max)), withinLine(r, policy.Millis, msMean, " ms")}
	}
	modes := "Every jitter mode on the same base, factor, cap and attempts: the policy's totals"
	if p.Budget > 0 {
		modes += ", which ignore the budget (no percentiles), and the total wait within the budget: the waits before the attempts a path makes; " + withinHow(r) + "."
	} else {
		modes += fmt.Sprintf(" (percentiles of %d sampled paths, seed %d).", p.Samples, p.Seed)
	}
	totals := reportTable{words: append(totalWords, modes), cols: totalCols}
	for _, m := range r.Modes {
		totals.rows = append(totals.rows, totalCells(m, p.Budget > 0)...)
	}
	out := []reportTable{schedule, totals}
	out = append(out, fitTables(r)...)
	var sentences []string
	if r.Schedule.ExceedsCap {
		sentences = append(sentences, OverCapNote(p, func(d time.Duration) string { return policy.Millis(d) + " ms" }))
	}
	row := []string{strconv.Itoa(p.Layers), "", strconv.FormatBool(r.Schedule.ExceedsCap), "", "", ""}
	if r.WorstCaseAttempts != nil {
		row[1] = r.WorstCaseAttempts.String()
	}
	if p.Budget > 0 {
		s := r.Schedule
		sentences = append(sentences, fmt.Sprintf("Budget %s ms: %s.", policy.Millis(p.Budget), StartWithin(s)))
		row[3], row[4], row[5] = policy.Millis(p.Budget), strconv.Itoa(s.Always), strconv.Itoa(s.AtMost)
	}
	out = append(out, reportTable{words: append(sentences, LayersLine(r)), cols: summaryCols, rows: [][]string{row}})
	if len(herd) > 0 {
		h := reportTable{words: []string{herdLine(p), SimulatedWords(p), HerdPeakWords(p)}, cols: HerdCols}
		for _, run := range herd {
			h.rows = append(h.rows, herdCells(run))
		}
		out = append(out, h)
	}
	if len(res.Fluid) > 0 {
		out = append(out, fluidTable(p, res.Fluid))
	}
	if len(over) > 0 {
		out = append(out, overloadTables(p, over)...)
	}
	return out
}

// fitTables are the fit to the budget: the most attempts, and the largest base, factor and cap
// for the policy's attempts, one row per mode; none without a budget.
func fitTables(r calc.Report) []reportTable {
	if len(r.Solutions) == 0 {
		return nil
	}
	p := r.Params
	most := reportTable{cols: fitAttemptsCols, words: []string{fmt.Sprintf(
		"Fit the %s budget (an attempt is made when it starts before the budget; call time included): the most attempts that start within it.", LimitText(p.Budget))}}
	largest := reportTable{cols: fitLargestCols, words: []string{fmt.Sprintf(
		"Largest value with which %s within the budget, the others kept. Every path: "+TypedWords+" "+
			"Paths: of the %d sampled paths (seed %d). any: the whole range fits; none: not even the least value fits; unused: the mode does not read it; "+
			"~: a sampled answer that fits while one step more does not, but a larger value might fit again.", AllAttemptsStart(p.Attempts), p.Samples, p.Seed)}}
	n := strconv.Itoa
	for _, s := range r.Solutions {
		sampled := func(v string) string {
			if !s.Sampled {
				return ""
			}
			return v
		}
		most.rows = append(most.rows, []string{s.Jitter.String(), FitText(s.Always, n), FitText(s.Can, n),
			sampled(FitText(s.P50, n)), sampled(FitText(s.P99, n))})
		largest.rows = append(largest.rows, []string{s.Jitter.String(),
			FitText(s.Worst.Base, policy.Millis), sampled(FitText(s.Sampled99.Base, policy.Millis)),
			FitText(s.Worst.Factor, Float), sampled(FitText(s.Sampled99.Factor, Float)),
			FitText(s.Worst.Cap, policy.Millis), sampled(FitText(s.Sampled99.Cap, policy.Millis))})
	}
	return []reportTable{most, largest}
}

// collapseCols are the columns of the load-dependent latency's closed form (calc's Collapse).
var collapseCols = [][2]string{
	{"base_ms", msHead("call + latency")},
	{"slope_ms", msHead("slope")},
	{"timeout_ms", msHead("timeout")},
	{"rate", "requests per second"},
	{"steady_ms", msHead("steady time in service")},
	{"times_out", "over the timeout"},
	{"threshold_per_second", "within the timeout up to, per second"},
	{"no_steady_state_from_per_second", "no steady state from, per second"},
}

// breakerFactsCols are the columns of the breaker's facts (BreakerFactsColumns, durations in
// ms), then its rule and source.
var breakerFactsCols = func() [][2]string {
	var out [][2]string
	for _, c := range BreakerFactsColumns {
		switch c[0] {
		case "open_period", "schedule", "min_within", "reach":
			c = [2]string{c[0] + "_ms", msHead(c[1])}
		}
		out = append(out, c)
	}
	return append(out, [2]string{"rule", "rule"}, [2]string{"source", "source"})
}()

// overloadTables are an open system's: each limiter's bound, the runs side by side, then the
// policy's own run window by window, as the text format writes them.
func overloadTables(p calc.Params, runs []sim.OverloadRun) []reportTable {
	limiters := reportTable{cols: limiterCols, words: []string{"Overload: " + overloadIntro(p), sim.FailingLoadWords(p), "Under total failure, each limiter's rule bounds that to:"}}
	for _, k := range p.Shown() {
		limiters.rows = append(limiters.rows, []string{k.String(), sim.LimiterBoundWords(p, k), k.Source()})
	}
	out := []reportTable{limiters}
	if words := ErrorRateWords(p); words != "" {
		errs := reportTable{cols: ErrorRateColumns, words: []string{words}}
		for _, b := range sim.ErrorRateOf(p).Limiters {
			bound := ""
			if b.Bounded {
				bound = millionths(b.Bound)
			}
			errs.rows = append(errs.rows, []string{b.Limiter.String(), bound, millionths(b.Retries), millionths(b.Attempts), millionths(b.AttemptsPerSecond)})
		}
		out = append(out, errs)
	}
	slow := p.Slow()
	if words := CollapseWords(p); words != "" {
		c := p.Collapse()
		steady, threshold, limit := "", "", ""
		if c.Bounded {
			steady = policy.Millis(time.Duration(c.Steady * 1e9))
		}
		if c.HasThreshold {
			threshold = millionths(c.Threshold)
		}
		if c.Limit > 0 {
			limit = millionths(c.Limit)
		}
		out = append(out, reportTable{cols: collapseCols, words: []string{words},
			rows: [][]string{{policy.Millis(c.Base), policy.Millis(c.Slope), policy.Millis(c.Timeout), millionths(c.Rate), steady, strconv.FormatBool(c.TimesOut), threshold, limit}}})
	}
	brk := p.Breaker != breaker.None
	if brk {
		f := sim.BreakerFactsOf(p)
		facts := reportTable{cols: breakerFactsCols, words: []string{BreakerIntro(f) + " " + BreakerSourceWords(f), f.Words}}
		var row []string
		for _, c := range BreakerFactsCells(p, f) {
			row = append(row, c[0])
		}
		facts.rows = [][]string{append(row, f.Rule, f.Source)}
		out = append(out, facts)
	}
	side := reportTable{cols: [][2]string{{"mode", "mode"}, {"limiter", "limiter"}}, words: []string{SimulationWords(p)}}
	if brk {
		side.cols = append(side.cols, [2]string{"breaker", "breaker"})
	}
	labels := len(side.cols)
	for _, c := range OverloadColumns {
		side.cols = append(side.cols, c)
	}
	side.cols[len(side.cols)-1] = [2]string{"recovered_ms", msHead("recovered at")}
	side.cols = append(side.cols, [2]string{"recovered_in_stream", "recovered while the stream ran"})
	if slow {
		side.cols = append(side.cols, [2]string{"max_in_service", "most attempts in service"}, [2]string{"max_latency_ms", msHead("longest time in service")})
	}
	if brk {
		side.cols = append(side.cols, BreakerColumns[:len(BreakerColumns)-1]...)
		side.cols = append(side.cols, [2]string{"open_time_ms", msHead(BreakerColumns[len(BreakerColumns)-1][1])})
	}
	for _, r := range runs {
		row := []string{r.Mode.String(), r.Limiter.String()}
		if brk {
			row = append(row, r.Breaker.String())
		}
		for _, c := range OverloadCells(r, p.StreamEnd()) {
			row = append(row, c[0])
		}
		row[labels+5], row[labels+6] = millionths(r.MeanPerClient), millionths(r.WastedShare()) // per_request, wasted_share
		row = append(row, strconv.FormatBool(r.Recovers() && r.RecoveredInStream))
		if slow {
			for _, c := range LatencyCells(r) {
				row = append(row, c[0])
			}
		}
		if brk {
			for _, c := range BreakerCells(r) {
				row = append(row, c[0])
			}
		}
		side.rows = append(side.rows, row)
	}
	out = append(out, side)
	own := p.OwnCase()
	for _, r := range runs {
		if caseOf(r) != own {
			continue
		}
		win := reportTable{cols: [][2]string{{"window_from_ms", msHead("window from")}},
			words: []string{fmt.Sprintf("%s, per %s ms window:", CaseName(p, own), policy.Millis(p.Window))}}
		for _, s := range WindowSeries {
			win.cols = append(win.cols, s)
		}
		if slow {
			win.cols = append(win.cols, LatencySeries[0], [2]string{"latency_ms", msHead("latency")})
		}
		if brk {
			win.cols = append(win.cols, BreakerSeries...)
		}
		for k, w := range r.Windows {
			row := []string{policy.Millis(p.WindowStart(k))}
			for _, n := range w.Counts() {
				row = append(row, strconv.Itoa(n))
			}
			if slow {
				for _, c := range LatencyWindowCells(w) {
					row = append(row, c[0])
				}
			}
			if brk {
				for _, n := range BreakerWindowCounts(w) {
					row = append(row, strconv.Itoa(n))
				}
			}
			win.rows = append(win.rows, row)
		}
		return append(out, win)
	}
	return out
}

// presetWords are what the text format says of a preset's library under the description,
// with what the library checks of the inputs when it starts.
func presetWords(p calc.Params) []string {
	pr, ok := libs.PresetByName(p.Preset)
	if !ok {
		return nil
	}
	out := []string{fmt.Sprintf("%s computes it in %s.", pr.Library, pr.Source)}
	for _, n := range pr.Notes {
		out = append(out, "- "+n)
	}
	if checks := libs.StartupChecks(p); len(checks) > 0 {
		out = append(out, libs.StartupChecksIntro)
		for _, c := range checks {
			out = append(out, "- "+c)
		}
	}
	return out
}
