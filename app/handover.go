package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The hand-over from the server's page to the wasm's. On serve, the server's HTML shows the
// link's numbers and its form can be typed into before the wasm runs; go-app's first render then
// replaces that whole page with its own (engine.Mount replaces the body's first child), which
// would drop what was typed and the focus. app.js records the typing; the page applies it
// before its first render and puts the focus and the caret back after it.

// takeOver applies what was typed into the server's page before the wasm ran, in the order it
// was typed, as the inputs' handlers would have: its first render then shows the typed values
// and their numbers, and the link follows after the paint (startWork).
func (p *page) takeOver() {
	if !app.IsClient {
		return
	}
	handOver := app.Window().Get("backoffcalcHandOver")
	if handOver.Type() != app.TypeFunction {
		return // an app.js from before the hand-over
	}
	typed := handOver.Invoke()
	for i := 0; i < typed.Length(); i++ {
		key, value := typed.Index(i).Get("key").String(), typed.Index(i).Get("value").String()
		switch _, known := p.raw[key]; {
		case key == "preset":
			p.applyPreset(value)
		case known:
			p.apply(key, value)
		}
		// Any other named field is not an input of the calculator's; nothing to apply.
	}
}

// restoreFocus gives the focus back to the element that had it in the server's page, with its
// caret (app.js), once the wasm's page is in the document.
func restoreFocus() {
	if !app.IsClient {
		return
	}
	if restore := app.Window().Get("backoffcalcRestoreFocus"); restore.Type() == app.TypeFunction {
		restore.Invoke()
	}
}
