// Package report writes what the calculator computed of a link, one Results value, in four
// formats: words and text for the terminal (table), CSV and Markdown for copying a table (the
// page's copy buttons and table), JSON for programs (table -format json). Every number comes from
// calc; this package only writes it down, with the words and cells the page shows beside them.
package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// Describe states the policy in words, answering what users ask most: does the count include
// the first call, when does the first wait happen, what does the jitter draw from.
func Describe(r calc.Report) string {
	p := r.Params
	var b strings.Builder
	retries := r.Schedule.Rows[len(r.Schedule.Rows)-1].Retry
	fmt.Fprintf(&b, "%d %s = first call + %d %s. ", p.Attempts, policy.Plural(p.Attempts, "attempt", "attempts"), retries, policy.Plural(retries, "retry", "retries"))
	if retries == 0 {
		b.WriteString("There is no wait.")
	} else {
		b.WriteString(p.WaitWords())
	}
	if p.Call > 0 {
		fmt.Fprintf(&b, " Each failing call takes %s before the wait starts.", policy.Human(float64(p.Call)))
	}
	if p.Budget > 0 {
		fmt.Fprintf(&b, " An attempt is made only if it starts before %s from the first call.", LimitText(p.Budget))
	}
	if pr, ok := libs.PresetByName(p.Preset); ok {
		fmt.Fprintf(&b, " Preset: %s (%s): %s.", pr.Library, pr.Version, pr.Theirs)
	}
	return b.String()
}

// WithinText are the labels of the total wait within the budget: each says which kind of number
// it is, and how it was obtained.
type WithinText struct{ Min, Mean, Max, P50, P90, P99 string }

// WithinLabels are r's labels of the total wait within the budget.
func WithinLabels(r calc.Report) WithinText {
	in := "within the " + LimitText(r.Params.Budget) + " budget"
	paths := fmt.Sprintf("%d sampled paths", r.Params.Samples)
	l := WithinText{
		Min:  "best-case total wait " + in,
		Mean: "expected total wait " + in + " (mean of " + paths + ")",
		Max:  "worst-case total wait " + in,
		P50:  "p50 total wait " + in + " (sampled)",
		P90:  "p90 total wait " + in + " (sampled)",
		P99:  "p99 total wait " + in + " (sampled)",
	}
	if !r.Within.Exact {
		l.Min += " (least of " + paths + ")"
		l.Max += " (most of " + paths + ")"
	}
	return l
}

// withinLine states the total wait within the budget in one sentence, in the units of d and f
// (followed by unit).
func withinLine(r calc.Report, d func(time.Duration) string, f func(float64) string, unit string) string {
	w, q := r.Within, r.Sample.Total
	in := fmt.Sprintf("Total wait within the %s budget (the waits before the attempts a path makes)", LimitText(r.Params.Budget))
	if !r.PolicySampled() {
		if !w.Exact {
			return in + ": the sampled paths are still being simulated."
		}
		return fmt.Sprintf("%s: best case %s%s, worst case %s%s; the sampled paths are still being simulated.", in, d(w.Min), unit, d(w.Max), unit)
	}
	least, most := "", ""
	if !w.Exact {
		least, most = " (least of the sampled paths)", " (most of the sampled paths)"
	}
	return fmt.Sprintf("%s: best case %s%s%s, expected %s%s (mean of %d sampled paths, seed %d), worst case %s%s%s; sampled p50 %s%s, p90 %s%s, p99 %s%s.",
		in, d(w.Min), unit, least, f(w.Mean), unit, r.Params.Samples, r.Params.Seed, d(w.Max), unit, most,
		d(q.P50), unit, d(q.P90), unit, d(q.P99), unit)
}

// withinHow says how the numbers within the budget are obtained.
func withinHow(r calc.Report) string {
	if !r.Within.Exact {
		return fmt.Sprintf("best and worst case are the least and most of %d sampled paths, expected is their mean", r.Params.Samples)
	}
	return fmt.Sprintf("best and worst case are exact, expected is the mean of %d sampled paths", r.Params.Samples)
}

