package calc

import (
	"math/rand/v2"
	"time"
)

// This file keeps the overload simulation as it was before it was made faster (overload_run.go
// and the stream source of overload_stream.go at commit 11f98c7), with its identifiers renamed,
// so that TestOverloadFastIsSlow can compare the two on many random open systems, field by field.
// Only the tests use it.

// slowOverloadRun is Params.Overload on the old engine, for params that Overload accepts.
func (p Params) slowOverloadRun(c OverloadCase) (OverloadRun, error) {
	windows, err := p.overloadWindows(c.Mode)
	if err != nil {
		return OverloadRun{}, err
	}
	s := slowScratches.get()
	defer slowScratches.put(s)
	run, _ := p.slowOverload(c, windows, s, nil)
	return run, nil
}

const (
	slowReqBits    = 21 // requests < 1<<slowReqBits, as overloadWork bounds requests × attempts by MaxHerdWork
	slowReqMask    = 1<<slowReqBits - 1
	slowArrivalBit = 1 << slowReqBits // set for arrivals: at one instant outcomes come first
	slowOffShift   = slowReqBits + 1  // MaxWindow < 1<<(64-slowOffShift) ns
)

// slowOutcomeKind is what the client of an attempt will learn at its outcome.
type slowOutcomeKind uint8

const (
	slowOutSuccess   slowOutcomeKind = iota // served while its client waits
	slowOutOutage                           // failed at once during the outage
	slowOutThrottled                        // failed at once: the server and its queue were full
	slowOutTimeout                          // the client stops waiting for it
)

// A request's slot: slowSlotNew before its first attempt, slowSlotDone after its end.
const (
	slowSlotNew  = -1
	slowSlotDone = -2
)

// slowRequest is a live request's state; it has at most one attempt or one arrival pending.
type slowRequest struct {
	rng        rand.PCG
	start, at  time.Duration   // its first attempt's arrival, its current attempt's
	state      float64         // what its next wait grows from, as Params.Wait takes it
	made, held int32           // attempts made; what its last allowed Retry held
	kind       slowOutcomeKind // the current attempt's outcome
	holds      bool            // it holds a retry (envoy's count) until its next outcome
}

// slowQueued is an attempt waiting at the server.
type slowQueued struct {
	req int32
	at  time.Duration // its arrival
}

// slowScratch is memory the runs reuse; see herdScratch.
type slowScratch struct {
	reqs            []slowRequest
	free            []int32
	slot            []int32 // by request index: its slot in reqs, slowSlotNew or slowSlotDone
	pending         calendar
	keys, spare     []uint64
	late            []lateKey
	queue           []slowQueued // queue[qhead:] wait, in arrival order
	active, retries []int32      // by process: attempts awaiting their outcome, requests holding a retry
	lims            []Limiter
	dirty           []bool // by window: an attempt arriving in it was not served at once, or timed out
	peak            peakWindow
}

var slowScratches kept[slowScratch]

// slowSim is one run.
type slowSim struct {
	p       Params
	s       *slowScratch
	run     OverloadRun
	waits   retryWaits
	first   float64 // the state before the first retry
	procs   int
	pause   func() bool
	b       int           // the window being run
	from    time.Duration // its start
	taken   int           // attempts it has served
	open    bool          // its keys are taken: events made for it go to the late heap
	pending int           // events in the calendar
	qhead   int
	lastArr int // the window of the last arrival
}

// slowModeWaits is the herd's waits of mode m: the policy's with m's jitter, or none for Immediate.
func (p Params) slowModeWaits(m HerdMode) (retryWaits, float64) {
	if j, ok := m.Jitter(); ok {
		q := p.WithJitter(j)
		return q.waits(), q.FirstState()
	}
	return retryWaits{laws: make([]law, p.Attempts), draws: make([]bool, p.Attempts), fixed: make([]time.Duration, p.Attempts)}, 0
}

