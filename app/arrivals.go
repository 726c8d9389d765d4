package main

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Layout of the arrivals chart, in SVG user units: one small chart per mode, on shared axes.
const (
	arrivalsLeft   = chartLeft
	arrivalsWidth  = chartWidth
	arrivalsHeight = 56.0
	arrivalsGap    = 22.0
)

// renderArrivals draws the attempts the server receives per window, one small chart per mode on
// the same axes, with the end of the outage and the capacity marked. The count axis is one for
// every mode (sim.HerdCountAxis), so that heights compare across modes: a mode whose peak is a
// tenth of another's draws a tenth as tall, as a reader comparing the charts will assume. It is
// set by the peaks once back, so that what the recovering server receives can be read against
// the capacity; a window past it (the burst while down) is drawn cut at the top, and each chart's
// title says its peak while down and once back, with the one the scale cuts.
//
// expected says that the runs are the fluid model's expected counts (calc/fluid), rounded to
// whole attempts: the titles and the caption say so.
func renderArrivals(params calc.Params, runs []sim.HerdRun, expected bool) app.UI {
	if len(runs) == 0 {
		return app.Figure().ID("arrivals")
	}
	timeAxis, _ := sim.HerdAxes(params, runs)
	countAxis := sim.HerdCountAxis(params, runs)
	y := func(top float64, n int) float64 {
		h, _ := countAxis.YCut(n, arrivalsHeight)
		return top + arrivalsHeight - h
	}
	x := func(k int) float64 { return arrivalsLeft + timeAxis.X(params.WindowStart(k), arrivalsWidth) }
	outage := arrivalsLeft + timeAxis.X(params.Outage, arrivalsWidth)
	capacityShown := params.Capacity > 0 && params.Capacity <= countAxis.End
	var charts []app.UI
	for i, r := range runs {
		top := arrivalsGap + float64(i)*(arrivalsHeight+arrivalsGap)
		var d strings.Builder
		d.WriteString("M" + f1(x(0)) + " " + f1(y(top, 0)))
		for k, n := range r.Arrivals {
			d.WriteString("V" + f1(y(top, n)) + "H" + f1(x(k+1)))
		}
		d.WriteString("V" + f1(y(top, 0)) + "Z")
		charts = append(charts,
			svg("text").Attr("x", arrivalsLeft).Attr("y", top-6).DataSet("mode", r.Mode.String()).Text(arrivalsTitle(params, r, countAxis, expected)),
			svg("line").Attr("x1", arrivalsLeft).Attr("x2", arrivalsLeft+arrivalsWidth).Attr("y1", y(top, 0)).Attr("y2", y(top, 0)),
			svg("path").Attr("data-series", "arrivals").DataSet("mode", r.Mode.String()).Attr("d", d.String()),
			svg("text").Attr("x", arrivalsLeft-6).Attr("y", y(top, countAxis.End)+4).Attr("text-anchor", "end").Text(axisCount(countAxis.End)),
			svg("text").Attr("x", arrivalsLeft-6).Attr("y", y(top, 0)).Attr("text-anchor", "end").Text("0"),
			// The outage's end, within the strip only: across the gaps it would cross the titles.
			svg("line").Attr("data-series", "outage").Attr("x1", outage).Attr("x2", outage).Attr("y1", top).Attr("y2", y(top, 0)),
		)
		if capacityShown {
			cy := y(top, params.Capacity)
			charts = append(charts, svg("line").Attr("data-series", "capacity").
				Attr("x1", arrivalsLeft).Attr("x2", arrivalsLeft+arrivalsWidth).Attr("y1", cy).Attr("y2", cy),
				// Named in text at its right end, above the line (below it when at the top).
				svg("text").Attr("data-label", "capacity").Attr("x", arrivalsLeft+arrivalsWidth).Attr("y", f1(max(top+10, cy-3))).
					Attr("text-anchor", "end").Text("capacity "+strconv.Itoa(params.Capacity)))
		}
	}
	bottom := arrivalsGap + float64(len(runs))*(arrivalsHeight+arrivalsGap)
	var marks []app.UI
	for _, t := range timeAxis.Ticks {
		tx := arrivalsLeft + timeAxis.X(t, arrivalsWidth)
		marks = append(marks, svg("text").Attr("x", tx).Attr("y", bottom).Attr("text-anchor", "middle").Text(policy.Human(float64(t))))
	}
	capacity := "No capacity limit."
	switch {
	case capacityShown:
		capacity = "Dashed line: the capacity, " + strconv.Itoa(params.Capacity) + " per window."
	case params.Capacity > 0:
		capacity = "The capacity, " + strconv.Itoa(params.Capacity) + " per window, is above the scale."
	}
	scale := "Same scale for every mode: 0 to " + strconv.Itoa(countAxis.End) + " attempts per window. "
	if sim.HerdScaleOnceBack(runs) {
		scale = "Same scale for every mode: 0 to " + strconv.Itoa(countAxis.End) + " attempts per window, set by the peaks once back; " +
			"a window above it (the burst while down) is cut at the top, and the chart's title gives its peak. "
	}
	return app.Figure().ID("arrivals").Body(
		chartBox("Chart of the attempts per window", svg("svg").Attr("viewBox", app.FormatString("0 0 %v %v", chartViewWidth, bottom+26)).
			Attr("role", "img").Attr("aria-labelledby", "arrivals-caption").Body(
			svg("g").Body(charts...),
			svg("g").Body(marks...),
			svg("text").Attr("x", arrivalsLeft).Attr("y", bottom+21).Text("time since the first attempts"),
		)),
		app.FigCaption().ID("arrivals-caption").Body(inline(
			app.Text(arrivalsWhat(expected)+policy.Human(float64(params.Window))+" window, per mode: the runs of "),
			app.A().Href("#herd").Text("the herd table"),
			app.Text(", one chart per row. "),
			app.Span().ID("arrivals-scale").Text(scale),
			app.Span().Class("key key-bar").Text("filled"), app.Text(": attempts per window. "),
			app.Span().Class("key key-p50").Text("vertical line"), app.Text(": the outage ends ("+policy.Human(float64(params.Outage))+"). "),
			app.Text(capacity),
		)),
	)
}

