package main

import (
	"time"

	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; go-app needs the namespace on each one. go-app sets class through
// className, which SVG elements ignore, so app.css styles them by data-series instead.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// Chart layout, in SVG user units (the viewBox scales it to the page's width).
const (
	chartWidth = 800.0 // the time axis
	chartLeft  = 64.0  // room for attempt labels
	chartTop   = 8.0
	rowHeight  = 14.0
	maxRows    = 60 // past this many attempts, rows get thinner to keep the chart on screen
	axisRoom   = 40.0
)

// renderChart draws, for each attempt, a bar from its earliest to its latest start with its p50
// start marked, on one time axis. Two series, each named in the legend; the colour only tells
// them apart.
func renderChart(r calc.Report) app.UI {
	rows := r.Schedule.Rows
	axis := calc.NewAxis(rows[len(rows)-1].Latest)
	h := rowHeight
	if len(rows) > maxRows {
		h = rowHeight * maxRows / float64(len(rows))
	}
	height := chartTop + h*float64(len(rows))
	x := func(d time.Duration) float64 { return chartLeft + axis.X(d, chartWidth) }
	label := len(rows) <= maxRows

	bars := make([]app.UI, 0, 3*len(rows))
	for i, row := range rows {
		y := chartTop + h*float64(i)
		if label || i == 0 || i == len(rows)-1 {
			bars = append(bars, svg("text").Attr("x", chartLeft-6).Attr("y", y+h*0.8).Attr("text-anchor", "end").Text(app.FormatString("#%d", row.Attempt)))
		}
		bars = append(bars, svg("rect").Attr("data-series", "range").Attr("x", x(row.Earliest)).Attr("y", y+h*0.15).
			Attr("width", max(1.5, x(row.Latest)-x(row.Earliest))).Attr("height", h*0.7).
			Body(svg("title").Text(app.FormatString("attempt %d starts between %s and %s", row.Attempt, human(row.Earliest), human(row.Latest)))))
		if st := startSample(r, i); st.Reached > 0 {
			bars = append(bars, svg("rect").Attr("data-series", "p50").Attr("x", x(st.Start.P50)-1).Attr("y", y).
				Attr("width", 2).Attr("height", h).
				Body(svg("title").Text(app.FormatString("attempt %d: p50 start %s", row.Attempt, human(st.Start.P50)))))
		}
	}
	ticks := make([]app.UI, 0, 2*len(axis.Ticks))
	for _, t := range axis.Ticks {
		tx := x(t)
		ticks = append(ticks,
			svg("line").Attr("x1", tx).Attr("x2", tx).Attr("y1", chartTop).Attr("y2", height+4),
			svg("text").Attr("x", tx).Attr("y", height+18).Attr("text-anchor", "middle").Text(human(t)),
		)
	}
	return app.Figure().ID("chart").Body(
		svg("svg").Attr("viewBox", app.FormatString("0 0 %v %v", chartLeft+chartWidth+16, height+axisRoom)).
			Attr("role", "img").Attr("aria-labelledby", "chart-caption").Body(
			svg("g").Body(ticks...),
			svg("g").Body(bars...),
			svg("text").Attr("x", chartLeft+chartWidth/2).Attr("y", height+36).
				Attr("text-anchor", "middle").Text("time since the first call started"),
		),
		app.FigCaption().ID("chart-caption").Body(
			app.Text("When each attempt can start. "),
			app.Span().Class("key key-bar").Text("bar"), app.Text(": from its earliest to its latest start. "),
			app.Span().Class("key key-p50").Text("mark"), app.Text(": its p50 (median) start."),
		),
	)
}
