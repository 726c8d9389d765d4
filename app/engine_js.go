//go:build js

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// engineWorker is the page's Web Worker (web/engine.js, running web/engine.wasm): the work that
// would hold the page's thread for hundreds of milliseconds, or bring code the first screen does
// not need into the page's wasm, runs there (app/internal/engine). It starts on the first work
// handed to it, or once the load's own work is done (startEngine), whichever comes first.
type engineWorker struct {
	worker  app.Value
	next    int
	waiting map[int]func(reply string, err error)
	failed  error // why the worker could not start or went down; every call fails with it after
}

// startEngine starts the worker if it has not started.
func (p *page) startEngine(ctx app.Context) {
	e := &p.engine
	if e.worker != nil || e.failed != nil {
		return
	}
	e.waiting = map[int]func(string, error){}
	ctor := app.Window().Get("Worker")
	if !ctor.Truthy() {
		e.failed = errNoWorker
		return
	}
	e.worker = ctor.New(ctx.ResolveStaticResource("/web/engine.js"))
	e.worker.Set("onmessage", app.FuncOf(func(_ app.Value, args []app.Value) any {
		msg := args[0].Get("data")
		if f := msg.Get("failed"); f.Truthy() {
			e.fail(engineError("the engine did not start: " + f.String()))
			return nil
		}
		id := msg.Get("id").Int()
		if done, ok := e.waiting[id]; ok {
			delete(e.waiting, id)
			done(msg.Get("reply").String(), nil)
		}
		return nil
	}))
	// A script that does not load (a 404, a page moved) or a crash of its Go program.
	e.worker.Set("onerror", app.FuncOf(func(_ app.Value, args []app.Value) any {
		what := "its script did not load"
		if m := args[0].Get("message"); m.Truthy() {
			what = m.String()
		}
		e.fail(engineError("the engine stopped: " + what))
		return nil
	}))
}

// fail ends every call waiting, and every later one, with err.
func (e *engineWorker) fail(err error) {
	e.failed = err
	for id, done := range e.waiting {
		delete(e.waiting, id)
		done("", err)
	}
}

// callEngine hands the worker one piece of work of kind (app/internal/work) on input; done gets its reply, on
// go-app's loop, in the order the calls were made.
func (p *page) callEngine(ctx app.Context, kind, input string, done func(ctx app.Context, reply string, err error)) {
	p.startEngine(ctx)
	e := &p.engine
	back := func(reply string, err error) {
		ctx.Dispatch(func(ctx app.Context) { done(ctx, reply, err) })
	}
	if e.failed != nil {
		back("", e.failed)
		return
	}
	e.next++
	e.waiting[e.next] = back
	e.worker.Call("postMessage", map[string]any{"id": e.next, "kind": kind, "input": input})
}

// engineError is why the worker cannot do the page's work: it names the worker, so that the
// field's message says that the page, not the input, is at fault.
type engineError string

func (e engineError) Error() string { return string(e) }

var errNoWorker = engineError("this browser runs no Web Worker, where the calculator reads a configuration")
