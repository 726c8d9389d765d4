package main

import (
	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// recovering returns h with a recover. In wasm a panic ends the program and the page stops
// answering; no input makes the page's code panic (calc reports bad inputs as errors), so a panic
// is a bug, and it becomes an error in the page's alert, for the last valid inputs, while the
// page keeps taking input. recoverAsync does the same for the work off the input path.
func (p *page) recovering(h app.EventHandler) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer func() {
			if r := recover(); r != nil {
				params := calc.Default()
				if p.report != nil {
					params = p.report.Params
				}
				p.errs = append(p.errs, internalError(params, r))
			}
		}()
		h(ctx, e)
	}
}
