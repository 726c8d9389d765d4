package main

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// herdView is the herd's state on the page: the runs of the current inputs, as they come in.
type herdView struct {
	params calc.Params // the inputs of the runs
	runs   []sim.HerdRun
	fluid  []fluid.Run // the expected counts of a herd the simulation cannot run (HerdSimulated)
	err    error
	total  int // modes (or overload cases) to run

	// For an open system (calc.Params.Open), the overload view's cases and their runs, as they
	// come in (overload.go); runs stays empty then.
	cases []calc.OverloadCase
	over  []sim.OverloadRun

	// What the reader chose to see window by window (overload.go); kept across new inputs.
	picked *calc.OverloadCase // nil, or not among cases: the policy's own case
	shared bool               // the chart on the scale shared by every case's windows
}

// herdSection is the herd section's component: the runs of the current inputs (herdView) and
// the islands that show them; for an open system, the overload view (overload.go).
type herdSection struct {
	herdView
	h                   *host
	results, statusLine *island
}

func newHerdSection(h *host) part {
	s := &herdSection{h: h}
	s.results = newIsland("herd-results", h.guarded(s.renderResults))
	s.statusLine = newIsland("herd-status", h.guarded(func() app.UI { return app.Text(s.status()) })).polite()
	return s
}

// startRuns takes the inputs of startWork's new work and reports whether their herd runs
// (runHerd, in startWork's sequence: after the sampling, before B's herd); the section shows
// what it has of them.
func (s *herdSection) startRuns(params calc.Params) bool {
	if !s.start(params) {
		s.show()
		return false
	}
	// Hiding the last runs is cheaper than removing them; the first new run replaces them.
	s.results.pending()
	s.statusLine.refresh()
	return true
}

// start begins a herd for params, with no run in yet, and reports whether it can run; when it
// cannot, its error is what the herd shows.
func (h *herdView) start(params calc.Params) bool {
	h.params, h.runs, h.fluid, h.total, h.err = params, nil, nil, len(params.HerdModes()), params.ValidateHerd()
	h.cases, h.over = nil, nil
	if params.Open() {
		h.cases = params.OverloadCases()
		h.total = len(h.cases)
	}
	return h.err == nil
}

// herdRequests is about how many requests the herd of params sends: its clients, and for an open
// system the stream's requests too. It only bounds the work done before an answer (work.go).
func herdRequests(params calc.Params) float64 {
	n := float64(params.Clients)
	if params.Open() {
		n += params.Rate * params.Run.Seconds()
	}
	return n
}

// runHerd runs the herd one mode at a time, each result shown as it comes, until gen is no
// longer the current work: the modes of params.HerdModes, the policy's own last when it is a
// library's.
func (s *herdSection) runHerd(ctx app.Context, params calc.Params, gen int64, pause func() bool) {
	if params.Open() {
		s.runOverload(ctx, params, gen, pause)
		return
	}
	if !params.HerdSimulated() {
		s.runFluid(ctx, params, gen, pause)
		return
	}
	for _, m := range params.HerdModes() {
		run, done, err := herdModePausing(params, m, pause)
		if !done && err == nil || !pause() {
			return // the inputs changed: newer work has taken over
		}
		// Defer, not Dispatch: it runs on go-app's loop without a render of the whole page,
		// whose garbage made the collector hold the thread for 100-200 ms while the herd ran.
		ctx.Defer(func(ctx app.Context) {
			if s.h.current(gen) {
				s.runs, s.err = append(s.runs, run), err
				s.show()
			}
		})
	}
}

// runFluid computes the expected counts of a herd the simulation cannot run (calc/fluid), one
// mode at a time in the engine, as runHerd runs the simulation.
func (s *herdSection) runFluid(ctx app.Context, params calc.Params, gen int64, pause func() bool) {
	for _, m := range params.HerdModes() {
		run, done, err := fluidMode(params, m, pause)
		if !done && err == nil || !pause() {
			return
		}
		ctx.Defer(func(ctx app.Context) {
			if s.h.current(gen) {
				s.fluid, s.err = append(s.fluid, run), err
				s.show()
			}
		})
		if err != nil {
			return
		}
	}
}

