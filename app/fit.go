package main

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// What fits in the budget on the page: for the policy and every compared mode, the
// most attempts, and the largest base, factor and cap for the policy's attempts. Every number is
// calc's (Report.Solutions, Report.AddSolveSamples); this file lays them out, with calc's words
// for the answers that are no value (report.FitText). Each answer group is a
// details element that go-app renders (its open state is the link's solve key), holding an
// island with the numbers, written in the input's task like the schedule. An answer of the
// policy's own mode has a button that applies it: the clicks come up to the block (islands have
// no handlers).

// fitGroup is one answer group: a name of the solve key, and how the group is titled.
type fitGroup struct {
	set     calc.SolveSet
	key     string // the solve key's name, which is also the input the answers set
	summary string
}

var fitGroups = []fitGroup{
	{calc.SolveAttempts, "attempts", "Most attempts"},
	{calc.SolveBase, "base", "Largest base"},
	{calc.SolveFactor, "factor", "Largest factor"},
	{calc.SolveCap, "cap", "Largest cap"},
}

// fitView is the block's state: which groups are open, and the islands of its numbers.
type fitView struct {
	open   calc.SolveSet // the solve key: set from the link or an edit, and by opening a group
	head   *island       // the title and the legend; empty without a budget, which hides the block (app.css)
	groups []*island     // one table per fitGroups entry
	empty  bool          // the islands were last written without a budget: nothing to write again
	// away is the apply button the keyboard's focus was on when a refresh took it away (a sampled
	// answer is "computing…" until the samples are in): the focus waits on its group's table and
	// goes back to the button when it is written again.
	away string
}

func newFitView(p *page) fitView {
	v := fitView{head: newIsland("fit-head", p.guarded(func() app.UI {
		if p.report == nil {
			return app.Text("")
		}
		return renderFitHead(*p.report)
	}))}
	for _, g := range fitGroups {
		v.groups = append(v.groups, newIsland("fit-"+g.key+"-numbers", p.guarded(func() app.UI {
			if p.report == nil || len(p.report.Solutions) == 0 {
				return app.Text("")
			}
			return renderFitGroup(*p.report, g)
		})))
	}
	return v
}

// refresh shows the current report's answers. An island's refresh replaces its content, the
// focused apply button with it: the keyboard's focus moves to the button written in its place,
// so that applying an answer, or its sampled answers coming in, leaves it where it was.
func (v *fitView) refresh(r *calc.Report) {
	empty := r == nil || len(r.Solutions) == 0
	if empty && v.empty {
		return // an edit without a budget writes nothing here
	}
	v.empty = empty
	focused := ""
	if app.IsClient {
		el := app.Window().Get("document").Get("activeElement")
		switch {
		case el.Truthy() && el.Get("dataset").Get("apply").Truthy():
			focused = el.Get("id").String()
		case v.away != "" && (!el.Truthy() || el.Equal(app.Window().Get("document").Get("body")) || el.Get("dataset").Get("fitWait").Truthy()):
			focused = v.away // still waiting for its button
		}
	}
	v.away = ""
	v.head.refresh()
	for _, g := range v.groups {
		g.refresh()
	}
	if focused == "" {
		return
	}
	if el := app.Window().GetElementByID(focused); el.Truthy() {
		el.Call("focus", map[string]any{"preventScroll": true})
		return
	}
	// The button's answer is being computed: its group's table holds the focus meanwhile.
	v.away = focused
	for _, g := range fitGroups {
		if strings.HasPrefix(focused, "fit-apply-"+g.key+"-") {
			if box := app.Window().Get("document").Call("querySelector", "#fit-"+g.key+" .scroll"); box.Truthy() {
				box.Get("dataset").Set("fitWait", "1")
				box.Call("focus", map[string]any{"preventScroll": true})
			}
		}
	}
}

// renderFit is the block, under the schedule: a group per answer, opened as the link's solve
// key says; hidden without a budget.
func (p *page) renderFit() app.UI {
	details := make([]app.UI, len(fitGroups))
	for i, g := range fitGroups {
		d := app.Details().ID("fit-"+g.key).DataSet("solve", g.key).Body(
			app.Summary().Text(g.summary),
			p.fit.groups[i],
		).On("toggle", p.recovering(func(ctx app.Context, e app.Event) {
			p.chooseSolve(ctx, g.set, ctx.JSSrc().Get("open").Bool())
		}))
		if p.fit.open.Has(g.set) {
			d = d.Open(true) // only then: pre-rendered HTML writes open="false" as open
		}
		details[i] = d
	}
	return app.Div().ID("fit").OnClick(p.recovering(p.applyFit)).Body(
		append([]app.UI{p.fit.head}, details...)...,
	)
}

