package main

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The contention section's numbers, written as markup (an island): the table at `contenders`
// clients, then the sweep as two charts and one table. Every number is calc's; the charts only
// place them.

// contentionStats are the table's columns per measure: data-col suffix, heading.
var contentionStats = [][2]string{{"mean", "mean"}, {"min", "min"}, {"p50", "p50"}, {"p90", "p90"}, {"max", "max"}}

func spreadValues(s calc.RunSpread) []float64 { return []float64{s.Mean, s.Min, s.P50, s.P90, s.Max} }

// renderContentionResults is the table and the sweep, filled in as they come.
func (p *page) renderContentionResults() app.UI {
	c := &p.contention
	if p.report == nil || c.table == nil {
		return app.Div()
	}
	var b strings.Builder
	writeContentionTable(&b, c.params, c.table)
	if len(c.sweep) > 0 {
		modes := c.params.ContentionModes()
		writeSweepChart(&b, "calls", modes, c.sweep)
		writeSweepChart(&b, "time", modes, c.sweep)
		writeSweepTable(&b, modes, c.sweep)
	}
	return app.Raw(`<div id="contention-view">` + b.String() + `</div>`)
}

// writeContentionTable writes the table at params.Contenders clients: per mode, calls and time,
// each as mean, min, p50, p90 and max over the runs. data-value holds calc's number (calls, or
// ms), the text is for people.
func writeContentionTable(b *strings.Builder, params calc.Params, rs []calc.ContentionResult) {
	label := fmt.Sprintf("Contention at %d clients, over %d runs", params.Contenders, params.Runs)
	fmt.Fprintf(b, `<div id="contention-box" class="scroll" tabindex="0" role="region" aria-label="%s (scrolls)"><table id="contention"><caption>%s: calls (writes) per run and time until the last client is through.</caption><thead><tr><th scope="col" rowspan="2">mode</th><th scope="colgroup" colspan="5">calls per run</th><th scope="colgroup" colspan="5">time until all are through</th></tr><tr>`,
		html.EscapeString(label), html.EscapeString(label))
	for range 2 {
		for _, s := range contentionStats {
			b.WriteString(`<th scope="col">` + s[1] + `</th>`)
		}
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, r := range rs {
		fmt.Fprintf(b, `<tr data-mode="%s"><th scope="row">%s</th>`, r.Mode, html.EscapeString(r.Mode.Title()))
		for i, v := range spreadValues(r.Calls) {
			text := fmtFloat(v)
			if i == 0 {
				text = strconv.FormatFloat(v, 'f', 1, 64) // the mean of whole counts
			}
			fmt.Fprintf(b, `<td data-col="calls_%s" data-value="%s">%s</td>`, contentionStats[i][0], fmtFloat(v), text)
		}
		for i, v := range spreadValues(r.Time) {
			fmt.Fprintf(b, `<td data-col="time_%s" data-value="%s">%s</td>`, contentionStats[i][0], calc.MillisFloat(v), html.EscapeString(calc.Human(v)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
}

// Layout of the sweep's charts, in SVG user units; the labels of the lines sit on the right.
const (
	sweepLeft   = 64.0
	sweepWidth  = 560.0
	sweepRight  = 190.0
	sweepTop    = 12.0
	sweepHeight = 220.0
	sweepLabelH = 13.0 // the least gap between two lines' labels
)

// writeSweepChart draws one measure of the sweep ("calls" or "time") against the number of
// clients: one line per mode through the means, named in text at its right end (colour and dash
// only tell the lines apart), on axes from calc.
func writeSweepChart(b *strings.Builder, measure string, modes []calc.ContentionMode, sweep []calc.ContentionPoint) {
	mean := func(r calc.ContentionResult) float64 { return measureOf(measure, r) }
	most := 0.0
	for _, pt := range sweep {
		for _, r := range pt.Results {
			most = max(most, mean(r))
		}
	}
	clients := calc.NewCountAxis(calc.SweepTo)
	var ticks []string
	var y func(v float64) float64
	if measure == "time" {
		a := calc.NewAxis(time.Duration(math.Ceil(most)))
		y = func(v float64) float64 { return sweepTop + sweepHeight - a.X(time.Duration(v), sweepHeight) }
		for _, t := range a.Ticks {
			ticks = append(ticks, f1(y(float64(t)))+" "+human(t))
		}
	} else {
		a := calc.NewCountAxis(int(math.Ceil(most)))
		y = func(v float64) float64 { return sweepTop + sweepHeight - float64(v)/float64(a.End)*sweepHeight }
		for _, n := range a.Ticks {
			ticks = append(ticks, f1(y(float64(n)))+" "+strconv.Itoa(n))
		}
	}
	x := func(n int) float64 { return sweepLeft + clients.Y(n, sweepWidth) }
	bottom := sweepTop + sweepHeight
	id := "contention-" + measure + "-chart"
	fmt.Fprintf(b, `<figure id="%s"><svg viewBox="0 0 %v %v" role="img" aria-labelledby="%s-caption"><g>`, id, sweepLeft+sweepWidth+sweepRight, bottom+40, id)
	for _, t := range ticks {
		ty, text, _ := strings.Cut(t, " ")
		fmt.Fprintf(b, `<line x1="%v" x2="%v" y1="%s" y2="%s"></line><text x="%v" y="%s" text-anchor="end">%s</text>`,
			sweepLeft, sweepLeft+sweepWidth, ty, ty, sweepLeft-6, ty, html.EscapeString(text))
	}
	for _, n := range clients.Ticks {
		fmt.Fprintf(b, `<text x="%s" y="%v" text-anchor="middle">%d</text>`, f1(x(n)), bottom+16, n)
	}
	b.WriteString(`</g><g>`)
	type label struct {
		y    float64
		name string
		i    int
	}
	var labels []label
	for i, m := range modes {
		var d strings.Builder
		for k, pt := range sweep {
			cmd := "L"
			if k == 0 {
				cmd = "M"
			}
			d.WriteString(cmd + f1(x(pt.Clients)) + " " + f1(y(mean(pt.Results[i]))))
		}
		fmt.Fprintf(b, `<path data-series="contention" data-line="%d" data-mode="%s" d="%s"></path>`, i, m, d.String())
		last := sweep[len(sweep)-1]
		labels = append(labels, label{y(mean(last.Results[i])), m.Title(), i})
	}
	// The labels in the lines' order at the right end, each at least sweepLabelH from the next,
	// so that lines ending close together keep readable names.
	slices.SortStableFunc(labels, func(a, b label) int { return int(math.Copysign(1, a.y-b.y)) })
	for k := 1; k < len(labels); k++ {
		labels[k].y = max(labels[k].y, labels[k-1].y+sweepLabelH)
	}
	lx := x(sweep[len(sweep)-1].Clients) + 8
	for _, l := range labels {
		fmt.Fprintf(b, `<text data-label="%s" x="%s" y="%s">%s</text>`, modes[l.i], f1(lx), f1(l.y+4), html.EscapeString(l.name))
	}
	what := map[string]string{"calls": "Mean calls (writes) per run", "time": "Mean time until the last client is through"}[measure]
	fmt.Fprintf(b, `</g><text x="%v" y="%v" text-anchor="middle">clients</text></svg>`, sweepLeft+sweepWidth/2, bottom+34)
	fmt.Fprintf(b, `<figcaption id="%s-caption">%s against the number of clients, one line per mode, each named at its right end: the means of <a href="#contention-sweep-box">the sweep's table</a> below, drawn.</figcaption></figure>`,
		id, what)
}

// measureOf is a result's mean of measure.
func measureOf(measure string, r calc.ContentionResult) float64 {
	if measure == "time" {
		return r.Time.Mean
	}
	return r.Calls.Mean
}

// writeSweepTable writes the sweep's means, one row per number of clients, for reading what the
// charts draw.
func writeSweepTable(b *strings.Builder, modes []calc.ContentionMode, sweep []calc.ContentionPoint) {
	b.WriteString(`<div id="contention-sweep-box" class="scroll" tabindex="0" role="region" aria-label="The sweep: mean calls and time per mode, for 10 to 200 clients (scrolls)"><table id="contention-sweep"><caption>The sweep: mean calls per run and mean time until all are through, per mode, by the number of clients.</caption><thead><tr><th scope="col" rowspan="2">clients</th>`)
	for _, m := range modes {
		b.WriteString(`<th scope="colgroup" colspan="2">` + html.EscapeString(m.Title()) + `</th>`)
	}
	b.WriteString(`</tr><tr>`)
	for range modes {
		b.WriteString(`<th scope="col">calls</th><th scope="col">time</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, pt := range sweep {
		fmt.Fprintf(b, `<tr data-clients="%d"><th scope="row">%d</th>`, pt.Clients, pt.Clients)
		for _, r := range pt.Results {
			fmt.Fprintf(b, `<td data-mode="%s" data-col="calls_mean" data-value="%s">%s</td><td data-mode="%s" data-col="time_mean" data-value="%s">%s</td>`,
				r.Mode, fmtFloat(r.Calls.Mean), strconv.FormatFloat(r.Calls.Mean, 'f', 1, 64), r.Mode, calc.MillisFloat(r.Time.Mean), html.EscapeString(calc.Human(r.Time.Mean)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
}