// runOverload runs the overload view's cases one at a time, as runHerd runs the modes. The
// view grows by a row per case (showOverloadRun); the markup of the policy's own run window by
// window, up to a thousand rows and a chart, is written here, between pauses, and goes in once
// (unless the reader chose another case or the shared scale: showOverloadRun writes that).
func (s *herdSection) runOverload(ctx app.Context, params calc.Params, gen int64, pause func() bool) {
	own := params.OwnCase()
	for _, c := range params.OverloadCases() {
		run, done, err := overloadPausing(params, c, pause)
		if !done && err == nil || !pause() {
			return // the inputs changed: newer work has taken over
		}
		windows := ""
		if err == nil && c == own && app.IsClient {
			windows = overloadWindowsHTML(params, run, nil, 0)
			if !pause() {
				return
			}
		}
		ctx.Defer(func(ctx app.Context) {
			if s.h.current(gen) && s.err == nil {
				if s.err = err; err == nil {
					s.over = append(s.over, run)
				}
				s.showOverloadRun(windows)
			}
		})
		if err != nil {
			return
		}
	}
}

// showOverloadRun shows the run just added to s.over. In the browser, once the view shows
// this herd's first run, it appends the new run's row and puts in windows, the own run's window
// by window markup, if any, when the view shows that (else the markup of what it shows, when the
// new run changes it: the chosen case's run, or any run on the shared scale): rewriting the whole view for each run parsed the chart and the
// window table again every time, 20–100 ms a run at the moderate overload link and 100–900 ms at the work
// limit, all in one task when the runs came in together. Elsewhere, and for the first run or an
// error, it renders the view whole (show), which shows the same markup.
func (s *herdSection) showOverloadRun(windows string) {
	h := &s.herdView
	n := len(h.over)
	if !app.IsClient || h.err != nil || n < 2 || !s.results.Mounted() {
		s.show()
		return
	}
	view := s.results.JSValue()
	tbody := view.Call("querySelector", "#overload > tbody")
	spot, head := view.Call("querySelector", "#overload-windows"), view.Call("querySelector", "#overload-headline")
	if !tbody.Truthy() || !spot.Truthy() || !head.Truthy() || tbody.Get("rows").Length() != n-1 {
		s.show() // not this herd's view: write it whole
		return
	}
	params := s.h.report().Params
	var b strings.Builder
	writeOverloadRow(&b, params, h.cases[n-1], h.over[n-1])
	tbody.Call("insertAdjacentHTML", "beforeend", b.String())
	shown := h.shownCase(params)
	// premade: the view shows what runOverload wrote off the input path.
	switch premade := shown == params.OwnCase() && !h.shared; {
	case premade && windows != "":
		spot.Set("outerHTML", windows)
	case !premade && (h.shared || h.cases[n-1] == shown):
		spot.Set("outerHTML", h.overloadWindows(params))
	}
	if h.cases[n-1] == shown {
		head.Set("outerHTML", h.overloadHeadline(params))
	}
	s.statusLine.refresh()
	s.h.herdShown()
}

// fluidDone returns the expected counts once every mode is in, for copying; nil before, and for
// a herd the simulation runs.
func (h *herdView) fluidDone() []fluid.Run {
	if h.err == nil && h.cases == nil && !h.params.HerdSimulated() && len(h.fluid) == h.total {
		return h.fluid
	}
	return nil
}

// runsDone returns the herd's runs once every mode is in, for copying; nil before, and for an
// open system, whose runs the copied tables do not carry.
func (h *herdView) runsDone() []sim.HerdRun {
	if h.err == nil && h.cases == nil && h.params.HerdSimulated() && len(h.runs) == h.total {
		return h.runs
	}
	return nil
}

// herdFields are the herd's inputs, a fieldset of the form.
var herdFields = []formField{
	{key: "clients", label: "Clients", unit: "", inputMode: "numeric", hint: "clients that fail at once and retry"},
	{key: "outage", label: "Outage", unit: "ms, or a duration", hint: "the server fails every attempt before this"},
	{key: "window", label: "Window", unit: "ms, or a duration", hint: "the server's capacity window, and the peak's"},
	{key: "capacity", label: "Capacity", unit: "per window; 0 = no limit", inputMode: "numeric", hint: "attempts accepted per window after the outage"},
	{key: "spread", label: "Spread", unit: "ms, or a duration", hint: "first attempts spread evenly over this; 0 = all at once"},
}

// overloadDone returns the overload runs once every case is in, for copying; nil before.
func (h *herdView) overloadDone() []sim.OverloadRun {
	if h.err == nil && h.cases != nil && len(h.over) == h.total {
		return h.over
	}
	return nil
}

