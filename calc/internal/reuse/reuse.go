package reuse

import "sync"

// Kept holds one *T between calls for reuse. Unlike a sync.Pool it keeps it across garbage
// collections: a Pool empties after two of them, and the page then reallocated a herd's tens of
// megabytes of buffers, which brought on the next collection, one that in wasm runs without a
// break while the page waits. A caller that finds it taken gets a new T.
type Kept[T any] struct {
	mu sync.Mutex
	v  *T
}

// Get takes the kept *T, or a new one if there is none.
func (k *Kept[T]) Get() *T {
	k.mu.Lock()
	v := k.v
	k.v = nil
	k.mu.Unlock()
	if v == nil {
		v = new(T)
	}
	return v
}

// Put keeps v unless one is kept already.
func (k *Kept[T]) Put(v *T) {
	k.mu.Lock()
	if k.v == nil {
		k.v = v
	}
	k.mu.Unlock()
}

// Grow returns a with length n, reusing its memory if it can.
func Grow[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	return a[:n]
}