// chooseSolve records that a group was opened or closed, in the link's solve key. Nothing is
// computed again: every answer is on the page, opened or not.
func (p *page) chooseSolve(ctx app.Context, g calc.SolveSet, open bool) {
	s := p.fit.open &^ g
	if open {
		s |= g
	}
	if s == p.fit.open {
		return // go-app's render opened it, as the link says
	}
	p.fit.open = s
	s.SetIn(p.raw)
	// A link with a bad key stays as it is, for its author, as with any edit.
	if link, err := libs.DecodeLinkValues(p.raw); p.formErrors(err) {
		p.setQuery(linkQuery(link, p.fit.open))
		p.showQuery(ctx)
	}
}

// applyFit applies the answer whose button was clicked: it sets that input to the answer, as if
// typed, which updates the link and computes again.
func (p *page) applyFit(ctx app.Context, e app.Event) {
	button := e.Get("target").Call("closest", "[data-apply]")
	if !button.Truthy() {
		return
	}
	key, value := button.Get("dataset").Get("apply").String(), button.Get("dataset").Get("value").String()
	if !p.edit(ctx, key, value) {
		return
	}
	// The input shows the new value now (go-app renders the rest of the form after the paint);
	// the refresh kept the focus on the answer's button (fitView.refresh).
	if in := app.Window().GetElementByID("in-" + key); in.Truthy() {
		in.Set("value", value)
	}
	ctx.PreventUpdate() // as onEdit: the page's render would hold the new numbers off the screen
}

// sampleFit adds the sampled answers after the percentiles (startWork) and shows them. It
// reports false if newer work took over.
func (p *page) sampleFit(ctx app.Context, r *calc.Report, gen int64, pause func() bool) bool {
	if fitSampled(*r) {
		return true
	}
	if !r.AddSolveSamples(pause) {
		return false
	}
	shown := *r
	ctx.Dispatch(func(ctx app.Context) {
		if p.workGen.Load() == gen {
			p.report = &shown
			p.fit.refresh(p.report)
		}
	})
	return true
}

// fitSampled reports whether every sampled answer is in (true without a budget).
func fitSampled(r calc.Report) bool {
	for _, s := range r.Solutions {
		if !s.Sampled {
			return false
		}
	}
	return true
}

// renderFitHead titles the block and says what its words mean, as the text report does.
func renderFitHead(r calc.Report) app.UI {
	p := r.Params
	if len(r.Solutions) == 0 {
		return app.Text("")
	}
	return app.Div().Body(
		app.H3().Text("What fits in the "+report.LimitText(p.Budget)+" budget"),
		app.P().Class("hint").Text(app.FormatString(
			"An attempt is made when it starts before the budget; call time included. Every path: %s So does each answer's tooltip. Best path: the earliest starts. 50%%, 99%% of paths: of the %d sampled paths (seed %d). "+
				"any: the whole range fits (up to %d attempts, a base of the cap, a factor of %d, a cap of %s): the cap or the attempt count binds first. none: not even the least value fits. unused: the mode does not read it. "+
				"~: a sampled answer that fits while one step more does not, but a larger value might fit again. “apply” sets the input to the answer.",
			report.TypedWords, p.Samples, p.Seed, policy.MaxAttempts, policy.MaxFactor, policy.Human(float64(policy.MaxCap)))),
	)
}

// fitCell is one answer as the page shows it. value is its exact number (data-value: attempts,
// milliseconds or the factor, as in table -format json; data-kind is calc's kind, data-largest
// yes or no); text and input, what it reads and what applying it types, are the answer as typed
// (Fit.Typed), and title says the exact answer when that is another.
type fitCell struct {
	col, kind, value, text, input, title string
	largest, pending                     bool
}

// newFitCell writes f; unsampled says the answer is sampled and not in yet. exact writes
// data-value, text the typed answer and the exact one in the title.
func newFitCell[T int | time.Duration | float64](col string, f policy.Fit[T], unsampled bool, text, exact, input func(T) string) fitCell {
	if unsampled {
		return fitCell{col: col, text: "computing…", pending: true}
	}
	c := fitCell{col: col, kind: f.Kind.String(), text: report.FitText(f, text), largest: f.Largest}
	if f.Kind != policy.FitUnused {
		c.value = exact(f.Value)
	}
	if f.Kind == policy.FitFound {
		c.input = input(f.Typed)
		if f.Typed != f.Value {
			c.title = "exact answer: " + rawText(f.Value) + "; shown rounded down, which still fits"
		}
	}
	return c
}

// rawText writes an exact answer: a duration to the nanosecond in milliseconds, a factor as its
// shortest decimal.
func rawText[T int | time.Duration | float64](v T) string {
	switch x := any(v).(type) {
	case time.Duration:
		return policy.Millis(x) + " ms"
	case float64:
		return report.Float(x)
	}
	return fmt.Sprint(v)
}

var (
	attemptsText = strconv.Itoa
	msValue      = policy.Millis
)

