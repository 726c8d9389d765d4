//go:build !js

package main

// afterPaint has no browser to wait for outside wasm.
func afterPaint() {}