// status says what the herd is doing, or why it is not shown; "" when it is all there.
func (h *herdView) status() string {
	switch {
	case h.err != nil:
		return strings.TrimPrefix(h.err.Error(), "calc: ")
	case h.cases != nil && len(h.over) < h.total:
		return app.FormatString("Computing the overload runs: %d of %d done…", len(h.over), h.total)
	case h.cases == nil && !h.params.HerdSimulated() && len(h.fluid) < h.total:
		return app.FormatString("Computing the herd's expected counts: %d of %d modes done…", len(h.fluid), h.total)
	case h.cases == nil && h.params.HerdSimulated() && len(h.runs) < h.total:
		return app.FormatString("Computing the herd: %d of %d modes done…", len(h.runs), h.total)
	}
	return ""
}

// show shows the herd's runs and status now, without a render of the whole page.
func (s *herdSection) show() {
	s.results.refresh()
	s.statusLine.refresh()
	s.h.herdShown()
}

// restore shows the runs of the committed inputs again (typing.go).
func (s *herdSection) restore() { s.results.refresh() }

// wait marks the runs as waiting for a keystroke's inputs (typing.go): they stay for restore.
func (s *herdSection) wait(calc.Params) { s.results.pending() }

// body is the herd section's body, under its heading (sections). The island is
// wrapped alike for the closed herd and the overload view, so that it keeps its place; the
// wrapper takes the changes of the overload view's controls, which are in the island.
func (s *herdSection) body() []app.UI {
	results := app.Div().ID("herd-view").OnChange(s.h.recovering(s.onOverloadPick)).Body(s.results)
	if r := s.h.report(); r != nil && r.Params.Open() {
		// The headline first (in the island); the model and the limiters' rules after the runs.
		return []app.UI{app.Text(""), s.statusLine, results, renderOverloadRules(r.Params)}
	}
	intro := "Every client makes its first attempt together (or spread over the spread), the server fails everything until the outage ends, then accepts at most the capacity per window, first come first served."
	if r := s.h.report(); r != nil {
		if words := report.HerdBudgetWords(r.Params); words != "" {
			intro += " " + words
		}
	}
	return []app.UI{
		app.P().Text(intro + " What the server receives, per mode:"),
		s.statusLine,
		results,
	}
}

// renderResults is the herd's table and chart, filled in as the modes come in.
func (s *herdSection) renderResults() app.UI {
	h, r := &s.herdView, s.h.report()
	if r == nil {
		return app.Text("")
	}
	if h.err != nil {
		// The status line says why nothing runs: a headline "being computed", or an empty
		// table's head, would not be so.
		return app.Text("")
	}
	if r.Params.Open() {
		return h.renderOverload(r.Params)
	}
	params := r.Params
	capacity := "no capacity limit"
	if params.Capacity > 0 {
		capacity = "capacity " + strconv.Itoa(params.Capacity)
	}
	window := policy.Human(float64(params.Window))
	if !params.HerdSimulated() {
		return renderFluid(params, h.fluid, window, capacity)
	}
	return app.Div().Body(
		scrollBox("herd-box", "The herd, per mode (scrolls)", app.Table().ID("herd").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("mode"),
				app.Th().Scope("col").Text("peak once back, per "+window+" window ("+capacity+")"),
				app.Th().Scope("col").Text("peak while down, per "+window+" window"),
				app.Th().Scope("col").Text("attempts received"),
				app.Th().Scope("col").Text("clients accepted"),
				app.Th().Scope("col").Text("clients that gave up"),
				app.Th().Scope("col").Text("attempts per client, mean / max"),
				app.Th().Scope("col").Text("last client through at"),
			)),
			app.TBody().Body(app.Range(h.runs).Slice(func(i int) app.UI {
				r := h.runs[i]
				last := app.Td().DataSet("col", "last_accepted").DataSet("value", "").Text("none got through")
				if r.Accepted > 0 {
					last = app.Td().DataSet("col", "last_accepted").DataSet("value", policy.Millis(r.LastAccepted)).Text(report.HerdTime(params, r.LastAccepted))
				}
				return app.Tr().DataSet("mode", r.Mode.String()).Body(
					app.Th().Scope("row").Text(r.Mode.String()),
					peakCell("peak_back", params, r.PeakBack, r.PeakBackAt),
					peakCell("peak_down", params, r.PeakDown, r.PeakDownAt),
					countCell("attempts", r.Attempts),
					countCell("accepted", r.Accepted),
					countCell("gave_up", r.GaveUp),
					app.Td().DataSet("col", "per_client").Text(strconv.FormatFloat(r.MeanPerClient, 'f', -1, 64)+" / "+strconv.Itoa(r.MaxPerClient)),
					last,
				)
			})),
		)),
		renderArrivals(params, h.runs, false),
	)
}

