package main

import (
	"fmt"
	"html"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; go-app needs the namespace on each one. go-app sets class through
// className, which SVG elements ignore, so app.css styles them by data-series instead.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// chartBoxOpen starts the scroll box a chart's SVG sits in. app.css gives every chart's SVG a
// least width, at which its text is still 11 CSS pixels; on a narrower screen (a phone) the
// chart scrolls sideways in this box, as the tables do, instead of shrinking its text. A box
// that scrolls must be reachable by keyboard and named.
func chartBoxOpen(b *strings.Builder, label string) {
	b.WriteString(`<div class="scroll chart-box" tabindex="0" role="region" aria-label="` + html.EscapeString(label+" (scrolls)") + `">`)
}

// chartBox is chartBoxOpen's box as a go-app element, around svg.
func chartBox(label string, svg app.UI) app.UI {
	return app.Div().Class("scroll chart-box").TabIndex(0).Role("region").Aria("label", label+" (scrolls)").Body(svg)
}

// Chart layout, in SVG user units (the viewBox scales it to the page's width). Every chart is
// chartViewWidth wide, as app.css's least width for charts assumes.
const (
	chartViewWidth = 880.0
	chartLeft      = 64.0                                    // room for attempt labels
	chartRight     = 48.0                                    // room for half the last tick's label ("1.25 min")
	chartWidth     = chartViewWidth - chartLeft - chartRight // the time axis
	chartTop       = 24.0                                    // room for the budget's label
	rowHeight      = 16.0                                    // room for a 13-unit label, whose box is 15 units tall
	maxRows        = 60                                      // past this many attempts, rows get thinner to keep the chart on screen
	axisRoom       = 46.0
)

// phoneChartWidth is the start chart's width on a phone, in SVG units: in the 350 px column
// of a 390 px screen it shows its whole axis unscrolled, its text at 12.6 px. Elsewhere, and in
// the server's HTML, which is for any screen, it is chartViewWidth wide and scrolls in its box
// on a phone.
const phoneChartWidth = 360.0

// startChartWidth is the start chart's width in SVG units for this screen.
func startChartWidth() float64 {
	if app.IsClient && !wideScreen() {
		return phoneChartWidth
	}
	return chartViewWidth
}

// renderChart draws, for each attempt, a bar from its earliest to its latest start with its p50
// start marked, on one time axis, with the budget marked when there is one. Two series, each
// named in the legend; the colour only tells them apart. When the last starts dwarf the first
// ones (exponential growth), a second view draws those first attempts on a scale of their own.
// Like the schedule, it is written as one piece of markup (up to 3000 shapes).
func renderChart(r calc.Report) app.UI {
	rows := r.Schedule.Rows
	var b strings.Builder
	b.Grow(300 * len(rows))
	b.WriteString(`<figure id="chart">`)
	chartBoxOpen(&b, "Chart of the starts")
	width := startChartWidth()
	writeStartChart(&b, r, len(rows), policy.StartAxis(rows[len(rows)-1].Latest, r.Params.Budget), width, "chart-caption")
	b.WriteString(`</div>`)
	latest := make([]float64, len(rows))
	for i, row := range rows {
		latest[i] = float64(row.Latest)
	}
	if k := policy.Dwarfed(latest); k > 0 {
		axis := policy.StartAxis(rows[k-1].Latest, r.Params.Budget)
		fmt.Fprintf(&b, `<p id="chart-zoom-title" class="chart-zoom-title">Zoomed in: attempts #1 to #%d, whose latest starts are at most a quarter of the later attempts', on a scale from 0 to %s.</p>`,
			rows[k-1].Attempt, html.EscapeString(policy.Human(float64(axis.End))))
		chartBoxOpen(&b, "Chart of the first starts, zoomed in")
		writeStartChart(&b, r, k, axis, width, "chart-zoom-title chart-caption")
		b.WriteString(`</div>`)
	}
	b.WriteString(`<figcaption id="chart-caption">When each attempt can start: the schedule's earliest, latest and p50 start columns, drawn. <span class="key key-bar">bar</span>: from its earliest to its latest start. <span class="key key-p50">mark</span>: its p50 (median) start.`)
	switch budget := r.Params.Budget; {
	case budget > policy.StartAxis(rows[len(rows)-1].Latest, budget).End:
		fmt.Fprintf(&b, ` The budget, %s, is past the chart's end.`, html.EscapeString(report.LimitText(budget)))
	case budget > 0:
		fmt.Fprintf(&b, ` <span class="key key-line">dashed line</span>: the budget, %s.`, html.EscapeString(report.LimitText(budget)))
	}
	b.WriteString(`</figcaption></figure>`)
	return app.Raw(b.String())
}

// writeStartChart writes the SVG of renderChart's first n rows on axis, width units wide,
// labelled by the elements whose ids are labelledBy.
func writeStartChart(b *strings.Builder, r calc.Report, n int, axis policy.Axis, width float64, labelledBy string) {
	rows := r.Schedule.Rows[:n]
	h := rowHeight
	if len(rows) > maxRows {
		h = rowHeight * maxRows / float64(len(rows))
	}
	height := chartTop + h*float64(len(rows))
	plot := width - chartLeft - chartRight // the time axis
	x := func(d time.Duration) float64 { return chartLeft + axis.X(d, plot) }
	label := len(rows) <= maxRows
	// Every other tick's time where the ticks are closer than the widest one's text ("1.25 min").
	every := 1
	if len(axis.Ticks) > 1 && plot/float64(len(axis.Ticks)-1) < 2*chartRight {
		every = 2
	}

	// The HTML parser puts <svg> in the SVG namespace by itself.
	narrow := ""
	if width != chartViewWidth {
		narrow = ` data-narrow=""` // app.css lets it be narrower than a chart's least width
	}
	fmt.Fprintf(b, `<svg viewBox="0 0 %v %v" role="img" aria-labelledby="%s"%s><g>`, width, height+axisRoom, labelledBy, narrow)
	for i, t := range axis.Ticks {
		tx := f1(x(t))
		fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%v" y2="%s"></line>`, tx, tx, chartTop, f1(height+4))
		if i%every == 0 {
			fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, tx, f1(height+19), html.EscapeString(policy.Human(float64(t))))
		}
	}
	b.WriteString(`</g><g>`)
	for i, row := range rows {
		y := chartTop + h*float64(i)
		if label || i == 0 || i == len(rows)-1 {
			fmt.Fprintf(b, `<text x="%v" y="%s" text-anchor="end">#%d</text>`, chartLeft-6, f1(y+h*0.8), row.Attempt)
		}
		fmt.Fprintf(b, `<rect data-series="range" x="%s" y="%s" width="%s" height="%s"><title>attempt %d starts between %s and %s</title></rect>`,
			f1(x(row.Earliest)), f1(y+h*0.15), f1(max(1.5, x(row.Latest)-x(row.Earliest))), f1(h*0.7),
			row.Attempt, html.EscapeString(report.HumanBeside(row.Earliest, r.Params.Budget)), html.EscapeString(report.HumanBeside(row.Latest, r.Params.Budget)))
		if st := report.StartSample(r, i); st.Reached > 0 {
			fmt.Fprintf(b, `<rect data-series="p50" x="%s" y="%s" width="2" height="%s"><title>attempt %d: p50 start %s</title></rect>`,
				f1(x(st.Start.P50)-1), f1(y), f1(h), row.Attempt, html.EscapeString(report.HumanBeside(st.Start.P50, r.Params.Budget)))
		}
	}
	b.WriteString(`</g>`)
	if budget := r.Params.Budget; budget > 0 && budget <= axis.End {
		// The budget's line, named in text above the bars: on the line's left in the right half,
		// so that the label stays in the chart.
		bx, anchor, dx := x(budget), "start", 4.0
		if bx > chartLeft+plot/2 {
			anchor, dx = "end", -4
		}
		fmt.Fprintf(b, `<line data-series="budget" x1="%s" x2="%s" y1="6" y2="%s"></line><text data-label="budget" x="%s" y="16" text-anchor="%s">budget %s</text>`,
			f1(bx), f1(bx), f1(height), f1(bx+dx), anchor, html.EscapeString(report.LimitText(budget)))
	}
	// The axes' names start at the left, in view on a phone before the chart is scrolled.
	fmt.Fprintf(b, `<text x="%v" y="%s">time since the first call started</text></svg>`, chartLeft, f1(height+39))
}
