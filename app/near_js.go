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

// skipFarSections lets the browser skip the style, layout and paint of the sections below the
// schedule while they are far from the viewport (content-visibility, app.css), from the second
// frame after the call. The first frame lays them all out, so each has a remembered height
// (contain-intrinsic-size: auto) and the page above a fragment's section keeps its height. An
// edit rewrites every section's numbers; laying them all out made the frame after it 47–55 ms.
func skipFarSections() {
	var f app.Func
	frames := 0
	f = app.FuncOf(func(app.Value, []app.Value) any {
		if frames++; frames < 2 {
			app.Window().Call("requestAnimationFrame", f)
			return nil
		}
		f.Release()
		app.Window().Get("document").Get("documentElement").Get("classList").Call("add", "skip-far")
		return nil
	})
	app.Window().Call("requestAnimationFrame", f)
}

// pinFragment scrolls to the section of the element id (the section a link's fragment names, or
// the heading a link of the table of contents focuses) and keeps it in view while the sections
// above it fill in, until the person scrolls, clicks or touches (backoffcalcPin, app.js).
func pinFragment(id string) {
	if pin := app.Window().Get("backoffcalcPin"); pin.Type() == app.TypeFunction {
		pin.Invoke(id)
	} else if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("scrollIntoView")
	}
}

// watchView calls f with whether el is in the viewport, as an IntersectionObserver says after
// each layout that changes it, until stop. Without an IntersectionObserver f is never called.
func watchView(el app.Value, f func(in bool)) (stop func()) {
	ctor := app.Window().Get("IntersectionObserver")
	if !el.Truthy() || !ctor.Truthy() {
		return func() {}
	}
	cb := app.FuncOf(func(this app.Value, args []app.Value) any {
		entries := args[0]
		if n := entries.Length(); n > 0 {
			f(entries.Index(n - 1).Get("isIntersecting").Bool()) // the last is the newest
		}
		return nil
	})
	obs := ctor.New(cb)
	obs.Call("observe", el)
	return func() {
		obs.Call("disconnect")
		cb.Release()
	}
}
