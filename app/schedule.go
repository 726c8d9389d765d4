package main

import (
	"time"

	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// msCell is a number cell: people read the human text, tests and scripts read the exact data-ms.
func msCell(col string, d time.Duration) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", calc.Millis(d)).Text(human(d))
}

func meanCell(col string, ns float64) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", calc.MillisFloat(ns)).Text(calc.Human(ns))
}

func emptyCell(col string) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", "").Text("–")
}

// pendingCell stands for a sampled number the page is still computing.
func pendingCell(col string) app.UI {
	return app.Td().DataSet("col", col).DataSet("ms", "").DataSet("pending", "samples").Text("…")
}

// sampledCell is msCell for a number from the samples, pending until they are in.
func sampledCell(r calc.Report, col string, d time.Duration) app.UI {
	if !r.Sampled() {
		return pendingCell(col)
	}
	return msCell(col, d)
}

func renderSchedule(r calc.Report) app.UI {
	budget := r.Params.Budget > 0
	return app.Table().ID("schedule").Body(
		app.Caption().Text("Every attempt, when all of them fail"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("attempt"),
			app.Th().Scope("col").Text("retry"),
			app.Th().Scope("col").Text("nominal delay"),
			app.Th().Scope("col").Text("min wait"),
			app.Th().Scope("col").Text("mean wait"),
			app.Th().Scope("col").Text("max wait"),
			app.Th().Scope("col").Text("earliest start"),
			app.Th().Scope("col").Text("latest start"),
			app.Th().Scope("col").Text("p50 start"),
			app.Th().Scope("col").Text("p99 start"),
			app.If(budget, app.Th().Scope("col").Text("starts within budget")),
		)),
		app.TBody().Body(app.Range(r.Schedule.Rows).Slice(func(i int) app.UI {
			row, st := r.Schedule.Rows[i], startSample(r, i)
			waits := []app.UI{emptyCell("nominal"), emptyCell("min"), emptyCell("mean"), emptyCell("max")}
			retry := "–"
			if row.Retry > 0 {
				retry = app.FormatString("%d", row.Retry)
				waits = []app.UI{msCell("nominal", row.Nominal), msCell("min", row.Min), meanCell("mean", row.Mean), msCell("max", row.Max)}
			}
			p50, p99 := emptyCell("p50"), emptyCell("p99")
			if !r.Sampled() {
				p50, p99 = pendingCell("p50"), pendingCell("p99")
			}
			if st.Reached > 0 {
				p50, p99 = msCell("p50", st.Start.P50), msCell("p99", st.Start.P99)
			}
			return app.Tr().DataSet("attempt", row.Attempt).Body(
				app.Th().Scope("row").Text(row.Attempt),
				app.Td().DataSet("col", "retry").Text(retry),
				waits[0], waits[1], waits[2], waits[3],
				msCell("earliest", row.Earliest),
				msCell("latest", row.Latest),
				p50, p99,
				app.If(budget, app.Td().DataSet("col", "budget").Text(row.Budget.String())),
			)
		})),
	)
}

// renderTotals lists the whole policy's wait, then the sampled percentiles of it.
func renderTotals(r calc.Report) app.UI {
	t, q := r.Schedule.Total, r.Sample.Total
	item := func(id, label string, d time.Duration) app.UI {
		return app.Div().Body(app.Dt().Text(label), app.Dd().ID(id).DataSet("ms", calc.Millis(d)).Text(human(d)))
	}
	sampled := func(id, label string, d time.Duration) app.UI {
		if !r.Sampled() {
			return app.Div().Body(app.Dt().Text(label), app.Dd().ID(id).DataSet("ms", "").DataSet("pending", "samples").Text("…"))
		}
		return item(id, label, d)
	}
	return app.Dl().ID("totals").Body(
		item("total-min", "best-case total wait", t.Min),
		app.Div().Body(app.Dt().Text("expected total wait"), app.Dd().ID("total-mean").DataSet("ms", calc.MillisFloat(t.Mean)).Text(calc.Human(t.Mean))),
		item("total-max", "worst-case total wait", t.Max),
		sampled("total-p50", "p50 total wait (sampled)", q.P50),
		sampled("total-p90", "p90 total wait (sampled)", q.P90),
		sampled("total-p99", "p99 total wait (sampled)", q.P99),
	)
}

// renderNotes says what users most often get wrong about a policy: a cap that jitter exceeds,
// the pile-up of decorrelated jitter at cap, and how many attempts fit the budget.
func renderNotes(r calc.Report) app.UI {
	p, s := r.Params, r.Schedule
	var notes []string
	if s.ExceedsCap {
		notes = append(notes, "A wait can be longer than the cap ("+human(p.Cap)+"): the jitter is applied after capping the nominal delay.")
	}
	if p.Jitter == calc.Decorrelated {
		last := s.Rows[len(s.Rows)-1]
		if last.AtCap > 0 {
			notes = append(notes, app.FormatString("Decorrelated jitter piles waits up at the cap: by the last retry, %s of the waits are exactly %s (see the at-cap share in the CSV).",
				calc.Percent(last.AtCap), human(p.Cap)))
		}
	}
	if p.Budget > 0 {
		notes = append(notes, app.FormatString("Budget %s: %d attempts always start within it, at most %d do (a start at the budget itself is out).", human(p.Budget), s.Always, s.AtMost))
	}
	if r.Sampled() {
		notes = append(notes, app.FormatString("Percentiles from %d simulated paths, seed %d.", r.Sample.Paths, p.Seed))
	} else {
		notes = append(notes, app.FormatString("Simulating %d paths for the percentiles…", p.Samples))
	}
	return app.Ul().ID("notes").Body(app.Range(notes).Slice(func(i int) app.UI { return app.Li().Text(notes[i]) }))
}
