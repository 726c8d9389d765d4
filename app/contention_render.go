package main

import (
	"cmp"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The contention section's numbers, written as markup (an island): the table at `contenders`
// clients, then the sweep as two charts and one table. Every number is calc's; the charts only
// place them.

// contendersTableStats are the table's columns per measure: data-col suffix, heading.
var contendersTableStats = [][2]string{{"mean", "mean"}, {"min", "min"}, {"p50", "p50"}, {"p90", "p90"}, {"max", "max"}}

func spreadValues(s contention.RunSpread) []float64 {
	return []float64{s.Mean, s.Min, s.P50, s.P90, s.Max}
}

// renderResults is the table and the sweep, filled in as they come.
func (s *contentionSection) renderResults() app.UI {
	c := &s.experimentView
	if s.h.report() == nil || c.table == nil {
		return app.Div()
	}
	var b strings.Builder
	writeContendersTable(&b, c.params, c.table)
	if len(c.sweep) > 0 {
		modes := contention.ModesOf(c.params.Params)
		writeSweepChart(&b, "calls", modes, c.sweep)
		writeSweepChart(&b, "time", modes, c.sweep)
		writeSweepTable(&b, modes, c.sweep)
	}
	return app.Raw(`<div id="contention-view">` + b.String() + `</div>`)
}

// writeContendersTable writes the table at params.Contenders clients: per mode, calls and time,
// each as mean, min, p50, p90 and max over the runs. data-value holds calc's number (calls, or
// ms), the text is for people.
func writeContendersTable(b *strings.Builder, params calc.Params, rs []contention.Result) {
	label := fmt.Sprintf("Contention at %s, over %s", report.Count(params.Contenders, "client", "clients"), report.Count(params.Runs, "run", "runs"))
	fmt.Fprintf(b, `<div id="contention-box" class="scroll" tabindex="0" role="region" aria-label="%s (scrolls)"><table id="contention"><caption>%s: calls (writes) per run and time until the last client is through.</caption><thead><tr><th scope="col" rowspan="2">mode</th><th scope="colgroup" colspan="5">calls per run</th><th scope="colgroup" colspan="5">time until all are through</th></tr><tr>`,
		html.EscapeString(label), html.EscapeString(label))
	for range 2 {
		for _, s := range contendersTableStats {
			b.WriteString(`<th scope="col">` + s[1] + `</th>`)
		}
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, r := range rs {
		fmt.Fprintf(b, `<tr data-mode="%s"><th scope="row">%s</th>`, r.Mode, html.EscapeString(r.Mode.Title()))
		for i, v := range spreadValues(r.Calls) {
			text := report.Float(v)
			if i == 0 {
				text = policy.Decimal(v, 1) // the mean of whole counts
			}
			fmt.Fprintf(b, `<td data-col="calls_%s" data-value="%s">%s</td>`, contendersTableStats[i][0], report.Float(v), text)
		}
		for i, v := range spreadValues(r.Time) {
			fmt.Fprintf(b, `<td data-col="time_%s" data-value="%s">%s</td>`, contendersTableStats[i][0], policy.MillisFloat(v), html.EscapeString(policy.Human(v)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
}

// Layout of the sweep's charts, in SVG user units; the labels of the lines sit on the right.
const (
	sweepLeft   = 64.0
	sweepRight  = 220.0 // room for the longest label, "This policy (decorrelatedv2)"
	sweepWidth  = chartViewWidth - sweepLeft - sweepRight
	sweepTop    = 12.0
	sweepHeight = 220.0
	sweepLabelH = 16.0 // the least gap between two lines' labels, whose text is 13 units
)

// writeSweepChart draws one measure of the sweep ("calls" or "time") against the number of
// clients: one line per mode through the means, named in text at its right end (colour and dash
// only tell the lines apart), on axes from calc. When some modes' means dwarf the others' (no
// jitter's time), a second figure draws the others on a scale of their own.
func writeSweepChart(b *strings.Builder, measure string, modes []contention.Mode, sweep []contention.Point) {
	if len(modes) == 0 || len(sweep) == 0 {
		return
	}
	most := make([]float64, len(modes)) // each mode's largest mean
	for _, pt := range sweep {
		for i, r := range pt.Results {
			most[i] = max(most[i], measureOf(measure, r))
		}
	}
	what := map[string]string{"calls": "Mean calls (writes) per run", "time": "Mean time until the last client is through"}[measure]
	id := "contention-" + measure + "-chart"
	all := make([]int, len(modes))
	for i := range all {
		all[i] = i
	}
	fmt.Fprintf(b, `<figure id="%s">`, id)
	chartBoxOpen(b, "Chart: "+what)
	writeSweepSVG(b, measure, modes, sweep, all, slices.Max(most), id+"-caption")
	fmt.Fprintf(b, `</div><figcaption id="%s-caption">%s against the number of clients, one line per mode, each named at its right end: the means of <a href="#contention-sweep-box">the sweep's table</a> below, drawn.</figcaption></figure>`,
		id, what)

	sorted := slices.Sorted(slices.Values(most))
	k := policy.Dwarfed(sorted)
	if k == 0 {
		return
	}
	var small []int
	var big []string
	for i, m := range modes {
		if most[i] <= sorted[k-1] {
			small = append(small, i)
		} else {
			big = append(big, m.Title()+" (up to "+measureText(measure, most[i])+")")
		}
	}
	zoom := "contention-" + measure + "-zoom-chart"
	fmt.Fprintf(b, `<figure id="%s">`, zoom)
	chartBoxOpen(b, "Chart: "+what+", zoomed in")
	writeSweepSVG(b, measure, modes, sweep, small, sorted[k-1], zoom+"-caption")
	fmt.Fprintf(b, `</div><figcaption id="%s-caption">Zoomed in: the same chart without %s, whose means are over four times the others', so that the other lines are not flat at the bottom.</figcaption></figure>`,
		zoom, html.EscapeString(strings.Join(big, " and ")))
}

// lineLabel names m's line at its right end: its title, but the policy's own mode by its jitter
// mode's key, as the jitter field has it, since some titles are longer than the room there.
func lineLabel(m contention.Mode) string {
	if j, ok := m.Jitter(); ok {
		return "This policy (" + j.String() + ")"
	}
	return m.Title()
}

// measureText is a mean of measure in words: a time, or calls with one decimal.
func measureText(measure string, v float64) string {
	if measure == "time" {
		return policy.Human(v)
	}
	return policy.Decimal(v, 1) + " calls"
}

// writeSweepSVG writes the SVG of the lines of modes[show], on a scale from 0 to top.
func writeSweepSVG(b *strings.Builder, measure string, modes []contention.Mode, sweep []contention.Point, show []int, top float64, labelledBy string) {
	clients := policy.NewCountAxis(contention.SweepTo)
	var ticks []string
	var y func(v float64) float64
	if measure == "time" {
		a := policy.NewAxis(time.Duration(math.Ceil(top)))
		y = func(v float64) float64 { return sweepTop + sweepHeight - a.X(time.Duration(v), sweepHeight) }
		for _, t := range a.Ticks {
			ticks = append(ticks, f1(y(float64(t)))+" "+policy.Human(float64(t)))
		}
	} else {
		a := policy.NewCountAxis(int(math.Ceil(top)))
		y = func(v float64) float64 { return sweepTop + sweepHeight - float64(v)/float64(a.End)*sweepHeight }
		for _, n := range a.Ticks {
			ticks = append(ticks, f1(y(float64(n)))+" "+strconv.Itoa(n))
		}
	}
	x := func(n int) float64 { return sweepLeft + clients.Y(n, sweepWidth) }
	bottom := sweepTop + sweepHeight
	fmt.Fprintf(b, `<svg viewBox="0 0 %v %v" role="img" aria-labelledby="%s"><g>`, chartViewWidth, bottom+40, labelledBy)
	for _, t := range ticks {
		ty, text, _ := strings.Cut(t, " ")
		fmt.Fprintf(b, `<line x1="%v" x2="%v" y1="%s" y2="%s"></line><text x="%v" y="%s" dy="4" text-anchor="end">%s</text>`,
			sweepLeft, sweepLeft+sweepWidth, ty, ty, sweepLeft-6, ty, html.EscapeString(text))
	}
	for _, n := range clients.Ticks {
		fmt.Fprintf(b, `<text x="%s" y="%v" text-anchor="middle">%d</text>`, f1(x(n)), bottom+16, n)
	}
	b.WriteString(`</g><g>`)
	ends := make([]float64, len(show))
	for k, i := range show {
		var d strings.Builder
		for j, pt := range sweep {
			cmd := "L"
			if j == 0 {
				cmd = "M"
			}
			d.WriteString(cmd + f1(x(pt.Clients)) + " " + f1(y(measureOf(measure, pt.Results[i]))))
		}
		fmt.Fprintf(b, `<path data-series="contention" data-line="%d" data-mode="%s" d="%s"></path>`, i, modes[i], d.String())
		ends[k] = y(measureOf(measure, sweep[len(sweep)-1].Results[i]))
	}
	// The labels at the right end, in the lines' order, moved apart where lines end close
	// together so that each name stays readable, and kept within the chart.
	lx := x(sweep[len(sweep)-1].Clients) + 14
	for k, ly := range spreadLabels(ends, sweepLabelH, sweepTop, bottom+16) {
		m := modes[show[k]]
		fmt.Fprintf(b, `<text data-label="%s" x="%s" y="%s">%s</text>`, m, f1(lx), f1(ly+4), html.EscapeString(lineLabel(m)))
	}
	fmt.Fprintf(b, `</g><text x="%v" y="%v">clients</text></svg>`, sweepLeft, bottom+35)
}

// spreadLabels places labels of one line's height gap at ys (in any order), as near each as it
// can, at least gap apart and within [lo, hi] when they fit: in order, each is pushed down off
// the one above it, then the last ones pushed back up off hi. It returns the places in ys's order.
func spreadLabels(ys []float64, gap, lo, hi float64) []float64 {
	order := make([]int, len(ys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ys[a], ys[b]) })
	at := make([]float64, len(ys))
	for k, i := range order {
		at[i] = max(ys[i], lo)
		if k > 0 {
			at[i] = max(at[i], at[order[k-1]]+gap)
		}
	}
	for k := len(order) - 1; k >= 0; k-- {
		limit := hi
		if k < len(order)-1 {
			limit = at[order[k+1]] - gap
		}
		at[order[k]] = max(lo, min(at[order[k]], limit))
	}
	return at
}

// measureOf is a result's mean of measure.
func measureOf(measure string, r contention.Result) float64 {
	if measure == "time" {
		return r.Time.Mean
	}
	return r.Calls.Mean
}

// writeSweepTable writes the sweep's means, one row per number of clients, for reading what the
// charts draw.
func writeSweepTable(b *strings.Builder, modes []contention.Mode, sweep []contention.Point) {
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
				r.Mode, report.Float(r.Calls.Mean), policy.Decimal(r.Calls.Mean, 1), r.Mode, policy.MillisFloat(r.Time.Mean), html.EscapeString(policy.Human(r.Time.Mean)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
}
