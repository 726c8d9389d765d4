package eventq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var spare []uint64
	for _, n := range []int{0, 1, 2, 100, 511, 512, 513, 3000, 70000} {
		for _, spread := range []uint64{1, 1 << 17, 1 << 40, 1 << 59} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64N(spread)<<5 | uint64(i%7)
			}
			want := slices.Sorted(slices.Values(keys))
			spare = Sort(keys, spare)
			if !slices.Equal(keys, want) {
				t.Fatalf("n=%d spread=%d: not sorted", n, spread)
			}
		}
	}
}
