package contention

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/internal/reuse"
	"backoffcalc/calc/policy"
)

// The simulation is an event queue of the clients, each with one message in flight: a read or a
// write on its way to the server. Only the server's side needs events: the server answers at
// once, and a client does nothing on an answer but send its next message, so a read arriving at
// t becomes the write arriving at t + two hops, and a failed write arriving at t becomes the next
// read arriving at t + two hops + the wait. The queue orders messages by arrival, then by client
// index, so that fixed hop times (in the tests) still give one order.

// contentionNet is the network: one-way hops of |Normal(mean, sd)| nanoseconds.
type contentionNet struct{ mean, sd float64 }

// postNet is the post's network, the simulator's Net(10, 2).
var postNet = contentionNet{float64(Hop), float64(HopSD)}

// contender is one client's state.
type contender struct {
	rng      rand.PCG
	write    bool    // the message is a write; else a read
	seen     int32   // the version its last read saw
	failures int32   // failed writes so far
	state    float64 // what the next wait grows from: decorrelated's sleep, as policy.Params.Wait takes it
}

// contention runs the experiment for one link's Params, reusing its buffers from mode to mode.
type contention struct {
	p     policy.Params
	net   contentionNet
	pause func() bool
	// seen, if not nil, is told of every message as the server handles it (for tests): ok is
	// whether a write succeeded, and true for a read.
	seen    func(client int, write bool, at time.Duration, ok bool)
	writes  int // writes so far, for pause
	clients []contender
	queue   []message // a binary heap, by (at, client)
	calls   []float64 // per run
	times   []float64 // per run, in nanoseconds
	sorted  []float64 // scratch for the percentiles
}

func newContention(p policy.Params, net contentionNet, pause func() bool) *contention {
	return &contention{p: p, net: net, pause: pause}
}

// message is a client's message in flight: the queue holds it rather than the client, so that
// ordering the queue reads no client.
type message struct {
	at     time.Duration // when it reaches the server
	client int32
}

// before orders the queue: by arrival, then by client index.
func (m message) before(o message) bool {
	return m.at < o.at || m.at == o.at && m.client < o.client
}

// waitFunc returns the wait after client c's failure c.failures, moving on its state.
type waitFunc func(c *contender) time.Duration

// waiter returns the waits of mode m, and the state a client starts from.
func (e *contention) waiter(m Mode) (waitFunc, float64) {
	if _, ok := m.Jitter(); !ok {
		draws := m != None && m != Exponential
		return func(c *contender) time.Duration {
			u := 0.0
			if draws {
				u = mathx.Unit(&c.rng)
			}
			w, state := Wait(e.p, m, int(c.failures), u, c.state)
			c.state = state
			return w
		}, first(e.p, m)
	}
	j, _ := m.Jitter()
	q := e.p.WithJitter(j)
	// A client fails at most once per other client's success, so at most MaxContenders-1
	// times; the laws go one further, so that no index can be out of range.
	q.Attempts = MaxContenders + 1
	waits := q.Waits()
	return func(c *contender) time.Duration {
		w, state := waits.Next(min(int(c.failures), MaxContenders), &c.rng, c.state)
		c.state = state
		return w
	}, q.FirstState()
}

// hop draws one one-way hop from c's stream.
func (e *contention) hop(c *contender) time.Duration {
	return mathx.RoundNs(math.Abs(e.net.mean + float64(e.net.sd*normal(&c.rng))))
}

// result runs mode m runs times with n clients; it reports false when pause stopped it.
func (e *contention) result(m Mode, n, runs int) (Result, bool) {
	wait, first := e.waiter(m)
	e.calls, e.times = reuse.Grow(e.calls, runs), reuse.Grow(e.times, runs)
	for r := range runs {
		calls, end, ok := e.run(wait, first, n, r)
		if !ok {
			return Result{}, false
		}
		e.calls[r], e.times[r] = float64(calls), float64(end)
	}
	return Result{Mode: m, Clients: n, Runs: runs, Calls: e.spread(e.calls), Time: e.spread(e.times)}, true
}

// run is run r of n clients: it returns the writes made and when the last success was answered.
func (e *contention) run(wait waitFunc, first float64, n, r int) (calls int, end time.Duration, ok bool) {
	cs := reuse.Grow(e.clients, n)
	q := reuse.Grow(e.queue, n)
	e.clients, e.queue = cs, q
	for i := range cs {
		c := &cs[i]
		c.rng.Seed(e.p.Seed, uint64(r)<<32|uint64(i))
		c.write, c.failures, c.state = false, 0, first
		q[i] = message{e.hop(c), int32(i)} // the first read leaves at 0
	}
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(q, i)
	}
	version := int32(0)
	for len(q) > 0 {
		m := &q[0]
		c := &cs[m.client]
		if e.seen != nil {
			e.seen(int(m.client), c.write, m.at, !c.write || c.seen == version)
		}
		if !c.write { // the server reads; the answer comes back and the write goes out
			c.seen, c.write = version, true
			m.at += e.hop(c)
			m.at += e.hop(c)
			siftDown(q, 0)
			continue
		}
		calls++
		e.writes++
		if e.pause != nil && e.writes%policy.PauseEvery == 0 && !e.pause() {
			return calls, end, false
		}
		if c.seen == version { // through: the answer is the client's last hop
			version++
			end = max(end, m.at+e.hop(c))
			q[0] = q[len(q)-1]
			q = q[:len(q)-1]
			siftDown(q, 0)
			continue
		}
		// Failed: the answer comes back, the client waits, and its read goes out.
		c.failures++
		c.write = false
		m.at += e.hop(c)
		m.at += e.hop(c)
		m.at += wait(c)
		siftDown(q, 0)
	}
	return calls, end, true
}

// siftDown moves q[i] down the heap q to its place.
func siftDown(q []message, i int) {
	if i >= len(q) {
		return
	}
	x := q[i]
	for {
		l := 2*i + 1
		if l >= len(q) {
			break
		}
		m := l
		if r := l + 1; r < len(q) && q[r].before(q[l]) {
			m = r
		}
		if !q[m].before(x) {
			break
		}
		q[i] = q[m]
		i = m
	}
	q[i] = x
}

// spread summarizes xs, one value per run.
func (e *contention) spread(xs []float64) RunSpread {
	s := append(e.sorted[:0], xs...)
	e.sorted = s
	slices.Sort(s)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		d := x - mean
		ss += float64(d * d)
	}
	sd := 0.0
	if len(xs) > 1 {
		sd = math.Sqrt(ss / float64(len(xs)-1))
	}
	rank := func(pct int) float64 { return s[(pct*len(s)+99)/100-1] } // nearest rank, as quantiles
	return RunSpread{Mean: mean, SD: sd, Min: s[0], P50: rank(50), P90: rank(90), Max: s[len(s)-1]}
}
