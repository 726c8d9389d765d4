package sim

import (
	"container/heap"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// overloadByHeap is docs/overload-model.md written as plainly as possible, to check the
// simulation (Overload) against: one heap of events keyed by (time, class, request), a
// struct per request and per attempt, the server's queue as a slice. It shares no code with the
// simulation or the herd's: it uses only what is proven on its own, the limiters (limiter.New,
// compared with grpc-go and aws-sdk-go-v2 in limiter_test.go and calc/libs) and the waits
// (Params.Wait, FirstState and Schedule, drawn where herdByHeap draws them), and the circuit
// breakers (breaker.New, compared with their libraries in breaker_test.go and calc/libs): the
// loop around them, when they are asked and told, is written here from the rules alone.
//
// Where the specification leaves a choice open, the reading taken is marked "Reading:".
func overloadByHeap(p calc.Params, c calc.OverloadCase) OverloadRun {
	m := &overloadModel{p: p, c: c, h: &modelHeap{}, queueAt: map[int]bool{}}
	m.requests()
	for m.h.Len() > 0 {
		e := heap.Pop(m.h).(modelEvent)
		switch e.class {
		case classWindow:
			m.serveQueue(e.at)
		case classOutcome:
			m.outcome(e)
		case classArrival:
			m.arrive(e)
		}
	}
	return m.result()
}

// The classes of events, in their order at one instant.
const (
	classWindow  = 1 // a window's start: the queue is served
	classOutcome = 2 // an answer, an at-once failure known, a timeout
	classArrival = 3 // an attempt arrives at the server
)

type modelEvent struct {
	at      time.Duration
	class   int
	req     int  // the request (0 for a window's start)
	attempt int  // the attempt, for an outcome
	timeout bool // an outcome that is the attempt's timeout, not its answer
	seq     int  // creation order: ties only with a timeout not taken, which does nothing
}

type modelHeap []modelEvent

func (h modelHeap) Len() int { return len(h) }
func (h modelHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.class != b.class {
		return a.class < b.class
	}
	if a.req != b.req {
		return a.req < b.req
	}
	return a.seq < b.seq
}
func (h modelHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *modelHeap) Push(x any)   { *h = append(*h, x.(modelEvent)) }
func (h *modelHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

type modelRequest struct {
	proc    int
	start   time.Duration
	rng     *rand.Rand
	state   float64        // what the next wait grows from (Params.Wait)
	made    int            // attempts made so far
	held    int            // what the last allowed Retry returned
	holding bool           // holds a retry (envoy's Retries)
	ended   bool           // succeeded or gave up
	permit  breaker.Permit // breakerat=call: the breaker's answer to the call
}

type modelAttempt struct {
	req       int
	at        time.Duration // arrival at the server
	first     bool
	queued    bool           // joined the queue (rule 3)
	served    time.Duration  // when served; -1 when not (yet)
	failed    bool           // failed at once (rules 1 and 4)
	throttled bool           // failed by rule 4
	answer    time.Duration  // when its answer comes; -1 while not known (queued)
	gaveUp    bool           // its client stopped waiting (a timeout happened)
	known     bool           // its outcome reached its client (answer, failure or timeout)
	errs      bool           // its answer, if its client waits for it, is a failure (FailRate)
	seen      int            // with Latency or Slope: the attempts in service at its start, itself counted
	rejected  bool           // its breaker rejected it: it never reached the server
	permit    breaker.Permit // breakerat=attempt: the breaker's answer to it
}

// modelChange is a breaker's change of state at a call to it.
type modelChange struct {
	at       time.Duration
	brk      int
	from, to breaker.State
}

type overloadModel struct {
	p calc.Params
	c calc.OverloadCase

	h   *modelHeap
	seq int

	reqs     []modelRequest
	attempts []modelAttempt
	limiters []limiter.Limiter // one per process; nil entries for none
	rows     []policy.Row      // the schedule of the mode's jitter: where a wait is drawn
	stream   int

	queue   []int        // attempts waiting, in arrival order
	queueAt map[int]bool // windows whose start is already an event
	served  map[int]int  // attempts served per window index

	run     OverloadRun
	windows map[int]*OverloadWindow

	brks    []breaker.Breaker // one per process, or one shared; nil without a breaker
	atCall  bool              // the breaker sits around the call, not each attempt
	changes []modelChange     // every change of a breaker's state, in time order
	last    time.Duration     // the last arrival or outcome known to a client: where open time ends
	// refusedLast is the last retry refused at its start: a count in a window after its
	// request's last answer.
	refusedLast time.Duration
}

func (m *overloadModel) push(e modelEvent) {
	m.seq++
	e.seq = m.seq
	heap.Push(m.h, e)
}

func (m *overloadModel) window(t time.Duration) *OverloadWindow {
	k := int(t / m.p.Window)
	if m.windows[k] == nil {
		m.windows[k] = &OverloadWindow{}
	}
	return m.windows[k]
}

// requests makes the crowd's clients and the stream's requests and puts their first arrivals on
// the heap.
func (m *overloadModel) requests() {
	p := m.p
	m.served = map[int]int{}
	m.windows = map[int]*OverloadWindow{}
	var starts []time.Duration
	for i := range p.Clients {
		hi, lo := bits.Mul64(uint64(i), uint64(p.Spread))
		q, _ := bits.Div64(hi, lo, uint64(p.Clients)) // floor(i*Spread/Clients)
		starts = append(starts, time.Duration(q))
	}
	if p.Rate > 0 && p.Run > 0 {
		switch p.Arrivals {
		case calc.Even:
			for k := 0; ; k++ {
				s := time.Duration(float64(k) * 1e9 / p.Rate)
				if s >= p.Run {
					break
				}
				starts = append(starts, s)
				m.stream++
			}
		case calc.Poisson:
			// The specification's cap, so that the work is bounded for every seed:
			// ceil(λ + 8√λ + 8) requests, λ = Rate × Run in seconds; no small case reaches it.
			λ := p.Rate * p.Run.Seconds()
			most := int(math.Ceil(λ + 8*math.Sqrt(λ) + 8))
			r := rand.New(rand.NewPCG(p.Seed, 1<<63))
			var s time.Duration
			for m.stream < most {
				s += time.Duration(r.ExpFloat64() * 1e9 / p.Rate)
				if s >= p.Run {
					break
				}
				starts = append(starts, s)
				m.stream++
			}
		}
	}
	q := m.wait()
	m.rows = q.Schedule().Rows
	for r, s := range starts {
		stream := uint64(r)
		if r >= p.Clients {
			stream = 1<<32 + uint64(r-p.Clients)
		}
		m.reqs = append(m.reqs, modelRequest{
			proc: r % p.Processes, start: s, rng: rand.New(rand.NewPCG(p.Seed, stream)),
			state: q.FirstState(),
		})
		m.push(modelEvent{at: s, class: classArrival, req: r})
	}
	for range p.Processes {
		m.limiters = append(m.limiters, limiter.New(m.c.Limiter, p.Limits))
	}
	if m.c.Breaker != breaker.None {
		n := p.Processes
		if p.Breakers == calc.BreakerShared {
			n = 1
		}
		for b := range n {
			draws := rand.New(rand.NewPCG(p.Seed, 1<<33+uint64(b))) // SRE's, the breaker's own
			m.brks = append(m.brks, breaker.New(m.c.Breaker, p.BreakerParams, draws.Float64))
		}
		m.atCall = p.BreakerAt == calc.BreakerAtCall
	}
}

// breaker is request req's breaker: its process's, or the shared one.
func (m *overloadModel) breaker(req int) int {
	if m.p.Breakers == calc.BreakerShared {
		return 0
	}
	return m.reqs[req].proc
}

// ask asks request req's breaker for a permit at an arrival at t and counts its answer.
func (m *overloadModel) ask(req int, t time.Duration) breaker.Permit {
	b := m.breaker(req)
	was := m.brks[b].State()
	permit := m.brks[b].Allow(t)
	m.changed(b, was, t)
	w := m.window(t)
	switch {
	case !permit.Allowed:
		w.Rejected++
		m.run.Rejected++
	case permit.Probe:
		w.Probes++
		m.run.Probes++
	}
	return permit
}

// tell hands request req's breaker the result of the attempt or call it permitted.
func (m *overloadModel) tell(req int, t time.Duration, permit breaker.Permit, failed bool, took time.Duration) {
	b := m.breaker(req)
	was := m.brks[b].State()
	m.brks[b].Record(t, permit, failed, took)
	m.changed(b, was, t)
}

// changed logs breaker b's change of state at t, if its last call made one.
func (m *overloadModel) changed(b int, was breaker.State, t time.Duration) {
	if now := m.brks[b].State(); now != was {
		m.changes = append(m.changes, modelChange{at: t, brk: b, from: was, to: now})
	}
}

// endCall tells the breaker around the call (breakerat=call) how request req ended at t.
func (m *overloadModel) endCall(t time.Duration, req int, failed bool) {
	if m.atCall {
		r := &m.reqs[req]
		m.tell(req, t, r.permit, failed, t-r.start)
	}
}

// wait is p with the jitter of the case's mode.
func (m *overloadModel) wait() calc.Params {
	j, _ := m.c.Mode.Jitter()
	return m.p.WithJitter(j)
}

// arrive is an attempt of request e.req arriving: the server's rules 1 to 4.
func (m *overloadModel) arrive(e modelEvent) {
	p := m.p
	r := &m.reqs[e.req]
	m.last = e.at
	// A retry's start asks the limiter first: refused, the request ends here, without an
	// attempt.
	if l := m.limiters[r.proc]; l != nil && r.made > 0 {
		f := m.limiterCounts(r.proc)
		f.Now = e.at
		if !limiter.Start(l, f) {
			r.ended, r.holding = true, false
			m.run.Refused++
			m.window(e.at).Refused++
			m.refusedLast = max(m.refusedLast, e.at)
			m.endCall(e.at, e.req, true)
			return
		}
	}
	r.made++
	a := modelAttempt{req: e.req, at: e.at, first: r.made == 1, served: -1, answer: -1}
	id := len(m.attempts)
	w := m.window(e.at)
	if a.first {
		w.New++
	} else {
		w.Retries++
	}
	// A breaker is asked before anything else: around the call by its first attempt, before
	// the limiter hears of the request; else by every attempt.
	if m.brks != nil && (!m.atCall || a.first) {
		permit := m.ask(e.req, e.at)
		if m.atCall {
			r.permit = permit
		} else {
			a.permit = permit
		}
		a.rejected = !permit.Allowed
	}
	if a.rejected && m.atCall { // the call ends here: no limiter, no attempt at the server
		a.answer, a.known = e.at, true
		m.attempts = append(m.attempts, a)
		r.ended = true
		m.run.Blocked++
		return
	}
	if a.first {
		if l := m.limiters[r.proc]; l != nil {
			l.Begin(e.at)
		}
	}
	if a.rejected { // a failure its client learns at once, never at the server
		a.answer = e.at
		m.attempts = append(m.attempts, a)
		m.push(modelEvent{at: e.at, class: classOutcome, req: e.req, attempt: id})
		return
	}
	// Errors: an attempt arriving at or after the outage's end draws from its request's stream,
	// before anything else of it that reaches the server, whether its answer will be a failure.
	if p.FailRate > 0 && e.at >= p.Outage {
		a.errs = r.rng.Float64() < p.FailRate
	}
	k := int(e.at / p.Window)
	switch {
	case e.at < p.Outage:
		a.failed = true
	case p.Capacity == 0 || m.served[k] < p.Capacity:
		m.served[k]++
		a.served = e.at
	case len(m.queue) < p.Queue:
		a.queued = true
		m.queue = append(m.queue, id)
		m.nextWindow(e.at)
	default:
		a.failed, a.throttled = true, true
	}
	if a.failed {
		w.Failed++
	}
	switch {
	case a.served >= 0:
		a.seen, a.answer = m.inService(e.at)
	case !a.queued:
		a.answer = e.at + p.Call
	}
	m.attempts = append(m.attempts, a)
	if a.served >= 0 {
		m.serve(id)
	}
	if p.Timeout > 0 {
		m.push(modelEvent{at: e.at + p.Timeout, class: classOutcome, req: e.req, attempt: id, timeout: true})
	}
	if !a.queued && !m.timesOut(id) {
		m.push(modelEvent{at: a.answer, class: classOutcome, req: e.req, attempt: id})
	}
}

// inService is what an attempt starting service at t finds: n, the attempts served before it
// whose answer comes after t, plus itself, and its answer, Call + Latency + n × Slope after t
// (the server of Brooker's collapse simulation: the time is fixed at the start).
func (m *overloadModel) inService(t time.Duration) (n int, answer time.Duration) {
	n = 1
	for _, a := range m.attempts {
		if a.served >= 0 && a.answer > t {
			n++
		}
	}
	return n, t + m.p.Call + m.p.Latency + time.Duration(n)*m.p.Slope
}

// timesOut says that attempt id's client stops waiting for it: its answer comes strictly later
// than its start plus the timeout, or is still unknown then.
func (m *overloadModel) timesOut(id int) bool {
	a := m.attempts[id]
	return m.p.Timeout > 0 && (a.answer < 0 || a.answer > a.at+m.p.Timeout)
}

// serve counts attempt id, just served, as useful or wasted.
//
// Reading: an attempt is wasted when it is served and its client stops waiting for it, whether
// the client stopped before it was served (it sat in the queue) or stops before its answer
// comes (served at s, s + call later than its start + timeout). Only then does "useful: its
// request succeeds when the answer comes" hold: a served attempt whose answer comes after its
// timeout cannot make its request succeed. So Served counts exactly the attempts of the
// requests that succeeded.
func (m *overloadModel) serve(id int) {
	a := &m.attempts[id]
	w := m.window(a.served)
	switch {
	case a.gaveUp || m.timesOut(id):
		w.Wasted++
		m.run.Wasted++
	case a.errs:
		w.Errors++
		m.run.Errors++
	default:
		w.Served++
		m.run.Served++
	}
}

// nextWindow makes the start of the window after t's an event, once.
func (m *overloadModel) nextWindow(t time.Duration) {
	k := int(t/m.p.Window) + 1
	if !m.queueAt[k] {
		m.queueAt[k] = true
		m.push(modelEvent{at: time.Duration(k) * m.p.Window, class: classWindow})
	}
}

// serveQueue serves the queue at the start of a window, in arrival order, up to capacity.
func (m *overloadModel) serveQueue(at time.Duration) {
	k := int(at / m.p.Window)
	for len(m.queue) > 0 && m.served[k] < m.p.Capacity {
		id := m.queue[0]
		m.queue = m.queue[1:]
		m.served[k]++
		a := &m.attempts[id]
		a.seen, a.answer = m.inService(at)
		a.served = at
		m.serve(id)
		if !a.gaveUp && !m.timesOut(id) {
			m.push(modelEvent{at: a.answer, class: classOutcome, req: a.req, attempt: id})
		}
	}
	if len(m.queue) > 0 {
		m.nextWindow(at)
	}
}

// outcome is an answer or a timeout of attempt e.attempt reaching its client.
func (m *overloadModel) outcome(e modelEvent) {
	a := &m.attempts[e.attempt]
	if e.timeout && !m.timesOut(e.attempt) {
		return // the answer comes in time (perhaps at this same instant): no timeout
	}
	if a.known {
		panic("overloadByHeap: two outcomes for one attempt")
	}
	a.known = true
	m.last = e.at
	r := &m.reqs[e.req]
	r.holding = false // a retry is held until its attempt's outcome (envoy's resetRetry first)
	if m.brks != nil && !m.atCall && !a.rejected {
		m.tell(e.req, e.at, a.permit, e.timeout || a.failed || a.errs, e.at-a.at)
	}
	switch {
	case a.rejected:
		m.failed(e.at, e.req, false, false)
	case e.timeout:
		a.gaveUp = true
		m.window(e.at).TimedOut++
		m.run.TimedOut++
		m.failed(e.at, e.req, true, false)
	case a.failed:
		m.failed(e.at, e.req, false, a.throttled)
	case a.errs:
		m.failed(e.at, e.req, false, false)
	default: // a useful answer: the request has succeeded
		if l := m.limiters[r.proc]; l != nil {
			l.Succeed(e.at, r.made, r.held)
		}
		r.ended = true
		m.run.Accepted++
		m.run.LastAccepted = max(m.run.LastAccepted, a.at)
		m.endCall(e.at, e.req, false)
	}
}

// failed is the client's decision after a failure known at now, in the specification's order:
// the limiter, then the attempts left, the limiter's answer, the wait and the budget.
func (m *overloadModel) failed(now time.Duration, req int, timeout, throttled bool) {
	p := m.p
	r := &m.reqs[req]
	ok, held := true, 0
	if l := m.limiters[r.proc]; l != nil {
		f := m.limiterCounts(r.proc)
		f.Now, f.Last, f.Timeout, f.Throttled = now, r.made == p.Attempts, timeout, throttled
		ok, held = l.Retry(f)
	}
	switch {
	case r.made == p.Attempts:
		r.ended = true
		m.run.OutOfAttempts++
		m.endCall(now, req, true)
		return
	case !ok:
		r.ended = true
		m.run.Refused++
		m.window(now).Refused++
		m.endCall(now, req, true)
		return
	}
	var w time.Duration
	state := r.state
	if j, backoff := m.c.Mode.Jitter(); backoff {
		u := 0.0
		// As the herd: a draw only where the wait is not fixed, and always for decorrelatedv2,
		// whose next wait depends on the draw.
		if m.rows[r.made].Min < m.rows[r.made].Max || j == policy.DecorrelatedV2 {
			u = r.rng.Float64()
		}
		w, state = m.wait().Wait(r.made, u, r.state)
	}
	if next := now - r.start + w; p.Budget > 0 && next >= p.Budget {
		r.ended = true
		m.run.OutOfBudget++
		m.endCall(now, req, true)
		return
	}
	r.state, r.held, r.holding = state, held, true
	m.push(modelEvent{at: now + w, class: classArrival, req: req})
}

// limiterCounts are the process's counts a limiter is told: its attempts whose outcome has not
// reached their client (queued, served or failed and not yet answered) and how many of them are
// retries, its requests holding a retry, and its requests under way (begun and not ended). The
// failing attempt is already known, so it is not counted; the request deciding is under way.
//
// Reading: an attempt whose client timed out is no longer active, even while it sits in the
// server's queue: its outcome (the timeout) is known to its client.
func (m *overloadModel) limiterCounts(proc int) limiter.Failure {
	var f limiter.Failure
	for _, a := range m.attempts {
		if !a.known && m.reqs[a.req].proc == proc {
			f.Active++
			if !a.first {
				f.ActiveRetries++
			}
		}
	}
	for _, r := range m.reqs {
		if r.holding && r.proc == proc {
			f.Retries++
		}
		if r.made > 0 && !r.ended && r.proc == proc {
			f.Requests++
		}
	}
	return f
}

// result adds up the run from the attempts and the windows.
func (m *overloadModel) result() OverloadRun {
	p := m.p
	run := m.run
	run.Mode, run.Limiter, run.Breaker = m.c.Mode, m.c.Limiter, m.c.Breaker
	run.Requests, run.Stream = len(m.reqs), m.stream
	run.GaveUp = run.OutOfAttempts + run.Refused + run.OutOfBudget + run.Blocked
	if run.Accepted == 0 {
		run.LastAccepted = -1
	}
	// The windows run from 0 to the last event, which the specification's choice makes the last
	// window with a count that is not 0 (a success's answer later adds no window). Every count
	// is in a window no later than its attempt's answer, or than a retry refused at its start.
	var times, reached []time.Duration // every attempt's arrival; those of the attempts not rejected
	last := m.refusedLast
	for _, a := range m.attempts {
		times = append(times, a.at)
		if !a.rejected {
			reached = append(reached, a.at)
		}
		last = max(last, a.answer)
		if a.failed {
			run.Failed++
		}
	}
	slices.Sort(times)
	slices.Sort(reached)
	run.Attempts = len(times)
	run.Windows = make([]OverloadWindow, last/p.Window+1)
	for k, w := range m.windows {
		run.Windows[k] = *w
	}
	// The queue at each window's end, from the attempts: queued at or before it, served after.
	for _, a := range m.attempts {
		if a.queued {
			for k := int(a.at / p.Window); k < int(a.served/p.Window); k++ {
				run.Windows[k].Queue++
			}
		}
	}
	// Latency and Slope: per window, the most attempts an attempt served in it found in service
	// and their mean time from service to answer; per run the most of both.
	if p.Latency > 0 || p.Slope > 0 {
		sum := make([]time.Duration, len(run.Windows))
		cnt := make([]int, len(run.Windows))
		for _, a := range m.attempts {
			if a.served < 0 {
				continue
			}
			k := int(a.served / p.Window)
			w := &run.Windows[k]
			w.InService = max(w.InService, a.seen)
			sum[k] += a.answer - a.served
			cnt[k]++
			run.MaxInService = max(run.MaxInService, a.seen)
			run.MaxLatency = max(run.MaxLatency, a.answer-a.served)
		}
		for k := range cnt {
			if cnt[k] > 0 {
				run.Windows[k].Latency = sum[k] / time.Duration(cnt[k])
			}
		}
	}
	for len(run.Windows) > 0 && run.Windows[len(run.Windows)-1] == (OverloadWindow{}) {
		run.Windows = run.Windows[:len(run.Windows)-1]
	}
	// HerdRun.Arrivals keeps the herd's length, to the window of the last attempt; Windows may
	// run further (serving, timeouts, refusals after the last arrival).
	run.Arrivals = make([]int, times[len(times)-1]/p.Window+1)
	for _, t := range times {
		run.Arrivals[t/p.Window]++
	}
	run.PeakDown, run.PeakDownAt, run.PeakBack, run.PeakBackAt = peaksByWindow(p, times)
	// The peak counts the attempts that reach the server: a rejected one never does.
	for i, t := range reached {
		n, _ := slices.BinarySearch(reached, t+p.Window)
		if n-i > run.Peak {
			run.Peak, run.PeakAt = n-i, t
		}
	}
	for _, r := range m.reqs {
		if !r.ended {
			panic("overloadByHeap: a request neither succeeded nor gave up")
		}
		run.MaxPerClient = max(run.MaxPerClient, r.made)
	}
	run.MeanPerClient = float64(run.Attempts) / float64(run.Requests)
	run.Recovered, run.RecoveredInStream = m.recovered(len(run.Arrivals)-1), false
	run.Idle = len(run.Arrivals)-1 < int(p.Outage/p.Window)
	if run.Recovered >= 0 && p.Rate > 0 && run.Recovered < p.Run {
		run.RecoveredInStream = true
	}
	if m.brks != nil {
		m.breakerCounts(&run)
	}
	return run
}

// breakerCounts adds the breakers' states to the windows (each as of the window's end) and the
// run's trips, time open and most probes in a window, from the log of changes.
func (m *overloadModel) breakerCounts(run *OverloadRun) {
	run.Breakers = len(m.brks)
	states := make([]breaker.State, len(m.brks)) // all closed at 0
	next := 0
	for k := range run.Windows {
		end := time.Duration(k+1) * m.p.Window
		for ; next < len(m.changes) && m.changes[next].at < end; next++ {
			states[m.changes[next].brk] = m.changes[next].to
		}
		w := &run.Windows[k]
		for _, st := range states {
			switch st {
			case breaker.Closed:
				w.Closed++
			case breaker.Open:
				w.Open++
			case breaker.HalfOpen:
				w.HalfOpen++
			}
		}
		run.MaxProbes = max(run.MaxProbes, w.Probes)
	}
	opened := make([]time.Duration, len(m.brks))
	for b := range states {
		states[b] = breaker.Closed
	}
	for _, c := range m.changes {
		if c.from != states[c.brk] {
			panic("overloadByHeap: a breaker's changes do not chain")
		}
		states[c.brk] = c.to
		if c.to == breaker.Open {
			run.Trips++
			opened[c.brk] = c.at
		}
		if c.from == breaker.Open {
			run.OpenTime += c.at - opened[c.brk]
		}
	}
	for b, st := range states {
		if st == breaker.Open {
			run.OpenTime += m.last - opened[b]
		}
	}
}

// recovered is the start of the first window at or after the outage's window from which every
// window up to last (the last with an arrival) is clean, or -1 when last is not. When last comes
// before the outage's window, that window qualifies: from it up to last there is no window.
func (m *overloadModel) recovered(last int) time.Duration {
	if from := int(m.p.Outage / m.p.Window); last < from {
		return time.Duration(from) * m.p.Window
	}
	clean := make([]bool, last+1)
	for k := range clean {
		clean[k] = true
	}
	for id, a := range m.attempts {
		if a.served != a.at || m.timesOut(id) {
			clean[a.at/m.p.Window] = false
		}
	}
	if !clean[last] {
		return -1
	}
	k := last
	for k > int(m.p.Outage/m.p.Window) && clean[k-1] {
		k--
	}
	return time.Duration(k) * m.p.Window
}

// overloadModelTests are worked by hand from docs/overload-model.md, so that the model is not
// just trusted: each comment follows the events. Mode, Limiter and MeanPerClient are filled in by
// the test. All start from Default: window 100ms.
var overloadModelTests = []struct {
	name string
	set  func(p *calc.Params)
	c    calc.OverloadCase
	want OverloadRun
}{
	// At 0: request 0 is served (answer at 10ms), 1 joins the queue, 2 finds server and queue
	// full and fails at once; it learns it at 10ms and retries at 60ms, where the window is
	// still full and the queue too: it fails again and is out of attempts at 70ms. At 100ms
	// the queue is served: 1's attempt, answered at 110ms, the last event (2 windows).
	{"capacity 1, queue 1, three requests", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Queue, p.Call = 3, 0, 1, 1, 10*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 2, policy.None, 50*ms, 1, 50*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.None}, OverloadRun{
		HerdRun: HerdRun{Attempts: 4, Accepted: 2, GaveUp: 1, Peak: 4, MaxPerClient: 2, Arrivals: []int{4},
			PeakDownAt: -1, PeakBack: 4},
		Requests: 3, OutOfAttempts: 1, Served: 2, Failed: 2, Recovered: -1,
		Windows: []OverloadWindow{{New: 3, Retries: 1, Served: 1, Failed: 2, Queue: 1}, {Served: 1}},
	}},
	// At 0: 0 is served (answered at 10ms, before its timeout at 50ms), 1 is queued. At 50ms 1
	// stops waiting (timed out) and retries at 70ms: the window is full and the queue still
	// holds its first attempt, so it fails at once; out of attempts at 80ms. At 100ms the server
	// serves the abandoned attempt: wasted, once, in window 1; its answer at 110ms goes to nobody.
	{"a queued attempt outlives its timeout: wasted once", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Queue, p.Call, p.Timeout = 2, 0, 1, 1, 10*ms, 50*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 2, policy.None, 20*ms, 1, 20*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.None}, OverloadRun{
		HerdRun: HerdRun{Attempts: 3, Accepted: 1, GaveUp: 1, Peak: 3, MaxPerClient: 2, Arrivals: []int{3},
			PeakDownAt: -1, PeakBack: 3},
		Requests: 2, OutOfAttempts: 1, Served: 1, Wasted: 1, Failed: 1, TimedOut: 1, Recovered: -1,
		Windows: []OverloadWindow{{New: 2, Retries: 1, Served: 1, Failed: 1, TimedOut: 1, Queue: 1}, {Wasted: 1}},
	}},
	// Every attempt is served at once and answered 100ms later, after its 50ms timeout: both are
	// wasted and time out (at 50ms and 120ms); the retry arrives at 50 + 20 = 70ms. The second
	// timeout, at 120ms, is the last count: 2 windows (its answer at 170ms adds none).
	{"timeout shorter than the call: every served attempt wasted", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call, p.Timeout = 1, 0, 0, 100*ms, 50*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 2, policy.None, 20*ms, 1, 20*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.None}, OverloadRun{
		HerdRun: HerdRun{Attempts: 2, GaveUp: 1, Peak: 2, MaxPerClient: 2, LastAccepted: -1, Arrivals: []int{2},
			PeakDownAt: -1, PeakBack: 2},
		Requests: 1, OutOfAttempts: 1, Wasted: 2, TimedOut: 2, Recovered: -1,
		Windows: []OverloadWindow{{New: 1, Retries: 1, Wasted: 2, TimedOut: 1}, {TimedOut: 1}},
	}},
	// An answer exactly at the timeout is not later than it: no timeout, the request succeeds.
	{"answer at the timeout", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call, p.Timeout = 1, 0, 0, 50*ms, 50*ms
	}, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None}, OverloadRun{
		HerdRun: HerdRun{Attempts: 1, Accepted: 1, Peak: 1, MaxPerClient: 1, Arrivals: []int{1},
			PeakDownAt: -1, PeakBack: 1},
		Requests: 1, Served: 1, Recovered: 0,
		Windows: []OverloadWindow{{New: 1, Served: 1}},
	}},
	// Envoy (20%, at least 3): all 5 fail in the outage and learn it at 10ms, in index order.
	// 0: 4 others active, 0 retries held, max(⌊0.8⌋, 3) = 3: allowed; 1 and 2 likewise (1 and 2
	// held); 3 and 4 see 3 held: refused. At 120ms each of 0, 1, 2 releases its own hold before
	// its decision and sees 2 held: allowed. Their third attempts, at 220ms, are their last.
	// (Without releasing its own hold first, 0 would see 3 and be refused.) Nothing arrives from
	// window 10, which holds the outage's end (1s): the server is idle from 1s, recovered then.
	{"envoy: a retry is held until its outcome", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call = 5, time.Second, 0, 10*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 3, policy.None, 100*ms, 1, 100*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.Envoy}, OverloadRun{
		HerdRun: HerdRun{Attempts: 11, GaveUp: 5, Peak: 5, MaxPerClient: 3, LastAccepted: -1, Arrivals: []int{5, 3, 3},
			PeakDown: 5, PeakBackAt: -1},
		Requests: 5, OutOfAttempts: 3, Refused: 2, Failed: 11, Recovered: time.Second, Idle: true,
		Windows: []OverloadWindow{{New: 5, Failed: 5, Refused: 2}, {Retries: 3, Failed: 3}, {Retries: 3, Failed: 3}},
	}},
	// failsafe (0.2, at least 3) asks at a retry's start, not at the failure: all 5 fail in the
	// outage, learn it at 10ms and are allowed to wait. At 110ms, in index order, 0, 1 and 2 find
	// 0, 1 and 2 retries in flight, fewer than 3: they start. 3 finds 3 of 5 requests + 3 retries,
	// 0.375 > 0.2: refused, its request ends there, in window 1 (envoy refuses at 10ms, in window
	// 0); 4 finds 3 of 4 + 3: refused. At 120ms 0, 1 and 2 fail and release their permits; at
	// 220ms they start again with 0, 1, 2 in flight, and fail for the last time at 230ms.
	{"failsafe: a retry is refused at its start", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call = 5, time.Second, 0, 10*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 3, policy.None, 100*ms, 1, 100*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.Failsafe}, OverloadRun{
		HerdRun: HerdRun{Attempts: 11, GaveUp: 5, Peak: 5, MaxPerClient: 3, LastAccepted: -1, Arrivals: []int{5, 3, 3},
			PeakDown: 5, PeakBackAt: -1},
		Requests: 5, OutOfAttempts: 3, Refused: 2, Failed: 11, Recovered: time.Second, Idle: true,
		Windows: []OverloadWindow{{New: 5, Failed: 5}, {Retries: 3, Failed: 3, Refused: 2}, {Retries: 3, Failed: 3}},
	}},
	// The boundary: 20 requests fail at once and all ask at 110ms. Up to k = 5 retries in
	// flight, k/(20 + k) <= 0.2 (5/25 is exactly 0.2, not more): 6 start, where envoy's 20% of 20
	// attempts lets 4. The 7th finds 6/26 > 0.2; each refusal ends a request, and the next finds
	// 6 of one request fewer, ever more over 0.2: 14 refused.
	{"failsafe: 6 retries of 20 requests at once", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call = 20, time.Second, 0, 10*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 2, policy.None, 100*ms, 1, 100*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.Failsafe}, OverloadRun{
		HerdRun: HerdRun{Attempts: 26, GaveUp: 20, Peak: 20, MaxPerClient: 2, LastAccepted: -1, Arrivals: []int{20, 6},
			PeakDown: 20, PeakBackAt: -1},
		Requests: 20, OutOfAttempts: 6, Refused: 14, Failed: 26, Recovered: time.Second, Idle: true,
		Windows: []OverloadWindow{{New: 20, Failed: 20}, {Retries: 6, Failed: 6, Refused: 14}},
	}},
	// grpc with 3 tokens refuses a retry once the count is at or below 1.5, so each process
	// allows one retry. Two processes: requests 0 and 1 each have one (with one process, 1's
	// first failure would be refused: 3 attempts). They retry at once, at 10ms, and are refused
	// at 20ms.
	{"grpc: one limiter per process", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call, p.Attempts = 2, time.Second, 0, 10*ms, 5
		p.Processes, p.Limits.GRPCMaxTokens = 2, 3
	}, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.GRPC}, OverloadRun{
		HerdRun: HerdRun{Attempts: 4, GaveUp: 2, Peak: 4, MaxPerClient: 2, LastAccepted: -1, Arrivals: []int{4},
			PeakDown: 4, PeakBackAt: -1},
		Requests: 2, Refused: 2, Failed: 4, Recovered: time.Second, Idle: true,
		Windows: []OverloadWindow{{New: 2, Retries: 2, Failed: 4, Refused: 2}},
	}},
	// One crowd client at 0 and a stream of 10 per second for 1s, at 0, 100, ..., 900ms. The
	// outage fails 0, 0, 100 and 200ms; windows 3 to 9 serve their one request at once. Window
	// 2 holds the outage's end and a failure: the server recovered at 300ms, within the stream.
	{"a stream through an outage recovers", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call, p.Attempts = 1, 250*ms, 0, 0, 1
		p.Rate, p.Run = 10, time.Second
	}, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None}, OverloadRun{
		HerdRun: HerdRun{Attempts: 11, Accepted: 7, GaveUp: 4, Peak: 2, MaxPerClient: 1, LastAccepted: 900 * ms,
			Arrivals: []int{2, 1, 1, 1, 1, 1, 1, 1, 1, 1}, PeakDown: 2, PeakBack: 1, PeakBackAt: 300 * ms},
		Requests: 11, Stream: 10, OutOfAttempts: 4, Served: 7, Failed: 4, Recovered: 300 * ms, RecoveredInStream: true,
		Windows: []OverloadWindow{{New: 2, Failed: 2}, {New: 1, Failed: 1}, {New: 1, Failed: 1},
			{New: 1, Served: 1}, {New: 1, Served: 1}, {New: 1, Served: 1}, {New: 1, Served: 1},
			{New: 1, Served: 1}, {New: 1, Served: 1}, {New: 1, Served: 1}},
	}},
	// Two clients, at 0 (in the outage) and at 300ms (served). Windows 1 and 2 have no arrival,
	// so they are clean, but recovery counts from the window holding the outage's end, 2.
	{"recovery starts at the outage's window", func(p *calc.Params) {
		p.Clients, p.Spread, p.Outage, p.Capacity, p.Call, p.Attempts = 2, 600*ms, 250*ms, 0, 0, 1
	}, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None}, OverloadRun{
		HerdRun: HerdRun{Attempts: 2, Accepted: 1, GaveUp: 1, Peak: 1, MaxPerClient: 1, LastAccepted: 300 * ms,
			Arrivals: []int{1, 0, 0, 1}, PeakDown: 1, PeakBack: 1, PeakBackAt: 300 * ms},
		Requests: 2, OutOfAttempts: 1, Served: 1, Failed: 1, Recovered: 200 * ms,
		Windows: []OverloadWindow{{New: 1, Failed: 1}, {}, {}, {New: 1, Served: 1}},
	}},
}

