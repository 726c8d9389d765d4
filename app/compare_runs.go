package main

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The compare section's simulated headlines, A's beside B's, each policy in its own
// jitter mode: the herd's (for an open system, the overload run of its own mode with its own
// limiter), and the contention experiment's at its own contenders. A's herd headline is the herd
// section's own run; B's is one run more, after A's herd, off the input path (startWork). The
// contention headlines wait for a button: the experiment is the page's costliest work, and a
// visit that compares schedules should not pay for it.

// vsRuns is the compare section's part of the simulated headlines. Every field is read and
// written on go-app's loop; the work's goroutines hand results back with ctx.Defer.
type vsRuns struct {
	herdFor calc.Params      // the B whose herd headline this is: another B shows "computing…"
	herdIn  bool             // herdFor's run is in (or its error)
	herd    *sim.HerdRun     // B's own mode's herd, for a closed system
	over    *sim.OverloadRun // B's own mode's overload run, for an open one
	herdErr error
	// expected: herd is the fluid model's expected counts, rounded to whole attempts, where
	// the simulation cannot run B's herd (calc.Params.HerdSimulated).
	expected bool

	contFor [2]contentionInputs // contentionKey of A and of B whose contention headlines these are
	cont    [2]*contention.Result
	contErr error
	contGen int64 // the workGen the contention headlines are being computed in; 0 when not
	contRun int   // clicks so far: a newer click's results replace an older one's
}

// vsHerdDue is the B whose herd headline is still to be run (runVsHerd, in startWork's
// sequence: after A's herd); nil when there is none.
func (s *compareSection) vsHerdDue() *calc.Params {
	b := s.h.vsReport()
	if b == nil || s.vs.herdIn && s.vs.herdFor == b.Params {
		return nil
	}
	params := b.Params
	return &params
}

// runVsHerd runs B's own mode's herd (or overload run), after A's herd, and shows it, unless gen
// is no longer the current work.
func (s *compareSection) runVsHerd(ctx app.Context, b calc.Params, gen int64, pause func() bool) {
	var herd *sim.HerdRun
	var over *sim.OverloadRun
	expected := false
	err := b.ValidateHerd()
	switch {
	case err != nil:
	case b.Open():
		run, done, e := overloadPausing(b, b.OwnCase(), pause)
		if !done && e == nil {
			return // the inputs changed
		}
		over, err = &run, e
	case !b.HerdSimulated():
		run, done, e := fluidMode(b, calc.Backoff(b.Jitter), pause)
		if !done && e == nil {
			return
		}
		if err = e; err == nil {
			r := run.Rounded(b.Window)
			herd, expected = &r, true
		}
	default:
		run, done, e := herdModePausing(b, calc.Backoff(b.Jitter), pause)
		if !done && e == nil {
			return
		}
		herd, err = &run, e
	}
	if !pause() {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if s.h.current(gen) {
			v := &s.vs
			v.herdFor, v.herdIn, v.herd, v.over, v.herdErr, v.expected = b, true, herd, over, err, expected
			s.compareRuns.refresh()
		}
	})
}

// aHerdHead is A's herd headline from the herd section's runs, when its own mode's is in;
// expected when they are the fluid model's expected counts (rounded to whole attempts), where
// the simulation cannot run A's herd.
func (s *compareSection) aHerdHead() (herd *sim.HerdRun, over *sim.OverloadRun, expected bool, err error) {
	h, a := s.h.herd(), s.h.report().Params
	if h.params != a {
		return nil, nil, false, nil // the herd section has not started on these inputs yet
	}
	if h.err != nil {
		return nil, nil, false, h.err
	}
	if h.cases == nil && !a.HerdSimulated() {
		return report.OwnFluid(a, h.fluid), nil, true, nil
	}
	if h.cases == nil {
		return report.OwnHerd(a, h.runs), nil, false, nil
	}
	own := a.OwnCase()
	for i, c := range h.cases {
		if c == own && i < len(h.over) {
			return nil, &h.over[i], false, nil
		}
	}
	return nil, nil, false, nil
}

// computeVsContention runs the contention experiment's headline of A and then B, each policy's
// own mode only, at its own contenders and runs, until the inputs change.
func (s *compareSection) computeVsContention(ctx app.Context, e app.Event) {
	a, b := s.h.report(), s.h.vsReport()
	if a == nil || b == nil {
		return
	}
	gen := s.h.workGen.Load()
	params := [2]calc.Params{a.Params, b.Params}
	s.vs.contRun++
	run := s.vs.contRun
	s.vs.contGen, s.vs.contFor, s.vs.cont, s.vs.contErr = gen, [2]contentionInputs{}, [2]*contention.Result{}, nil
	s.compareRuns.refresh()
	ctx.Async(func() {
		var out [2]*contention.Result
		var err error
		stopped := false
		pause := yielder(s.h.workGen, gen)
		for i, q := range params {
			rs, done, e := contentionPausing(q, q.Contenders, q.Runs, []contention.Mode{contention.Policy(q.Jitter)}, pause)
			if err = e; err != nil {
				break
			}
			if !done || !pause() {
				stopped = true
				break
			}
			out[i] = &rs[0]
		}
		ctx.Defer(func(ctx app.Context) {
			if s.vs.contRun != run {
				return // a newer computation runs
			}
			s.vs.contGen = 0
			if !stopped {
				s.vs.contFor = [2]contentionInputs{contentionKey(params[0]), contentionKey(params[1])}
				s.vs.cont, s.vs.contErr = out, err
			}
			s.compareRuns.refresh()
		})
	})
}

