package main

import (
	"strings"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The contention section: the AWS post's experiment for the current inputs, the table
// at `contenders` clients, then the sweep over 10..200 clients, point by point. It is the
// page's costliest work (about a second of wasm for the table, several for the sweep), so it
// waits for two things: the section near the viewport (whenNear), so that a visit that never
// scrolls there pays nothing, and the rest of the work of the same inputs (sampling, herd) done,
// so that the first screen and the herd are never slowed by it. Like the herd it runs off the
// input path in slices (yielder) and stops when an input changes; unlike the herd, what it has
// done is kept while the inputs it reads stay the same (contentionKey), and it resumes there.
//
// Names say which thing they are: contentionSection… is the page's section (its ids, which links
// and docs name, keep "contention"); experiment… is the AWS post's experiment as the section runs
// and shows it, experimentView its state; contenders… is its table at the contenders key's
// number of clients, beside the sweep; contentionKey is what of the inputs the experiment reads.

// experimentView is the contention section's state: the experiment of the current inputs. Every
// field is read and written on go-app's loop; the work's goroutine gets copies and hands results
// back with ctx.Defer.
type experimentView struct {
	params  calc.Params      // the current inputs
	key     contentionInputs // what table and sweep were computed from
	table   []contention.Result
	sweep   []contention.Point
	err     error
	seen    bool  // the section has come near the viewport: from then on the experiment runs
	ready   int64 // the workGen whose other work is done
	started int64 // the workGen whose experiment has been started
}

// sweepPoints is the sweep's length: 10, 20, ..., 200 clients.
const sweepPoints = (contention.SweepTo-contention.SweepFrom)/contention.SweepStep + 1

// contentionInputs are the inputs the experiment reads: inputs with the same ones have the same
// table and sweep. A new field of policy.Policy is part of it until it is known not to matter.
type contentionInputs struct {
	policy policy.Policy // without Attempts and Budget: each client retries until it is through
	seed   uint64
	contention.Inputs
}

// contentionKey is what the experiment reads of p: not the herd's, the overload model's, the
// calls', the sampling's inputs or the preset's name.
func contentionKey(p calc.Params) contentionInputs {
	policy := p.Policy
	policy.Attempts, policy.Budget = 0, 0
	return contentionInputs{policy, p.Seed, p.Inputs}
}

// inputs takes the inputs of new work: results of other inputs go.
func (c *experimentView) inputs(p calc.Params) {
	c.params = p
	if key := contentionKey(p); key != c.key {
		c.key, c.table, c.sweep, c.err = key, nil, nil, nil
	}
}

// complete reports whether the table and the whole sweep are in.
func (c *experimentView) complete() bool {
	return c.err != nil || c.table != nil && len(c.sweep) == sweepPoints
}

// contentionSection is the section's component: the experiment of the current inputs
// (experimentView) and the islands that show it.
type contentionSection struct {
	experimentView
	h                   *host
	results, statusLine *island
}

func newContentionSection(h *host) part {
	s := &contentionSection{h: h}
	s.results = newIsland("contention-results", h.guarded(s.renderResults))
	s.statusLine = newIsland("contention-status", h.guarded(func() app.UI { return app.Text(s.status()) })).polite()
	return s
}

// start takes the inputs of startWork's new work: the section shows what it has of them.
func (s *contentionSection) start(params calc.Params) {
	s.inputs(params)
	s.show()
}

// ready is startWork's word that the other work of gen is done.
func (s *contentionSection) ready(ctx app.Context, gen int64) {
	if s.h.current(gen) {
		s.experimentView.ready = gen
		s.maybeRun(ctx)
	}
}

// near is whenNear's word that the section is near the viewport.
func (s *contentionSection) near(ctx app.Context) {
	if !s.seen {
		s.seen = true
		s.show()
		s.maybeRun(ctx)
	}
}

// maybeRun starts the experiment of the current work once the section has been seen and the
// rest of the work is done, from where the results of the same inputs left off.
func (s *contentionSection) maybeRun(ctx app.Context) {
	c := &s.experimentView
	gen := s.h.workGen.Load()
	if !c.seen || c.ready != gen || c.started == gen || c.complete() {
		return
	}
	c.started = gen
	params, table, from := c.params, c.table == nil, len(c.sweep)
	ctx.Async(func() {
		defer s.h.survive(&params, func(fe *policy.FieldError) {
			ctx.Defer(func(ctx app.Context) {
				s.err = fe
				s.show()
			})
		})
		s.run(ctx, params, gen, table, from)
	})
}

// run runs the table (when table is true) and then the sweep from its point from on, handing
// each result to the page as it comes, until gen is no longer the current work.
func (s *contentionSection) run(ctx app.Context, params calc.Params, gen int64, table bool, from int) {
	pause := yielder(s.h.workGen, gen)
	modes := contention.ModesOf(params.Params)
	show := func(f func(c *experimentView)) { s.deferred(ctx, gen, f, true) }
	if table {
		rs, done, err := contentionPausing(params, params.Contenders, params.Runs, modes, pause)
		if err != nil {
			show(func(c *experimentView) { c.err = err })
			return
		}
		if !done || !pause() {
			return // the inputs changed: newer work takes over
		}
		show(func(c *experimentView) { c.table = rs })
	}
	// Point by point, not calc.ContentionSweep at once, so that the status line counts the points:
	// each point is the same Contention call the sweep makes (its streams depend only on the
	// seed, the run and the client), which the browser test checks against the sweep.
	for i := from; i < sweepPoints; i++ {
		n := contention.SweepFrom + i*contention.SweepStep
		rs, done, err := contentionPausing(params, n, params.Runs, modes, pause)
		if err != nil {
			show(func(c *experimentView) { c.err = err })
			return
		}
		if !done || !pause() {
			return
		}
		// The charts and the table are drawn again every sweepRedraw points and at the last;
		// the status line counts every point.
		redraw := (i+1)%sweepRedraw == 0 || i == sweepPoints-1
		s.deferred(ctx, gen, func(c *experimentView) {
			if len(c.sweep) == i { // a point from older work of the same inputs may be in already
				c.sweep = append(c.sweep, contention.Point{Clients: n, Results: rs})
			}
		}, redraw)
	}
}

// sweepRedraw is how many of the sweep's points come in between two drawings of its charts and
// table: drawing them at every point cost as much as the simulation in the bench.
const sweepRedraw = 4

// deferred applies f to the view on go-app's loop if gen is still the current work, and shows
// the status line, and the results too when results is true.
func (s *contentionSection) deferred(ctx app.Context, gen int64, f func(c *experimentView), results bool) {
	ctx.Defer(func(ctx app.Context) {
		if s.h.current(gen) {
			f(&s.experimentView)
			if results {
				s.results.refresh()
			}
			s.statusLine.refresh()
		}
	})
}

// status says what the experiment is doing; "" when it is all there.
func (s *contentionSection) status() string {
	c := &s.experimentView
	switch {
	case c.err != nil:
		return "The experiment is not simulated: " + strings.TrimPrefix(c.err.Error(), "calc: ")
	case s.h.report() == nil:
		return ""
	case !c.seen:
		return "The experiment is simulated in this page when this section comes into view, after the herd."
	case c.table == nil && c.ready != s.h.workGen.Load():
		return "The experiment starts once the herd is done…"
	case c.table == nil:
		return app.FormatString("Computing the table: %s, %s of each mode…", report.Count(c.params.Contenders, "client", "clients"), report.Count(c.params.Runs, "run", "runs"))
	case len(c.sweep) < sweepPoints:
		return app.FormatString("Computing the sweep: %d of %d…", len(c.sweep), sweepPoints)
	}
	return ""
}

// show shows the section's results and status now.
func (s *contentionSection) show() {
	s.results.refresh()
	s.statusLine.refresh()
}

// restore shows the results of the committed inputs again (typing.go).
func (s *contentionSection) restore() { s.results.refresh() }

// wait marks results that are not of a keystroke's inputs as waiting (typing.go).
func (s *contentionSection) wait(params calc.Params) {
	if s.table != nil && contentionKey(params) != s.key {
		s.results.pending()
	}
}

// experimentFields are the experiment's inputs, a fieldset of the form.
var experimentFields = []formField{
	{key: "contenders", label: "Contenders", unit: "clients", inputMode: "numeric", hint: "clients racing to write one row, for the contention table"},
	{key: "runs", label: "Runs", unit: "repetitions", inputMode: "numeric", hint: "the contention figures are means over this many runs"},
}

// awsSetup is the AWS post's setup: its base and cap, the doubling and the cap on the nominal
// delay of its formulas (min(cap, base·2^n)), 100 clients and 100 runs. The jitter stays the
// policy's: its own mode is the one to read against the post's five.
var awsSetup = [][2]string{
	{"base", "5ms"}, {"cap", "2s"}, {"factor", "2"}, {"capat", "before"}, {"growth", "exponential"},
	{"contenders", "100"}, {"runs", "100"},
}

// useAWSSetup sets the inputs to the AWS post's setup, as if each were typed.
func (s *contentionSection) useAWSSetup(ctx app.Context, e app.Event) {
	s.h.setInputs(ctx, awsSetup)
}

// body is the section's body, under its heading (sections).
func (s *contentionSection) body() []app.UI {
	return []app.UI{
		app.P().Text("The AWS Architecture Blog's experiment (\"Exponential Backoff And Jitter\", 2015): N clients each write one row once under optimistic concurrency; a write fails when another landed since the client's read, and the client backs off and reads again. Each network hop takes |Normal(10 ms, 2 ms)|. The post's five modes use this policy's base and cap with the post's formulas; this policy's own waits run beside them. Calls are the writes; time is until the last client is through."),
		app.P().Body(
			app.Button().ID("contention-aws").Type("button").Text("The AWS post's setup").OnClick(s.h.recovering(s.useAWSSetup)),
			app.Span().Class("hint").Text(" sets base 5 ms, cap 2 s, factor 2, cap before, exponential growth, 100 contenders and 100 runs"),
		),
		s.statusLine,
		s.results,
	}
}
