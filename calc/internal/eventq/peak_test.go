package eventq

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestPeakWindow: the most arrivals in any [t, t+w), and the earliest t that starts such a
// window, against counting the window that starts at each arrival.
func TestPeakWindow(t *testing.T) {
	var pw PeakWindow
	// Arrivals at 0 0 5 9 10 20 with w = 10: [0, 10) holds 4, [5, 15) holds 3.
	pw.Reset(10)
	for _, at := range []time.Duration{0, 0, 5, 9, 10, 20} {
		pw.Add(at)
	}
	if n, at := pw.Finish(); n != 4 || at != 0 {
		t.Errorf("by hand: peak %d at %v, want 4 at 0", n, at)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 50, 5000} { // 5000 arrivals drop closed runs along the way
		for _, w := range []time.Duration{1, 7, 100} {
			times := make([]time.Duration, n)
			for i := range times {
				times[i] = time.Duration(r.IntN(n * 3))
			}
			slices.Sort(times)
			pw.Reset(w)
			wantN, wantAt := 0, time.Duration(0)
			for i, at := range times {
				pw.Add(at)
				if end, _ := slices.BinarySearch(times, at+w); end-i > wantN {
					wantN, wantAt = end-i, at
				}
			}
			if gotN, gotAt := pw.Finish(); gotN != wantN || gotAt != wantAt {
				t.Fatalf("n=%d w=%v: peak %d at %v, want %d at %v", n, w, gotN, gotAt, wantN, wantAt)
			}
		}
	}
}
