package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
)

// The report's four formats: text for the terminal, CSV and Markdown for copying a table, JSON
// for programs. Every number comes from calc; this file only writes it down.

// describe states the policy in words, answering what users ask most: does the count include
// the first call, when does the first wait happen, what does the jitter draw from.
func describe(r calc.Report) string {
	p := r.Params
	var b strings.Builder
	retries := r.Schedule.Rows[len(r.Schedule.Rows)-1].Retry
	fmt.Fprintf(&b, "%d %s = first call + %d %s. ", p.Attempts, plural(p.Attempts, "attempt", "attempts"), retries, plural(retries, "retry", "retries"))
	if retries == 0 {
		b.WriteString("There is no wait.")
	} else {
		b.WriteString(p.WaitWords())
	}
	if p.Call > 0 {
		fmt.Fprintf(&b, " Each failing call takes %s before the wait starts.", human(p.Call))
	}
	if p.Budget > 0 {
		fmt.Fprintf(&b, " An attempt is made only if it starts before %s from the first call.", human(p.Budget))
	}
	if pr, ok := libs.PresetByName(p.Preset); ok {
		fmt.Fprintf(&b, " Preset: %s (%s): %s.", pr.Library, pr.Version, pr.Theirs)
	}
	return b.String()
}

// withinText are the labels of the total wait within the budget: each says which kind of number
// it is, and how it was obtained.
type withinText struct{ min, mean, max, p50, p90, p99 string }

func withinLabels(r calc.Report) withinText {
	in := "within the " + human(r.Params.Budget) + " budget"
	paths := fmt.Sprintf("%d sampled paths", r.Params.Samples)
	l := withinText{
		min:  "best-case total wait " + in,
		mean: "expected total wait " + in + " (mean of " + paths + ")",
		max:  "worst-case total wait " + in,
		p50:  "p50 total wait " + in + " (sampled)",
		p90:  "p90 total wait " + in + " (sampled)",
		p99:  "p99 total wait " + in + " (sampled)",
	}
	if !r.Within.Exact {
		l.min += " (least of " + paths + ")"
		l.max += " (most of " + paths + ")"
	}
	return l
}

