// Command fileserver serves a folder on 127.0.0.1 as a plain static host would (Go's
// http.FileServer, as the browser tests serve the static site), for scripts/lighthouse.sh.
//
//	go run ./scripts/fileserver -addr 127.0.0.1:8782 -dir site
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8782", "`address` to listen on")
	dir := flag.String("dir", "site", "`folder` to serve")
	flag.Parse()
	log.Printf("serving %s on http://%s/", *dir, *addr)
	log.Fatal(http.ListenAndServe(*addr, http.FileServer(http.Dir(*dir))))
}