// overload runs case c over at least windows windows (more are added if an event needs them).
// It reports false if pause stopped it.
func (p Params) slowOverload(c OverloadCase, windows int, s *slowScratch, pause func() bool) (OverloadRun, bool) {
	stream := newSlowStreamSource(p)
	requests := p.Clients + stream.n
	sim := slowSim{p: p, s: s, pause: pause, procs: max(p.Processes, 1), lastArr: -1}
	sim.waits, sim.first = p.slowModeWaits(c.Mode)
	sim.run = OverloadRun{HerdRun: HerdRun{Mode: c.Mode, LastAccepted: -1}, Limiter: c.Limiter, Windows: make([]OverloadWindow, 0, windows)}
	s.slot = grow(s.slot, requests)
	for i := range s.slot {
		s.slot[i] = slowSlotNew
	}
	s.reqs, s.free, s.queue, s.late = s.reqs[:0], s.free[:0], s.queue[:0], s.late[:0]
	s.active, s.retries = grow(s.active, sim.procs), grow(s.retries, sim.procs)
	clear(s.active)
	clear(s.retries)
	s.lims = grow(s.lims, sim.procs)
	for i := range s.lims {
		s.lims[i] = NewLimiter(c.Limiter, p.Limits)
	}
	s.dirty = s.dirty[:0]
	s.pending.reset(windows)
	s.peak.reset(p.Window)

	crowd := 0 // the next client to start
	for sim.b = 0; sim.pending > 0 || len(s.queue) > sim.qhead || crowd < p.Clients || stream.ok; sim.b++ {
		sim.from = p.WindowStart(sim.b)
		sim.run.Windows = append(sim.run.Windows, OverloadWindow{})
		s.dirty = append(s.dirty, false)
		sim.taken, sim.open = 0, false
		sim.serveQueue()
		if sim.b >= len(s.pending.head) {
			sim.slowGrowCalendar(sim.b)
		}
		keys := s.pending.take(sim.b, s.keys[:0])
		sim.pending -= len(keys)
		end := sim.from + p.Window
		for ; crowd < p.Clients; crowd++ {
			at := p.clientStart(crowd)
			if at >= end {
				break
			}
			keys = append(keys, uint64(at-sim.from)<<slowOffShift|slowArrivalBit|uint64(crowd))
		}
		for ; stream.ok && stream.at < end; stream.advance() {
			keys = append(keys, uint64(stream.at-sim.from)<<slowOffShift|slowArrivalBit|uint64(p.Clients+stream.k))
		}
		s.spare = sortKeys(keys, s.spare)
		s.keys, sim.open = keys, true
		for j := 0; j < len(keys) || len(s.late) > 0; {
			var key uint64
			if len(s.late) > 0 && (j == len(keys) || s.late[0].key < keys[j]) {
				key = s.late[0].key
				s.late = popLate(s.late)
			} else {
				key = keys[j]
				j++
			}
			i, at := int(key&slowReqMask), sim.from+time.Duration(key>>slowOffShift)
			switch {
			case s.slot[i] == slowSlotDone: // a timeout whose attempt was served in time
			case key&slowArrivalBit != 0:
				if !sim.arrive(i, at) {
					return sim.run, false
				}
			default:
				sim.outcome(i, at)
			}
		}
		sim.run.Windows[sim.b].Queue = len(s.queue) - sim.qhead
	}
	sim.finish(stream.n) // the stream's true count once it has ended
	return sim.run, true
}

// finish trims the windows after the last one counting anything and works out the run's totals.
func (sim *slowSim) finish(streamed int) {
	p, run := sim.p, &sim.run
	run.Stream, run.Requests = streamed, p.Clients+streamed
	for n := len(run.Windows); n > 0 && run.Windows[n-1] == (OverloadWindow{}); n-- {
		run.Windows = run.Windows[:n-1]
	}
	run.Arrivals = make([]int, sim.lastArr+1)
	for k := range run.Arrivals {
		run.Arrivals[k] = run.Windows[k].New + run.Windows[k].Retries
	}
	run.GaveUp = run.OutOfAttempts + run.Refused + run.OutOfBudget
	run.Peak, run.PeakAt = sim.s.peak.finish()
	run.MeanPerClient = float64(run.Attempts) / float64(run.Requests)
	run.Recovered = -1
	if !sim.s.dirty[sim.lastArr] {
		k := int(p.Outage / p.Window)
		for b := sim.lastArr; b >= k; b-- {
			if sim.s.dirty[b] {
				k = b + 1
				break
			}
		}
		run.Recovered = p.WindowStart(k)
		run.RecoveredInStream = run.Recovered < p.Run
	}
}

