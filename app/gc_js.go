//go:build js

package main

import "runtime/debug"

// In wasm a garbage collection, once started, holds the thread until it is done: 50–90 ms here,
// a long task in whichever herd run or edit crosses the heap goal. The page collects only when
// its memory reaches 64 MiB: in the bench no herd run had a task over 50 ms then, against one
// per run at 2× or 5× the live heap. Wasm never gives memory back, so the page holds up to that
// much; the live heap stays under about 30 MiB even at the herd's and the samples' limits (the
// buffers kept for reuse included), which leaves room for the garbage of a hundred edits.
func init() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(64 << 20)
}
