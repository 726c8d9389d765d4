package main

import (
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"backoffcalc/calc/policy"
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
	render := p.warmRender()
	ctx.Async(func() {
		defer p.survive(nil, func(fe *policy.FieldError) {
			ctx.Dispatch(func(ctx app.Context) { p.addError(fe) })
		})
		if warmUp(render, heapRoomyFrom(heapInUse()), &p.workGen, gen) {
			mark("warm-code-done")
			codeCacheWarmed()
		}
	})
}

// warmRender returns the warm-up's render: each call writes the next of the first screen's
// islands into a buffer that goes nowhere, and reads it back as an edit's patch does.
func (p *page) warmRender() func() {
	islands := []*island{p.summary, p.results, p.chart}
	eachPart(p, func(c *reportSection) { islands = append(islands, c.numbers()...) }) // the modes, the layers
	var w strings.Builder
	var tokens markupTokens // its memory reused: no garbage
	n := 0
	return func() {
		w.Reset()
		app.PrintHTML(&w, islands[n%len(islands)].content())
		tokens.read(w.String())
		n++
	}
}

const (
	// warmRenders is how many island renders the warm-up makes: V8 tiers a function up once it
	// has run about 13 MB of its code (--wasm-tiering-budget). Measured in headless Chromium 156
	// at the bench's link: 550 renders wrote no cache, 1,100 and 1,200 wrote 1.3 MB. They take
	// 1–2 s of slices and leave about 24 MiB of garbage.
	warmRenders = 1200
	// warmFor bounds the warm-up's time on a slow machine, its slices added up.
	warmFor = 6 * time.Second
	// warmGarbage is the most heap the warm-up may add to what the page holds when it starts
	// (garbage included, as the page collects only at 64 MiB, gc_js.go): a cycle of the five
	// islands leaves about 100 KB, so 1,200 renders about 24 MiB at the bench's link, 20 MiB
	// before the share reached and the digits that tell totals apart, which stopped the
	// warm-up by the heap at 22 MiB. TestWarmUpGarbage keeps 3 MiB of room. The page's own heap
	// after a load grows with the form, so the bound is on what the warm-up adds, not on the
	// total; warmHeap still bounds the total.
	warmGarbage = 28 << 20
	// warmHeap is the most heap the warm-up lets the page reach: a collection at 64 MiB is a
	// long task, and the herd's 33 MiB must still fit after the warm-up without one.
	warmHeap = 31 << 20
)

// heapInUse is the heap, garbage included.
func heapInUse() uint64 {
	heap := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/frees:bytes"}}
	metrics.Read(heap)
	return heap[0].Value.Uint64() - heap[1].Value.Uint64()
}

// heapRoomyFrom reports whether the heap is under start + warmGarbage, and under warmHeap.
func heapRoomyFrom(start uint64) func() bool {
	limit := min(start+warmGarbage, warmHeap)
	return func() bool { return heapInUse() < limit }
}

// warmUp calls render warmRenders times, handing the thread back every workSlice, and reports
// whether it got that far: false when gen stopped being the current work first, when it took
// warmFor, or when roomy (heapRoomyFrom) said no. Each slice ends with the performance mark
// warm-code; a stop is marked warm-code-stopped-by-work, -time or -heap.
func warmUp(render func(), roomy func() bool, current *atomic.Int64, gen int64) bool {
	// The first slice in a task of its own, not with the work that started the warm-up.
	yieldToBrowser()
	var spent time.Duration
	start := time.Now()
	for i := 0; i < warmRenders; i++ {
		if d := time.Since(start); d > workSlice {
			spent += d
			mark("warm-code")
			yieldToBrowser()
			start = time.Now()
		}
		switch {
		case current.Load() != gen:
			mark("warm-code-stopped-by-work")
			return false
		case spent > warmFor:
			mark("warm-code-stopped-by-time")
			return false
		case !roomy():
			mark("warm-code-stopped-by-heap")
			return false
		}
		render()
	}
	return current.Load() == gen
}