// slowGrowCalendar makes room for events up to window b. The horizon (overloadWindows) makes this
// unneeded; it is here so that a mistake there cannot panic the page.
func (sim *slowSim) slowGrowCalendar(b int) {
	cal := &sim.s.pending
	for len(cal.head) <= b {
		cal.head, cal.fill = append(cal.head, -1), append(cal.fill, 0)
	}
}

// schedule files request i's event (phase 0 for an outcome, slowArrivalBit for an arrival) at at.
func (sim *slowSim) schedule(i int, at time.Duration, phase uint64) {
	b := int(at / sim.p.Window)
	key := uint64(at-sim.p.WindowStart(b))<<slowOffShift | phase | uint64(i)
	if b == sim.b && sim.open {
		sim.s.late = pushLate(sim.s.late, lateKey{key: key})
		return
	}
	if b >= len(sim.s.pending.head) {
		sim.slowGrowCalendar(b)
	}
	sim.s.pending.add(b, key)
	sim.pending++
}

// serveQueue serves the queue at the window's start, in arrival order, up to the capacity. An
// attempt whose answer comes after its client's timeout is wasted; the others are answered.
func (sim *slowSim) serveQueue() {
	p, s, w := sim.p, sim.s, &sim.run.Windows[sim.b]
	for ; len(s.queue) > sim.qhead && sim.taken < p.Capacity; sim.qhead++ {
		q := s.queue[sim.qhead]
		sim.taken++
		if p.Timeout > 0 && sim.from+p.Call > q.at+p.Timeout {
			w.Wasted++
			sim.run.Wasted++
			continue
		}
		w.Served++
		sim.run.Served++
		sim.run.LastAccepted = max(sim.run.LastAccepted, q.at)
		s.reqs[s.slot[q.req]].kind = slowOutSuccess
		sim.schedule(int(q.req), sim.from+p.Call, 0)
	}
	if sim.qhead >= 1024 && 2*sim.qhead >= len(s.queue) { // drop the served, amortized O(1)
		s.queue = s.queue[:copy(s.queue, s.queue[sim.qhead:])]
		sim.qhead = 0
	}
}

// arrive judges request i's attempt arriving at at. It reports false if pause stopped the run.
func (sim *slowSim) arrive(i int, at time.Duration) bool {
	p, s, run, w := sim.p, sim.s, &sim.run, &sim.run.Windows[sim.b]
	proc := i % sim.procs
	var r *slowRequest
	if sl := s.slot[i]; sl == slowSlotNew {
		if n := len(s.free); n > 0 {
			sl, s.free = s.free[n-1], s.free[:n-1]
		} else {
			sl = int32(len(s.reqs))
			s.reqs = append(s.reqs, slowRequest{})
		}
		s.slot[i] = sl
		r = &s.reqs[sl]
		stream := uint64(i)
		if i >= p.Clients {
			stream = 1<<32 + uint64(i-p.Clients)
		}
		r.rng.Seed(p.Seed, stream)
		*r = slowRequest{rng: r.rng, start: at, state: sim.first}
		w.New++
		if l := s.lims[proc]; l != nil {
			l.Begin(at)
		}
	} else {
		r = &s.reqs[sl]
		w.Retries++
	}
	r.made++
	r.at = at
	run.Attempts++
	if sim.pause != nil && run.Attempts%PauseEvery == 0 && !sim.pause() {
		return false
	}
	s.peak.add(at)
	sim.lastArr = sim.b
	s.active[proc]++
	late := p.Timeout > 0 && p.Call > p.Timeout // an answer at once comes after the timeout
	switch {
	case at < p.Outage:
		sim.fail(i, r, at, slowOutOutage, late)
	case p.Capacity == 0 || sim.taken < p.Capacity:
		sim.taken++
		if late {
			w.Wasted++
			run.Wasted++
			s.dirty[sim.b] = true
			r.kind = slowOutTimeout
			sim.schedule(i, at+p.Timeout, 0)
			break
		}
		w.Served++
		run.Served++
		run.LastAccepted = max(run.LastAccepted, at)
		r.kind = slowOutSuccess
		sim.schedule(i, at+p.Call, 0)
	case len(s.queue)-sim.qhead < p.Queue:
		s.queue = append(s.queue, slowQueued{int32(i), at})
		s.dirty[sim.b] = true
		r.kind = slowOutTimeout // unless it is served in time
		if p.Timeout > 0 {
			sim.schedule(i, at+p.Timeout, 0)
		}
	default:
		sim.fail(i, r, at, slowOutThrottled, late)
	}
	return true
}

