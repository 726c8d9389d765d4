package sim

import (
	"math/rand/v2"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/internal/eventq"
	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/internal/reuse"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// The overload simulation follows docs/overload-model.md rule by rule. It is the herd's calendar
// queue (herd_run.go, eventq) with two kinds of events: an attempt's arrival and its outcome (an answer,
// a failure's answer, or a timeout). Within a window an event is the key
// offset<<offShift | phase | request, so that sorting a window's keys orders its events by time,
// then outcomes before arrivals, then by request index: the spec's order at one instant. Events
// made for the window being run go to a heap merged in (eventq.PushLate), so an event made for the
// current instant takes its place in that order. The queue is served at each window's start,
// before its events. First attempts are not kept as events: the crowd's and the stream's starts
// come in order and are added to each window's keys as it is taken.
const (
	reqBits    = 21 // requests < 1<<reqBits, as OverloadWork bounds requests × attempts by MaxHerdWork
	reqMask    = 1<<reqBits - 1
	arrivalBit = 1 << reqBits // set for arrivals: at one instant outcomes come first
	offShift   = reqBits + 1  // MaxWindow < 1<<(64-offShift) ns
)

// outcomeKind is what the client of an attempt will learn at its outcome.
type outcomeKind uint8

const (
	outSuccess   outcomeKind = iota // served while its client waits
	outOutage                       // failed at once during the outage
	outThrottled                    // failed at once: the server and its queue were full
	outTimeout                      // the client stops waiting for it
	outError                        // served while its client waits, and failed (FailRate)
	outRejected                     // failed at once by its breaker, without reaching the server
)

// A request's slot: slotNew before its first attempt, slotDone after its end.
const (
	slotNew  = -1
	slotDone = -2
)

// overloadRequest is a live request's state; it has at most one attempt or one arrival pending.
type overloadRequest struct {
	rng        rand.PCG
	start, at  time.Duration  // its first attempt's arrival, its current attempt's
	state      float64        // what its next wait grows from, as Params.Wait takes it
	made, held int32          // attempts made; what its last allowed Retry held
	kind       outcomeKind    // the current attempt's outcome
	holds      bool           // it holds a retry (envoy's count) until its next outcome
	errs       bool           // the current attempt fails if it is served (FailRate)
	permit     breaker.Permit // its breaker's answer: to the current attempt, or to the call
	// due is when the current attempt's outcome event is, -1 while it has none. A queued
	// attempt answered in time leaves its timeout's event in the calendar; with an error the
	// request goes on, and that event, at another time or after the outcome, is not its outcome.
	due time.Duration
}

// queuedAttempt is an attempt waiting at the server.
type queuedAttempt struct {
	req int32
	at  time.Duration // its arrival
}

// overloadScratch is memory the runs reuse; see herdScratch.
type overloadScratch struct {
	reqs            []overloadRequest
	free            []int32
	slot            []int32 // by request index: its slot in reqs, slotNew or slotDone
	pending         eventq.Calendar
	keys, spare     []uint64
	firsts          []uint64 // the first attempts arriving in the window being run, in order
	late            []eventq.Late
	queue           []queuedAttempt // queue[qhead:] wait, in arrival order
	active, retries []int32         // by process: attempts awaiting their outcome, requests holding a retry
	underway        []int32         // by process: requests from Begin to their end
	activeRetries   []int32         // by process: the retries among active
	lims            []limiter.Limiter
	starts          []limiter.Starter // by process: its limiter, when it decides at a retry's start too
	dirty           []bool            // by window: an attempt arriving in it was not served at once, or timed out
	busy            []time.Duration   // with slow: the ends of service of the attempts in service, a min-heap
	peak            eventq.PeakWindow
	brks            []breaker.Breaker // with a breaker: one per process, or one shared
	opened          []time.Duration   // by breaker: when it last opened
	draws           []rand.PCG        // by breaker: SRE's draws
}

var overloadScratches reuse.Kept[overloadScratch]

// overloadSim is one run.
type overloadSim struct {
	p       calc.Params
	s       *overloadScratch
	run     OverloadRun
	waits   policy.Waits
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
	down    int // the attempts in Arrivals that arrived before the outage's end
	// late says an answer at once comes after the timeout (Timeout > 0 and Call > Timeout).
	late bool
	// limited says the processes have limiters; without, nothing reads the processes' counts
	// of attempts and retries in flight, and they are not kept. Every outcome may then be
	// decided when its attempt is judged or served, without an event of its own (see arrive).
	limited bool
	// ordered says outcomes are decided in time order, as events: with a limiter or a breaker,
	// which see results across requests.
	ordered bool
	// brk says the calls ask a breaker; atCall that it sits around the call, not each attempt.
	brk, atCall bool
	states      [3]int        // the breakers in each breaker.State
	last        time.Duration // the time of the last arrival or outcome known to a client
	// slow says an attempt's time in service grows with the load (Latency or Slope): the ends
	// of service are kept (busy), and the window's sum and count of times in service.
	slow  bool
	inSum time.Duration
	inN   int
}

// overload runs case c over at least windows windows (more are added if an event needs them).
// It reports false if pause stopped it.
func overload(p calc.Params, c calc.OverloadCase, windows int, s *overloadScratch, pause func() bool) (OverloadRun, bool) {
	stream := newStreamSource(p)
	requests := p.Clients + stream.n
	sim := overloadSim{p: p, s: s, pause: pause, procs: max(p.Processes, 1), lastArr: -1,
		late: p.Timeout > 0 && p.Call > p.Timeout, limited: c.Limiter != limiter.None, slow: p.Slow(),
		brk: c.Breaker != breaker.None, atCall: c.Breaker != breaker.None && p.BreakerAt == calc.BreakerAtCall}
	sim.ordered = sim.limited || sim.brk
	sim.waits, sim.first = p.ModeWaits(c.Mode)
	sim.run = OverloadRun{HerdRun: HerdRun{Mode: c.Mode, LastAccepted: -1}, Limiter: c.Limiter, Breaker: c.Breaker,
		Windows: make([]OverloadWindow, 0, windows)}
	s.slot = reuse.Grow(s.slot, requests)
	for i := range s.slot {
		s.slot[i] = slotNew
	}
	s.reqs, s.free, s.queue, s.late = s.reqs[:0], s.free[:0], s.queue[:0], s.late[:0]
	s.active, s.retries = reuse.Grow(s.active, sim.procs), reuse.Grow(s.retries, sim.procs)
	s.underway, s.activeRetries = reuse.Grow(s.underway, sim.procs), reuse.Grow(s.activeRetries, sim.procs)
	clear(s.active)
	clear(s.retries)
	clear(s.underway)
	clear(s.activeRetries)
	s.lims, s.starts = reuse.Grow(s.lims, sim.procs), reuse.Grow(s.starts, sim.procs)
	for i := range s.lims {
		s.lims[i] = limiter.New(c.Limiter, p.Limits)
		s.starts[i], _ = s.lims[i].(limiter.Starter)
	}
	s.dirty, s.busy = s.dirty[:0], s.busy[:0]
	sim.newBreakers(c.Breaker)
	s.pending.Reset(windows)
	s.peak.Reset(p.Window)

	crowd := 0 // the next client to start
	for sim.b = 0; sim.pending > 0 || len(s.queue) > sim.qhead || crowd < p.Clients || stream.ok; sim.b++ {
		sim.from = p.WindowStart(sim.b)
		if sim.b == len(sim.run.Windows) { // a decided outcome may have added it already
			sim.run.Windows = append(sim.run.Windows, OverloadWindow{})
		}
		s.dirty = append(s.dirty, false)
		sim.taken, sim.open = 0, false
		sim.serveQueue()
		if sim.b >= s.pending.Windows() {
			sim.growCalendar(sim.b)
		}
		keys := s.pending.Take(sim.b, s.keys[:0])
		sim.pending -= len(keys)
		s.spare = eventq.Sort(keys, s.spare)
		// The first attempts come in order from the crowd and from the stream: they need no
		// sorting unless both start in this window.
		firsts := s.firsts[:0]
		end := sim.from + p.Window
		for ; crowd < p.Clients; crowd++ {
			at := p.ClientStart(crowd)
			if at >= end {
				break
			}
			firsts = append(firsts, uint64(at-sim.from)<<offShift|arrivalBit|uint64(crowd))
		}
		crowdKeys := len(firsts)
		for ; stream.ok && stream.at < end; stream.advance() {
			firsts = append(firsts, uint64(stream.at-sim.from)<<offShift|arrivalBit|uint64(p.Clients+stream.k))
		}
		if crowdKeys > 0 && crowdKeys < len(firsts) {
			s.spare = eventq.Sort(firsts, s.spare)
		}
		s.keys, s.firsts, sim.open = keys, firsts, true
		// The events run in the order of their keys, merged from the sorted keys of the
		// calendar, the first attempts and the late heap. A key is in one of them only, but for
		// a queued attempt's timeout and its answer (the same key): whichever comes first finds
		// the answer, the other the request done.
		for j, f := 0, 0; j < len(keys) || f < len(firsts) || len(s.late) > 0; {
			key := ^uint64(0)
			if j < len(keys) {
				key = keys[j]
			}
			if f < len(firsts) && firsts[f] < key {
				key = firsts[f]
			}
			switch {
			case len(s.late) > 0 && s.late[0].Key < key:
				key = s.late[0].Key
				s.late = eventq.PopLate(s.late)
			case j < len(keys) && key == keys[j]:
				j++
			default:
				f++
			}
			i, at := int(key&reqMask), sim.from+time.Duration(key>>offShift)
			switch {
			case s.slot[i] == slotDone: // a timeout whose attempt was served in time
			case key&arrivalBit != 0:
				sim.last = at
				if !sim.arrive(i, at) {
					return sim.run, false
				}
			default:
				sim.outcome(i, at)
			}
		}
		sim.run.Windows[sim.b].Queue = len(s.queue) - sim.qhead
		if sim.inN > 0 {
			sim.run.Windows[sim.b].Latency = sim.inSum / time.Duration(sim.inN)
			sim.inSum, sim.inN = 0, 0
		}
		if sim.brk {
			w := &sim.run.Windows[sim.b]
			w.Closed, w.Open, w.HalfOpen = sim.states[breaker.Closed], sim.states[breaker.Open], sim.states[breaker.HalfOpen]
		}
	}
	sim.finish(stream.n) // the stream's true count once it has ended
	return sim.run, true
}

// finish trims the windows after the last one counting anything and works out the run's totals.
func (sim *overloadSim) finish(streamed int) {
	p, run := sim.p, &sim.run
	run.Stream, run.Requests = streamed, p.Clients+streamed
	for n := len(run.Windows); n > 0 && !run.Windows[n-1].counts(); n-- {
		run.Windows = run.Windows[:n-1]
	}
	run.Arrivals = make([]int, sim.lastArr+1)
	for k := range run.Arrivals {
		run.Arrivals[k] = run.Windows[k].New + run.Windows[k].Retries
	}
	run.GaveUp = run.OutOfAttempts + run.Refused + run.OutOfBudget + run.Blocked
	if sim.brk {
		sim.finishBreakers()
	}
	run.Peak, run.PeakAt = sim.s.peak.Finish()
	splitPeaks(p, &run.HerdRun, sim.down)
	run.MeanPerClient = float64(run.Attempts) / float64(run.Requests)
	run.Recovered = -1
	k := int(p.Outage / p.Window)
	switch {
	case sim.lastArr < k: // nothing arrived after the outage: idle, and nothing unclean from k
		run.Recovered, run.Idle = p.WindowStart(k), true
	case !sim.s.dirty[sim.lastArr]:
		for b := sim.lastArr; b >= k; b-- {
			if sim.s.dirty[b] {
				k = b + 1
				break
			}
		}
		run.Recovered = p.WindowStart(k)
	}
	run.RecoveredInStream = run.Recovered >= 0 && run.Recovered < p.StreamEnd()
}

// growCalendar makes room for events up to window b. The horizon (OverloadWindows) makes this
// unneeded; it is here so that a mistake there cannot panic the page.
func (sim *overloadSim) growCalendar(b int) { sim.s.pending.Extend(b + 1) }

// schedule files request i's event (phase 0 for an outcome, arrivalBit for an arrival) at at.
func (sim *overloadSim) schedule(i int, at time.Duration, phase uint64) {
	b := int(uint64(at) / uint64(sim.p.Window)) // unsigned: wasm divides signed ints in a call
	key := uint64(at-time.Duration(b)*sim.p.Window)<<offShift | phase | uint64(i)
	if b == sim.b && sim.open {
		sim.s.late = eventq.PushLate(sim.s.late, eventq.Late{Key: key})
		return
	}
	if b >= sim.s.pending.Windows() {
		sim.growCalendar(b)
	}
	sim.s.pending.Add(b, key)
	sim.pending++
}

// serveQueue serves the queue at the window's start, in arrival order, up to the capacity. An
// attempt whose answer comes after its client's timeout is wasted; the others are answered.
func (sim *overloadSim) serveQueue() {
	p, s, w := &sim.p, sim.s, &sim.run.Windows[sim.b]
	for ; len(s.queue) > sim.qhead && sim.taken < p.Capacity; sim.qhead++ {
		q := s.queue[sim.qhead]
		sim.taken++
		d := sim.service(sim.from)
		if p.Timeout > 0 && sim.from+d > q.at+p.Timeout {
			w.Wasted++
			sim.run.Wasted++
			continue
		}
		i, sl := int(q.req), s.slot[q.req]
		r := &s.reqs[sl]
		r.kind = outSuccess
		if r.errs {
			w.Errors++
			sim.run.Errors++
			r.kind = outError
		} else {
			w.Served++
			sim.run.Served++
			sim.run.LastAccepted = max(sim.run.LastAccepted, q.at)
		}
		if !sim.ordered { // see arrive; its pending timeout, if any, finds it done or not due
			r.due = -1
			if !sim.decide(i, r, sim.from+d) {
				sim.end(i, sl)
			}
			continue
		}
		r.due = sim.from + d
		sim.schedule(i, r.due, 0)
	}
	if sim.qhead >= 1024 && 2*sim.qhead >= len(s.queue) { // drop the served, amortized O(1)
		s.queue = s.queue[:copy(s.queue, s.queue[sim.qhead:])]
		sim.qhead = 0
	}
}

// arrive judges request i's attempt arriving at at. It reports false if pause stopped the run.
//
// The attempt's outcome is decided here, without an event of its own, in two cases where that
// is provably the same as deciding it at its outcome time in the order of the events:
//   - The outcome time is now (Call = 0, or an at-once failure with Call = 0): its event's key
//     (now, outcome, i) would be below every key still waiting, as those are at or after the
//     arrival (now, arrival, i) being run, so it would run next, before anything else.
//   - There is no limiter (limited is false). Then an outcome reads and writes only its own request
//     (its random stream, state and attempts) and the counts of the run and of its outcome
//     time's window, which are sums; its retry is filed by its time, so it runs in its place.
//     The active and retry counts are read by limiters alone. What is not known yet is left to
//     an event: a queued attempt's fate, and with a limiter every later outcome, as limiters
//     must see failures and successes in time order across requests.
//
// A new request that ends here (the 2M single-attempt requests of a stream mostly do) takes no
// slot: its state lives on the stack.
func (sim *overloadSim) arrive(i int, at time.Duration) bool {
	p, s, run := &sim.p, sim.s, &sim.run
	w := &run.Windows[sim.b]
	var r *overloadRequest
	var fresh overloadRequest // a new request's state until it needs a slot
	sl := s.slot[i]
	if sl == slotNew {
		r = &fresh
		stream := uint64(i)
		if i >= p.Clients {
			stream = 1<<32 + uint64(i-p.Clients)
		}
		r.rng.Seed(p.Seed, stream)
		r.start, r.state = at, sim.first
		w.New++
		sim.down += b2i(at < p.Outage)
		if sim.atCall && !sim.ask(i, r, at) { // rejected: the call ends before its retries begin
			run.Attempts++
			run.Blocked++
			sim.lastArr = sim.b
			run.MaxPerClient = max(run.MaxPerClient, 1)
			s.slot[i] = slotDone
			return sim.pause == nil || run.Attempts%policy.PauseEvery != 0 || sim.pause()
		}
		if sim.limited {
			s.lims[sim.proc(i)].Begin(at)
			s.underway[sim.proc(i)]++
		}
	} else {
		r = &s.reqs[sl]
		if sim.limited && !sim.start(i, sl, r, at) {
			return true
		}
		w.Retries++
		sim.down += b2i(at < p.Outage)
	}
	r.made++
	r.at, r.due = at, -1
	run.Attempts++
	if sim.pause != nil && run.Attempts%policy.PauseEvery == 0 && !sim.pause() {
		return false
	}
	sim.lastArr = sim.b
	if sim.limited {
		s.active[sim.proc(i)]++
		if r.made > 1 {
			s.activeRetries[sim.proc(i)]++
		}
	}
	// At each attempt, the breaker is asked first: a rejected attempt never reaches the server
	// (no draw, no peak) and fails at once.
	rejected := sim.brk && !sim.atCall && !sim.ask(i, r, at)
	// Each attempt outside the outage that reaches the server draws whether it fails, at its
	// arrival, from its request's own stream: the draws follow the request's attempts.
	r.errs = !rejected && p.FailRate > 0 && at >= p.Outage && mathx.Unit(&r.rng) < p.FailRate
	if !rejected {
		s.peak.Add(at)
	}
	var outcomeAt time.Duration
	switch {
	case rejected:
		r.kind, outcomeAt = outRejected, at
	case at < p.Outage:
		outcomeAt = sim.fail(r, at, outOutage)
	case p.Capacity == 0 || sim.taken < p.Capacity:
		sim.taken++
		d := sim.service(at)
		if p.Timeout > 0 && d > p.Timeout { // sim.late, when not slow
			w.Wasted++
			run.Wasted++
			s.dirty[sim.b] = true
			r.kind, outcomeAt = outTimeout, at+p.Timeout
			break
		}
		if r.errs {
			w.Errors++
			run.Errors++
			r.kind, outcomeAt = outError, at+d
			break
		}
		w.Served++
		run.Served++
		run.LastAccepted = max(run.LastAccepted, at)
		r.kind, outcomeAt = outSuccess, at+d
	case len(s.queue)-sim.qhead < p.Queue:
		s.queue = append(s.queue, queuedAttempt{int32(i), at})
		s.dirty[sim.b] = true
		r.kind = outTimeout // unless it is served in time
		if p.Timeout > 0 {
			r.due = at + p.Timeout
			sim.schedule(i, r.due, 0)
		}
		outcomeAt = -1 // not known yet
	default:
		outcomeAt = sim.fail(r, at, outThrottled)
	}
	if outcomeAt >= 0 && (outcomeAt == at || !sim.ordered) {
		if sim.decide(i, r, outcomeAt) {
			sim.keep(i, sl, r)
		} else if sl == slotNew {
			sim.run.MaxPerClient = max(sim.run.MaxPerClient, int(r.made))
			s.slot[i] = slotDone
		} else {
			sim.end(i, sl)
		}
		return true
	}
	if outcomeAt >= 0 {
		r.due = outcomeAt
		sim.schedule(i, outcomeAt, 0)
	}
	sim.keep(i, sl, r)
	return true
}

// start asks request i's limiter whether its retry r, arriving at at, may start. A refused
// retry ends its request then, refused, before anything else of it: it is no attempt.
func (sim *overloadSim) start(i int, sl int32, r *overloadRequest, at time.Duration) bool {
	s, proc := sim.s, sim.proc(i)
	if st := s.starts[proc]; st == nil || st.Start(limiter.Failure{Now: at, Active: int(s.active[proc]), Retries: int(s.retries[proc]),
		Requests: int(s.underway[proc]), ActiveRetries: int(s.activeRetries[proc])}) {
		return true
	}
	sim.run.Refused++
	sim.run.Windows[sim.b].Refused++
	s.underway[proc]--
	s.retries[proc]-- // its hold, taken at the failure that allowed it (r.holds)
	r.holds = false
	if sim.atCall {
		sim.record(i, r.permit, at, true, at-r.start)
	}
	sim.end(i, sl)
	return false
}

// proc is request i's process.
func (sim *overloadSim) proc(i int) int { return int(uint(i) % uint(sim.procs)) }

// keep gives a new request with an event pending a slot, from its state r on the stack.
func (sim *overloadSim) keep(i int, sl int32, r *overloadRequest) {
	if sl != slotNew {
		return
	}
	s := sim.s
	if n := len(s.free); n > 0 {
		sl, s.free = s.free[n-1], s.free[:n-1]
	} else {
		sl = int32(len(s.reqs))
		s.reqs = append(s.reqs, overloadRequest{})
	}
	s.slot[i] = sl
	s.reqs[sl] = *r
}

// fail fails the attempt r arriving at at at once; its client learns it a call later, or at its
// timeout, which fail returns.
func (sim *overloadSim) fail(r *overloadRequest, at time.Duration, kind outcomeKind) time.Duration {
	sim.run.Windows[sim.b].Failed++
	sim.run.Failed++
	sim.s.dirty[sim.b] = true
	if sim.late {
		r.kind = outTimeout
		return at + sim.p.Timeout
	}
	r.kind = kind
	return at + sim.p.Call
}

// outcome is the outcome of request i's attempt, known to its client at at.
func (sim *overloadSim) outcome(i int, at time.Duration) {
	sl := sim.s.slot[i]
	r := &sim.s.reqs[sl]
	if r.due != at {
		return // a timeout's event after its attempt was answered in time with an error
	}
	// The run's last event for a breaker's open time: a timeout that does not happen is none.
	sim.last = at
	r.due = -1 // of two events at this key (a timeout and an answer), the other does nothing
	if !sim.decide(i, r, at) {
		sim.end(i, sl)
	}
}

// window is the window holding time at, at or after the one being run; a decided outcome's may
// not be there yet.
func (sim *overloadSim) window(at time.Duration) *OverloadWindow {
	b := int(uint64(at) / uint64(sim.p.Window)) // unsigned: wasm divides signed ints in a call
	for len(sim.run.Windows) <= b {
		sim.run.Windows = append(sim.run.Windows, OverloadWindow{})
	}
	return &sim.run.Windows[b]
}

// decide is the outcome of request i's attempt r, known to its client at at: a success ends the
// request; after a failure the limiter is asked, then the policy. It reports whether the request
// goes on (its retry is filed).
func (sim *overloadSim) decide(i int, r *overloadRequest, at time.Duration) bool {
	p, s, run := &sim.p, sim.s, &sim.run
	var l limiter.Limiter
	proc := 0
	if sim.limited {
		proc = sim.proc(i)
		s.active[proc]--
		if r.made > 1 {
			s.activeRetries[proc]--
		}
		if r.holds { // released before its own decision, as Envoy's resetRetry
			s.retries[proc]--
			r.holds = false
		}
		l = s.lims[proc]
	}
	if sim.brk && !sim.atCall && r.kind != outRejected {
		sim.record(i, r.permit, at, r.kind != outSuccess, at-r.at)
	}
	if r.kind == outSuccess {
		if l != nil {
			l.Succeed(at, int(r.made), int(r.held))
			s.underway[proc]--
		}
		run.Accepted++
		if sim.atCall {
			sim.record(i, r.permit, at, false, at-r.start)
		}
		return false
	}
	if r.kind == outTimeout {
		sim.window(at).TimedOut++
		run.TimedOut++
	}
	ok, held := true, 0
	if l != nil {
		ok, held = l.Retry(limiter.Failure{Now: at, Last: int(r.made) == p.Attempts, Timeout: r.kind == outTimeout,
			Throttled: r.kind == outThrottled, Active: int(s.active[proc]), Retries: int(s.retries[proc]),
			Requests: int(s.underway[proc]), ActiveRetries: int(s.activeRetries[proc])})
	}
	switch {
	case int(r.made) == p.Attempts:
		run.OutOfAttempts++
	case !ok:
		run.Refused++
		sim.window(at).Refused++
	default:
		// A wait without a draw is looked up, as in the herd, and a drawn wait of a law
		// without a step drawn without Next's calls (Waits.NextLinear).
		wait, state := sim.waits.NextLinear(int(r.made), &r.rng, r.state)
		if next := at - r.start + wait; p.Budget == 0 || next < p.Budget {
			r.state, r.held = state, int32(held)
			if sim.limited {
				r.holds = true
				s.retries[proc]++
			}
			sim.schedule(i, at+wait, arrivalBit)
			return true
		}
		run.OutOfBudget++
	}
	if l != nil {
		s.underway[proc]--
	}
	if sim.atCall {
		sim.record(i, r.permit, at, true, at-r.start)
	}
	return false
}

// end frees request i's slot.
func (sim *overloadSim) end(i int, sl int32) {
	sim.run.MaxPerClient = max(sim.run.MaxPerClient, int(sim.s.reqs[sl].made))
	sim.s.slot[i] = slotDone
	sim.s.free = append(sim.s.free, sl)
}

// newBreakers makes the run's breakers of kind k, all closed: one per process, or one shared.
func (sim *overloadSim) newBreakers(k breaker.Kind) {
	s := sim.s
	s.brks = s.brks[:0]
	sim.states = [3]int{}
	if !sim.brk {
		return
	}
	n := sim.procs
	if sim.p.Breakers == calc.BreakerShared {
		n = 1
	}
	s.draws = reuse.Grow(s.draws, n)
	s.opened = reuse.Grow(s.opened, n)
	for b := range n {
		// SRE's rejections draw from a stream of the breaker's own, past the requests' streams.
		s.draws[b].Seed(sim.p.Seed, 1<<33+uint64(b))
		rng := &s.draws[b]
		s.brks = append(s.brks, breaker.New(k, sim.p.BreakerParams, func() float64 { return mathx.Unit(rng) }))
	}
	sim.states[breaker.Closed] = n
	sim.run.Breakers = n
}

// breaker is the index of request i's breaker.
func (sim *overloadSim) breaker(i int) int {
	if len(sim.s.brks) == 1 {
		return 0
	}
	return sim.proc(i)
}

// ask asks request i's breaker for a permit for r's attempt (or call) at at, keeps it in r and
// counts a rejection or a probe; it reports whether the attempt may go.
func (sim *overloadSim) ask(i int, r *overloadRequest, at time.Duration) bool {
	b := sim.breaker(i)
	brk := sim.s.brks[b]
	was := brk.State()
	r.permit = brk.Allow(at)
	sim.moved(b, was, at)
	w := &sim.run.Windows[sim.b]
	switch {
	case !r.permit.Allowed:
		w.Rejected++
		sim.run.Rejected++
		sim.s.dirty[sim.b] = true
	case r.permit.Probe:
		w.Probes++
		sim.run.Probes++
	}
	return r.permit.Allowed
}

// record hands request i's breaker the result of the attempt (or call) it permitted.
func (sim *overloadSim) record(i int, permit breaker.Permit, at time.Duration, failed bool, took time.Duration) {
	b := sim.breaker(i)
	brk := sim.s.brks[b]
	was := brk.State()
	brk.Record(at, permit, failed, took)
	sim.moved(b, was, at)
}

// moved counts breaker b's change of state at at, if its last call made one.
func (sim *overloadSim) moved(b int, was breaker.State, at time.Duration) {
	now := sim.s.brks[b].State()
	if now == was {
		return
	}
	sim.states[was]--
	sim.states[now]++
	if was == breaker.Open {
		sim.run.OpenTime += at - sim.s.opened[b]
	}
	if now == breaker.Open {
		sim.run.Trips++
		sim.s.opened[b] = at
	}
}

// finishBreakers closes the open periods still running at the run's last event and finds the
// window with the most probes.
func (sim *overloadSim) finishBreakers() {
	for b, brk := range sim.s.brks {
		if brk.State() == breaker.Open {
			sim.run.OpenTime += sim.last - sim.s.opened[b]
		}
	}
	for _, w := range sim.run.Windows {
		sim.run.MaxProbes = max(sim.run.MaxProbes, w.Probes)
	}
}