func TestOverloadModelByHand(t *testing.T) {
	for _, tt := range overloadModelTests {
		p := calc.Default()
		tt.set(&p)
		if err := p.ValidateHerd(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := tt.want
		want.Mode, want.Limiter = tt.c.Mode, tt.c.Limiter
		want.MeanPerClient = float64(want.Attempts) / float64(want.Requests)
		if d := overloadDiff(overloadByHeap(p, tt.c), want, "model", "by hand"); d != "" {
			t.Errorf("%s: model %s", tt.name, d)
		}
	}
}

// TestOverloadModelIsTheHerd: with no overload key set, the model is the herd, as
// docs/overload-model.md promises: its HerdRun equals herdByHeap's, which the herd's own
// simulation is compared with.
func TestOverloadModelIsTheHerd(t *testing.T) {
	queries := slices.Clone(herdQueries)
	for _, tt := range herdTests {
		queries = append(queries, tt.query)
	}
	for _, q := range queries {
		for seed := range 3 {
			p := mustDecode(t, fmt.Sprintf("%s&seed=%d", q, seed))
			if p.Open() {
				t.Fatalf("%s: open", q)
			}
			for _, m := range p.HerdModes() {
				want, _ := herdByHeap(p, m)
				if got := overloadByHeap(p, calc.OverloadCase{Mode: m, Limiter: limiter.None}).HerdRun; !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %s:\nmodel %+v\n herd %+v", p.Encode(), m, got, want)
				}
			}
		}
	}
}

