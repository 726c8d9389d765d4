package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// The hand-over from the server's page to the wasm's. On serve, the server's HTML shows the
// link's numbers and its form can be typed into before the wasm runs; go-app's first render then
// replaces that whole page with its own (engine.Mount replaces the body's first child), which
// would drop what was typed and the focus. app.js records the typing; the page applies it
// before its first render and puts the focus and the caret back after it.

// takeOver applies what was typed into the server's page before the wasm ran, in the order it
// was typed, as the inputs' handlers would have: its first render then shows the typed values
// and their numbers, and the link follows after the paint (startWork). It reports whether
// anything was typed.
func (p *page) takeOver() bool {
	if !app.IsClient {
		return false
	}
	handOver := app.Window().Get("backoffcalcHandOver")
	if handOver.Type() != app.TypeFunction {
		return false // an app.js from before the hand-over
	}
	typed := handOver.Invoke()
	for i := 0; i < typed.Length(); i++ {
		key, value := typed.Index(i).Get("key").String(), typed.Index(i).Get("value").String()
		switch {
		case key == "preset":
			p.applyPreset(value)
		case p.isInput(key):
			p.apply(key, value)
		}
		// Any other named field is not an input of the calculator's; nothing to apply.
	}
	return typed.Length() > 0
}

// isInput reports whether key is one of the link's keys or an input the link leaves out at its
// default (a model the link does not use): what was typed into it is applied.
func (p *page) isInput(key string) bool {
	_, inLink := p.raw[key]
	_, input := defaultValues[key]
	return inLink || input
}

// keepServerNumbers lets the first render show the server's own markup for the parts that
// sampling fills in, when that markup is this link's: the server's HTML was made for this query
// (guard.js did not mark it stale) and nothing was typed into it. They are the numbers calc
// computed on the server for the same inputs and seed, which the wasm's would repeat: the first
// render neither samples nor writes them again, and nothing on screen goes blank while the wasm
// starts: neither those parts nor the sections the first render leaves for later. Sampling
// follows the paint (startWork), and its refresh replaces them all at once. It reports whether
// it kept them.
//
// On HTML made for another query, what prewrite wrote is kept the same way: the first screen's
// islands hold the markup it wrote, of this page's own report with the policy's samples; the
// other modes' samples follow the paint, and so do the sections below the first screen, which
// are another link's (later).
func (p *page) keepServerNumbers() bool {
	if p.prewritten {
		return true
	}
	doc := app.Window().Get("document")
	if doc.Get("documentElement").Get("classList").Call("contains", "stale-html").Bool() ||
		!doc.Call("querySelector", `#app[data-render="server"]`).Truthy() {
		return false
	}
	parts := p.keptNumbers()
	markup := make([]string, len(parts))
	for i, part := range parts {
		el := app.Window().GetElementByID(part.id)
		if !el.Truthy() || el.Call("hasAttribute", "data-pending").Bool() {
			return false // the server's page is not the one this version renders
		}
		markup[i] = el.Get("innerHTML").String()
	}
	for i, part := range parts {
		part.keep(markup[i])
	}
	p.keepSections()
	return true
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