// fail fails request i's attempt at once; its client learns it a call later, or at its timeout.
func (sim *slowSim) fail(i int, r *slowRequest, at time.Duration, kind slowOutcomeKind, late bool) {
	sim.run.Windows[sim.b].Failed++
	sim.run.Failed++
	sim.s.dirty[sim.b] = true
	if late {
		r.kind = slowOutTimeout
		sim.schedule(i, at+sim.p.Timeout, 0)
		return
	}
	r.kind = kind
	sim.schedule(i, at+sim.p.Call, 0)
}

// outcome is the outcome of request i's attempt, known to its client at at: a success ends the
// request; after a failure the limiter is asked, then the policy.
func (sim *slowSim) outcome(i int, at time.Duration) {
	p, s, run := sim.p, sim.s, &sim.run
	sl := s.slot[i]
	r := &s.reqs[sl]
	proc := i % sim.procs
	s.active[proc]--
	if r.holds { // released before its own decision, as Envoy's resetRetry
		s.retries[proc]--
		r.holds = false
	}
	l := s.lims[proc]
	if r.kind == slowOutSuccess {
		if l != nil {
			l.Succeed(at, int(r.made), int(r.held))
		}
		run.Accepted++
		sim.end(i, sl)
		return
	}
	if r.kind == slowOutTimeout {
		run.Windows[sim.b].TimedOut++
		run.TimedOut++
	}
	ok, held := true, 0
	if l != nil {
		ok, held = l.Retry(Failure{Now: at, Last: int(r.made) == p.Attempts, Timeout: r.kind == slowOutTimeout,
			Throttled: r.kind == slowOutThrottled, Active: int(s.active[proc]), Retries: int(s.retries[proc])})
	}
	switch {
	case int(r.made) == p.Attempts:
		run.OutOfAttempts++
	case !ok:
		run.Refused++
		run.Windows[sim.b].Refused++
	default:
		// A wait without a draw is looked up, as in the herd.
		k, wait, state := int(r.made), time.Duration(0), r.state
		if sim.waits.fixed != nil && !sim.waits.draws[k] {
			wait = sim.waits.fixed[k]
		} else {
			wait, state = sim.waits.next(k, &r.rng, r.state)
		}
		if next := at - r.start + wait; p.Budget == 0 || next < p.Budget {
			r.state, r.held, r.holds = state, int32(held), true
			s.retries[proc]++
			sim.schedule(i, at+wait, slowArrivalBit)
			return
		}
		run.OutOfBudget++
	}
	sim.end(i, sl)
}

// end frees request i's slot.
func (sim *slowSim) end(i int, sl int32) {
	sim.run.MaxPerClient = max(sim.run.MaxPerClient, int(sim.s.reqs[sl].made))
	sim.s.slot[i] = slowSlotDone
	sim.s.free = append(sim.s.free, sl)
}

// slowStreamSource gives the stream's start times in order.
type slowStreamSource struct {
	p    Params
	n, k int           // the cap (StreamRequests) and the next request
	at   time.Duration // the next request's start, valid while ok
	ok   bool
	rng  *rand.Rand // the gaps, for poisson
}

func newSlowStreamSource(p Params) slowStreamSource {
	s := slowStreamSource{p: p, n: p.StreamRequests(), k: -1}
	if p.Arrivals == Poisson && s.n > 0 {
		s.rng = rand.New(rand.NewPCG(p.Seed, 1<<63))
	}
	s.advance()
	return s
}

// advance moves to the next request; ok becomes false when the stream has ended.
func (s *slowStreamSource) advance() {
	s.k++
	if s.k >= s.n {
		s.ok = false
		return
	}
	if s.rng == nil {
		s.at = s.p.evenStart(s.k)
	} else {
		s.at += time.Duration(s.rng.ExpFloat64() * 1e9 / s.p.Rate)
	}
	s.ok = s.at < s.p.Run
	if !s.ok {
		s.n = s.k // the stream's true count, for poisson
	}
}