// WithinNote says what the total wait within the budget counts and how each number is obtained.
func WithinNote(r calc.Report) string {
	return fmt.Sprintf("Within the budget, a path's total wait counts only the waits before the attempts it makes: %s (seed %d). The policy's totals ignore the budget.",
		withinHow(r), r.Params.Seed)
}

// HumanBeside is human for a time shown beside limits the page states (policy.HumanBeside).
func HumanBeside(d time.Duration, limits ...time.Duration) string {
	return policy.HumanBeside(float64(d), limits...)
}

// TotalsText writes the totals of r that are shown side by side (the policy's best, expected and
// worst total wait; with a budget, the same within it; the sampled percentiles) as
// HumanBeside does beside the budget, each with the digits that tell it from the others
// (policy.HumanList): Sidekiq's six totals read "20.41 d" to "20.43 d", not "20.4 d" six times.
// A value that is not one of them is written as HumanBeside writes it.
func TotalsText(r calc.Report) func(ns float64) string {
	t, w, q, b := r.Schedule.Total, r.Within, r.Sample.Total, r.Params.Budget
	values := []float64{float64(t.Min), t.Mean, float64(t.Max)}
	if b > 0 && (w.Exact || r.PolicySampled()) {
		values = append(values, float64(w.Min), float64(w.Max))
	}
	if r.PolicySampled() {
		values = append(values, float64(q.P50), float64(q.P90), float64(q.P99))
		if b > 0 {
			values = append(values, w.Mean)
		}
	}
	labels := policy.HumanList(values, b)
	text := make(map[float64]string, len(values))
	for i, v := range values {
		text[v] = labels[i]
	}
	return func(ns float64) string {
		if s, ok := text[ns]; ok {
			return s
		}
		return policy.HumanBeside(ns, b)
	}
}

// LimitText writes a limit that numbers are compared with (a budget, an outage) with every digit
// it has: beside a 1.2345 s budget, "1.23 s" must not be what the budget reads.
func LimitText(d time.Duration) string { return policy.HumanExact(d) }

