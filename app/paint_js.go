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
	done := make(chan struct{}, 2)
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
