//go:build js

package main

import (
	"encoding/json"
	"fmt"
	"time"

	"backoffcalc/app/internal/work"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The page's Web Workers (web/engine.js, each running web/engine.wasm): the work that would hold
// the page's thread for hundreds of milliseconds, or bring into the page's wasm code that the
// first screen does not need, runs there (app/internal/engine): the import's reading and the
// simulations. There are as many as the machine has cores, up to two: the overload view's runs
// and the herd's modes are independent, and two run at once. The first starts once the load's
// own work is done, or at the first work handed to it, whichever comes first (startEngine,
// postEngine); the second once the first has been busy for secondAfter.
// In wasm the page has one thread: its goroutines interleave only where one blocks, and none
// blocks while it changes engines.
var engines struct {
	url     string // web/engine.js at the site's path
	workers []*engineWorker
	most    int // workers there may be: two on a machine of two cores or more
	next    int
	failed  error // why the workers could not start or went down; every call fails with it after
	waiting map[int]*engineCall
	series  map[seriesKey]*engineSeries
}

type engineWorker struct {
	w     app.Value
	busy  int       // requests posted to it and not answered
	since time.Time // when it became busy
}

// secondAfter is how long the first worker is busy before a second starts beside it.
const secondAfter = 150 * time.Millisecond

// engineCall is a request posted and not answered.
type engineCall struct {
	worker *engineWorker
	done   chan engineReply // buffered: the answer never waits for its reader
}

type engineReply struct {
	reply     string
	bytes     app.Value // a Uint8Array, for the replies that have bytes (work.OverloadOut)
	cancelled bool      // the worker stopped the work when asked to
	err       error
}

// The simulations, in the browser: the engine's, through its messages (engine_other.go: calc's,
// in place). The page's code calls them as it calls calc, from its work's goroutine, which
// waits for the reply without holding the thread.
var (
	herdModePausing   = engineHerdMode
	fluidMode         = engineFluidMode
	overloadPausing   = engineOverload
	contentionPausing = engineContention
)

// knowEngine finds the workers' script at the site's path; they start on the first work handed
// to them (postEngine), or once the load's own work is done (startEngine).
func (p *page) knowEngine(ctx app.Context) {
	engines.url = ctx.ResolveStaticResource("/web/engine.js")
}

// startEngine starts the workers if they have not started.
func (p *page) startEngine(app.Context) { startWorkers() }

func startWorkers() {
	if engines.workers != nil || engines.failed != nil || engines.url == "" {
		return
	}
	engines.waiting, engines.series = map[int]*engineCall{}, map[seriesKey]*engineSeries{}
	ctor := app.Window().Get("Worker")
	if !ctor.Truthy() {
		engines.failed = errNoWorker
		return
	}
	engines.most = 1
	if cores := app.Window().Get("navigator").Get("hardwareConcurrency"); cores.Truthy() && cores.Int() > 1 {
		engines.most = 2
	}
	addWorker()
}

// addWorker starts one more worker.
func addWorker() {
	w := &engineWorker{w: app.Window().Get("Worker").New(engines.url)}
	w.w.Set("onmessage", app.FuncOf(func(_ app.Value, args []app.Value) any {
		msg := args[0].Get("data")
		if f := msg.Get("failed"); f.Truthy() {
			failEngines(engineError("the engine stopped: " + f.String() + "; reload the page"))
			return nil
		}
		id := msg.Get("id").Int()
		if msg.Get("cancelled").Truthy() {
			mark("engine-cancelled") // for DevTools and TestEngineCancels
		}
		if c, ok := engines.waiting[id]; ok {
			delete(engines.waiting, id)
			c.worker.busy--
			c.done <- engineReply{reply: msg.Get("reply").String(), bytes: msg.Get("bytes"), cancelled: msg.Get("cancelled").Truthy()}
		}
		return nil
	}))
	// A script that does not load (a 404, a site copied without it) or a crash of its Go.
	w.w.Set("onerror", app.FuncOf(func(_ app.Value, args []app.Value) any {
		what := "its script did not load"
		if m := args[0].Get("message"); m.Truthy() {
			what = m.String()
		}
		failEngines(engineError("the engine stopped: " + what + "; reload the page"))
		return nil
	}))
	engines.workers = append(engines.workers, w)
}

// failEngines ends every call waiting, and every later one, with err.
func failEngines(err error) {
	engines.failed = err
	for id, c := range engines.waiting {
		delete(engines.waiting, id)
		c.done <- engineReply{err: err}
	}
}

// postEngine posts one piece of work to the least busy worker.
func postEngine(kind, input string) (int, *engineCall) {
	c := &engineCall{done: make(chan engineReply, 1)}
	startWorkers()
	if engines.failed != nil || engines.workers == nil {
		err := engines.failed
		if err == nil {
			err = errNotStarted
		}
		c.done <- engineReply{err: err}
		return 0, c
	}
	c.worker = engines.workers[0]
	for _, w := range engines.workers[1:] {
		if w.busy < c.worker.busy {
			c.worker = w
		}
	}
	// A second worker once the work is long: the herd of a link's defaults, done in tens of
	// milliseconds, does not pay for a second module's start (its compile, its Go runtime).
	if c.worker.busy > 0 && len(engines.workers) < engines.most && time.Since(c.worker.since) > secondAfter {
		addWorker()
		c.worker = engines.workers[len(engines.workers)-1]
	}
	if c.worker.busy == 0 {
		c.worker.since = time.Now()
	}
	c.worker.busy++
	engines.next++
	engines.waiting[engines.next] = c
	c.worker.w.Call("postMessage", map[string]any{"id": engines.next, "kind": kind, "input": input})
	return engines.next, c
}

// cancelEngine asks the worker of call id to stop it; its answer still comes, as cancelled.
func cancelEngine(id int) {
	if c, ok := engines.waiting[id]; ok {
		c.worker.w.Call("postMessage", map[string]any{"cancel": id})
	}
}

// awaitCall waits for call id's answer, from a goroutine of the page's work: it blocks the
// goroutine, never the thread. Every pollEvery it asks pause whether the work is still wanted;
// when it is not, it cancels the call and reports done false.
func awaitCall(id int, c *engineCall, pause func() bool) (r engineReply, done bool) {
	for {
		select {
		case r := <-c.done:
			return r, true
		case <-time.After(pollEvery):
			if pause != nil && !pause() {
				cancelEngine(id)
				return engineReply{}, false
			}
		}
	}
}

// pollEvery is how often a wait for the engine asks whether its work is still wanted.
const pollEvery = 25 * time.Millisecond

// callEngine hands the workers one piece of work of kind (app/internal/work) on input; done
// gets its reply on go-app's loop.
func (p *page) callEngine(ctx app.Context, kind, input string, done func(ctx app.Context, reply string, err error)) {
	ctx = p.own(ctx) // the reply outlives the event that asked for it
	p.startEngine(ctx)
	id, c := postEngine(kind, input)
	go func() {
		r, _ := awaitCall(id, c, nil)
		ctx.Dispatch(func(ctx app.Context) { done(ctx, r.reply, r.err) })
	}()
}

// engineSeries is a series of simulations that the page's work asks for one after the other
// (the herd's modes, the overload view's cases, the sweep's points): while the page waits for
// one, the next are already running on the other worker. A series is known by its kind and
// inputs (seriesInputs keeps the inputs of each kind's last series, so the same slice).
type seriesKey struct {
	kind  string
	first *string
}

type engineSeries struct {
	inputs []string
	ids    []int
	calls  []*engineCall
}

// simulate is the reply to inputs[i] of a series of kind, decoded into out: the page's work asks
// for each step in turn, and as many steps as there are workers are in flight. A step's reply
// cancelled while the page still wants it (another series took its worker's place) is asked for
// again. It reports done false, cancelling the series' steps in flight, once pause does.
func simulate[Out any](kind string, inputs []string, i int, pause func() bool) (out Out, bytes app.Value, done bool, err error) {
	key := seriesKey{kind, &inputs[0]}
	s := engines.series[key]
	if s == nil {
		s = &engineSeries{inputs: inputs, ids: make([]int, len(inputs)), calls: make([]*engineCall, len(inputs))}
		if engines.series != nil {
			engines.series[key] = s
		}
	}
	defer func() {
		if !done {
			for j, id := range s.ids {
				if id != 0 {
					cancelEngine(id)
					s.ids[j], s.calls[j] = 0, nil
				}
			}
			delete(engines.series, key)
		}
	}()
	for {
		for j := i; j < len(inputs) && j < i+max(1, engines.most); j++ {
			if s.calls[j] == nil {
				s.ids[j], s.calls[j] = postEngine(kind, inputs[j])
			}
		}
		r, ok := awaitCall(s.ids[i], s.calls[i], pause)
		if !ok {
			return out, nil, false, nil
		}
		s.ids[i], s.calls[i] = 0, nil
		switch {
		case r.err != nil:
			return out, nil, true, r.err
		case r.cancelled:
			if pause != nil && !pause() {
				return out, nil, false, nil
			}
			continue // asked for again
		}
		if i == len(inputs)-1 {
			delete(engines.series, key)
		}
		var reply work.Reply[Out]
		if err := json.Unmarshal([]byte(r.reply), &reply); err != nil {
			panic("the engine's reply: " + err.Error())
		}
		if reply.Panic != "" {
			panic(reply.Panic) // the page's recover shows it as its own, with the link to report
		}
		if reply.Err != "" {
			return reply.Out, r.bytes, true, engineError(reply.Err)
		}
		return reply.Out, r.bytes, true, nil
	}
}

// seriesInputs writes each of xs as a series' input, for params (and what else the inputs
// hold, in extra): the page asks for the steps one after the other with the same params, and
// each kind's last series is kept (writing every step's input again at each step was 17 Params
// as JSON for each run of the overload view, garbage that brought a collection).
func seriesInputs[T any](kind string, params calc.Params, extra string, xs []T, in func(T) any) []string {
	if last, ok := lastInputs[kind]; ok && last.params == params && last.extra == extra {
		return last.inputs
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		b, err := json.Marshal(in(x))
		if err != nil {
			panic(err) // calc's params are numbers and strings
		}
		out[i] = string(b)
	}
	lastInputs[kind] = seriesOf{params, extra, out}
	return out
}

type seriesOf struct {
	params calc.Params
	extra  string
	inputs []string
}

var lastInputs = map[string]seriesOf{}

// engineHerdMode is calc/sim's HerdModePausing in the engine; the series is params' modes
// from m on.
func engineHerdMode(params calc.Params, m calc.HerdMode, pause func() bool) (sim.HerdRun, bool, error) {
	modes, i := stepOf(params.HerdModes(), m)
	inputs := seriesInputs(work.Herd, params, fmt.Sprint(modes), modes, func(m calc.HerdMode) any { return work.HerdIn{Params: params, Mode: m} })
	run, _, done, err := simulate[sim.HerdRun](work.Herd, inputs, i, pause)
	return run, done, err
}

// engineFluidMode is calc/fluid's Mode in the engine (a herd the simulation cannot run); the
// series is params' modes from m on.
func engineFluidMode(params calc.Params, m calc.HerdMode, pause func() bool) (fluid.Run, bool, error) {
	modes, i := stepOf(params.HerdModes(), m)
	inputs := seriesInputs(work.Fluid, params, fmt.Sprint(modes), modes, func(m calc.HerdMode) any { return work.HerdIn{Params: params, Mode: m} })
	run, _, done, err := simulate[fluid.Run](work.Fluid, inputs, i, pause)
	return run, done, err
}

// engineOverload is calc/sim's OverloadPausing in the engine; the series is params' cases.
func engineOverload(params calc.Params, c calc.OverloadCase, pause func() bool) (sim.OverloadRun, bool, error) {
	cases, i := stepOf(params.OverloadCases(), c)
	inputs := seriesInputs(work.Overload, params, fmt.Sprint(cases), cases, func(c calc.OverloadCase) any { return work.OverloadIn{Params: params, Case: c} })
	out, bytes, done, err := simulate[work.OverloadOut](work.Overload, inputs, i, pause)
	if !done || err != nil {
		return out.Run, done, err
	}
	if out.Layout != work.WindowLayout {
		return out.Run, true, engineError("the engine is of another build than the page: reload the page")
	}
	w, into := work.Windows(out.Windows)
	if bytes.Truthy() && bytes.Length() == len(into) {
		app.CopyBytesToGo(into, bytes)
	} else if len(into) > 0 {
		panic("the engine's reply: its windows' bytes are missing or of another length")
	}
	out.Run.Windows = w
	return out.Run, true, nil
}

// engineContention is contention.RunPausing in the engine. A point of the sweep is a
// series with the sweep's later points; any other call a series of its own.
func engineContention(params calc.Params, n, runs int, modes []contention.Mode, pause func() bool) ([]contention.Result, bool, error) {
	points := []int{n}
	if n >= contention.SweepFrom && n <= contention.SweepTo && (n-contention.SweepFrom)%contention.SweepStep == 0 {
		points = points[:0]
		for k := contention.SweepFrom; k <= contention.SweepTo; k += contention.SweepStep {
			points = append(points, k)
		}
	}
	points, i := stepOf(points, n)
	inputs := seriesInputs(work.Contention, params, fmt.Sprint(points, runs, modes), points, func(k int) any {
		return work.ContentionIn{Params: params, Clients: k, Runs: runs, Modes: modes}
	})
	rs, _, done, err := simulate[[]contention.Result](work.Contention, inputs, i, pause)
	return rs, done, err
}

// stepOf is the series that x is a step of, and x's place in it: series, when x is among
// them, or x alone.
func stepOf[T comparable](series []T, x T) ([]T, int) {
	for i, y := range series {
		if y == x {
			return series, i
		}
	}
	return []T{x}, 0
}

// engineError is why the engine could not do the page's work, or calc's error from it: it
// names the engine where the page is at fault, not the input.
type engineError string

func (e engineError) Error() string { return string(e) }

var (
	errNoWorker   = engineError("this browser runs no Web Worker, where the calculator reads a configuration, writes a library's configuration and runs its simulations")
	errNotStarted = engineError("the engine has not started")
)

// exportNow is the Export panel's library written in place, which the page never does: its
// wasm holds no exporter, and the panel asks the engine (exportSection.ask).
func exportNow(work.ExportIn) (work.Reply[work.ExportOut], bool) {
	return work.Reply[work.ExportOut]{}, false
}

// runHerdNow is the server's pre-render's (engine_other.go), which the browser never does
// (OnPreRender): the page's wasm holds no simulation.
func (h *herdView) runHerdNow(calc.Params) {}
