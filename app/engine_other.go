//go:build !js

package main

import (
	"backoffcalc/app/internal/engine"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// engineWorker is the browser's Web Worker (engine_js.go); natively the work is done in place,
// through the same replies, so that the component tests see what the page shows.
type engineWorker struct{}

func (p *page) startEngine(app.Context) {}

// callEngine does the work at once: done has its reply before callEngine returns.
func (p *page) callEngine(ctx app.Context, kind, input string, done func(ctx app.Context, reply string, err error)) {
	done(ctx, engine.Handle(kind, input), nil)
}
