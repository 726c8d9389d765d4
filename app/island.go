package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

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
	switch {
	case !i.Mounted():
		// Render will read the content when the island is mounted, not markup kept before.
		i.waiting, i.written = false, false
	case app.IsClient:
		i.waiting = false
		i.markup = app.HTMLString(i.content())
		i.JSValue().Set("innerHTML", i.markup)
		i.JSValue().Call("removeAttribute", "data-pending")
	default:
		i.Update()
	}
}
