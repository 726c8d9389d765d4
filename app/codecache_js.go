//go:build js

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// codeCacheKey is the localStorage key holding the version whose code cache the page warmed.
const codeCacheKey = "backoffcalc:code-cache"

// codeCacheDue reports whether the warm-up pays on this visit: the service worker answered the
// page, so app.wasm came from its Cache Storage, where Chromium keeps the code cache of that
// copy, the one later visits read (a cold visit's app.wasm comes from the network, and its cache
// would sit with the HTTP cache's copy, which no later visit reads); and this version has not
// been warmed up yet. Without storage it is due on every such visit.
func codeCacheDue() (due bool) {
	sw := app.Window().Get("navigator").Get("serviceWorker")
	if !sw.Truthy() || !sw.Get("controller").Truthy() {
		return false
	}
	defer func() {
		if recover() != nil { // a browser may refuse localStorage (a thrown SecurityError)
			due = true
		}
	}()
	s := app.Window().Get("localStorage")
	return !s.Truthy() || s.Call("getItem", codeCacheKey).String() != app.Getenv("GOAPP_VERSION")
}

// codeCacheWarmed records that this version's warm-up ran to its end.
func codeCacheWarmed() {
	defer func() { recover() }() // no storage: the next visit warms up again
	if s := app.Window().Get("localStorage"); s.Truthy() {
		s.Call("setItem", codeCacheKey, app.Getenv("GOAPP_VERSION"))
	}
}
