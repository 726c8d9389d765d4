//go:build js

package main

import "runtime/debug"

// In wasm a garbage collection, once started, holds the thread until it is done: 50–90 ms here,
// one long task in whichever run crosses the heap goal. Collecting at 5× the live heap instead
// of 2× makes that rarer (no 10000-client herd run had one in the bench, against one in each
// with the default), and the limit keeps the page's memory, which wasm never gives back, under
// 64 MiB; the live heap is under 20 MiB even at the herd's and the samples' limits.
func init() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(64 << 20)
}
