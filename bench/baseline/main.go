// Command baseline is the smallest go-app v9 page: one component, no inputs, no calculator. make
// bench builds it exactly as app.wasm is built (GOOS=js GOARCH=wasm go build -trimpath
// -ldflags="-s -w") to measure what go-app and the Go runtime cost before the calculator adds
// anything.
//
// As in app/, the server is in a file the wasm does not build (serve.go), so that app.wasm holds
// only what the page runs. Built with -tags singlefile the wasm holds the server too, as in
// go-app's getting-started program, where one main.go both serves and runs the page.
package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// empty renders only the root the bench waits for: <main id="app" data-render="server|wasm">.
type empty struct{ app.Compo }

func (e *empty) Render() app.UI {
	render := "server"
	if app.IsClient {
		render = "wasm"
	}
	return app.Main().ID("app").DataSet("render", render).Body(app.H1().Text("baseline"))
}

func main() {
	app.Route("/", &empty{})
	app.RunWhenOnBrowser()
	serve()
}
