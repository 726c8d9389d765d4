package main

import (
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// warmCode renders the first screen's islands again and again, off the input path, once the
// load's work is done, and drops the markup, so that V8 writes its wasm code cache and the next
// visit starts from it. V8 compiles app.wasm lazily and writes the cache only 2 s after a
// function reaches its top tier, and nothing the page does on a load runs a function long enough
// for that: Chromium then writes no cache, and every visit compiles about 2,000 functions on the
// main thread again (docs/performance.md, "Warm loads and V8's wasm code cache"). The cache V8
// writes holds the functions compiled so far, the first render's among them.
//
// It runs only where the cache pays (codeCacheDue: a visit the service worker answered, once per
// version), in slices of about workSlice, and stops at once when newer work (an edit) starts.
// It changes nothing on the page: the markup goes nowhere.
func (p *page) warmCode(ctx app.Context, gen int64) {
	if p.report == nil || !codeCacheDue() {
		return
	}
	islands := []*island{p.summary, p.results, p.chart, p.modes, p.layers}
	var w strings.Builder
	n := 0
	render := func() {
		w.Reset()
		app.PrintHTML(&w, islands[n%len(islands)].content())
		n++
	}
	ctx.Async(func() {
		defer p.survive(nil, func(fe *calc.FieldError) {
			ctx.Dispatch(func(ctx app.Context) { p.addError(fe) })
		})
		if warmUp(render, &p.workGen, gen) {
			mark("warm-code-done")
			codeCacheWarmed()
		}
	})
}

const (
	// warmRenders is how many island renders the warm-up makes: V8 tiers a function up once it
	// has run about 13 MB of its code (--wasm-tiering-budget). Measured in headless Chromium 156:
	// 550 renders wrote no cache, 1,100 wrote 1.3 MB.
	warmRenders = 1500
	// warmFor bounds the warm-up's time on a slow machine, its slices added up.
	warmFor = 6 * time.Second
	// warmHeap is the most heap (garbage included) the warm-up lets the page reach: the page
	// collects at 64 MiB (gc_js.go), a long task, and the warm-up's garbage must leave room for
	// a person's edits. A cycle of the five islands leaves about 90 KB.
	warmHeap = 40 << 20
)

// warmUp calls render warmRenders times, handing the thread back every workSlice, and reports
// whether it got that far: false when gen stopped being the current work first, when it took
// warmFor, or when the heap reached warmHeap. Each slice ends with the performance mark warm-code.
func warmUp(render func(), current *atomic.Int64, gen int64) bool {
	heap := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/frees:bytes"}}
	roomy := func() bool {
		metrics.Read(heap)
		return heap[0].Value.Uint64()-heap[1].Value.Uint64() < warmHeap
	}
	var spent time.Duration
	start := time.Now()
	for i := 0; i < warmRenders; i++ {
		if d := time.Since(start); d > workSlice {
			spent += d
			mark("warm-code")
			yieldToBrowser()
			start = time.Now()
		}
		if current.Load() != gen || spent > warmFor || !roomy() {
			return false
		}
		render()
	}
	return current.Load() == gen
}