// overloadCases are small open systems that each exercise some rules; every mode of the herd
// (with a library's mode where the jitter is one) runs with every limiter.
var overloadCases = []struct {
	name string
	set  func(p *calc.Params)
}{
	{"closed crowd with limiters", func(p *calc.Params) {
		p.Clients, p.Attempts, p.Outage, p.Capacity = 20, 4, 500*ms, 5
	}},
	{"stream through an outage", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Call = 5, 50, 2*time.Second, 500*ms, 5, 20*ms
	}},
	{"queue and timeout", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Timeout, p.Capacity, p.Call = 3, 40, time.Second, 10, 150*ms, 3, 30*ms
		p.Jitter = policy.DecorrelatedV2
	}},
	{"timeout shorter than the call", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Timeout, p.Capacity, p.Call = 2, 20, time.Second, 5, 10*ms, 4, 50*ms
	}},
	{"timeout equal to the call", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Timeout, p.Capacity, p.Call = 2, 30, time.Second, 4, 40*ms, 2, 40*ms
	}},
	{"call 0: ties at one instant", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Capacity, p.Call, p.Outage = 4, 30, 500*ms, 2, 2, 0, 200*ms
		p.Jitter, p.Base, p.Factor, p.Cap = policy.None, 100*ms, 1, 100*ms // waits end on window starts
	}},
	{"call 0 with a timeout", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Capacity, p.Call, p.Timeout = 4, 40, 500*ms, 6, 2, 0, 100*ms
		p.Jitter, p.Base, p.Factor, p.Cap = policy.None, 50*ms, 1, 50*ms
	}},
	{"budget", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Capacity, p.Timeout, p.Budget = 3, 50, time.Second, 3, 4, 80*ms, 300*ms
		p.Jitter = policy.Additive
		p.Add = 30 * ms
	}},
	{"processes and poisson", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Arrivals, p.Processes = 3, 60, 2*time.Second, calc.Poisson, 3
		p.Outage, p.Capacity, p.Queue, p.Timeout = time.Second, 4, 4, 200*ms
	}},
	{"no capacity limit, timeouts in the outage", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Queue = 2, 100, time.Second, 300*ms, 0, 5
		p.Timeout, p.Call = 20*ms, 30*ms
	}},
	{"small limiter parameters", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Queue = 4, 80, 2*time.Second, 700*ms, 6, 6
		p.Processes, p.Timeout, p.Call = 2, 120*ms, 40*ms
		p.Limits = limiter.Params{GRPCMaxTokens: 3, GRPCTokenRatio: 0.5, FinagleTTL: time.Second,
			FinagleMinRetries: 0, FinaglePercent: 0.5, EnvoyPercent: 50, EnvoyMinConcurrency: 1,
			FailsafeMaxRate: 0.1, FailsafeMinConcurrency: 1}
	}},
	{"finagle's reserve only", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity = 10, 50, time.Second, 600*ms, 3
		p.Limits.FinaglePercent, p.Limits.FinagleMinRetries, p.Limits.FinagleTTL = 0, 2, time.Second
		p.Jitter = policy.FullMs
	}},
	{"errors in a stream", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Capacity, p.Call, p.FailRate = 2, 100, time.Second, 0, 10*ms, 0.5
		p.Processes = 2
	}},
	{"errors after an outage, queue and timeout", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Queue = 5, 60, 2*time.Second, 400*ms, 5, 4
		p.Timeout, p.Call, p.FailRate = 150*ms, 40*ms, 0.2
	}},
	{"errors, call 0", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Capacity, p.Call, p.FailRate = 3, 200, 500*ms, 3, 0, 0.3
		p.Jitter, p.Base, p.Factor, p.Cap = policy.None, 10*ms, 1, 10*ms
	}},
	{"latency and slope, no timeout", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Capacity, p.Call, p.Latency, p.Slope = 3, 50, time.Second, 0, 0, 30*ms, 5*ms
	}},
	{"latency and slope with a timeout, queue and outage", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Queue = 5, 80, 2*time.Second, 300*ms, 4, 6
		p.Timeout, p.Call, p.Latency, p.Slope = 120*ms, 10*ms, 40*ms, 8*ms
	}},
	{"slope alone, errors and a limiter", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Capacity, p.Timeout, p.Slope, p.FailRate = 4, 100, time.Second, 0, 100*ms, 6*ms, 0.2
		p.Limiter, p.Processes = limiter.GRPC, 2
	}},
	{"spread crowd and small windows", func(p *calc.Params) {
		p.Clients, p.Spread, p.Window, p.Capacity, p.Queue, p.Outage = 30, 200*ms, 10*ms, 1, 2, 150*ms
		p.Base, p.Cap, p.Call, p.Timeout = 5*ms, 80*ms, 3*ms, 25*ms
	}},
}

