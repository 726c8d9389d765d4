package main

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// renderSummary states the policy in words, and what users most often get wrong about it.
func renderSummary(r calc.Report) app.UI {
	return app.Div().Body(
		app.P().ID("policy").Text(report.Describe(r)),
		renderNotes(r),
	)
}

// renderTables is the answer at a glance: the totals, then every attempt.
func renderTables(r calc.Report) app.UI {
	tables := app.Div()
	if !r.Sampled() {
		// For scripts and tests: sampled numbers still to come, here or in the modes' table,
		// which is refreshed with this one. It is written with the numbers, not by go-app's
		// render of the page, which follows the paint (startWork).
		tables = tables.DataSet("sampling", "pending")
	}
	return tables.Body(
		renderTotals(r),
		scrollBox("schedule-box", "Every attempt (scrolls)", renderSchedule(r)),
	)
}

// msCell is a number cell: people read the human text, tests and scripts read the exact data-ms.
// The text never reads across a limit that the page states beside it (policy.HumanBeside).
func msCell(col string, d time.Duration, limits ...time.Duration) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", policy.Millis(d)).Text(policy.HumanBeside(float64(d), limits...))
}

func meanCell(col string, ns float64, limits ...time.Duration) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", policy.MillisFloat(ns)).Text(policy.HumanBeside(ns, limits...))
}

// pendingCell stands for a sampled number the page is still computing.
func pendingCell(col string) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", "").DataSet("pending", "samples").Text("…")
}

