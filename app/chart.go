package main

import (
	"fmt"
	"html"
	"strings"
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
// them apart. Like the schedule, it is written as one piece of markup (up to 3000 shapes).
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

	var b strings.Builder
	b.Grow(300 * len(rows))
	// The HTML parser puts <svg> in the SVG namespace by itself.
	fmt.Fprintf(&b, `<figure id="chart"><svg viewBox="0 0 %v %v" role="img" aria-labelledby="chart-caption"><g>`,
		chartLeft+chartWidth+16, height+axisRoom)
	for _, t := range axis.Ticks {
		tx := f1(x(t))
		fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%v" y2="%s"></line><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			tx, tx, chartTop, f1(height+4), tx, f1(height+18), html.EscapeString(human(t)))
	}
	b.WriteString(`</g><g>`)
	for i, row := range rows {
		y := chartTop + h*float64(i)
		if label || i == 0 || i == len(rows)-1 {
			fmt.Fprintf(&b, `<text x="%v" y="%s" text-anchor="end">#%d</text>`, chartLeft-6, f1(y+h*0.8), row.Attempt)
		}
		fmt.Fprintf(&b, `<rect data-series="range" x="%s" y="%s" width="%s" height="%s"><title>attempt %d starts between %s and %s</title></rect>`,
			f1(x(row.Earliest)), f1(y+h*0.15), f1(max(1.5, x(row.Latest)-x(row.Earliest))), f1(h*0.7),
			row.Attempt, html.EscapeString(human(row.Earliest)), html.EscapeString(human(row.Latest)))
		if st := startSample(r, i); st.Reached > 0 {
			fmt.Fprintf(&b, `<rect data-series="p50" x="%s" y="%s" width="2" height="%s"><title>attempt %d: p50 start %s</title></rect>`,
				f1(x(st.Start.P50)-1), f1(y), f1(h), row.Attempt, html.EscapeString(human(st.Start.P50)))
		}
	}
	fmt.Fprintf(&b, `</g><text x="%v" y="%s" text-anchor="middle">time since the first call started</text></svg>`,
		chartLeft+chartWidth/2, f1(height+36))
	b.WriteString(`<figcaption id="chart-caption">When each attempt can start: the schedule's earliest, latest and p50 start columns, drawn. <span class="key key-bar">bar</span>: from its earliest to its latest start. <span class="key key-p50">mark</span>: its p50 (median) start.</figcaption></figure>`)
	return app.Raw(b.String())
}
