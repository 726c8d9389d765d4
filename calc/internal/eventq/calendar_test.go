package eventq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCalendar: a window gives back the keys added to it, whatever their number against
// chunkKeys, and a reset Calendar reuses its chunks.
func TestCalendar(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var cal Calendar
	for round := range 3 {
		const windows = 20
		cal.Reset(windows)
		want := make([][]uint64, windows)
		for range 40 * chunkKeys {
			b, key := r.IntN(windows), r.Uint64()
			cal.Add(b, key)
			want[b] = append(want[b], key)
		}
		want[3] = nil // a window with no keys
		cal.Take(3, nil)
		for _, b := range []int{0, chunkKeys % windows, windows - 1} { // more keys after a take
			cal.Take(b, nil)
			want[b] = nil
			for range chunkKeys + 1 {
				key := r.Uint64()
				cal.Add(b, key)
				want[b] = append(want[b], key)
			}
		}
		chunks := len(cal.next)
		for b := range windows {
			got := cal.Take(b, nil)
			slices.Sort(got)
			slices.Sort(want[b])
			if !slices.Equal(got, want[b]) {
				t.Fatalf("round %d window %d: %d keys, want %d", round, b, len(got), len(want[b]))
			}
			if again := cal.Take(b, nil); len(again) != 0 {
				t.Fatalf("round %d window %d: %d keys after it was taken", round, b, len(again))
			}
		}
		if len(cal.free) != chunks {
			t.Fatalf("round %d: %d chunks free of %d", round, len(cal.free), chunks)
		}
		if round > 0 && chunks > 2*40+windows+3*2 {
			t.Fatalf("round %d: %d chunks, the old ones not reused", round, chunks)
		}
	}
}
