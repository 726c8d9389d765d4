//go:build js

// Command engine is one of the page's Web Workers, built as web/engine.wasm and started by
// web/engine.js: it does the work that the page hands it (app/internal/engine), one request at a
// time in the order they came, and posts each reply with the request's id. Between the steps of
// a simulation it hands its thread back to its event loop now and then, so that the page's
// cancel of a request it no longer wants (a newer edit) arrives and stops the work.
package main

import (
	"sync"
	"syscall/js"
	"time"

	"backoffcalc/app/internal/engine"
)

// request is a piece of work the page posted.
type request struct {
	id          int
	kind, input string
}

// slice is how long the work runs before the worker looks at its messages.
const slice = 20 * time.Millisecond

var (
	mu        sync.Mutex
	queue     []request
	cancelled = map[int]bool{}
	more      = make(chan struct{}, 1) // a request came into queue
	woke      = make(chan struct{}, 1) // the event loop ran (yield)
)

func main() {
	self := js.Global()
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := args[0].Get("data")
		mu.Lock()
		if c := msg.Get("cancel"); c.Truthy() {
			cancelled[c.Int()] = true
		} else {
			queue = append(queue, request{msg.Get("id").Int(), msg.Get("kind").String(), msg.Get("input").String()})
		}
		mu.Unlock()
		select {
		case more <- struct{}{}:
		default:
		}
		return nil
	}))
	// A message through this channel is a task of the worker's event loop: posting one and
	// waiting for it lets every message that came before it run first.
	loop := js.Global().Get("MessageChannel").New()
	loop.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		woke <- struct{}{}
		return nil
	}))
	yield := func() {
		loop.Get("port2").Call("postMessage", nil)
		<-woke
	}
	go serve(self, yield)
	select {} // the worker lives as long as the page
}

// serve does the queue's requests one at a time.
func serve(self js.Value, yield func()) {
	last := time.Now()
	for {
		if time.Since(last) > slice {
			yield() // cancels that came while the last request ran
			last = time.Now()
		}
		mu.Lock()
		if len(queue) == 0 {
			mu.Unlock()
			<-more
			continue
		}
		req := queue[0]
		queue = queue[1:]
		mu.Unlock()
		wanted := func() bool {
			mu.Lock()
			defer mu.Unlock()
			return !cancelled[req.id]
		}
		pause := func() bool {
			if time.Since(last) > slice {
				yield()
				last = time.Now()
			}
			return wanted()
		}
		reply, bytes, done := "", []byte(nil), false
		if wanted() {
			reply, bytes, done = engine.Handle(req.kind, req.input, pause)
		}
		mu.Lock()
		delete(cancelled, req.id)
		mu.Unlock()
		switch {
		case done && bytes != nil:
			// The bytes' buffer is transferred, not copied a second time.
			a := js.Global().Get("Uint8Array").New(len(bytes))
			js.CopyBytesToJS(a, bytes)
			self.Call("postMessage", map[string]any{"id": req.id, "reply": reply, "bytes": a}, []any{a.Get("buffer")})
		case done:
			self.Call("postMessage", map[string]any{"id": req.id, "reply": reply})
		default:
			self.Call("postMessage", map[string]any{"id": req.id, "cancelled": true})
		}
	}
}