// Float writes x with the fewest digits that read back as x.
func Float(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// cells returns one attempt's values (ScheduleCols) in milliseconds to the nanosecond ("" where
// a sampled percentile has no path, and for what sampling gives before it is done).
func cells(r calc.Report, i int) []string {
	row, s := r.Schedule.Rows[i], StartSample(r, i)
	q := []string{"", "", ""}
	if s.Reached > 0 {
		q = []string{policy.Millis(s.Start.P50), policy.Millis(s.Start.P90), policy.Millis(s.Start.P99)}
	}
	reached := "" // not 0: no path is sampled yet
	if r.PolicySampled() {
		reached = millionths(reachedShare(r, i))
	}
	return append([]string{strconv.Itoa(row.Attempt), strconv.Itoa(row.Retry),
		policy.Millis(row.Nominal), policy.Millis(row.Min), msMean(row.Mean), policy.Millis(row.Max),
		policy.Millis(row.Earliest), policy.Millis(row.Latest)}, append(q,
		reached, millionths(row.AtCap), row.Budget.String())...)
}

// reachedShare is the share of simulated paths that make attempt i+1 (0 before sampling).
func reachedShare(r calc.Report, i int) float64 {
	if !r.PolicySampled() {
		return 0
	}
	return r.Sample.ReachedShare(i + 1)
}

// BudgetWords says whether attempt i+1 starts within the budget, and for one that sometimes
// does, in what share of the sampled paths (StartsOver): "sometimes (0.85%)".
func BudgetWords(r calc.Report, i int) string {
	b := r.Schedule.Rows[i].Budget
	if b != policy.Sometimes || !r.PolicySampled() {
		return b.String()
	}
	return b.String() + " (" + policy.Percent(reachedShare(r, i)) + ")"
}

// StartsOver says, with a budget, what the share beside "sometimes" is, and what the sampled
// starts of an attempt are of: only the paths that make it.
const StartsOver = "sometimes (x%) says that x% of the sampled paths make the attempt; its p50 and p99 start are of those paths"

// StartSample is what the paths say of attempt i+1; before the page has sampled, nothing (no
// path reached it, so no percentile is shown).
func StartSample(r calc.Report, i int) policy.StartSample {
	if !r.PolicySampled() {
		return policy.StartSample{}
	}
	return r.Sample.Starts[i]
}

func herdCells(r sim.HerdRun) []string {
	last := ""
	if r.Accepted > 0 {
		last = policy.Millis(r.LastAccepted)
	}
	return []string{r.Mode.String(), strconv.Itoa(r.Attempts), strconv.Itoa(r.Accepted), strconv.Itoa(r.GaveUp),
		strconv.Itoa(r.Peak), policy.Millis(r.PeakAt), millionths(r.MeanPerClient), strconv.Itoa(r.MaxPerClient), last,
		strconv.Itoa(r.PeakBack), peakAtMillis(r.PeakBackAt), strconv.Itoa(r.PeakDown), peakAtMillis(r.PeakDownAt), ModelSimulated}
}

// peakAtMillis is a peak's time in milliseconds, or "" when no attempt came on its side (-1).
func peakAtMillis(d time.Duration) string {
	if d < 0 {
		return ""
	}
	return policy.Millis(d)
}

// HerdPeakWords says what the herd's two peaks count, with the capacity that judges the one
// once back.
func HerdPeakWords(p calc.Params) string {
	capacity := "no capacity limit"
	if p.Capacity > 0 {
		capacity = fmt.Sprintf("the capacity, %d per window, judges it", p.Capacity)
	}
	return fmt.Sprintf("Peak once back: the most attempts in one %s window at or after the outage's end, what the recovering server receives (%s); "+
		"peak while down: the most in one window before it. The window the outage ends in counts on both sides.",
		policy.Human(float64(p.Window)), capacity)
}

// HerdPeakTime writes the time of a peak of the herd, or "none" when no attempt came on its
// side (-1).
func HerdPeakTime(p calc.Params, d time.Duration) string {
	if d < 0 {
		return "none"
	}
	return HerdTime(p, d)
}

// totalCells are a mode's rows of totalCols: with a budget, a row of the policy's totals (scope
// "policy", which ignore the budget: no percentiles) and one of the total wait within the budget
// (scope "within_budget", min_max_exact saying whether its min and max are exact); without, the
// policy's totals and their percentiles. What sampling gives is "" until the mode is sampled (a
// page can copy before then).
func totalCells(m calc.ModeReport, budget bool) [][]string {
	t, w, q := m.Total, m.Within, m.Sample
	own := []string{m.Jitter.String(), "policy", policy.Millis(t.Min), msMean(t.Mean), policy.Millis(t.Max), "", "", "", "true"}
	if !budget {
		if m.Sampled {
			own[5], own[6], own[7] = policy.Millis(q.P50), policy.Millis(q.P90), policy.Millis(q.P99)
		}
		return [][]string{own}
	}
	within := []string{m.Jitter.String(), "within_budget", "", "", "", "", "", "", strconv.FormatBool(w.Exact)}
	if w.Exact {
		within[2], within[4] = policy.Millis(w.Min), policy.Millis(w.Max)
	}
	if m.Sampled {
		within[2], within[3], within[4] = policy.Millis(w.Min), msMean(w.Mean), policy.Millis(w.Max)
		within[5], within[6], within[7] = policy.Millis(q.P50), policy.Millis(q.P90), policy.Millis(q.P99)
	}
	return [][]string{own, within}
}

// Results is what the report writes: the report of the inputs, the herd's runs or an open
// system's overload runs, what was simulated of the contention experiment, and policy B beside
// A (nil without a vs key). Each format writes them in this order; a part not computed is left
// out.
type Results struct {
	Report calc.Report
	Herd   []sim.HerdRun
	Fluid  []fluid.Run // the herd's expected counts, where the simulation cannot run it
	Over   []sim.OverloadRun
	Cont   Contention
	Cmp    *Compared
	Solve  calc.SolveSet // the fit's answers the link opens: the echoed query of A carries them
}

// WriteText prints res for a terminal: the report, the contention experiment, then B beside A.
func WriteText(w io.Writer, res Results) error {
	if err := textReport(w, res); err != nil {
		return err
	}
	if err := writeContentionText(w, res.Cont); err != nil || res.Cmp == nil {
		return err
	}
	return writeCompareText(w, *res.Cmp)
}

// WriteCSV writes res's tables, one after another, an empty line between two.
func WriteCSV(w io.Writer, res Results) error {
	return writeTablesCSV(w, res.tables(), true)
}

// WriteMarkdown writes the policy in words, then res's tables, each after its sentences.
func WriteMarkdown(w io.Writer, res Results) error {
	fmt.Fprintf(w, "%s\n", Describe(res.Report))
	for _, s := range presetWords(res.Report.Params) {
		fmt.Fprintf(w, "\n%s\n", s)
	}
	return writeTablesMarkdown(w, res.tables())
}

// tables are the tables of CSV and Markdown, in table's order: reportTables, the contention
// experiment's, then B's; an open system's overload runs end reportTables (overload.go:
// every writer takes them last).
func (res Results) tables() []reportTable {
	out := append(reportTables(res), contentionTables(res.Cont)...)
	if res.Cmp != nil {
		out = append(out, compareTables(*res.Cmp, res.Solve)...)
	}
	return out
}

// mdTable writes a Markdown table; a "|" in a cell is escaped, so that it stays in its cell.
func mdTable(w io.Writer, head []string, n int, row func(int) []string) error {
	_, err := fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" ---: |", len(head)))
	for i := range n {
		cells := row(i)
		escaped := make([]string, len(cells))
		for j, c := range cells {
			escaped[j] = strings.ReplaceAll(c, "|", `\|`)
		}
		_, err = fmt.Fprintf(w, "| %s |\n", strings.Join(escaped, " | "))
	}
	return err
}

