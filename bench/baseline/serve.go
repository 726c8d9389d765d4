//go:build !js || singlefile

package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// serve is `baseline [-addr 127.0.0.1:0] [-precompressed]`, run in a directory holding
// web/app.wasm and the icons web/icon.png and web/icon.svg (local, so that nothing is fetched
// from another host). It prints "serving http://ADDR/" once listening.
//
// go-app's Handler sends app.wasm as it is (7 MB). With -precompressed it sends
// web/app.wasm.br or web/app.wasm.gz instead to a browser that accepts them, as backoffcalc's
// serve does with its own app.wasm: the bench's network phase compares like with like.
func serve() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	pre := flag.Bool("precompressed", false, "send web/app.wasm.br or .gz to browsers that accept them")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("serving http://%s/\n", ln.Addr())
	var h http.Handler = &app.Handler{
		Name:  "baseline",
		Title: "baseline",
		Icon:  app.Icon{Default: "/web/icon.png", Large: "/web/icon.png", SVG: "/web/icon.svg"},
	}
	if *pre {
		h = precompressed(h)
	}
	fmt.Fprintln(os.Stderr, http.Serve(ln, h))
	os.Exit(1)
}

// precompressed answers /web/app.wasm with its brotli or gzip copy when the browser accepts it
// (any mention of the coding: browsers send no weights of 0), and leaves the rest to next.
func precompressed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/web/app.wasm" {
			next.ServeHTTP(w, r)
			return
		}
		accept := r.Header.Get("Accept-Encoding")
		for _, c := range []struct{ token, ext, name string }{{"br", ".br", "br"}, {"gzip", ".gz", "gzip"}} {
			if !strings.Contains(accept, c.token) {
				continue
			}
			body, err := os.ReadFile("web/app.wasm" + c.ext)
			if err != nil {
				continue
			}
			w.Header().Set("Content-Type", "application/wasm")
			w.Header().Set("Content-Encoding", c.name)
			w.Header().Set("Vary", "Accept-Encoding")
			w.Write(body)
			return
		}
		w.Header().Set("Vary", "Accept-Encoding")
		next.ServeHTTP(w, r)
	})
}
