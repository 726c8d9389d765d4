package sim

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// herdByHeap is the model written plainly: one heap of every client keyed by (time, index),
// the waits from Params.Wait, the peak from all arrival times. TestHerdAgainstHeap and FuzzHerd
// compare the calendar queue with it.
func herdByHeap(p calc.Params, m calc.HerdMode) (HerdRun, []int) {
	j, backoff := m.Jitter()
	q := p.WithJitter(j)
	rows := q.Schedule().Rows
	type client struct {
		r     *rand.Rand
		start time.Duration
		state float64
		made  int
	}
	clients := make([]client, p.Clients)
	h := &eventHeap{}
	for i := range clients {
		start := time.Duration(uint64(i) * uint64(p.Spread) / uint64(p.Clients))
		clients[i] = client{rand.New(rand.NewPCG(p.Seed, uint64(i))), start, q.FirstState(), 0}
		heap.Push(h, event{start, i})
	}
	run := HerdRun{Mode: m, LastAccepted: -1}
	var times []time.Duration
	taken := map[time.Duration]int{}
	for h.Len() > 0 {
		e := heap.Pop(h).(event)
		c := &clients[e.client]
		c.made++
		times = append(times, e.at)
		k := e.at / p.Window
		ok := e.at >= p.Outage && (p.Capacity == 0 || taken[k] < p.Capacity)
		if ok {
			taken[k]++
			run.Accepted++
			run.LastAccepted = e.at
			continue
		}
		if c.made == p.Attempts {
			run.GaveUp++
			continue
		}
		var w time.Duration
		state := c.state
		if backoff {
			u := 0.0
			// decorrelatedv2 draws even where the wait is fixed: the next wait depends on the draw.
			if rows[c.made].Min < rows[c.made].Max || q.Jitter == policy.DecorrelatedV2 {
				u = c.r.Float64()
			}
			w, state = q.Wait(c.made, u, c.state)
		}
		next := e.at - c.start + p.Call + w
		if p.Budget > 0 && next >= p.Budget {
			run.GaveUp++
			continue
		}
		c.state = state
		heap.Push(h, event{c.start + next, e.client})
	}
	run.Attempts = len(times)
	run.Arrivals = make([]int, times[len(times)-1]/p.Window+1)
	for i, t := range times {
		run.Arrivals[t/p.Window]++
		n, _ := slices.BinarySearch(times, t+p.Window)
		if n-i > run.Peak {
			run.Peak, run.PeakAt = n-i, t
		}
	}
	run.PeakDown, run.PeakDownAt, run.PeakBack, run.PeakBackAt = peaksByWindow(p, times)
	made := make([]int, p.Clients)
	for i, c := range clients {
		made[i] = c.made
		run.MaxPerClient = max(run.MaxPerClient, c.made)
	}
	run.MeanPerClient = float64(run.Attempts) / float64(p.Clients)
	return run, made
}

// peaksByWindow counts times (in order) again, window by window, those before the outage's end
// and the others apart, and returns the most of each in one window with its time (HerdRun).
func peaksByWindow(p calc.Params, times []time.Duration) (down int, downAt time.Duration, back int, backAt time.Duration) {
	downAt, backAt = -1, -1
	if len(times) == 0 {
		return
	}
	downs, backs := make([]int, times[len(times)-1]/p.Window+1), make([]int, times[len(times)-1]/p.Window+1)
	for _, t := range times {
		if t < p.Outage {
			downs[t/p.Window]++
		} else {
			backs[t/p.Window]++
		}
	}
	for k := range downs {
		start := time.Duration(k) * p.Window
		if downs[k] > down {
			down, downAt = downs[k], start
		}
		if backs[k] > back {
			back, backAt = backs[k], max(start, p.Outage)
		}
	}
	return
}

type event struct {
	at     time.Duration
	client int
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].client < h[j].client
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
