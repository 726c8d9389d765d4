package sim

import (
	"backoffcalc/calc/internal/eventq"
	"backoffcalc/calc/internal/reuse"
	"backoffcalc/calc/policy"
)

// herdScratches keeps herd buffers (tens of megabytes at the work limit) between runs: the
// page runs six or seven modes at every edit, and in wasm collecting them costs more than the runs.
var herdScratches reuse.Kept[herdScratch]

// herdScratch is memory the runs of one Herd call share.
type herdScratch struct {
	clients []herdClient
	pending eventq.Calendar
	keys    []uint64      // of the window being run, sorted
	spare   []uint64      // for eventq.Sort
	batch   []herdClient  // batch[j] is the client of keys[j] while the window runs
	late    []eventq.Late // heap of attempts added to the window being run while it runs
	peak    eventq.PeakWindow
}

// prepare makes the buffers of a window room for n clients, the most a window holds (a client
// has one attempt pending at a time). New memory is touched a slice at a time, with pauses: a
// first run of 100000 clients otherwise spent 30 ms natively, 70 ms in wasm, growing and
// faulting it in within its first window, without a pause. It reports false if told to stop.
func (s *herdScratch) prepare(n int, pause func() bool) bool {
	if cap(s.batch) >= n {
		return true
	}
	s.keys, s.spare = make([]uint64, 0, n), make([]uint64, n)
	s.batch, s.late = make([]herdClient, n), make([]eventq.Late, 0, n)
	for i := 0; i < n; i += policy.PauseEvery {
		j := min(n, i+policy.PauseEvery)
		clear(s.keys[i:j:n])
		clear(s.spare[i:j])
		clear(s.batch[i:j])
		clear(s.late[i:j:n])
		if pause != nil && !pause() {
			return false
		}
	}
	return true
}