// headCell is one headline number: its column, its exact value (data-value) and its text.
type headCell struct{ col, value, text string }

var herdHeadColumns = []string{"peak once back, per window", "peak while down, per window", "clients accepted", "clients that gave up", "last client through at"}

// herdHeadCells are p's herd h: its times never read across p's budget or outage, as in the
// herd's section (report.HerdTime).
func herdHeadCells(p calc.Params, h sim.HerdRun) []headCell {
	last := headCell{"last_accepted", "", "none got through"}
	if h.Accepted > 0 {
		last = headCell{"last_accepted", policy.Millis(h.LastAccepted), report.HerdTime(p, h.LastAccepted)}
	}
	// A peak with its time, "60 at 2 s", or "none" when no attempt came on its side.
	peak := func(col string, n int, at time.Duration) headCell {
		if n == 0 {
			return headCell{col, "0", "none"}
		}
		return headCell{col, strconv.Itoa(n), strconv.Itoa(n) + " at " + report.HerdTime(p, at)}
	}
	return []headCell{peak("peak_back", h.PeakBack, h.PeakBackAt), peak("peak_down", h.PeakDown, h.PeakDownAt),
		{"accepted", strconv.Itoa(h.Accepted), strconv.Itoa(h.Accepted)}, {"gave_up", strconv.Itoa(h.GaveUp), strconv.Itoa(h.GaveUp)}, last}
}

var overloadHeadColumns = []string{"requests", "succeeded", "retries refused", "share of served attempts wasted", "recovered at"}

// overloadHeadCells are p's overload run r: its recovery never reads across p's stream's end,
// as in the overload section (report.RecoveredWords).
func overloadHeadCells(p calc.Params, r sim.OverloadRun) []headCell {
	recovered := headCell{"recovered", "", "not recovered when the run ended"}
	if r.Recovers() {
		recovered = headCell{"recovered", policy.Millis(r.Recovered), policy.HumanBeside(float64(r.Recovered), p.StreamEnd())}
	}
	count := func(col string, n int) headCell { return headCell{col, strconv.Itoa(n), strconv.Itoa(n)} }
	return []headCell{count("requests", r.Requests), count("succeeded", r.Accepted), count("refused", r.Refused),
		{"wasted_share", report.Float(r.WastedShare()), policy.Percent(r.WastedShare())}, recovered}
}

var contentionHeadColumns = []string{"contenders", "runs", "mean calls (writes) per run", "mean time until the last client is through"}

func contentionHeadCells(r contention.Result) []headCell {
	return []headCell{{"contenders", strconv.Itoa(r.Clients), strconv.Itoa(r.Clients)}, {"runs", strconv.Itoa(r.Runs), strconv.Itoa(r.Runs)},
		{"calls", report.Float(r.Calls.Mean), policy.Decimal(r.Calls.Mean, 1)}, {"time", policy.MillisFloat(r.Time.Mean), policy.Human(r.Time.Mean)}}
}

// headRow is one policy's row of a headline table: its cells, or in their place a status
// (computing, or why there is no number).
func headRow(side, name string, cells []headCell, width int, status string) app.UI {
	tds := []app.UI{app.Th().Scope("row").Text(name)}
	if cells == nil {
		tds = append(tds, app.Td().ColSpan(width).DataSet("col", "status").Text(status))
	}
	for _, c := range cells {
		tds = append(tds, app.Td().DataSet("col", c.col).DataSet("value", c.value).Text(c.text))
	}
	return app.Tr().DataSet("side", side).Body(tds...)
}

func headTable(id, caption string, columns []string, rows ...app.UI) app.UI {
	head := []app.UI{app.Th().Scope("col").Text("policy")}
	for _, c := range columns {
		head = append(head, app.Th().Scope("col").Text(c))
	}
	// In a box of its own: on a phone its columns are wider than the page.
	return scrollBox(id+"-box", caption+" (scrolls)",
		app.Table().ID(id).Body(app.Caption().Text(caption), app.THead().Body(app.Tr().Body(head...)), app.TBody().Body(rows...)))
}

