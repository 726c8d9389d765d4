//go:build js

package main

// What the page does differently from go-app v9.8.0 in the browser (internal/site/goapp.go is
// the server's side): it keeps go-app from reading an address it cannot parse.

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// guardURL makes the page's address parsable before go-app reads it (see parsableURL), and again
// whenever the address changes under the page: a fragment typed in the address bar fires
// popstate, and go-app's own handler, registered after this one, would read the address then.
func guardURL() {
	repairAddress()
	app.Window().Call("addEventListener", "popstate", app.FuncOf(func(app.Value, []app.Value) any {
		repairAddress()
		return nil
	}))
}

// repairAddress replaces the address bar's URL, without a reload or a history entry, when
// url.Parse refuses it.
func repairAddress() {
	href := app.Window().Get("location").Get("href").String()
	if fixed, changed := parsableURL(href); changed {
		history := app.Window().Get("history")
		history.Call("replaceState", history.Get("state"), "", fixed)
	}
}

// guardNav wraps go-app's goappNav, which the page's in-page links and tests call with a URL:
// go-app drops a URL that does not parse, so a link with a stray '%' would do nothing.
func guardNav() {
	nav := app.Window().Get("goappNav")
	app.Window().Set("goappNav", app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) == 0 {
			return nil
		}
		fixed, _ := parsableURL(args[0].String())
		nav.Invoke(fixed)
		return nil // goappNav returns nothing; an app.Value here would not convert back to JS
	}))
}

// keepTypedLink keeps a keystroke's link, which waits for the typing to pause before it is in the
// address, as the page is left (pagehide: Back, a link followed, the tab closed): guard.js puts
// it back in the address when Back or Forward returns to the page. A value typed less than half a
// second before Back was gone when Forward loaded the link again. The address itself cannot be
// written then: a history.replaceState in pagehide no longer reaches the entry being left.
func (p *page) keepTypedLink() {
	if typedPage == nil {
		app.Window().Call("addEventListener", "pagehide", app.FuncOf(func(app.Value, []app.Value) any {
			if p := typedPage; p.queryDue {
				app.Window().Call("backoffcalcKeepTyped", "?"+p.queryText())
			}
			return nil
		}))
	}
	typedPage = p
}

// typedPage is the page mounted last, whose link keepTypedLink's one listener keeps: a page
// mounted again must not add a listener that keeps an older page's link.
var typedPage *page
