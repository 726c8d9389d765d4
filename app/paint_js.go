//go:build js

package main

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// afterPaint returns once the browser has painted the next frame: an animation frame's callback
// runs just before the paint, and a task it queues runs after it. A hidden tab has no frames, so
// it also returns after 100 ms.
func afterPaint() {
	done := make(chan struct{}, 1) // the callback must not block once afterPaint has timed out
	var frame, painted app.Func
	painted = app.FuncOf(func(app.Value, []app.Value) any {
		done <- struct{}{}
		// Both have run: neither can be called again (a released one would end the program).
		frame.Release()
		painted.Release()
		return nil
	})
	frame = app.FuncOf(func(app.Value, []app.Value) any {
		app.Window().Call("setTimeout", painted, 0)
		return nil
	})
	app.Window().Call("requestAnimationFrame", frame)
	select {
	case <-done:
	case <-time.After(100 * time.Millisecond):
	}
}

// yieldToBrowser returns after the browser has run the tasks waiting for the thread: input,
// timers, a frame if one is due. Under wasm, Go hands the thread back only when no goroutine
// can run; a time.Sleep does not do it when other work (a dispatch, go-app's frame) outlasts the
// sleep, and long runs then held the thread for 150–330 ms. A message posted to a channel is
// a task of its own, behind those already queued, and it is not clamped like a nested timeout.
func yieldToBrowser() {
	done := make(chan struct{}, 1)
	ch := app.Window().Get("MessageChannel").New()
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		done <- struct{}{}
		f.Release()
		return nil
	})
	ch.Get("port1").Set("onmessage", f)
	ch.Get("port2").Call("postMessage", nil)
	<-done
	ch.Get("port1").Call("close")
}
