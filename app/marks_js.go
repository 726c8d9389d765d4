//go:build js

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The page's steps of a cold start, as performance marks, so that make bench (its coldstart and
// trace phases) can tell the Go runtime's start and go-app's from our own first render. A mark
// costs microseconds and nothing reads it but the bench and DevTools.

// init runs once the Go runtime and every package's init have run: main is next.
func init() { mark("go-init") }

// mark adds the performance mark "backoffcalc:"+name.
func mark(name string) {
	if perf := app.Window().Get("performance"); perf.Truthy() && perf.Get("mark").Truthy() {
		perf.Call("mark", "backoffcalc:"+name)
	}
}