// peakCell is a herd's peak once back or while down with its time, "60 at 2 s", or "none" when
// no attempt came on its side; data-value is the count and data-at the time in milliseconds
// ("" for none).
func peakCell(col string, params calc.Params, n int, at time.Duration) app.UI {
	if at < 0 {
		return app.Td().DataSet("col", col).DataSet("value", n).DataSet("at", "").Text("none")
	}
	return app.Td().DataSet("col", col).DataSet("value", n).DataSet("at", policy.Millis(at)).
		Text(strconv.Itoa(n) + " at " + report.HerdTime(params, at))
}

func countCell(col string, n int) app.UI {
	return app.Td().DataSet("col", col).DataSet("value", n).Text(n)
}

// renderFluid is the herd's expected counts (calc/fluid), where the simulation cannot run it:
// the model's words first, then the table as the simulation's, each count expected, the peak
// once back with the deviation one herd has in its window, and the windows' chart of the counts
// rounded to whole attempts.
func renderFluid(params calc.Params, runs []fluid.Run, window, capacity string) app.UI {
	whole := make([]sim.HerdRun, len(runs))
	for i, r := range runs {
		whole[i] = r.Rounded(params.Window)
	}
	return app.Div().Body(
		app.P().ID("herd-model").DataSet("model", report.ModelFluid).Text(report.FluidWords(params)),
		scrollBox("herd-box", "The herd's expected counts, per mode (scrolls)", app.Table().ID("herd").DataSet("model", report.ModelFluid).Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("mode"),
				app.Th().Scope("col").Text("peak once back, per "+window+" window ("+capacity+"), expected ± one herd's deviation"),
				app.Th().Scope("col").Text("peak while down, per "+window+" window, expected"),
				app.Th().Scope("col").Text("attempts received, expected"),
				app.Th().Scope("col").Text("clients accepted, expected"),
				app.Th().Scope("col").Text("clients that gave up, expected"),
				app.Th().Scope("col").Text("attempts per client, mean"),
				app.Th().Scope("col").Text("last client through at, expected"),
			)),
			app.TBody().Body(app.Range(runs).Slice(func(i int) app.UI {
				r := runs[i]
				last := app.Td().DataSet("col", "last_accepted").DataSet("value", "").Text("none got through")
				if r.LastAccepted >= 0 {
					last = app.Td().DataSet("col", "last_accepted").DataSet("value", policy.Millis(r.LastAccepted)).Text(report.HerdTime(params, r.LastAccepted))
				}
				back := app.Td().DataSet("col", "peak_back").DataSet("value", report.Expected(r.PeakBack)).DataSet("at", "").Text("none")
				if r.PeakBackAt >= 0 {
					back = app.Td().DataSet("col", "peak_back").DataSet("value", report.Expected(r.PeakBack)).DataSet("at", policy.Millis(r.PeakBackAt)).
						Text(report.Expected(r.PeakBack) + " ± " + report.Expected(report.FluidPeakSD(params, r)) + " at " + report.HerdTime(params, r.PeakBackAt))
				}
				down := app.Td().DataSet("col", "peak_down").DataSet("value", report.Expected(r.PeakDown)).DataSet("at", "").Text("none")
				if r.PeakDownAt >= 0 {
					down = app.Td().DataSet("col", "peak_down").DataSet("value", report.Expected(r.PeakDown)).DataSet("at", policy.Millis(r.PeakDownAt)).
						Text(report.Expected(r.PeakDown) + " at " + report.HerdTime(params, r.PeakDownAt))
				}
				return app.Tr().DataSet("mode", r.Mode.String()).Body(
					app.Th().Scope("row").Text(r.Mode.String()),
					back,
					down,
					app.Td().DataSet("col", "attempts").DataSet("value", report.Expected(r.Attempts)).Text(report.Expected(r.Attempts)),
					app.Td().DataSet("col", "accepted").DataSet("value", report.Expected(r.Accepted)).Text(report.Expected(r.Accepted)),
					app.Td().DataSet("col", "gave_up").DataSet("value", report.Expected(r.GaveUp)).Text(report.Expected(r.GaveUp)),
					app.Td().DataSet("col", "per_client").Text(strconv.FormatFloat(r.MeanPerClient, 'f', 2, 64)),
					last,
				)
			})),
		)),
		renderArrivals(params, whole, true),
	)
}
