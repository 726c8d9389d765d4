package sim

import (
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/internal/eventq"
	"backoffcalc/calc/internal/reuse"
	"backoffcalc/calc/policy"
)

// The simulation is a calendar queue (eventq.Calendar) with one bucket per window. Within a
// window an attempt is the key (at - window start)<<clientBits | client, so that sorting a
// window's keys (eventq.Sort) orders its attempts by time and then by client index. An attempt
// made while its own window runs (a wait shorter than what is left of the window) goes to a small
// heap merged in (eventq.PushLate, PopLate). A heap of all clients would give the same order, but
// with every step deep in a large heap it is several times slower. The clients (herdClient) and
// the buffers the runs reuse (herdScratch) each have their own file; the peak's sliding window is
// eventq.PeakWindow.
const (
	clientBits = 17 // MaxClients < 1<<clientBits; MaxWindow < 1<<(64-clientBits) ns
	clientMask = 1<<clientBits - 1
)

// herdHooks let callers watch a run: seen is told of every attempt (for tests), pause is
// called every PauseEvery attempts and stops the run when it returns false.
type herdHooks struct {
	seen  func(client, attempt int, at time.Duration, accepted bool)
	pause func() bool
}

// herd simulates one mode over windows windows (from HerdWindows). seen, if not nil, is told of
// every attempt in the order the server sees them; tests use it to check each client's times.
func herd(p calc.Params, m calc.HerdMode, windows int, s *herdScratch, hooks herdHooks) (HerdRun, bool) {
	waits, first := p.ModeWaits(m)
	// schedule files client i's attempt at at under its window.
	schedule := func(i int, at time.Duration) {
		b := at / p.Window
		s.pending.Add(int(b), uint64(at-b*p.Window)<<clientBits|uint64(i))
	}
	s.pending.Reset(windows)
	s.clients = reuse.Grow(s.clients, p.Clients)
	for i := range s.clients {
		c := &s.clients[i]
		c.rng.Seed(p.Seed, uint64(i))
		c.start, c.state, c.made = p.ClientStart(i), first, 0
		schedule(i, c.start)
		// Starting 100000 clients takes as long as running thousands of attempts.
		if hooks.pause != nil && i%policy.PauseEvery == policy.PauseEvery-1 && !hooks.pause() {
			return HerdRun{Mode: m}, false
		}
	}
	if !s.prepare(p.Clients, hooks.pause) {
		return HerdRun{Mode: m}, false
	}
	run := HerdRun{Mode: m, LastAccepted: -1}
	down := 0 // attempts before the outage's end
	s.peak.Reset(p.Window)
	for b := range windows {
		keys := s.pending.Take(b, s.keys[:0])
		if len(keys) == 0 {
			continue
		}
		s.spare = eventq.Sort(keys, s.spare)
		// Copying the window's clients out and back in turns one cache miss after another into
		// misses the processor can overlap.
		batch := reuse.Grow(s.batch, len(keys))
		for j, key := range keys {
			batch[j] = s.clients[key&clientMask]
		}
		from := time.Duration(b) * p.Window
		late := s.late[:0]
		made, taken := run.Attempts, 0 // attempts before this window, and those it accepted
		for j := 0; j < len(keys) || len(late) > 0; {
			var key uint64
			var slot int
			if len(late) > 0 && (j == len(keys) || late[0].Key < keys[j]) {
				key, slot = late[0].Key, late[0].Slot
				late = eventq.PopLate(late)
			} else {
				key, slot = keys[j], j
				j++
			}
			i, at := int(key&clientMask), from+time.Duration(key>>clientBits)
			c := &batch[slot]
			c.made++
			run.Attempts++
			if hooks.pause != nil && run.Attempts%policy.PauseEvery == 0 && !hooks.pause() {
				return run, false
			}
			s.peak.Add(at)
			down += b2i(at < p.Outage)
			accepted := at >= p.Outage && (p.Capacity == 0 || taken < p.Capacity)
			taken += b2i(accepted)
			if hooks.seen != nil {
				hooks.seen(i, int(c.made), at, accepted)
			}
			if !accepted && int(c.made) < p.Attempts {
				// A wait without a draw is looked up: Immediate's and none's runs are mostly that.
				k, w, state := int(c.made), time.Duration(0), c.state
				if fixed, ok := waits.Fixed(k); ok {
					w = fixed
				} else {
					w, state = waits.Next(k, &c.rng, c.state)
				}
				if start := at - c.start + p.Call + w; p.Budget == 0 || start < p.Budget {
					c.state = state
					if next := c.start + start; next-from < p.Window {
						late = eventq.PushLate(late, eventq.Late{Key: uint64(next-from)<<clientBits | uint64(i), Slot: slot})
					} else {
						schedule(i, next)
					}
					continue
				}
			}
			// The client is done: through, or out of attempts or budget.
			if accepted {
				run.Accepted++
				run.LastAccepted = at
			} else {
				run.GaveUp++
			}
			run.MaxPerClient = max(run.MaxPerClient, int(c.made))
		}
		for len(run.Arrivals) < b {
			run.Arrivals = append(run.Arrivals, 0)
		}
		run.Arrivals = append(run.Arrivals, run.Attempts-made)
		for j, key := range keys {
			s.clients[key&clientMask] = batch[j]
		}
		s.keys, s.batch, s.late = keys, batch, late
	}
	run.Peak, run.PeakAt = s.peak.Finish()
	splitPeaks(p, &run, down)
	run.MeanPerClient = float64(run.Attempts) / float64(p.Clients)
	return run, true
}

// splitPeaks sets run's PeakDown and PeakBack, and their times, from its Arrivals and down, how
// many of its attempts arrived before the outage's end: the windows before the one the outage
// ends in hold only those, the windows after it none, and that window the rest of them.
func splitPeaks(p calc.Params, run *HerdRun, down int) {
	run.PeakDown, run.PeakBack, run.PeakDownAt, run.PeakBackAt = 0, 0, -1, -1
	end := p.Outage / p.Window // the window the outage ends in, or the first after it
	for k, n := range run.Arrivals {
		d := 0
		switch {
		case time.Duration(k) < end:
			d = n
			down -= n
		case time.Duration(k) == end:
			d = down
		}
		from := p.WindowStart(k)
		if d > run.PeakDown {
			run.PeakDown, run.PeakDownAt = d, from
		}
		if n-d > run.PeakBack {
			run.PeakBack, run.PeakBackAt = n-d, max(from, p.Outage)
		}
	}
}