// arrivalsTitle names a mode's chart with its peaks once back and while down, saying which the
// scale cuts: "full: once back, peak 60 at 2 s; while down, peak 2275 at 0 (cut at 200)".
func arrivalsTitle(params calc.Params, r sim.HerdRun, axis policy.CountAxis, expected bool) string {
	peak := func(n int, at time.Duration) string {
		if n == 0 {
			return "none"
		}
		s := "peak " + strconv.Itoa(n) + " at " + report.HerdTime(params, at)
		if expected {
			s = "expected peak " + strconv.Itoa(n) + " at " + report.HerdTime(params, at)
		}
		if _, cut := axis.YCut(n, arrivalsHeight); cut {
			s += " (cut at " + strconv.Itoa(axis.End) + ")"
		}
		return s
	}
	return r.Mode.String() + ": once back, " + peak(r.PeakBack, r.PeakBackAt) + "; while down, " + peak(r.PeakDown, r.PeakDownAt)
}

// arrivalsWhat is what the charts draw: the simulated counts, or the fluid model's expected ones.
func arrivalsWhat(expected bool) string {
	if expected {
		return "The expected attempts (the fluid model's mean over many herds, rounded to whole attempts) the server receives in each "
	}
	return "Attempts the server receives in each "
}

// axisCount writes an axis's end, a round count (policy.CountAxis: 1, 2 or 5 times a power of
// ten), short enough for the chart's left margin and exactly: 2000000000 as "2 bn", where ten
// digits ran past the margin, 5000000 as "5 M", 200000 as "200 k".
func axisCount(n int) string {
	if n < 100_000 {
		return strconv.Itoa(n)
	}
	for _, u := range []struct {
		size int
		name string
	}{{1_000_000_000, " bn"}, {1_000_000, " M"}, {1_000, " k"}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.Itoa(n/u.size) + u.name
		}
	}
	return strconv.Itoa(n)
}

// f1 writes an SVG coordinate with one decimal.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
