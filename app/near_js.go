//go:build js

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// whenNear calls f once, on go-app's loop, when the element id comes within a screen of the
// viewport (an IntersectionObserver), or at once when the browser has no IntersectionObserver.
func whenNear(ctx app.Context, id string, f func(app.Context)) {
	el := app.Window().GetElementByID(id)
	ctor := app.Window().Get("IntersectionObserver")
	if !el.Truthy() || !ctor.Truthy() {
		f(ctx)
		return
	}
	var cb app.Func
	var obs app.Value
	cb = app.FuncOf(func(this app.Value, args []app.Value) any {
		entries := args[0]
		for i := 0; i < entries.Length(); i++ {
			if entries.Index(i).Get("isIntersecting").Bool() {
				obs.Call("disconnect")
				cb.Release()
				ctx.Dispatch(f)
				return nil
			}
		}
		return nil
	})
	obs = ctor.New(cb, map[string]any{"rootMargin": "100% 0px"})
	obs.Call("observe", el)
}