func TestOverloadAgainstModel(t *testing.T) {
	runs, tripped, startRefused := 0, 0, 0
	for _, tt := range overloadCases {
		p := calc.Default()
		tt.set(&p)
		for seed := range uint64(3) {
			p.Seed = seed
			n, _, refused := compareOverloadCases(t, tt.name, p)
			runs, startRefused = runs+n, startRefused+refused
		}
	}
	r := rand.New(rand.NewPCG(15, 0))
	n := 200
	if testing.Short() || runtime.GOOS == "js" { // wasm runs the model about 7 times slower
		n = 40
	}
	for i := range n {
		p, _ := randomOverload(r.IntN)
		n, trips, refused := compareOverloadCases(t, fmt.Sprintf("random %d", i), p)
		runs, tripped, startRefused = runs+n, tripped+trips, startRefused+refused
	}
	t.Logf("%d runs compared, %d with a breaker that tripped, %d with failsafe refusing at a retry's start", runs, tripped, startRefused)
	if tripped == 0 {
		t.Error("no breaker tripped in the random cases")
	}
	if startRefused == 0 {
		t.Error("failsafe refused no retry at its start: the comparison saw only one branch")
	}
}

// compareOverloadCases compares every mode of p with every limiter, with p's breaker, and
// returns how many runs, how many of them a breaker tripped in, and in how many failsafe's
// budget refused a retry (which it does only at a retry's start).
func compareOverloadCases(t *testing.T, name string, p calc.Params) (n, tripped, startRefused int) {
	t.Helper()
	if err := p.ValidateHerd(); err != nil {
		t.Fatalf("%s: %s: %v", name, describeOverload(p), err)
	}
	for _, m := range p.HerdModes() {
		for _, l := range limiter.Kinds() {
			run := compareOverload(t, name, p, calc.OverloadCase{Mode: m, Limiter: l, Breaker: p.Breaker})
			if run.Trips > 0 {
				tripped++
			}
			if l == limiter.Failsafe && run.Refused > 0 {
				startRefused++
			}
			n++
		}
	}
	return n, tripped, startRefused
}