// withinLine states the total wait within the budget in one sentence, in the units of d and f
// (followed by unit).
func withinLine(r calc.Report, d func(time.Duration) string, f func(float64) string, unit string) string {
	w, q := r.Within, r.Sample.Total
	in := fmt.Sprintf("Total wait within the %s budget (the waits before the attempts a path makes)", human(r.Params.Budget))
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

// withinNote says what the total wait within the budget counts and how each number is obtained.
func withinNote(r calc.Report) string {
	return fmt.Sprintf("Within the budget, a path's total wait counts only the waits before the attempts it makes: %s (seed %d). The policy's totals ignore the budget.",
		withinHow(r), r.Params.Seed)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func human(d time.Duration) string { return calc.Human(float64(d)) }

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// columns of the schedule, shared by the CSV and Markdown tables.
var columns = []string{"attempt", "retry", "nominal_ms", "min_ms", "mean_ms", "max_ms",
	"earliest_start_ms", "latest_start_ms", "p50_start_ms", "p90_start_ms", "p99_start_ms",
	"reached_share", "at_cap_share", "budget"}

// cells returns one attempt's values as exact strings in milliseconds ("" where a sampled
// percentile has no path).
func cells(r calc.Report, i int) []string {
	row, s := r.Schedule.Rows[i], startSample(r, i)
	q := []string{"", "", ""}
	if s.Reached > 0 {
		q = []string{calc.Millis(s.Start.P50), calc.Millis(s.Start.P90), calc.Millis(s.Start.P99)}
	}
	return append([]string{strconv.Itoa(row.Attempt), strconv.Itoa(row.Retry),
		calc.Millis(row.Nominal), calc.Millis(row.Min), calc.MillisFloat(row.Mean), calc.Millis(row.Max),
		calc.Millis(row.Earliest), calc.Millis(row.Latest)}, append(q,
		fmtFloat(reachedShare(r, i)), fmtFloat(row.AtCap), row.Budget.String())...)
}

// reachedShare is the share of simulated paths that make attempt i+1 (0 before sampling).
func reachedShare(r calc.Report, i int) float64 {
	if !r.PolicySampled() {
		return 0
	}
	return float64(r.Sample.Starts[i].Reached) / float64(r.Sample.Paths)
}

// startSample is what the paths say of attempt i+1; before the page has sampled, nothing (no
// path reached it, so no percentile is shown).
func startSample(r calc.Report, i int) calc.StartSample {
	if !r.PolicySampled() {
		return calc.StartSample{}
	}
	return r.Sample.Starts[i]
}

// herdColumns are the herd's, shared by the CSV and Markdown tables.
var herdColumns = []string{"mode", "attempts", "accepted", "gave_up", "peak", "peak_at_ms",
	"mean_per_client", "max_per_client", "last_accepted_ms"}

func herdCells(r calc.HerdRun) []string {
	last := ""
	if r.Accepted > 0 {
		last = calc.Millis(r.LastAccepted)
	}
	return []string{r.Mode.String(), strconv.Itoa(r.Attempts), strconv.Itoa(r.Accepted), strconv.Itoa(r.GaveUp),
		strconv.Itoa(r.Peak), calc.Millis(r.PeakAt), fmtFloat(r.MeanPerClient), strconv.Itoa(r.MaxPerClient), last}
}

// totalColumns are the CSV's totals with a budget: for every mode, a row of the policy's totals
// (scope "policy", which ignore the budget: no percentiles) and one of the total wait within the
// budget (scope "within_budget"). min_max_exact says whether that row's min and max are exact.
var totalColumns = []string{"jitter", "scope", "min_ms", "mean_ms", "max_ms", "p50_ms", "p90_ms", "p99_ms", "min_max_exact"}

// totalCells are a mode's two rows; what sampling gives is "" until the mode is sampled (a page
// can copy before then).
func totalCells(m calc.ModeReport) [][]string {
	t, w, q := m.Total, m.Within, m.Sample
	within := []string{m.Jitter.String(), "within_budget", "", "", "", "", "", "", strconv.FormatBool(w.Exact)}
	if w.Exact {
		within[2], within[4] = calc.Millis(w.Min), calc.Millis(w.Max)
	}
	if m.Sampled {
		within[2], within[3], within[4] = calc.Millis(w.Min), calc.MillisFloat(w.Mean), calc.Millis(w.Max)
		within[5], within[6], within[7] = calc.Millis(q.P50), calc.Millis(q.P90), calc.Millis(q.P99)
	}
	return [][]string{
		{m.Jitter.String(), "policy", calc.Millis(t.Min), calc.MillisFloat(t.Mean), calc.Millis(t.Max), "", "", "", "true"},
		within,
	}
}

// writeCSV writes the schedule; with a budget, after an empty line, the totals of every mode
// (see totalColumns); then, after an empty line, the herd if there is one, and the overload runs
// if there are (an open system's, report_overload.go: every writer takes them last).
func writeCSV(w io.Writer, r calc.Report, herd []calc.HerdRun, over ...calc.OverloadRun) error {
	cw := csv.NewWriter(w)
	cw.Write(columns)
	for i := range r.Schedule.Rows {
		cw.Write(cells(r, i))
	}
	if r.Params.Budget > 0 {
		cw.Write(nil)
		cw.Write(totalColumns)
		for _, m := range r.Modes {
			cw.WriteAll(totalCells(m))
		}
	}
	if len(herd) > 0 {
		cw.Write(nil)
		cw.Write(herdColumns)
		for _, h := range herd {
			cw.Write(herdCells(h))
		}
	}
	if len(over) > 0 {
		cw.Write(nil)
		writeOverloadTable(func(head []string, n int, row func(int) []string) {
			cw.Write(head)
			for i := range n {
				cw.Write(row(i))
			}
		}, over)
	}
	cw.Flush()
	return cw.Error()
}

func writeMarkdown(w io.Writer, r calc.Report, herd []calc.HerdRun, over ...calc.OverloadRun) error {
	fmt.Fprintf(w, "%s\n\n", describe(r))
	mdTable(w, columns, len(r.Schedule.Rows), func(i int) []string { return cells(r, i) })
	t := r.Schedule.Total
	var err error
	if r.Params.Budget <= 0 {
		_, err = fmt.Fprintf(w, "\nTotal wait: best %s ms, expected %s ms, worst %s ms.\n",
			calc.Millis(t.Min), calc.MillisFloat(t.Mean), calc.Millis(t.Max))
	} else {
		_, err = fmt.Fprintf(w, "\nTotal wait of the policy, ignoring the budget: best %s ms, expected %s ms, worst %s ms.\n\n%s\n",
			calc.Millis(t.Min), calc.MillisFloat(t.Mean), calc.Millis(t.Max), withinLine(r, calc.Millis, calc.MillisFloat, " ms"))
	}
	if len(herd) > 0 {
		fmt.Fprintf(w, "\n%s\n\n", herdLine(r.Params))
		mdTable(w, herdColumns, len(herd), func(i int) []string { return herdCells(herd[i]) })
	}
	if len(over) > 0 {
		fmt.Fprintf(w, "\n%s\n\n", r.Params.FailingLoadWords())
		writeOverloadTable(func(head []string, n int, row func(int) []string) { mdTable(w, head, n, row) }, over)
	}
	return err
}

func mdTable(w io.Writer, head []string, n int, row func(int) []string) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" ---: |", len(head)))
	for i := range n {
		fmt.Fprintf(w, "| %s |\n", strings.Join(row(i), " | "))
	}
}

