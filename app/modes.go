package main

import (
	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// renderModes compares every jitter mode on the same base, factor, cap and attempts, in a fixed
// order: it reports, it does not rank.
func renderModes(r calc.Report) app.UI {
	return app.Table().ID("modes").Body(
		app.Caption().Text("Every jitter mode on the same base, factor, cap and attempts"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("jitter"),
			app.Th().Scope("col").Text("best-case total wait"),
			app.Th().Scope("col").Text("expected total wait"),
			app.Th().Scope("col").Text("worst-case total wait"),
			app.Th().Scope("col").Text("p99 total wait (sampled)"),
		)),
		app.TBody().Body(app.Range(r.Modes).Slice(func(i int) app.UI {
			m := r.Modes[i]
			name := m.Jitter.String()
			if m.Jitter == r.Params.Jitter {
				name += " (chosen)"
			}
			return app.Tr().DataSet("mode", m.Jitter.String()).Body(
				app.Th().Scope("row").Text(name),
				msCell("min", m.Total.Min),
				meanCell("mean", m.Total.Mean),
				msCell("max", m.Total.Max),
				modeP99(m),
			)
		})),
	)
}

// modeP99 is a mode's sampled p99 total wait, pending until that mode's paths are in.
func modeP99(m calc.ModeReport) app.UI {
	if !m.Sampled {
		return pendingCell("p99")
	}
	return msCell("p99", m.Sample.P99)
}
