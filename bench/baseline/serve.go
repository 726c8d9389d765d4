//go:build !js || singlefile

package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// serve is `baseline [-addr 127.0.0.1:0]`, run in a directory holding web/app.wasm and the icons
// web/icon.png and web/icon.svg (local, so that nothing is fetched from another host). It prints
// "serving http://ADDR/" once listening.
func serve() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("serving http://%s/\n", ln.Addr())
	http.Handle("/", &app.Handler{
		Name:  "baseline",
		Title: "baseline",
		Icon:  app.Icon{Default: "/web/icon.png", Large: "/web/icon.png", SVG: "/web/icon.svg"},
	})
	fmt.Fprintln(os.Stderr, http.Serve(ln, nil))
	os.Exit(1)
}
