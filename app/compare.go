package main

import (
	"fmt"
	"html"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The compare section: policy B, from the link's vs key, beside the page's policy A.
// B's only input is its query, as text; a select fills it with a preset or with a copy of A.
// Every number, the differences included, is calc.Compare's.

// compareSection is the compare section's component: B beside A, and the simulated headlines
// of both (compare_runs.go). B's query is one of the page's inputs and B's report is the page's
// (host.vsReport), computed with A's; the section shows them and owns what it simulates.
type compareSection struct {
	h              *host
	compareNumbers *island
	compareRuns    *island // the simulated headlines of A and B (compare_runs.go)
	vs             vsRuns
	vsKeys         int // keystrokes in B's query, so that only the last one's pause reads it
}

func newCompareSection(h *host) part {
	s := &compareSection{h: h}
	s.compareNumbers = newIsland("compare-numbers", h.guarded(s.renderCompareNumbers))
	s.compareRuns = newIsland("compare-runs", h.guarded(s.renderCompareRuns))
	return s
}

// numbers: the comparison's, which the hand-over keeps; the herd's headlines of A and B are not
// kept, the wasm's herd is still to run.
func (s *compareSection) numbers() []*island { return []*island{s.compareNumbers} }

// onReport shows the comparison of a new report.
func (s *compareSection) onReport() {
	s.compareNumbers.refresh()
	s.compareRuns.refresh()
}

// vsCopy is the select's value for "a copy of this policy".
const vsCopy = "copy-a"

// setCompare computes B's report from a decoded link, or forgets B when the link has none. A
// panic here is shown as the page's others are.
func (p *page) setCompare(link libs.Link) {
	p.vsReport = nil
	if !link.HasB() {
		return
	}
	defer p.survive(&link.B, p.addError)
	r := link.B.ReportBounds()
	p.vsReport = &r
}

// setVs sets B's query (q), or removes B (q ""), and applies every input again: B's query is one
// of the page's inputs, under its key in the link. It reports whether the inputs were valid, as
// edit does.
func (s *compareSection) setVs(ctx app.Context, q string) bool {
	if q == "" {
		s.h.dropB()
		s.compareNumbers.refresh()
		s.compareRuns.refresh()
	}
	// apply reads every input; one of A's, set to what it holds, changes nothing but B.
	base := [2]string{"base", s.h.value("base")}
	if q == "" {
		return s.h.setInputs(ctx, [][2]string{base})
	}
	return s.h.setInputs(ctx, [][2]string{{libs.VsKey, q}, base})
}

// onVs is the handler of a control that sets B to what query returns from the event's element.
func (s *compareSection) onVs(query func(ctx app.Context) string) app.EventHandler {
	return s.h.recovering(func(ctx app.Context, e app.Event) {
		if s.setVs(ctx, query(ctx)) {
			ctx.PreventUpdate() // as onEdit: the numbers are written; the rest follows the paint
		}
	})
}

// vsTyped reads B's query once the typing in its field pauses for typingPause, as the other
// text fields' edits are committed then: it was read only on Enter or leaving the field, and B's
// numbers stayed the last query's beside a field that showed another. A whole query typed key by
// key is mostly invalid on the way (base=1s&c), so it is not read at every keystroke.
func (s *compareSection) vsTyped(ctx app.Context, e app.Event) {
	s.vsKeys++
	n, typed := s.vsKeys, strings.TrimSpace(ctx.JSSrc().Get("value").String())
	ctx.PreventUpdate()
	ctx.After(typingPause, func(ctx app.Context) {
		if n == s.vsKeys && typed != s.h.value(libs.VsKey) {
			s.setVs(ctx, typed)
		}
	})
}

// ofB reports whether fe is about B's query: the vs key itself, or one of B's keys (vs.KEY),
// those that are none of a policy's among them.
func ofB(fe *policy.FieldError) bool {
	return fe.Key == libs.VsKey || strings.HasPrefix(fe.Key, libs.VsKey+".")
}

// vsErrors are the field errors of B's query (ofB).
func (s *compareSection) vsErrors() []*policy.FieldError {
	var out []*policy.FieldError
	for _, fe := range s.h.errs() {
		if ofB(fe) {
			out = append(out, fe)
		}
	}
	return out
}

// body is the section's controls, then its numbers.
func (s *compareSection) body() []app.UI {
	// The select shows what B is: the preset it names, a copy of A while it is one, or B's own
	// query; it stays on what was picked.
	vs, picked, r := s.h.value(libs.VsKey), "", s.h.report()
	switch {
	case r != nil && vs == s.h.linkOf(r.Params):
		picked = vsCopy
	case strings.HasPrefix(vs, "preset="):
		picked = strings.TrimPrefix(vs, "preset=")
	}
	first := "choose…"
	if vs != "" {
		first = "B's query, below"
	}
	options := []app.UI{
		app.Option().Value("").Text(first).Selected(picked == ""),
		app.Option().Value(vsCopy).Text("a copy of this policy (A), to edit").Selected(picked == vsCopy),
	}
	for _, pr := range libs.Presets() {
		options = append(options, app.Option().Value(pr.Name).Text(pr.Short).Selected(picked == pr.Name))
	}
	errs := s.vsErrors()
	messages := make([]string, len(errs))
	for i, fe := range errs {
		messages[i] = fieldMessage(fe)
	}
	hasB := vs != ""
	return []app.UI{app.Div().ID("compare").Body(
		app.P().Class("hint").Text("Policy B, beside this page's policy A: B's own query (the keys of a link, read from the defaults, as A's are) is in the link under vs."),
		app.Div().Body(
			app.Label().For("vs-with").Text("Compare with "),
			app.Select().ID("vs-with").OnChange(s.onVs(func(ctx app.Context) string {
				v := ctx.JSSrc().Get("value").String()
				switch r := s.h.report(); {
				case v == vsCopy && r != nil:
					return s.h.linkOf(r.Params)
				case v == "" || v == vsCopy:
					return s.h.value(libs.VsKey) // B as it is
				}
				return "preset=" + v
			})).Body(options...),
		),
		app.Div().Body(
			app.Label().For("in-vs").Text("B's query "),
			app.Input().Type("text").ID("in-vs").Name(libs.VsKey).Value(attrText(s.h.value(libs.VsKey))).
				AutoComplete(false).Spellcheck(false).Aria("invalid", fmt.Sprint(len(errs) > 0)).
				Aria("describedby", "in-vs-hint in-vs-error").
				OnChange(s.onVs(func(ctx app.Context) string { return strings.TrimSpace(ctx.JSSrc().Get("value").String()) })).
				OnInput(s.h.recovering(s.vsTyped)),
			app.Span().ID("in-vs-hint").Class("hint").Text(" e.g. preset=aws-go-v2, or base=1s&cap=30s; empty: no B"),
			app.Span().ID("in-vs-error").Class("error").Text(strings.Join(messages, "; ")),
		),
		// In a div of its own: the island after it keeps its place (go-app matches by position).
		app.Div().Body(app.If(hasB, app.Button().ID("vs-remove").Type("button").Text("Remove B").OnClick(s.onVs(func(app.Context) string {
			// The button goes with B: the keyboard's focus goes to the select that adds a B,
			// not to the page's start.
			if sel := app.Window().GetElementByID("vs-with"); sel.Truthy() {
				sel.Call("focus", map[string]any{"preventScroll": true})
			}
			return ""
		})))),
		s.compareNumbers,
		app.Div().Body(app.If(hasB, s.renderCompareContentionButton())),
		s.compareRuns,
	)}
}

// comparison is A beside B, or nil without B.
func (s *compareSection) comparison() *report.Compared {
	a, b := s.h.report(), s.h.vsReport()
	if a == nil || b == nil {
		return nil
	}
	return &report.Compared{Comparison: calc.Compare(*a, *b), Vs: s.h.value(libs.VsKey),
		HerdA: report.OwnHerd(a.Params, s.h.herd().runsDone())}
}

// renderCompareNumbers is the comparison: both policies in words, every attempt (as one piece
// of markup, as the schedule is), the totals and the budgets.
func (s *compareSection) renderCompareNumbers() app.UI {
	c := s.comparison()
	if c == nil {
		return app.P().ID("compare-none").Text("No policy B: choose one above to see both side by side.")
	}
	return app.Div().Body(
		app.P().ID("compare-a").Text("A: "+report.Describe(c.A)),
		app.P().ID("compare-b").Text("B: "+report.Describe(c.B)),
		app.P().ID("compare-inherit").Text(inheritWords(c.A.Params, c.B.Params)),
		scrollBox("compare-box", "A and B, every attempt (scrolls)", renderCompareTable(c.Comparison)),
		renderCompareTotals(c.Comparison),
		app.Ul().ID("compare-budget").Body(
			app.Li().Text("A: "+report.FitLine(c.A, c.FitA)),
			app.Li().Text("B: "+report.FitLine(c.B, c.FitB)),
		),
		app.P().Class("hint").Text("The herd's and the contention experiment's headlines of both follow; their sections show A's."),
	)
}

// renderCompareTable writes every attempt of A and B and B − A, each cell with its exact
// milliseconds in data-ms (signed for a difference) and its column in data-col: a-min, b-mean,
// d-latest and so on.
func renderCompareTable(c calc.Comparison) app.UI {
	var b strings.Builder
	b.WriteString(`<table id="compare-table"><caption>A and B, every attempt, when all of them fail; B − A where both make it</caption><thead>`)
	b.WriteString(`<tr><td></td><th scope="colgroup" colspan="9">wait before the attempt</th><th scope="colgroup" colspan="6">start of the attempt</th></tr><tr><th scope="col">attempt</th>`)
	for _, h := range []string{"A min", "A mean", "A max", "B min", "B mean", "B max", "B − A min", "B − A mean", "B − A max",
		"A earliest", "A latest", "B earliest", "B latest", "B − A earliest", "B − A latest"} {
		b.WriteString(`<th scope="col">` + h + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	cell := func(col, ms, text string) {
		b.WriteString(`<td data-col="` + col + `" data-ms="` + ms + `">` + html.EscapeString(text) + `</td>`)
	}
	// A wait, as a start, never reads across its own policy's budget, as in the schedule.
	dur := func(col string, d time.Duration, budget time.Duration) {
		cell(col, policy.Millis(d), policy.HumanBeside(float64(d), budget))
	}
	diff := func(col string, d time.Duration) { cell(col, policy.Millis(d), calc.HumanDiff(float64(d))) }
	for _, row := range c.Rows {
		n := strconv.Itoa(row.Attempt)
		b.WriteString(`<tr data-attempt="` + n + `"><th scope="row">` + n + `</th>`)
		waits := func(side string, in bool, r policy.Row, budget time.Duration) {
			for _, col := range []string{"min", "mean", "max"} {
				switch {
				case !in:
					cell(side+col, "", "")
				case row.Attempt == 1:
					cell(side+col, "", "–")
				case col == "min":
					dur(side+col, r.Min, budget)
				case col == "mean":
					cell(side+col, policy.MillisFloat(r.Mean), policy.HumanBeside(r.Mean, budget))
				default:
					dur(side+col, r.Max, budget)
				}
			}
		}
		waits("a-", row.InA, row.A, c.A.Params.Budget)
		waits("b-", row.InB, row.B, c.B.Params.Budget)
		both, d := row.InA && row.InB, row.Diff
		switch {
		case !both:
			cell("d-min", "", "")
			cell("d-mean", "", "")
			cell("d-max", "", "")
		case row.Attempt == 1:
			cell("d-min", "", "–")
			cell("d-mean", "", "–")
			cell("d-max", "", "–")
		default:
			diff("d-min", d.Min)
			cell("d-mean", policy.MillisFloat(d.Mean), calc.HumanDiff(d.Mean))
			diff("d-max", d.Max)
		}
		for _, s := range []struct {
			side   string
			in     bool
			r      policy.Row
			budget time.Duration // a start never reads across its own policy's budget
		}{{"a-", row.InA, row.A, c.A.Params.Budget}, {"b-", row.InB, row.B, c.B.Params.Budget}} {
			if s.in {
				cell(s.side+"earliest", policy.Millis(s.r.Earliest), policy.HumanBeside(float64(s.r.Earliest), s.budget))
				cell(s.side+"latest", policy.Millis(s.r.Latest), policy.HumanBeside(float64(s.r.Latest), s.budget))
			} else {
				cell(s.side+"earliest", "", "")
				cell(s.side+"latest", "", "")
			}
		}
		if both {
			diff("d-earliest", d.Earliest)
			diff("d-latest", d.Latest)
		} else {
			cell("d-earliest", "", "")
			cell("d-latest", "", "")
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return app.Raw(b.String())
}

// renderCompareTotals are the total waits of A, of B and B − A, which ignore any budget: laid out
// as the schedule's totals are, a row each, and with a budget labelled as the schedule labels
// its policy's totals.
func renderCompareTotals(c calc.Comparison) app.UI {
	item := func(id, label string, ms, text string) app.HTMLDiv {
		return app.Div().Body(app.Dt().Text(label), app.Dd().ID(id).DataSet("ms", ms).Text(text))
	}
	ignoring := func(p calc.Params) string {
		if p.Budget > 0 {
			return " of the policy, ignoring the budget"
		}
		return ""
	}
	diff := ""
	if c.A.Params.Budget > 0 || c.B.Params.Budget > 0 {
		diff = ", ignoring the budgets"
	}
	ta, tb, d := c.A.Schedule.Total, c.B.Schedule.Total, c.Total
	a, b := ignoring(c.A.Params), ignoring(c.B.Params)
	// Beside its own policy's budget, as the schedule writes its totals (report.TotalsText).
	ba, bb := c.A.Params.Budget, c.B.Params.Budget
	return app.Dl().ID("compare-totals").Body(
		item("compare-a-total-min", "A best-case total wait"+a, policy.Millis(ta.Min), policy.HumanBeside(float64(ta.Min), ba)).Class("scope-start"),
		item("compare-a-total-mean", "A expected total wait"+a, policy.MillisFloat(ta.Mean), policy.HumanBeside(ta.Mean, ba)),
		item("compare-a-total-max", "A worst-case total wait"+a, policy.Millis(ta.Max), policy.HumanBeside(float64(ta.Max), ba)),
		item("compare-b-total-min", "B best-case total wait"+b, policy.Millis(tb.Min), policy.HumanBeside(float64(tb.Min), bb)).Class("scope-start"),
		item("compare-b-total-mean", "B expected total wait"+b, policy.MillisFloat(tb.Mean), policy.HumanBeside(tb.Mean, bb)),
		item("compare-b-total-max", "B worst-case total wait"+b, policy.Millis(tb.Max), policy.HumanBeside(float64(tb.Max), bb)),
		item("compare-d-total-min", "B − A, best case"+diff, policy.Millis(d.Min), calc.HumanDiff(float64(d.Min))).Class("scope-start"),
		item("compare-d-total-mean", "B − A, expected"+diff, policy.MillisFloat(d.Mean), calc.HumanDiff(d.Mean)),
		item("compare-d-total-max", "B − A, worst case"+diff, policy.Millis(d.Max), calc.HumanDiff(float64(d.Max))),
	)
}

// inheritKeys are the inputs outside a policy's waits that B could be thought to share with A:
// the budget, the call's duration, and the herd's and the overload model's inputs.
var inheritKeys = func() []formField {
	var keys []formField
	for _, g := range formGroups {
		for _, f := range g.fields {
			if f.key == "budget" || f.key == "call" {
				keys = append(keys, f)
			}
		}
	}
	return append(append(keys, herdFields...), overloadFields...)
}()

// inheritWords says what B takes from A: nothing, as its query is read from the defaults; and
// each of inheritKeys where B's value is not A's, with both values as a link writes them. The
// overload model's inputs count only when A or B is an open system, and a limiter's or a
// breaker's own only when A or B chose it: what neither side reads changes none of its numbers.
func inheritWords(a, b calc.Params) string {
	va, vb, d := a.Values(), b.Values(), calc.DefaultValues()
	get := func(v url.Values, key string) string {
		if x := v.Get(key); x != "" {
			return x
		}
		return d.Get(key)
	}
	open := a.Open() || b.Open()
	read := func(key string) bool {
		if slices.ContainsFunc(overloadFields, func(f formField) bool { return f.key == key }) && !open {
			return false
		}
		if _, ok := chooserOf[key]; !ok {
			return true
		}
		for _, c := range chosenParams {
			if slices.Contains(c.keys, key) && (c.chosenBy(get(va, c.chooser)) || c.chosenBy(get(vb, c.chooser))) {
				return true
			}
		}
		return false
	}
	var differ []string
	for _, f := range inheritKeys {
		x, y := get(va, f.key), get(vb, f.key)
		if x == y || !read(f.key) {
			continue
		}
		if none := func(v string) string {
			if v == "0" {
				return "none"
			}
			return v
		}; f.key == "budget" {
			x, y = none(x), none(y)
		}
		differ = append(differ, strings.ToLower(f.label)+": "+y+" (A's: "+x+")")
	}
	if len(differ) == 0 {
		if open {
			return "B's query is read from the defaults, as A's link is; B's budget, call duration, herd and overload inputs are the same as A's."
		}
		return "B's query is read from the defaults, as A's link is; B's budget, call duration and herd inputs are the same as A's."
	}
	return "B's query is read from the defaults, not from A, so B does not inherit A's inputs: B's " + strings.Join(differ, "; ") +
		". Pick “a copy of this policy (A), to edit” to start B from every input of A."
}