// herdLine says what the herd simulated.
func herdLine(p calc.Params) string {
	capacity := "no capacity limit"
	if p.Capacity > 0 {
		capacity = fmt.Sprintf("at most %d attempts per %s window", p.Capacity, policy.Human(float64(p.Window)))
	}
	spread := "all starting at 0"
	if p.Spread > 0 {
		spread = "first attempts spread evenly over " + policy.Human(float64(p.Spread))
	}
	line := fmt.Sprintf("Many clients through an outage: %s, %s; the server fails every attempt for %s, then accepts %s.",
		Count(p.Clients, "client", "clients"), spread, LimitText(p.Outage), capacity)
	if words := HerdBudgetWords(p); words != "" {
		line += " " + words
	}
	return line
}

// HerdBudgetWords says, with a budget, that the herd's clients keep to it: a client's attempts
// per client and its giving up answer within the budget, where the schedule beside them lists
// every attempt of the policy. "" without a budget.
func HerdBudgetWords(p calc.Params) string {
	if p.Budget <= 0 {
		return ""
	}
	return "Each client makes only the attempts that start within the " + LimitText(p.Budget) + " budget; one not through by its last gives up."
}

// HerdTime writes a time of the herd: its text never reads across the budget (a client's
// attempts start before it) or the outage's end (attempts before it fail).
func HerdTime(p calc.Params, d time.Duration) string {
	return policy.HumanBeside(float64(d), p.Budget, p.Outage)
}

