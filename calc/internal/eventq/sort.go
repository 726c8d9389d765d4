package eventq

import (
	"slices"

	"backoffcalc/calc/internal/reuse"
)

// Sort sorts keys and returns spare, grown if it was needed, for the next call: a radix sort,
// least significant byte first, that skips the bytes every key shares. Windows hold thousands of
// keys, which it sorts several times faster than a comparison sort.
func Sort(keys, spare []uint64) []uint64 {
	if len(keys) < 512 {
		slices.Sort(keys)
		return spare
	}
	some, all := uint64(0), ^uint64(0)
	for _, k := range keys {
		some, all = some|k, all&k
	}
	spare = reuse.Grow(spare, len(keys))
	src, dst := keys, spare
	var at [1 << radixBits]int
	for shift := 0; shift < 64; shift += radixBits {
		if (some^all)>>shift&radixMask == 0 {
			continue
		}
		clear(at[:])
		for _, k := range src {
			at[k>>shift&radixMask]++
		}
		sum := 0
		for d, n := range at {
			at[d], sum = sum, sum+n
		}
		for _, k := range src {
			d := k >> shift & radixMask
			dst[at[d]] = k
			at[d]++
		}
		src, dst = dst, src
	}
	copy(keys, src) // a no-op when src is keys
	return spare
}

const (
	radixBits = 11
	radixMask = 1<<radixBits - 1
)