// compareOverload compares case c of p, and returns the run.
func compareOverload(t *testing.T, name string, p calc.Params, c calc.OverloadCase) OverloadRun {
	t.Helper()
	got, err := Overload(p, c)
	if err != nil {
		t.Fatalf("%s %s %s %s: %s: %v", name, c.Mode, c.Limiter, c.Breaker, describeOverload(p), err)
	}
	if d := overloadDiff(got, overloadByHeap(p, c), "simulation", "model"); d != "" {
		t.Fatalf("%s %s %s %s: %s:\n%s", name, c.Mode, c.Limiter, c.Breaker, describeOverload(p), d)
	}
	paused, done, err := OverloadPausing(p, c, func() bool { return true })
	if err != nil || !done || !reflect.DeepEqual(paused, got) {
		t.Fatalf("%s %s %s %s: %s: pausing changes the run (done %v, %v)", name, c.Mode, c.Limiter, c.Breaker, describeOverload(p), done, err)
	}
	return got
}

// describeOverload is p's herd query and its overload fields (the query keys of the overload
// are not all decoded yet).
func describeOverload(p calc.Params) string {
	return fmt.Sprintf("%s rate=%v run=%v arrivals=%v queue=%d timeout=%v processes=%d limits=%+v failrate=%v latency=%v slope=%v breakerat=%v breakers=%v breakerparams=%+v",
		p.Encode(), p.Rate, p.Run, p.Arrivals, p.Queue, p.Timeout, p.Processes, p.Limits, p.FailRate, p.Latency, p.Slope,
		p.BreakerAt, p.Breakers, p.BreakerParams)
}

