// Command backoffcalc is a retry backoff calculator: a go-app page compiled to
// WebAssembly, and the native binary that serves it, writes it as a static
// site, or prints a schedule in the terminal.
package main

import (
	"os"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// build names this build when set with -ldflags "-X main.build=NAME": the wasm's render writes
// it into the page (data-build), so that a test can tell which build a page runs.
var build string

func main() {
	route()
	guardURL() // before go-app reads the address
	// The link's first screen, on HTML made for another link, before go-app's first render.
	prewritten = prewrite()
	// In the browser RunWhenOnBrowser runs the page and never returns; in the
	// native binary it returns at once and the command line takes over.
	app.RunWhenOnBrowser()
	os.Exit(runCommand(os.Args[1:], os.Stdout, os.Stderr))
}

// route maps URLs to components. The tests call it too, as they do not run
// main.
func route() {
	// go-app asks for the page once it has started: what follows is our OnInit and first render.
	app.RouteFunc("/", func() app.Composer {
		mark("route")
		if p := prewritten; p != nil {
			prewritten = nil // the load's page only: a later navigation gets a new one
			return p
		}
		return newPage()
	})
}
