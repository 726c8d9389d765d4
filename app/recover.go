package main

import (
	"fmt"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// survive is the page's one recover. It is deferred around every piece of the page's code that
// the browser runs: event handlers (recovering), island renders (guarded), the report's
// computation (compute) and the work off the input path (startWork). In wasm a panic ends the
// program and the page stops answering; no input makes the page's code panic (calc reports bad
// inputs as errors), so a panic is a bug, and survive hands show an error that asks for the link
// to be reported: the link of params, or of the last valid report when params is nil. The page
// keeps taking input.
func (p *page) survive(params *calc.Params, show func(*policy.FieldError)) {
	r := recover()
	if r == nil {
		return
	}
	at := calc.Default()
	switch {
	case params != nil:
		at = *params
	case p.report != nil:
		at = p.report.Params
	}
	show(&policy.FieldError{Key: "query", Value: p.fit.open.Query(at), Err: fmt.Errorf("internal error, please report this link: %v", r)})
}

// addError shows fe in the page's alert.
func (p *page) addError(fe *policy.FieldError) { p.errs = append(p.errs, fe) }

// recovering returns h with the page's recover.
func (p *page) recovering(h app.EventHandler) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer p.survive(nil, p.addError)
		h(ctx, e)
	}
}

// guarded returns render with the page's recover: islands are also written from dispatched work.
// The island then shows the error in place of its content.
func (p *page) guarded(render func() app.UI) func() app.UI {
	return func() (ui app.UI) {
		defer p.survive(nil, func(fe *policy.FieldError) {
			p.addError(fe)
			ui = app.P().Role("alert").Text(fieldMessage(fe))
		})
		return render()
	}
}
