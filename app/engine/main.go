//go:build js

// Command engine is the page's Web Worker, built as web/engine.wasm and started by web/engine.js:
// it does the work that the page hands it (app/internal/engine), one message at a time, in
// the order they came, and posts each reply with the request's id.
package main

import (
	"syscall/js"

	"backoffcalc/app/internal/engine"
)

func main() {
	self := js.Global()
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		req := args[0].Get("data")
		reply := engine.Handle(req.Get("kind").String(), req.Get("input").String())
		self.Call("postMessage", map[string]any{"id": req.Get("id"), "reply": reply})
		return nil
	}))
	select {} // the worker lives as long as the page
}