// herdLine says what the herd simulated.
func herdLine(p calc.Params) string {
	capacity := "no capacity limit"
	if p.Capacity > 0 {
		capacity = fmt.Sprintf("at most %d attempts per %s window", p.Capacity, human(p.Window))
	}
	spread := "all starting at 0"
	if p.Spread > 0 {
		spread = "first attempts spread evenly over " + human(p.Spread)
	}
	return fmt.Sprintf("Many clients through an outage: %d clients, %s; the server fails every attempt for %s, then accepts %s.",
		p.Clients, spread, human(p.Outage), capacity)
}

// writeText prints the report for a terminal: an aligned table in human units.
func writeText(w io.Writer, r calc.Report, herd []calc.HerdRun, over ...calc.OverloadRun) error {
	p, s := r.Params, r.Schedule
	fmt.Fprintf(w, "%s\n\n", describe(r))
	if pr, ok := libs.PresetByName(p.Preset); ok {
		fmt.Fprintf(w, "%s computes it in %s.\n", pr.Library, pr.Source)
		for _, n := range pr.Notes {
			fmt.Fprintf(w, "- %s\n", n)
		}
		fmt.Fprintln(w)
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
			p50, p99 = human(st.Start.P50), human(st.Start.P99)
		}
		retry, nominal, minW, mean, maxW := "-", "-", "-", "-", "-"
		if row.Retry > 0 {
			retry, nominal = strconv.Itoa(row.Retry), human(row.Nominal)
			minW, mean, maxW = human(row.Min), calc.Human(row.Mean), human(row.Max)
		}
		line := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t", row.Attempt, retry, nominal,
			minW, mean, maxW, human(row.Earliest), human(row.Latest), p50, p99)
		if p.Budget > 0 {
			line += row.Budget.String() + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	t, q := s.Total, r.Sample.Total
	if p.Budget <= 0 {
		fmt.Fprintf(w, "\nTotal wait: best case %s, expected %s, worst case %s; sampled p50 %s, p90 %s, p99 %s (%d paths, seed %d).\n",
			human(t.Min), calc.Human(t.Mean), human(t.Max), human(q.P50), human(q.P90), human(q.P99), r.Sample.Paths, p.Seed)
	} else {
		fmt.Fprintf(w, "\nTotal wait of the policy, ignoring the budget: best case %s, expected %s, worst case %s.\n%s\n",
			human(t.Min), calc.Human(t.Mean), human(t.Max), withinLine(r, human, calc.Human, ""))
	}
	if s.ExceedsCap {
		fmt.Fprintf(w, "A wait can be longer than the cap (%s): the jitter is applied after capping the nominal delay.\n", human(p.Cap))
	}
	if p.Budget > 0 {
		fmt.Fprintf(w, "Budget %s: %d attempts always start within it, at most %d do.\n", human(p.Budget), s.Always, s.AtMost)
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
			p99 = human(m.Sample.P99)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t", m.Jitter, human(m.Total.Min), calc.Human(m.Total.Mean), human(m.Total.Max))
		if p.Budget > 0 {
			minW, maxW := human(m.Within.Min), human(m.Within.Max)
			if !m.Within.Exact {
				minW, maxW = minW+" (sampled)", maxW+" (sampled)"
			}
			line += fmt.Sprintf("%s\t%s\t%s\t", minW, calc.Human(m.Within.Mean), maxW)
		}
		fmt.Fprintln(tw, line+p99+"\t")
	}
	tw.Flush()
	if p.Budget > 0 {
		fmt.Fprintln(w, "Policy: the totals ignore the budget. In budget: the waits before the attempts a path makes;", withinHow(r)+".")
	}
	writeSolveText(w, r)
	_, err := fmt.Fprintf(w, "\n%s\n", layersLine(r))
	if len(herd) > 0 {
		fmt.Fprintf(w, "\n%s\n", herdLine(p))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "mode\tattempts\taccepted\tgave up\tpeak per window\tpeak at\tper client mean\tper client max\tlast through\t")
		for _, h := range herd {
			last := "none"
			if h.Accepted > 0 {
				last = human(h.LastAccepted)
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t%s\t\n", h.Mode, h.Attempts, h.Accepted, h.GaveUp, h.Peak,
				human(h.PeakAt), strconv.FormatFloat(h.MeanPerClient, 'f', 2, 64), h.MaxPerClient, last)
		}
		err = tw.Flush()
	}
	if len(over) > 0 {
		err = writeOverloadText(w, p, over)
	}
	return err
}

// layersLine says how retries multiply when every layer of a call chain uses this policy.
func layersLine(r calc.Report) string {
	p := r.Params
	if p.Layers == 1 {
		return fmt.Sprintf("With 1 layer, one request makes up to %s attempts.", r.WorstCaseAttempts)
	}
	return fmt.Sprintf("With %d stacked layers of %d attempts each, one outer request can make up to %s attempts at the innermost service (%d^%d).",
		p.Layers, p.Attempts, r.WorstCaseAttempts, p.Attempts, p.Layers)
}