// fitColumns are a group's answer columns, for its head, and the answers of s in them.
func fitColumns(g fitGroup, s policy.Solution) (heads []string, cells []fitCell) {
	pending := !s.Sampled
	limit := func(w, p99 fitCell) ([]string, []fitCell) {
		return []string{"every path", "99% of paths (sampled)"}, []fitCell{w, p99}
	}
	switch g.set {
	case calc.SolveAttempts:
		count := func(col string, f policy.Fit[int], sampled bool) fitCell {
			c := newFitCell(col, f, sampled && pending, attemptsText, attemptsText, attemptsText)
			if f.Kind == policy.FitAll && !c.pending {
				c.input = attemptsText(f.Value) // every count fits: the most there can be
			}
			return c
		}
		return []string{"every path", "best path", "50% of paths (sampled)", "99% of paths (sampled)"},
			[]fitCell{count("always", s.Always, false), count("can", s.Can, false), count("p50", s.P50, true), count("p99", s.P99, true)}
	case calc.SolveFactor:
		return limit(newFitCell("worst", s.Worst.Factor, false, report.Float, report.Float, report.Float),
			newFitCell("p99", s.Sampled99.Factor, pending, report.Float, report.Float, report.Float))
	case calc.SolveBase:
		return limit(newFitCell("worst", s.Worst.Base, false, report.MsText, msValue, policy.TypedDuration),
			newFitCell("p99", s.Sampled99.Base, pending, report.MsText, msValue, policy.TypedDuration))
	}
	return limit(newFitCell("worst", s.Worst.Cap, false, report.MsText, msValue, policy.TypedDuration),
		newFitCell("p99", s.Sampled99.Cap, pending, report.MsText, msValue, policy.TypedDuration))
}

// applyRefusal is the first error of p's link with key set to input, as the apply button would
// set it, or nil. An answer fits the budget, and can still take the link over a work limit on
// another input: 1000 attempts (every count fits) are over the sampling's limit with the
// default samples and a budget.
func applyRefusal(p calc.Params, key, input string) *policy.FieldError {
	v := p.Values()
	v.Set(key, input)
	v.Del("preset")
	_, err := libs.DecodeValues(v)
	if fes := policy.FieldErrors(err); len(fes) > 0 {
		return fes[0]
	}
	return nil
}

// yesNo writes a flag for data-largest: go-app's server render writes an attribute whose value is
// "true" as a bare attribute.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// renderFitGroup is one group's table: a row per compared mode, in the report's order.
func renderFitGroup(r calc.Report, g fitGroup) app.UI {
	p := r.Params
	caption := "The most attempts that start before the " + report.LimitText(p.Budget) + " budget"
	if g.set != calc.SolveAttempts {
		caption = app.FormatString("The largest %s with which %s before the %s budget, the other inputs kept", g.key, report.AllAttemptsStart(p.Attempts), report.LimitText(p.Budget))
	}
	heads, _ := fitColumns(g, policy.Solution{})
	head := []app.UI{app.Th().Scope("col").Text("jitter")}
	for _, h := range heads {
		head = append(head, app.Th().Scope("col").Text(h))
	}
	rows := make([]app.UI, len(r.Solutions))
	for i, s := range r.Solutions {
		name, own := s.Jitter.String(), s.Jitter == p.Jitter
		if own {
			name += " (chosen)"
		}
		cells := []app.UI{app.Th().Scope("row").Text(name)}
		_, answers := fitColumns(g, s)
		for j, c := range answers {
			td := app.Td().DataSet("col", c.col)
			if c.pending {
				cells = append(cells, td.DataSet("pending", "samples").Text(c.text))
				continue
			}
			td = td.DataSet("kind", c.kind).DataSet("value", c.value).DataSet("largest", yesNo(c.largest))
			if c.title != "" {
				td = td.Title(c.title)
			}
			if !own || c.input == "" {
				cells = append(cells, td.Text(c.text))
				continue
			}
			if fe := applyRefusal(p, g.key, c.input); fe != nil {
				// No button that would leave the inputs refused: the answer is said, and why.
				cells = append(cells, td.Body(
					app.Text(c.text+" "),
					// Escaped: an island is markup, and go-app quotes an attribute with strconv.Quote.
					app.Span().Class("refused").Title(html.EscapeString(fieldMessage(fe))).Text(app.FormatString("(a link with it is refused on %s %q)", fe.Key, fe.Value)),
				))
				continue
			}
			cells = append(cells, td.Body(
				app.Text(c.text+" "),
				app.Button().Type("button").Class("apply").ID("fit-apply-"+g.key+"-"+c.col).
					DataSet("apply", g.key).DataSet("value", c.input).
					Aria("label", "apply "+g.key+" "+c.input+" ("+heads[j]+")").Text("apply"),
			))
		}
		rows[i] = app.Tr().DataSet("mode", s.Jitter.String()).Body(cells...)
	}
	return app.Div().Class("scroll").TabIndex(0).Role("region").Aria("label", g.summary+" (scrolls)").Body(
		app.Table().Class("fit").Body(
			app.Caption().Text(caption),
			app.THead().Body(app.Tr().Body(head...)),
			app.TBody().Body(rows...),
		),
	)
}
