package eventq

import "backoffcalc/calc/internal/reuse"

// Calendar holds pending keys by window in chunks of chunkKeys. Each window's chunks form a
// list, newest first, so memory is the live keys plus at most one part-filled chunk per window,
// and taking a window reads its keys in runs rather than one by one.
type Calendar struct {
	keys []uint64 // chunk c is keys[c*chunkKeys : (c+1)*chunkKeys]
	next []int32  // by chunk: the next older chunk of its window, or -1
	free []int32  // chunks not in use
	head []int32  // by window: its newest chunk, or -1
	fill []int32  // by window: keys in its newest chunk
}

const chunkKeys = 64

// Reset empties the calendar and gives it windows windows, keeping its memory.
func (cal *Calendar) Reset(windows int) {
	cal.head, cal.fill = reuse.Grow(cal.head, windows), reuse.Grow(cal.fill, windows)
	for b := range cal.head {
		cal.head[b], cal.fill[b] = -1, 0
	}
	cal.free = cal.free[:0]
	for c := len(cal.next) - 1; c >= 0; c-- {
		cal.free = append(cal.free, int32(c))
	}
}

// Windows is how many windows the calendar has.
func (cal *Calendar) Windows() int { return len(cal.head) }

// Extend gives the calendar at least n windows, the new ones empty.
func (cal *Calendar) Extend(n int) {
	for len(cal.head) < n {
		cal.head, cal.fill = append(cal.head, -1), append(cal.fill, 0)
	}
}

// Add files key under window b, one of Windows.
func (cal *Calendar) Add(b int, key uint64) {
	if cal.head[b] < 0 || cal.fill[b] == chunkKeys {
		var c int32
		if n := len(cal.free); n > 0 {
			c, cal.free = cal.free[n-1], cal.free[:n-1]
		} else {
			c = int32(len(cal.next))
			cal.next = append(cal.next, 0)
			cal.keys = append(cal.keys, make([]uint64, chunkKeys)...)
		}
		cal.next[c], cal.head[b], cal.fill[b] = cal.head[b], c, 0
	}
	cal.keys[int(cal.head[b])*chunkKeys+int(cal.fill[b])] = key
	cal.fill[b]++
}

// take appends the keys of window b to dst, in no particular order, and empties the window.
func (cal *Calendar) Take(b int, dst []uint64) []uint64 {
	n := int(cal.fill[b])
	for c := cal.head[b]; c >= 0; c = cal.next[c] {
		dst = append(dst, cal.keys[int(c)*chunkKeys:][:n]...)
		cal.free = append(cal.free, c)
		n = chunkKeys
	}
	cal.head[b], cal.fill[b] = -1, 0
	return dst
}