// herdHeadRow is a policy's herd headline row and whether it is an open system's.
//
// expected says that herd is the fluid model's expected counts, rounded to whole attempts: the
// row's name says so, short (a phone's width holds the name and the first numbers), and the
// note under the table says what that is (expectedNote).
func herdHeadRow(side string, p calc.Params, herd *sim.HerdRun, over *sim.OverloadRun, expected bool, err error) app.UI {
	name := strings.ToUpper(side) + ", " + p.Jitter.Title()
	if expected {
		name += ", expected" // the note under the table says by which model (expectedNote)
	}
	var cells []headCell
	switch {
	case herd != nil:
		cells = herdHeadCells(p, *herd)
	case over != nil:
		cells = overloadHeadCells(p, *over)
		name += ", limiter " + p.Limiter.String()
	}
	status := "computing…"
	if err != nil {
		status = "not simulated: " + strings.TrimPrefix(err.Error(), "calc: ")
	}
	return headRow(side, name, cells, len(herdHeadColumns), status)
}

// renderCompareRuns is the simulated headlines of A and B; nothing without B.
func (s *compareSection) renderCompareRuns() app.UI {
	ra, rb := s.h.report(), s.h.vsReport()
	if ra == nil || rb == nil {
		return app.Text("")
	}
	a, b := ra.Params, rb.Params
	herdA, overA, expectedA, errA := s.aHerdHead()
	var herdB *sim.HerdRun
	var overB *sim.OverloadRun
	var errB error
	expectedB := false
	if s.vs.herdIn && s.vs.herdFor == b {
		herdB, overB, errB, expectedB = s.vs.herd, s.vs.over, s.vs.herdErr, s.vs.expected
	}
	rowA := herdHeadRow("a", a, herdA, overA, expectedA, errA)
	rowB := herdHeadRow("b", b, herdB, overB, expectedB, errB)
	var herds []app.UI
	switch {
	case a.Open() == b.Open() && !a.Open():
		herds = []app.UI{headTable("compare-herd", "The herd, each policy in its own jitter mode", herdHeadColumns, rowA, rowB), expectedNote(expectedA, expectedB)}
	case a.Open() == b.Open():
		herds = []app.UI{headTable("compare-herd", "The overload run, each policy in its own jitter mode with its own limiter", overloadHeadColumns, rowA, rowB)}
	default: // one closed, one open: each its own table
		table := func(open bool, row app.UI, id string) app.UI {
			if open {
				return headTable(id, "The overload run, in its own jitter mode with its own limiter", overloadHeadColumns, row)
			}
			return headTable(id, "The herd, in its own jitter mode", herdHeadColumns, row)
		}
		herds = []app.UI{table(a.Open(), rowA, "compare-herd-a"), table(b.Open(), rowB, "compare-herd-b")}
	}
	return app.Div().Body(append(herds, s.renderCompareContention(a, b))...)
}

// expectedNote says which herd headlines are the fluid model's expected counts; nothing when
// both are the simulation's.
func expectedNote(a, b bool) app.UI {
	var which string
	switch {
	case a && b:
		which = "A's and B's herds are over what the simulation runs, and their counts are"
	case a:
		which = "A's herd is over what the simulation runs, and its counts are"
	case b:
		which = "B's herd is over what the simulation runs, and its counts are"
	default:
		return app.Text("")
	}
	return app.P().ID("compare-herd-model").Class("hint").Text("Expected: " + which + " the fluid model's expected counts, rounded to whole attempts, as the herd section's.")
}

// renderCompareContention is the contention headlines, once computed for these inputs; before,
// what computes them.
func (s *compareSection) renderCompareContention(a, b calc.Params) app.UI {
	v := &s.vs
	keys := [2]contentionInputs{contentionKey(a), contentionKey(b)}
	if v.contGen == 0 && v.contFor == keys && (v.cont[1] != nil || v.contErr != nil) {
		if v.contErr != nil {
			return app.P().ID("compare-contention").Text("The contention experiment is not simulated: " + strings.TrimPrefix(v.contErr.Error(), "calc: "))
		}
		row := func(side string, r *contention.Result) app.UI {
			j, _ := r.Mode.Jitter()
			return headRow(side, strings.ToUpper(side)+", "+j.Title(), contentionHeadCells(*r), len(contentionHeadColumns), "")
		}
		return headTable("compare-contention", "The contention experiment, each policy in its own jitter mode", contentionHeadColumns, row("a", v.cont[0]), row("b", v.cont[1]))
	}
	if v.contGen != 0 && s.h.current(v.contGen) {
		return app.P().ID("compare-contention").Text("Computing the contention experiment of A and B…")
	}
	return app.P().ID("compare-contention").Text("The contention experiment's headlines are computed on the button above.")
}

// renderCompareContentionButton computes the contention headlines. It is outside the island
// (compareRuns), which is markup without handlers.
func (s *compareSection) renderCompareContentionButton() app.UI {
	return app.Div().Body(
		app.Button().ID("compare-contention-run").Type("button").Text("Compute the contention headlines").OnClick(s.h.recovering(s.computeVsContention)),
		app.Span().Class("hint").Text(" the contention experiment (see its section) of A and of B, each at its own contenders and in its own jitter mode: about a second of work; an edit stops it"),
	)
}

// showRuns shows A's herd headline as the herd section's runs come in, when there is a B
// (host.herdShown).
func (s *compareSection) showRuns() {
	if s.h.vsReport() != nil {
		s.compareRuns.refresh()
	}
}
