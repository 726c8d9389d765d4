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
	// total writes one total, ms and ns its value; a value not known yet (sampled: not yet)
	// is pending.
	total := func(scope, class, id, label string, known bool, ms string, ns float64) {
		b.WriteString("\n<div")
		if scope != "" {
			b.WriteString(` data-scope="` + scope + `"`)
		}
		if class != "" {
			b.WriteString(` class="` + class + `"`)
		}
		b.WriteString(">\n<dt>" + html.EscapeString(label) + "</dt>\n<dd id=\"" + id + `"`)
		if known {
			b.WriteString(` data-ms="` + ms + `">` + html.EscapeString(text(ns)))
		} else {
			b.WriteString(` data-ms="" data-pending="samples">…`)
		}
		b.WriteString("</dd>\n</div>")
	}
	sampled := r.PolicySampled()
	if r.Params.Budget <= 0 {
		total("", "", "total-min", "best-case total wait", true, policy.Millis(t.Min), float64(t.Min))
		total("", "", "total-mean", "expected total wait", true, policy.MillisFloat(t.Mean), t.Mean)
		total("", "", "total-max", "worst-case total wait", true, policy.Millis(t.Max), float64(t.Max))
		total("", "", "total-p50", "p50 total wait (sampled)", sampled, policy.Millis(q.P50), float64(q.P50))
		total("", "", "total-p90", "p90 total wait (sampled)", sampled, policy.Millis(q.P90), float64(q.P90))
		total("", "", "total-p99", "p99 total wait (sampled)", sampled, policy.Millis(q.P99), float64(q.P99))
	} else {
		l, w := report.WithinLabels(r), r.Within
		bound := w.Exact || sampled // the bounds within the budget are sampled unless exact
		total("policy", "", "total-min", "best-case total wait of the policy, ignoring the budget", true, policy.Millis(t.Min), float64(t.Min))
		total("policy", "", "total-mean", "expected total wait of the policy, ignoring the budget", true, policy.MillisFloat(t.Mean), t.Mean)
		total("policy", "", "total-max", "worst-case total wait of the policy, ignoring the budget", true, policy.Millis(t.Max), float64(t.Max))
		total("budget", "scope-start", "budget-min", l.Min, bound, policy.Millis(w.Min), float64(w.Min))
		total("budget", "", "budget-mean", l.Mean, sampled, policy.MillisFloat(w.Mean), w.Mean)
		total("budget", "", "budget-max", l.Max, bound, policy.Millis(w.Max), float64(w.Max))
		total("budget", "", "budget-p50", l.P50, sampled, policy.Millis(q.P50), float64(q.P50))
		total("budget", "", "budget-p90", l.P90, sampled, policy.Millis(q.P90), float64(q.P90))
		total("budget", "", "budget-p99", l.P99, sampled, policy.Millis(q.P99), float64(q.P99))
	}
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
		notes = append(notes, report.OverCapNote(p, func(d time.Duration) string { return policy.Human(float64(d)) }))
	}
	if last := s.Rows[len(s.Rows)-1]; last.AtCap > 0 {
		notes = append(notes, app.FormatString("%s piles waits up at the cap: by the last retry, %s of the waits are exactly %s (see the at-cap share in the CSV).",
			p.Jitter.Title(), policy.Percent(last.AtCap), policy.Human(float64(p.Cap))))
	}
	if p.Budget > 0 {
		notes = append(notes, app.FormatString("Budget %s: %s (a start at the budget itself is out). Within budget, %s.", report.LimitText(p.Budget), report.StartWithin(s), report.StartsOver),
			report.WithinNote(r))
	}
	if r.PolicySampled() {
		notes = append(notes, app.FormatString("Percentiles from %d simulated paths, seed %d.", r.Sample.Paths, p.Seed))
	} else {
		notes = append(notes, app.FormatString("Simulating %d paths for the percentiles…", p.Samples))
	}
	return app.Ul().ID("notes").Body(app.Range(notes).Slice(func(i int) app.UI { return app.Li().Text(notes[i]) }))
}