// randomOverload draws a small valid open system and one of its cases from next, which returns
// a number in [0, n): a few clients, a stream of at most 300 requests, at most 6 attempts each,
// half the time a breaker, with parameters small enough to trip within the run half of those.
func randomOverload(next func(n int) int) (calc.Params, calc.OverloadCase) {
	msn := func(n int) time.Duration { return time.Duration(next(n)) * ms }
	p := calc.Default()
	p.Seed = uint64(next(1000))
	p.Clients, p.Attempts = 1+next(5), 1+next(6)
	p.Base = 1*ms + msn(100)
	p.Factor = 1 + float64(next(21))/10
	p.Cap = p.Base * time.Duration(1+next(8))
	js := policy.AllJitters()
	p.Jitter = js[next(len(js))]
	p.Ratio = float64(next(11)) / 10
	p.Add = msn(50)
	p.CapAt = policy.CapAt(next(3))
	p.Call = msn(61) * time.Duration(min(1, next(4))) // 0 a quarter of the time
	if next(3) == 0 {
		p.Budget = 50*ms + msn(500)
	}
	p.Outage = msn(800) * time.Duration(min(1, next(3)))
	p.Window = 10*ms + msn(150)
	p.Capacity = next(7)
	p.Spread = msn(300) * time.Duration(next(2))
	if next(4) > 0 {
		p.Rate = float64(1+next(1500)) / 10
		p.Run = min(msn(2000), time.Duration(300/p.Rate*1e9))
	}
	p.Arrivals = calc.Spacing(next(2))
	p.Queue = next(2) * next(9)
	p.Timeout = (1*ms + msn(200)) * time.Duration(min(1, next(3)))
	p.Processes = 1 + next(3)
	if next(2) == 0 {
		p.Limits = limiter.Params{
			GRPCMaxTokens: float64(1 + next(10)), GRPCTokenRatio: float64(1+next(10)) / 10,
			FinagleTTL: time.Duration(1+next(3)) * time.Second, FinagleMinRetries: next(3),
			FinaglePercent: float64(next(5)) / 10, EnvoyPercent: float64(next(60)), EnvoyMinConcurrency: next(4),
			FailsafeMaxRate: float64(next(6)) / 10, FailsafeMinConcurrency: next(4),
		}
	}
	if next(3) == 0 {
		p.FailRate = float64(next(10)) / 10
	}
	if next(3) == 0 { // load-dependent latency, a slope of up to 2ms an attempt
		p.Latency, p.Slope = msn(40), time.Duration(next(2001))*time.Microsecond
	}
	if next(2) == 0 {
		p.Breaker = breaker.Kinds()[1+next(int(breaker.Count)-1)]
		p.BreakerAt, p.Breakers = calc.BreakerAt(next(2)), calc.BreakerScope(next(2))
		if next(2) == 0 {
			p.BreakerParams = smallBreakerParams(next)
		}
	}
	modes := p.HerdModes()
	return p, calc.OverloadCase{Mode: modes[next(len(modes))], Limiter: limiter.Kinds()[next(len(limiter.Kinds()))], Breaker: p.Breaker}
}

