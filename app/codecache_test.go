//go:build !js

package main

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// The warm-up makes its renders, and says so.
func TestWarmUpRendersItsCount(t *testing.T) {
	var gen atomic.Int64
	gen.Store(1)
	n := 0
	if !warmUp(func() { n++ }, roomy, &gen, 1) {
		t.Fatal("warmUp stopped with no newer work")
	}
	if n != warmRenders {
		t.Errorf("%d renders, want %d", n, warmRenders)
	}
}

// Newer work stops the warm-up before its next render, and it reports that it did not finish.
func TestWarmUpStopsForNewerWork(t *testing.T) {
	var gen atomic.Int64
	gen.Store(1)
	n := 0
	render := func() {
		if n++; n == 10 {
			gen.Add(1) // an edit, while the warm-up had the thread
		}
	}
	if warmUp(render, roomy, &gen, 1) {
		t.Error("warmUp says it finished although newer work started")
	}
	if n != 10 {
		t.Errorf("%d renders, want 10: none after the edit", n)
	}
	n = 0
	if warmUp(render, roomy, &gen, 1) || n != 0 {
		t.Errorf("warmUp ran %d renders for a stale generation", n)
	}
}

// Its time is bounded: renders that each hold the thread for a workSlice (a slice each) stop
// once their slices add up to warmFor (600 of them, half of warmRenders), and it reports that it did not
// finish. A loaded machine only makes each render longer, and the renders fewer; how long the
// warm-up took is not asserted (make bench's coldstart phase measures its slices).
func TestWarmUpSlices(t *testing.T) {
	var gen atomic.Int64
	gen.Store(1)
	n := 0
	done := warmUp(func() { n++; time.Sleep(workSlice) }, roomy, &gen, 1)
	if most := int(warmFor/workSlice) + 2; done || n > most {
		t.Errorf("warmUp made %d renders of %v (done: %v), beyond its bound of %v: %d at most", n, workSlice, done, warmFor, most)
	}
}

// A heap near the page's collection stops it before the next render.
func TestWarmUpStopsForHeap(t *testing.T) {
	var gen atomic.Int64
	gen.Store(1)
	n := 0
	if warmUp(func() { n++ }, func() bool { return n < 7 }, &gen, 1) || n != 7 {
		t.Errorf("warmUp made %d renders with room for 7, and says it finished", n)
	}
}

// roomy is a heap that always has room.
func roomy() bool { return true }

// Natively there is no code cache: the page never starts the warm-up.
func TestWarmCodeNotDueNatively(t *testing.T) {
	if codeCacheDue() {
		t.Error("codeCacheDue outside wasm")
	}
}

// The warm-up's renders of the bench's link stay within the garbage it may add: past it the
// page's warm-up stops by the heap, and writes no code cache (TestWarmCode, in the browser).
// Allocation, not time: the same natively as in wasm to within the pointer-free strings.
func TestWarmUpGarbage(t *testing.T) {
	p, _ := navPage(t, "base=250ms&attempts=8&jitter=equal")
	render := p.warmRender()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range warmRenders {
		render()
	}
	runtime.ReadMemStats(&after)
	if made := after.TotalAlloc - before.TotalAlloc; made > warmGarbage-3<<20 {
		t.Errorf("%d renders allocate %d KiB, within 3 MiB of the %d KiB the warm-up may add", warmRenders, made>>10, warmGarbage>>10)
	}
}
