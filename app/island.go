package main

import (
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// island is a part of the page that only shows numbers: it has no event handlers, and Go writes
// it whole, as markup. go-app mounts it once; after that, refresh replaces its content in the
// same task as the input that changed it. Left to go-app, an edit would show on its next frame
// tick (8 ms after the input) and then be compared node by node through syscall/js: 20–70 ms
// per edit at the defaults, and long tasks while the herd came in (docs/performance.md).
type island struct {
	app.Compo

	id      string
	content func() app.UI // what the island shows now
	live    bool          // a screen reader reads out what changes (aria-live="polite")
	// inPlace: refresh sets only the texts and attributes that changed (patch.go). Only for
	// an island whose DOM nothing but refresh and go-app's mount writes: the patch takes the
	// DOM to be what the browser built of markup.
	inPlace bool
	// With inPlace, in the browser: the tokens of markup, and a spare set for the next markup's.
	tokens, spare markupTokens

	// offScreenWaits: in an input's task, the island waits for the paint while it is off the
	// screen (refreshFor). offScreen is what an IntersectionObserver last said, due that a
	// refresh waits (catchUp).
	offScreenWaits bool
	offScreen      atomic.Bool
	due            bool
	unwatch        func()

	// In the browser, the markup the island shows. go-app renders every component once more on
	// the frame after mounting it: that render writes this again rather than compute the
	// content a second time (and takes back no markup kept from the server's page).
	markup  string
	written bool // markup is set
	waiting bool // pending: the content is not yet for the current inputs
}

func newIsland(id string, content func() app.UI) *island {
	return &island{id: id, content: content}
}

// Render computes the content when go-app mounts the island (and on the server, or natively in
// tests, at every refresh). One piece of markup is one node for go-app to create. Its class
// "numbers" tells app.css that it shows numbers: HTML made for another query hides them.
func (i *island) Render() app.UI {
	if !i.written || !app.IsClient {
		i.markup, i.written = app.HTMLString(i.content()), app.IsClient
	}
	attrs := ""
	if i.live {
		attrs = ` aria-live="polite"`
	}
	if i.waiting && app.IsClient {
		attrs += ` data-pending="inputs"`
	}
	return app.Raw(`<div id="` + i.id + `" class="numbers"` + attrs + `>` + i.markup + `</div>`)
}

// keep makes the first render show markup, the server's, instead of computing the content.
func (i *island) keep(markup string) { i.markup, i.written = markup, true }

// polite makes the island a live region: a status that a screen reader reads out as it changes.
func (i *island) polite() *island {
	i.live = true
	return i
}

// patched makes refresh keep the island's elements when the new markup builds the same ones,
// and set only what changed: an edit then costs the browser no parse, and a table scrolled
// sideways or a focused element in it stays as it was.
func (i *island) patched() *island {
	i.inPlace = true
	return i
}

// waitsOffScreen makes refreshFor leave the island for after the paint while it is off the
// screen: below the window, the jitter modes' table was an eighth of an edit's time, and the
// start chart under the schedule, on a phone's window, a twelfth.
func (i *island) waitsOffScreen() *island {
	i.offScreenWaits = true
	return i
}

// OnMount watches whether an island that waits off the screen is on it.
func (i *island) OnMount(ctx app.Context) {
	if i.offScreenWaits && app.IsClient {
		i.unwatch = watchView(i.JSValue(), func(in bool) { i.offScreen.Store(!in) })
	}
}

// OnDismount stops the watch: a new mount watches its own element.
func (i *island) OnDismount() {
	if i.unwatch != nil {
		i.unwatch()
		i.unwatch = nil
	}
	i.offScreen.Store(false)
}

// refreshFor is refresh, but in an input's task (input), whose numbers the browser paints when
// the task ends, an island that waits off the screen, and is, is only marked pending (app.css
// hides its content, keeping its height) until catchUp, after the paint.
func (i *island) refreshFor(input bool) {
	if input && i.offScreen.Load() { // only ever set while mounted in a browser (OnMount)
		i.due = true
		i.pending()
		return
	}
	i.refresh()
}

// catchUp refreshes the island if refreshFor left it for later.
func (i *island) catchUp() {
	if i.due {
		i.refresh()
	}
}

// pending marks the island's content as not yet updated for the current inputs, until the next
// refresh: app.css hides it. An island mounted later (later) is mounted so marked.
func (i *island) pending() {
	i.waiting = true
	if app.IsClient && i.Mounted() {
		i.JSValue().Call("setAttribute", "data-pending", "inputs")
	}
}

// refresh shows the current content. In the browser it writes the island's DOM directly: go-app
// renders the island again only to get the same markup, so it never compares or touches its
// children. Elsewhere (the server, component tests) it lets go-app render it.
func (i *island) refresh() {
	i.due = false
	switch {
	case !i.Mounted():
		// Render will read the content when the island is mounted, not markup kept before.
		i.waiting, i.written = false, false
	case app.IsClient:
		i.waiting = false
		markup := app.HTMLString(i.content())
		if markup != i.markup && !i.patch(markup) {
			i.JSValue().Set("innerHTML", markup)
		}
		i.markup = markup
		i.JSValue().Call("removeAttribute", "data-pending")
	default:
		i.Update()
	}
}

// patch sets in the island's DOM what differs between its markup and markup, and reports
// whether it could (app.js's backoffcalcPatch checks that the DOM has the elements it expects).
func (i *island) patch(markup string) bool {
	if !i.inPlace {
		return false
	}
	if i.tokens.of != i.markup {
		i.tokens.read(i.markup)
	}
	patch, ok := "", i.spare.read(markup) && i.tokens.ok
	if ok {
		patch, ok = i.tokens.patchTo(&i.spare)
	}
	i.tokens, i.spare = i.spare, i.tokens // markup's, whether or not the DOM takes the patch
	return ok && app.Window().Call("backoffcalcPatch", i.JSValue(), patch).Bool()
}
