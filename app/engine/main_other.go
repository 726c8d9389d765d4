//go:build !js

// Command engine runs only in a browser, as the page's Web Worker: build it with
// GOOS=js GOARCH=wasm (make wasm). Natively the page calls app/internal/engine directly.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "engine: the page's Web Worker runs in a browser: build it with GOOS=js GOARCH=wasm (make wasm)")
	os.Exit(2)
}
