package main

import (
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// renderModes compares every jitter mode on the same base, factor, cap and attempts, in a fixed
// order: it reports, it does not rank. With a budget, the policy's totals (which ignore it) and
// the total wait within the budget sit under two headings of their own, never in one column.
func renderModes(r calc.Report) app.UI {
	col := func(text string) app.HTMLTh { return app.Th().Scope("col").Text(text) }
	policy := []app.UI{col("best-case total wait"), col("expected total wait"), col("worst-case total wait")}
	var head []app.UI
	if r.Params.Budget <= 0 {
		head = []app.UI{app.Tr().Body(append(append([]app.UI{col("jitter")}, policy...), col("p99 total wait (sampled)"))...)}
	} else {
		head = []app.UI{
			app.Tr().Body(
				app.Th().Scope("col").Rowspan(2).Text("jitter"),
				app.Th().Scope("colgroup").ColSpan(3).DataSet("scope", "policy").Text("The policy, ignoring the budget"),
				app.Th().Scope("colgroup").ColSpan(4).DataSet("scope", "budget").Text("Within the "+report.LimitText(r.Params.Budget)+" budget: the waits before the attempts made"),
			),
			app.Tr().Body(append(policy,
				col("best-case total wait"),
				col("expected total wait (sampled mean)"),
				col("worst-case total wait"),
				col("p99 total wait (sampled)"),
			)...),
		}
	}
	b := r.Params.Budget // every total is written so as not to read across it
	return app.Table().ID("modes").Body(
		app.Caption().Text("Every jitter mode on the same base, factor, cap and attempts"),
		app.THead().Body(head...),
		app.TBody().Body(app.Range(r.Modes).Slice(func(i int) app.UI {
			m := r.Modes[i]
			cells := []app.UI{
				app.Th().Scope("row").Text(modeName(r, m)),
				msCell("min", m.Total.Min, b),
				meanCell("mean", m.Total.Mean, b),
				msCell("max", m.Total.Max, b),
			}
			if b <= 0 {
				cells = append(cells, modeP99(m, "p99", b))
			} else {
				cells = append(cells,
					modeBound(m, "budget-min", m.Within.Min, b),
					modeMean(m, b),
					modeBound(m, "budget-max", m.Within.Max, b),
					modeP99(m, "budget-p99", b),
				)
			}
			return app.Tr().DataSet("mode", m.Jitter.String()).Body(cells...)
		})),
	)
}

func modeName(r calc.Report, m calc.ModeReport) string {
	if m.Jitter == r.Params.Jitter {
		return m.Jitter.String() + " (chosen)"
	}
	return m.Jitter.String()
}

// modeP99 is a mode's sampled p99 total wait, pending until that mode's paths are in.
func modeP99(m calc.ModeReport, col string, budget time.Duration) app.UI {
	if !m.Sampled {
		return pendingCell(col)
	}
	return msCell(col, m.Sample.P99, budget)
}

// modeMean is a mode's mean total wait within the budget, from its sampled paths.
func modeMean(m calc.ModeReport, budget time.Duration) app.UI {
	if !m.Sampled {
		return pendingCell("budget-mean")
	}
	return meanCell("budget-mean", m.Within.Mean, budget)
}

// modeBound is a mode's least or most total wait within the budget: exact, or (decorrelatedv2)
// its sampled paths' and pending until they are in; the cell says which.
func modeBound(m calc.ModeReport, col string, d, budget time.Duration) app.UI {
	switch {
	case m.Within.Exact:
		return msCell(col, d, budget)
	case !m.Sampled:
		return pendingCell(col)
	}
	return app.Td().DataSet("col", col).DataSet("ms", policy.Millis(d)).Text(policy.HumanBeside(float64(d), budget) + " (sampled)")
}