// FuzzOverload compares the simulation with the model on small open systems drawn from the
// fuzzer's bytes, two bytes per choice (0 once they run out).
func FuzzOverload(f *testing.F) {
	for _, s := range []string{"", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", "\xff\xff\xff\xff\xff\xff\xff\xff"} {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(15, 1))
	for range 20 {
		b := make([]byte, 80)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		next := func(n int) int {
			if len(b) < 2 {
				return 0
			}
			v := int(b[0])<<8 | int(b[1])
			b = b[2:]
			return v % n
		}
		p, c := randomOverload(next)
		if err := p.ValidateHerd(); err != nil {
			t.Skip(err) // randomOverload keeps to the ranges; a bound of the open system may not
		}
		compareOverload(t, "fuzz", p, c)
	})
}

// overloadDiff names the first field where a and b differ, with both values labelled; "" when
// they are equal.
func overloadDiff(a, b OverloadRun, aName, bName string) string {
	return firstDiff("run", reflect.ValueOf(a), reflect.ValueOf(b), aName, bName)
}

func firstDiff(path string, a, b reflect.Value, aName, bName string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			if d := firstDiff(path+"."+name, a.Field(i), b.Field(i), aName, bName); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		for i := range min(a.Len(), b.Len()) {
			if d := firstDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), aName, bName); d != "" {
				return d
			}
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d (%s), %d (%s)", path, a.Len(), aName, b.Len(), bName)
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: %v (%s), %v (%s)", path, a.Interface(), aName, b.Interface(), bName)
	}
	return ""
}
