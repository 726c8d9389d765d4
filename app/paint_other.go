//go:build !js

package main

import "runtime"

// afterPaint has no browser to wait for outside wasm.
func afterPaint() {}

// yieldToBrowser lets other goroutines run; outside wasm there is no browser to wait for.
func yieldToBrowser() { runtime.Gosched() }