// renderSchedule writes the schedule as one piece of HTML: with 1000 attempts the table has
// 12000 cells, which go-app would build and compare node by node (seconds in wasm), while the
// browser parses the same markup in milliseconds. Every text is calc's number, escaped.
func renderSchedule(r calc.Report) app.UI {
	budget := r.Params.Budget > 0
	var b strings.Builder
	b.Grow(600 * (len(r.Schedule.Rows) + 1))
	b.WriteString(`<table id="schedule"><caption>Every attempt, when all of them fail</caption><thead><tr>`)
	heads := []string{"attempt", "retry", "nominal delay", "min wait", "mean wait", "max wait",
		"earliest start", "latest start", "p50 start", "p99 start"}
	if budget {
		// The budget's answer next to the attempt, in view on a phone before the table scrolls.
		heads = slices.Insert(heads, 1, "starts within budget")
	}
	for _, h := range heads {
		b.WriteString(`<th scope="col">` + h + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	cell := func(col, ms, text, pending string) {
		b.WriteString(`<td data-col="` + col + `" data-ms="` + ms + `"`)
		if pending != "" {
			b.WriteString(` data-pending="` + pending + `"`)
		}
		b.WriteString(`>` + html.EscapeString(text) + `</td>`)
	}
	// Every time is read against the budget: its text never reads across it.
	msText := func(col string, d time.Duration) {
		cell(col, policy.Millis(d), policy.HumanBeside(float64(d), r.Params.Budget), "")
	}
	for i, row := range r.Schedule.Rows {
		n := strconv.Itoa(row.Attempt)
		b.WriteString(`<tr data-attempt="` + n + `"><th scope="row">` + n + `</th>`)
		if budget {
			b.WriteString(`<td data-col="budget" data-budget="` + row.Budget.String() + `">` + html.EscapeString(report.BudgetWords(r, i)) + `</td>`)
		}
		if row.Retry == 0 {
			b.WriteString(`<td data-col="retry">–</td>`)
			for _, col := range []string{"nominal", "min", "mean", "max"} {
				cell(col, "", "–", "")
			}
		} else {
			b.WriteString(`<td data-col="retry">` + strconv.Itoa(row.Retry) + `</td>`)
			if r.Params.Jitter.FromPrevious() {
				cell("nominal", "", "–", "") // none: the mode reads neither factor nor offset
			} else {
				msText("nominal", row.Nominal)
			}
			msText("min", row.Min)
			cell("mean", policy.MillisFloat(row.Mean), policy.HumanBeside(row.Mean, r.Params.Budget), "")
			msText("max", row.Max)
		}
		msText("earliest", row.Earliest)
		msText("latest", row.Latest)
		switch st := report.StartSample(r, i); {
		case !r.PolicySampled():
			cell("p50", "", "…", "samples")
			cell("p99", "", "…", "samples")
		case st.Reached > 0:
			msText("p50", st.Start.P50)
			msText("p99", st.Start.P99)
		default:
			cell("p50", "", "–", "")
			cell("p99", "", "–", "")
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return app.Raw(b.String())
}

// renderTotals lists the whole policy's wait, then the sampled percentiles of it. With a budget
// these are two kinds of number, each labelled as such: the policy's totals, which ignore the
// budget, then the total wait within the budget, whose percentiles are the sampled ones. Every
// total is written so as not to read across the budget.
func renderTotals(r calc.Report) app.UI {
	t, q := r.Schedule.Total, r.Sample.Total
	text := report.TotalsText(r) // side by side, they carry the digits that tell them apart
	// Written as markup, as the schedule is: go-app's elements took half of the totals' time on
	// every edit. The layout is go-app's for the same elements (a newline before each child of
	// several), so that the server's page and the wasm's write the same nodes.
	var b strings.Builder
	b.Grow(2048)
	b.WriteString(`<dl id="totals">`)
	// card writes one total: its label and its value, or a pending value (ms "").
	card := func(scope, class, id, label, ms, value string) {
		b.WriteString("\n<div")
		if scope != "" {
			b.WriteString(` data-scope="` + scope + `"`)
		}
		if class != "" {
			b.WriteString(` class="` + class + `"`)
		}
		b.WriteString(">\n<dt>" + html.EscapeString(label) + `</dt>` + "\n" + `<dd id="` + id + `" data-ms="` + ms + `"`)
		if ms == "" {
			b.WriteString(` data-pending="samples"`)
		}
		b.WriteString(">" + html.EscapeString(value) + "</dd>\n</div>")
	}
	item := func(scope, id, label string, d time.Duration) {
		card(scope, "", id, label, policy.Millis(d), text(float64(d)))
	}
	mean := func(scope, id, label string, ns float64) {
		card(scope, "", id, label, policy.MillisFloat(ns), text(ns))
	}
	sampled := func(scope, id, label string, d time.Duration) {
		if !r.PolicySampled() {
			card(scope, "", id, label, "", "…")
			return
		}
		item(scope, id, label, d)
	}
	if r.Params.Budget <= 0 {
		item("", "total-min", "best-case total wait", t.Min)
		mean("", "total-mean", "expected total wait", t.Mean)
		item("", "total-max", "worst-case total wait", t.Max)
		sampled("", "total-p50", "p50 total wait (sampled)", q.P50)
		sampled("", "total-p90", "p90 total wait (sampled)", q.P90)
		sampled("", "total-p99", "p99 total wait (sampled)", q.P99)
		b.WriteString("\n</dl>")
		return app.Raw(b.String())
	}
	l := report.WithinLabels(r)
	w := r.Within
	item("policy", "total-min", "best-case total wait of the policy, ignoring the budget", t.Min)
	mean("policy", "total-mean", "expected total wait of the policy, ignoring the budget", t.Mean)
	item("policy", "total-max", "worst-case total wait of the policy, ignoring the budget", t.Max)
	if w.Exact || r.PolicySampled() {
		card("budget", "scope-start", "budget-min", l.Min, policy.Millis(w.Min), text(float64(w.Min)))
	} else {
		card("budget", "scope-start", "budget-min", l.Min, "", "…")
	}
	if r.PolicySampled() {
		mean("budget", "budget-mean", l.Mean, w.Mean)
	} else {
		card("budget", "", "budget-mean", l.Mean, "", "…")
	}
	if w.Exact {
		item("budget", "budget-max", l.Max, w.Max)
	} else {
		sampled("budget", "budget-max", l.Max, w.Max)
	}
	sampled("budget", "budget-p50", l.P50, q.P50)
	sampled("budget", "budget-p90", l.P90, q.P90)
	sampled("budget", "budget-p99", l.P99, q.P99)
	b.WriteString("\n</dl>")
	return app.Raw(b.String())
}

// renderNotes says what users most often get wrong about a policy: a cap that jitter exceeds,
// the pile-up of decorrelated jitter (AWS's or Polly's) at cap, and how many attempts fit the
// budget.
func renderNotes(r calc.Report) app.UI {
	p, s := r.Params, r.Schedule
	var notes []string
	if s.ExceedsCap {
		notes = append(notes, "A wait can be longer than the cap ("+policy.Human(float64(p.Cap))+"): the jitter is applied after capping the nominal delay.")
	}
	if last := s.Rows[len(s.Rows)-1]; last.AtCap > 0 {
		notes = append(notes, app.FormatString("%s piles waits up at the cap: by the last retry, %s of the waits are exactly %s (see the at-cap share in the CSV).",
			p.Jitter.Title(), policy.Percent(last.AtCap), policy.Human(float64(p.Cap))))
	}
	if p.Budget > 0 {
		notes = append(notes, app.FormatString("Budget %s: %d attempts always start within it, at most %d do (a start at the budget itself is out). Within budget, %s.", report.LimitText(p.Budget), s.Always, s.AtMost, report.StartsOver),
			report.WithinNote(r))
	}
	if r.PolicySampled() {
		notes = append(notes, app.FormatString("Percentiles from %d simulated paths, seed %d.", r.Sample.Paths, p.Seed))
	} else {
		notes = append(notes, app.FormatString("Simulating %d paths for the percentiles…", p.Samples))
	}
	return app.Ul().ID("notes").Body(app.Range(notes).Slice(func(i int) app.UI { return app.Li().Text(notes[i]) }))
}
