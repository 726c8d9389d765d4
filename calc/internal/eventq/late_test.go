package eventq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLateHeap: keys pushed in any order, with pops in between, come out least first, each
// with its slot.
func TestLateHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 3, 10, 1000} {
		var h []Late
		var left []uint64 // keys pushed and not yet popped
		pop := func() {
			want := slices.Min(left)
			got := h[0]
			h = PopLate(h)
			if got.Key != want || got.Slot != int(got.Key%1000) {
				t.Fatalf("n=%d: popped %+v, want key %d", n, got, want)
			}
			left = slices.Delete(left, slices.Index(left, want), slices.Index(left, want)+1)
		}
		for i := range n {
			k := r.Uint64N(50) // repeats, so that equal keys are ordered too
			h = PushLate(h, Late{k, int(k % 1000)})
			left = append(left, k)
			if i%3 == 2 {
				pop()
			}
		}
		for len(left) > 0 {
			pop()
		}
		if len(h) != 0 {
			t.Fatalf("n=%d: %d keys left in the heap", n, len(h))
		}
	}
}
