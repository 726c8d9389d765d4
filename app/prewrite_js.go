//go:build js

package main

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"backoffcalc/calc/policy"
)

// prewrite writes the link's first screen into HTML made for another query (guard.js marked it
// stale-html), with app.js's backoffcalcPrewrite, then lets the browser paint it before go-app's
// first render holds the thread. It returns the page it loaded, for go-app's first route, or nil
// when the HTML is this link's (the hand-over keeps the server's numbers) or the link has errors
// (the page stays hidden until the wasm's render, as guard.js left it).
func prewrite() *page {
	root := app.Window().Get("document").Get("documentElement")
	write := app.Window().Get("backoffcalcPrewrite")
	u := app.Window().URL()
	if u == nil || write.Type() != app.TypeFunction || !root.Get("classList").Call("contains", "stale-html").Bool() {
		return nil
	}
	mark("prewrite")
	p, parts, fields, open, ok := firstScreen(u.RawQuery)
	if !ok {
		return nil
	}
	p.prewritten = p.write(write, parts, fields, open)
	mark("prewritten")
	if p.prewritten {
		afterPaint()
	}
	return p
}

// write calls backoffcalcPrewrite and reports whether it wrote the page. A JavaScript exception
// would be a panic here, before go-app has started: go-app's start follows it as without the
// pre-write, and app.css shows nothing of a page that was not marked whole.
func (p *page) write(write app.Value, parts, fields, open []any) (ok bool) {
	defer p.survive(nil, func(*policy.FieldError) { ok = false })
	return write.Invoke(parts, fields, open).Bool()
}