// textReport prints the report for a terminal: an aligned table in human units.
func textReport(w io.Writer, res Results) error {
	r, herd, over := res.Report, res.Herd, res.Over
	p, s := r.Params, r.Schedule
	// Waits, starts and totals are read against the budget: their text never reads across it.
	beside := func(d time.Duration) string { return policy.HumanBeside(float64(d), p.Budget) }
	besideMean := func(ns float64) string { return policy.HumanBeside(ns, p.Budget) }
	fmt.Fprintf(w, "%s\n\n", Describe(r))
	if words := presetWords(p); len(words) > 0 {
		fmt.Fprintln(w, strings.Join(words, "\n")+"\n")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "attempt\tretry\tnominal\tmin wait\tmean wait\tmax wait\tearliest start\tlatest start\tp50 start\tp99 start\t"
	if p.Budget > 0 {
		head += "within budget\t"
	}
	fmt.Fprintln(tw, head)
	for i, row := range s.Rows {
		st := r.Sample.Starts[i]
		p50, p99 := "-", "-"
		if st.Reached > 0 {
			p50, p99 = beside(st.Start.P50), beside(st.Start.P99)
		}
		retry, nominal, minW, mean, maxW := "-", "-", "-", "-", "-"
		if row.Retry > 0 {
			retry, nominal = strconv.Itoa(row.Retry), beside(row.Nominal)
			if p.Jitter.FromPrevious() {
				nominal = "-" // none: the mode reads neither factor nor offset
			}
			minW, mean, maxW = beside(row.Min), besideMean(row.Mean), beside(row.Max)
		}
		line := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", row.Attempt, retry, nominal,
			minW, mean, maxW, beside(row.Earliest), beside(row.Latest), p50, p99)
		if p.Budget > 0 {
			line += BudgetWords(r, i) + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	if p.Budget > 0 {
		fmt.Fprintf(w, "Within budget, %s (%d paths, seed %d).\n", StartsOver, r.Sample.Paths, p.Seed)
	}
	t, q := s.Total, r.Sample.Total
	total := TotalsText(r)
	totalD := func(d time.Duration) string { return total(float64(d)) }
	if p.Budget <= 0 {
		fmt.Fprintf(w, "\nTotal wait: best case %s, expected %s, worst case %s; sampled p50 %s, p90 %s, p99 %s (%d paths, seed %d).\n",
			totalD(t.Min), total(t.Mean), totalD(t.Max), totalD(q.P50), totalD(q.P90), totalD(q.P99), r.Sample.Paths, p.Seed)
	} else {
		fmt.Fprintf(w, "\nTotal wait of the policy, ignoring the budget: best case %s, expected %s, worst case %s.\n%s\n",
			totalD(t.Min), total(t.Mean), totalD(t.Max), withinLine(r, totalD, total, ""))
	}
	if s.ExceedsCap {
		fmt.Fprintln(w, OverCapNote(p, func(d time.Duration) string { return policy.Human(float64(d)) }))
	}
	if p.Budget > 0 {
		fmt.Fprintf(w, "Budget %s: %s.\n", LimitText(p.Budget), StartWithin(s))
	}
	fmt.Fprintln(w, "\nEvery jitter mode on the same base, factor, cap and attempts:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if p.Budget <= 0 {
		fmt.Fprintln(tw, "jitter\tbest total\texpected total\tworst total\tp99 total\t")
	} else {
		// Every column names its kind: the policy's, or within the budget.
		fmt.Fprintln(tw, "jitter\tpolicy best total\tpolicy expected total\tpolicy worst total\tin budget best total\tin budget expected total\tin budget worst total\tin budget p99 total\t")
	}
	for _, m := range r.Modes {
		p99 := "…"
		if m.Sampled {
			p99 = beside(m.Sample.P99)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t", m.Jitter, beside(m.Total.Min), besideMean(m.Total.Mean), beside(m.Total.Max))
		if p.Budget > 0 {
			minW, maxW := beside(m.Within.Min), beside(m.Within.Max)
			if !m.Within.Exact {
				minW, maxW = minW+" (sampled)", maxW+" (sampled)"
			}
			line += fmt.Sprintf("%s\t%s\t%s\t", minW, besideMean(m.Within.Mean), maxW)
		}
		fmt.Fprintln(tw, line+p99+"\t")
	}
	tw.Flush()
	if p.Budget > 0 {
		fmt.Fprintln(w, "Policy: the totals ignore the budget. In budget: the waits before the attempts a path makes;", withinHow(r)+".")
	}
	writeSolveText(w, r)
	_, err := fmt.Fprintf(w, "\n%s\n", LayersLine(r))
	if len(herd) > 0 {
		fmt.Fprintf(w, "\n%s\n%s\n%s\n", herdLine(p), SimulatedWords(p), HerdPeakWords(p))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "mode\tpeak once back\tonce back at\tpeak while down\twhile down at\tattempts\taccepted\tgave up\tper client mean\tper client max\tlast through\t")
		for _, h := range herd {
			last := "none"
			if h.Accepted > 0 {
				last = HerdTime(p, h.LastAccepted)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%d\t%d\t%d\t%s\t%d\t%s\t\n", h.Mode, h.PeakBack, HerdPeakTime(p, h.PeakBackAt),
				h.PeakDown, HerdPeakTime(p, h.PeakDownAt), h.Attempts, h.Accepted, h.GaveUp,
				strconv.FormatFloat(h.MeanPerClient, 'f', 2, 64), h.MaxPerClient, last)
		}
		err = tw.Flush()
	}
	if len(res.Fluid) > 0 {
		err = writeFluidText(w, p, res.Fluid)
	}
	if len(over) > 0 {
		err = writeOverloadText(w, p, over)
	}
	return err
}

// LayersLine says how retries multiply when every layer of a call chain uses this policy.
func LayersLine(r calc.Report) string {
	p := r.Params
	// The count is the policy's every attempt: with a budget, it says that it ignores it, as the
	// totals of the policy do.
	ignoring := ""
	if p.Budget > 0 {
		ignoring = ", ignoring the " + LimitText(p.Budget) + " budget"
	}
	attempts := "attempts"
	if r.WorstCaseAttempts.IsInt64() && r.WorstCaseAttempts.Int64() == 1 {
		attempts = "attempt"
	}
	if p.Layers == 1 {
		return fmt.Sprintf("With 1 layer, one request makes up to %s %s%s.", r.WorstCaseAttempts, attempts, ignoring)
	}
	return fmt.Sprintf("With %d stacked layers of %d %s each, one outer request can make up to %s %s at the innermost service (%d^%d)%s.",
		p.Layers, p.Attempts, policy.Plural(p.Attempts, "attempt", "attempts"), r.WorstCaseAttempts, attempts, p.Attempts, p.Layers, ignoring)
}

// OverCapNote is the note of a schedule whose waits can pass the cap (Schedule.ExceedsCap),
// naming what makes them: the jitter drawn after the nominal delay is capped, the offset added
// to every wait after the cap, or both. It said the jitter for a policy without any, whose
// offset did it. show writes a duration as the note's table does.
func OverCapNote(p calc.Params, show func(time.Duration) string) string {
	why := "the jitter is applied after capping the nominal delay"
	if p.Offset > 0 {
		offset := "the offset (" + show(p.Offset) + ") is added to every wait after the cap"
		q := p.Params
		q.Offset = 0
		if q.Schedule().ExceedsCap {
			why += ", and " + offset
		} else {
			why = offset
		}
	}
	return "A wait can be longer than the cap (" + show(p.Cap) + "): " + why + "."
}

// StartWithin says how many of s's attempts always start within its budget, and how many at
// most: "3 attempts always start within it, at most 4 do", in the singular for one.
func StartWithin(s policy.Schedule) string {
	return fmt.Sprintf("%d %s within it, at most %d %s", s.Always, policy.Plural(s.Always, "attempt always starts", "attempts always start"),
		s.AtMost, policy.Plural(s.AtMost, "does", "do"))
}
