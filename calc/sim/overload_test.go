package sim

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// wholeSeconds are the modes whose waits step by whole seconds (calc's modes table, step).
var wholeSeconds = []policy.Jitter{policy.Sidekiq, policy.Sidekiq7, policy.FullSec}

// randomClosed draws a closed herd (Open false) from r: small enough to run fast, with calls and
// waits of zero now and then, so that events meet at one instant and the order at an instant is
// exercised, and windows short enough that many attempts are refused for capacity.
func randomClosed(r *rand.Rand) calc.Params {
	p := calc.Default()
	ns := func(max int64) time.Duration { return time.Duration(r.Int64N(max + 1)) }
	p.Seed = r.Uint64()
	p.Clients = 1 + r.IntN(300)
	p.Attempts = 1 + r.IntN(10)
	all := policy.AllJitters()
	p.Jitter = policy.Jitter(r.IntN(len(all)))
	for slices.Contains(wholeSeconds, p.Jitter) {
		p.Jitter = policy.Jitter(r.IntN(len(all))) // whole seconds: far too long for these windows
	}
	p.Base = 1 + ns(50)
	p.Cap = p.Base + ns(200)
	p.Factor = 1 + 2*r.Float64()
	if r.IntN(4) == 0 {
		p.Add = ns(30)
	}
	p.Call = []time.Duration{0, 0, 1, ns(40)}[r.IntN(4)]
	p.Window = 1 + ns(40)
	p.Outage = ns(300)
	p.Capacity = r.IntN(6)
	p.Spread = []time.Duration{0, ns(500)}[r.IntN(2)]
	if r.IntN(3) == 0 {
		p.Budget = 1 + ns(600)
	}
	p.Processes = 1 + r.IntN(4) // without a limiter processes share nothing
	return p
}

// TestOverloadClosedIsHerd: with none of the overload keys set, the overload simulation, run on
// its own, gives every herd mode's HerdRun exactly, Arrivals and Peak included.
func TestOverloadClosedIsHerd(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	n := 300
	if testing.Short() {
		n = 60
	}
	for range n {
		p := randomClosed(r)
		if p.Open() {
			t.Fatalf("%s is open", p.Encode())
		}
		if err := p.ValidateHerd(); err != nil {
			t.Fatalf("%s: %v", p.Encode(), err)
		}
		for _, m := range p.HerdModes() {
			want, err := HerdMode(p, m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Overload(p, calc.OverloadCase{Mode: m})
			if err != nil {
				t.Fatalf("%s %s: %v", p.Encode(), m, err)
			}
			if !reflect.DeepEqual(got.HerdRun, want) {
				t.Fatalf("%s %s:\noverload %+v\nherd     %+v", p.Encode(), m, got.HerdRun, want)
			}
			if got.Requests != p.Clients || got.Stream != 0 || got.OutOfAttempts+got.OutOfBudget != got.GaveUp || got.Refused != 0 {
				t.Fatalf("%s %s: requests %d, stream %d, gave up %d = %d + %d + %d", p.Encode(), m, got.Requests, got.Stream, got.GaveUp, got.OutOfAttempts, got.Refused, got.OutOfBudget)
			}
		}
	}
}

// crowd is n clients at 0 with attempts attempts, no stream, the other keys at their defaults.
func crowd(n, attempts int) calc.Params {
	p := calc.Default()
	p.Clients, p.Attempts = n, attempts
	return p
}

// mustOverload runs c or fails the test.
func mustOverload(t *testing.T, p calc.Params, c calc.OverloadCase) OverloadRun {
	t.Helper()
	run, err := Overload(p, c)
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	return run
}

// TestOverloadLimiters: 100 clients at 0 with 3 attempts, retrying at once (Immediate) a call of
// 1ms after each failure, so all 100 outcomes of one attempt come at one instant, by request
// index, before the retries arrive. Retries counts the attempts after the first.
func TestOverloadLimiters(t *testing.T) {
	tests := []struct {
		name                                      string
		kind                                      limiter.Kind
		processes                                 int
		success                                   bool // no outage: every first attempt served
		attempts, retries, refused, outOfAttempts int
	}{
		// Under total failure (the outage outlasts every retry):
		// none: every request makes its 3 attempts and runs out.
		{"none", limiter.None, 1, false, 300, 200, 0, 100},
		// grpc (10 tokens, refused at or below 5): at 1ms requests 0..3 take 10→6 and retry,
		// request 4 takes 6→5 and is refused, as are the other 95 (the count stops at 0); at 2ms
		// the 4 retries fail with 0 tokens: refused. 4 retries, 100 refused.
		{"grpc", limiter.GRPC, 1, false, 104, 4, 100, 0},
		// Two processes, round robin (even and odd requests), 10 tokens each: 4 retries each.
		{"grpc 2 processes", limiter.GRPC, 2, false, 108, 8, 100, 0},
		// 100 processes of one request each: each retries twice (10→9→8) and runs out on its
		// third attempt (its token taken, 7 left).
		{"grpc 100 processes", limiter.GRPC, 100, false, 300, 200, 0, 100},
		// aws: 500 tokens at 5 per retry: the 100 first retries take them all; the 100 second
		// ones are refused.
		{"aws", limiter.AWS, 1, false, 200, 100, 100, 0},
		// aws2026: 14 per retry: 35 first retries (490), requests 35..99 refused at 1ms, the 35
		// second retries refused at 2ms (10 tokens left).
		{"aws2026", limiter.AWS2026, 1, false, 135, 35, 100, 0},
		// finagle: a reserve of 10/s × 10 s = 100 retries plus 100 deposits of 1/5 retry = 120:
		// the 100 first retries at 1ms, then 20 of the second ones at 2ms (requests 0..19), 80
		// refused; the 20 third attempts fail at 3ms with none left: out of attempts.
		{"finagle", limiter.Finagle, 1, false, 220, 120, 80, 20},
		// envoy (20%, at least 3): at 1ms request k decides with 99-k attempts active (its own
		// excluded) and k retries held: allowed while k < max(⌊0.2(99-k)⌋, 3), so for k = 0..15
		// (15 < ⌊16.8⌋) and not at k = 16 (⌊16.6⌋ = 16), nor after: 16 retries, 84 refused. At
		// 2ms the 16 retries fail; request k (0..15) first releases its own hold, leaving 15-k
		// held and 15-k active: refused while 15-k >= 3 (k <= 12); request 13 is allowed with 2
		// held (3 again), and so are 14 and 15 (each releases one, takes one). 19 retries, 97
		// refused, and the 3 third attempts run out at 3ms.
		{"envoy", limiter.Envoy, 1, false, 119, 19, 97, 3},
		// failsafe (0.2, at least 3) asks at each retry's start, here at once: at 1ms, 100
		// requests under way, retries start while k/(100 + k) <= 0.2, k <= 25: 26 start; the
		// 27th finds 26/126 > 0.2 and each refusal leaves one request fewer: 74 refused. At 2ms
		// the 26 fail (releasing their permits) before any starts again; of the 26 requests left
		// k <= 6 (6/32 <= 0.2 < 7/33): 7 start, 19 refused; they run out of attempts at 3ms.
		{"failsafe", limiter.Failsafe, 1, false, 133, 33, 93, 7},
		// Under total success (no outage, no capacity limit) no limiter has anything to refuse.
		{"none success", limiter.None, 1, true, 100, 0, 0, 0},
		{"grpc success", limiter.GRPC, 1, true, 100, 0, 0, 0},
		{"aws success", limiter.AWS, 1, true, 100, 0, 0, 0},
		{"aws2026 success", limiter.AWS2026, 1, true, 100, 0, 0, 0},
		{"finagle success", limiter.Finagle, 1, true, 100, 0, 0, 0},
		{"envoy success", limiter.Envoy, 1, true, 100, 0, 0, 0},
		{"failsafe success", limiter.Failsafe, 1, true, 100, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := crowd(100, 3)
			p.Call, p.Capacity, p.Outage, p.Processes, p.Limiter = time.Millisecond, 0, time.Hour, tt.processes, tt.kind
			if tt.success {
				p.Outage = 0
			}
			run := mustOverload(t, p, calc.OverloadCase{Mode: calc.Immediate, Limiter: tt.kind})
			retries := 0
			for _, w := range run.Windows {
				retries += w.Retries
			}
			accepted := 0
			if tt.success {
				accepted = 100
			}
			if run.Attempts != tt.attempts || retries != tt.retries || run.Refused != tt.refused ||
				run.OutOfAttempts != tt.outOfAttempts || run.Accepted != accepted || run.GaveUp != 100-accepted {
				t.Errorf("attempts %d, retries %d, refused %d, out of attempts %d, accepted %d, gave up %d; want %d, %d, %d, %d, %d, %d",
					run.Attempts, retries, run.Refused, run.OutOfAttempts, run.Accepted, run.GaveUp,
					tt.attempts, tt.retries, tt.refused, tt.outOfAttempts, accepted, 100-accepted)
			}
			// Every outcome is in window 0 (before 100ms): the refusals are counted there.
			if len(run.Windows) != 1 || run.Windows[0].Refused != tt.refused || run.Windows[0].Failed != run.Attempts-run.Served {
				t.Errorf("windows %+v", run.Windows)
			}
		})
	}
}

// checkWindows compares a run's windows with want, window by window.
func checkWindows(t *testing.T, got, want []OverloadWindow) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d windows, want %d:\n%+v", len(got), len(want), got)
		return
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("window %d: %+v, want %+v", k, got[k], want[k])
		}
	}
}

// TestOverloadQueue: 10 clients at 0, 2 attempts retrying at once after a call of 100ms, a
// capacity of 3 per 100ms window and a queue of 4. At 0 clients 0..2 are served, 3..6 queued and
// 7..9 fail (full). At 100ms the queue goes first: 3, 4, 5 are served at the window's start and
// take its capacity, so the retries of 7..9 arriving then join 6 in the queue (4 waiting). At
// 200ms 6, 7, 8 are served, at 300ms 9. Every request gets through; the last useful attempt
// arrived at 100ms; the answers at 400ms count in no window.
func TestOverloadQueue(t *testing.T) {
	p := crowd(10, 2)
	p.Call, p.Outage, p.Capacity, p.Queue = 100*time.Millisecond, 0, 3, 4
	run := mustOverload(t, p, calc.OverloadCase{Mode: calc.Immediate})
	checkWindows(t, run.Windows, []OverloadWindow{
		{New: 10, Served: 3, Failed: 3, Queue: 4},
		{Retries: 3, Served: 3, Queue: 4},
		{Served: 3, Queue: 1},
		{Served: 1},
	})
	if run.Attempts != 13 || run.Accepted != 10 || run.GaveUp != 0 || run.Served != 10 || run.Failed != 3 ||
		run.LastAccepted != 100*time.Millisecond || run.MaxPerClient != 2 || !reflect.DeepEqual(run.Arrivals, []int{10, 3}) {
		t.Errorf("%+v", run)
	}
	// The last arrivals (window 1) were queued: not recovered.
	if run.Recovered != -1 {
		t.Errorf("recovered at %v, want -1", run.Recovered)
	}
}

// TestOverloadTimeout: 3 clients at 0, 2 attempts retrying at once, a call of 10ms, a timeout of
// 150ms, a capacity of 1 per 100ms and a queue of 5. Client 0 is served at 0. Clients 1 and 2
// queue. At 100ms client 1 is served; its answer at 110ms comes before its timeout (150ms): it
// succeeds. At 150ms client 2 stops waiting (timed out) and retries; window 1 is full, so the
// retry queues behind its own first attempt. At 200ms the server serves that first attempt:
// its answer (210ms) comes after the timeout: wasted, counted once. At 300ms it serves the
// retry, wasted too (310ms > 150 + 150ms), and then, at the same instant, the retry times out:
// the request is out of attempts.
func TestOverloadTimeout(t *testing.T) {
	p := crowd(3, 2)
	p.Call, p.Timeout, p.Outage, p.Capacity, p.Queue = 10*time.Millisecond, 150*time.Millisecond, 0, 1, 5
	run := mustOverload(t, p, calc.OverloadCase{Mode: calc.Immediate})
	checkWindows(t, run.Windows, []OverloadWindow{
		{New: 3, Served: 1, Queue: 2},
		{Retries: 1, Served: 1, TimedOut: 1, Queue: 2},
		{Wasted: 1, Queue: 1},
		{Wasted: 1, TimedOut: 1},
	})
	if run.Attempts != 4 || run.Accepted != 2 || run.OutOfAttempts != 1 || run.GaveUp != 1 || run.Served != 2 ||
		run.Wasted != 2 || run.TimedOut != 2 || run.Failed != 0 || run.LastAccepted != 0 {
		t.Errorf("%+v", run)
	}

	// Served at the very instant of the timeout (the window's start comes first), call 0: the
	// answer is not later than the timeout, so the attempt is useful and nothing times out.
	p = crowd(2, 1)
	p.Call, p.Timeout, p.Outage, p.Capacity, p.Queue = 0, 100*time.Millisecond, 0, 1, 1
	run = mustOverload(t, p, calc.OverloadCase{Mode: calc.Immediate})
	checkWindows(t, run.Windows, []OverloadWindow{{New: 2, Served: 1, Queue: 1}, {Served: 1}})
	if run.Accepted != 2 || run.TimedOut != 0 || run.LastAccepted != 0 {
		t.Errorf("served at its timeout: %+v", run)
	}

	// A call longer than the timeout: every attempt is served at once and wasted, and times out.
	p = crowd(5, 3)
	p.Call, p.Timeout, p.Outage, p.Capacity = 300*time.Millisecond, 100*time.Millisecond, 0, 0
	run = mustOverload(t, p, calc.OverloadCase{Mode: calc.Immediate})
	// Attempts at 0, 100ms, 200ms; the last times out at 300ms.
	checkWindows(t, run.Windows, []OverloadWindow{
		{New: 5, Wasted: 5},
		{Retries: 5, Wasted: 5, TimedOut: 5},
		{Retries: 5, Wasted: 5, TimedOut: 5},
		{TimedOut: 5},
	})
	if run.Accepted != 0 || run.OutOfAttempts != 5 || run.Served != 0 || run.LastAccepted != -1 || run.Recovered != -1 {
		t.Errorf("%+v", run)
	}
}

// TestOverloadStream: the stream's count and starts, even and poisson.
func TestOverloadStream(t *testing.T) {
	for _, tt := range []struct {
		rate   float64
		run    time.Duration
		spread calc.Spacing
		want   int
	}{
		{10, time.Second, calc.Even, 10},   // 0, 100ms, ..., 900ms
		{4, time.Second, calc.Even, 4},     // 0, 250, 500, 750ms: 1s is not before run
		{4, time.Second + 1, calc.Even, 5}, // now it is
		{3, time.Second, calc.Even, 3},     // 0, 333333333ns, 666666666ns (truncated)
		{0.5, time.Second, calc.Even, 1},   // only 0
		{100000, 24 * time.Hour, calc.Even, 8640000000},
		{0, time.Second, calc.Even, 0},
		{10, 0, calc.Even, 0},
		// Poisson: the cap ceil(λ + 8√λ + 8): λ = 10 → 10 + 25.3 + 8 = 43.3 → 44.
		{10, time.Second, calc.Poisson, 44},
		{1000, 10 * time.Second, calc.Poisson, 10808}, // 10000 + 800 + 8
	} {
		p := calc.Default()
		p.Rate, p.Run, p.Arrivals = tt.rate, tt.run, tt.spread
		if got := p.StreamRequests(); got != tt.want {
			t.Errorf("rate %v run %v %s: %d requests, want %d", tt.rate, tt.run, tt.spread, got, tt.want)
		}
	}

	// Even: one client at 0 and 10/s for 1s in 250ms windows, no outage and no limit: the
	// client and stream requests 0, 1, 2 in window 0, 3 and 4 in window 1, and so on.
	p := crowd(1, 3)
	p.Rate, p.Run, p.Outage, p.Capacity, p.Window = 10, time.Second, 0, 0, 250*time.Millisecond
	run := mustOverload(t, p, calc.OverloadCase{Mode: calc.Backoff(policy.Full)})
	if run.Requests != 11 || run.Stream != 10 || run.Accepted != 11 || !reflect.DeepEqual(run.Arrivals, []int{4, 2, 3, 2}) ||
		run.Recovered != 0 || !run.RecoveredInStream {
		t.Errorf("even: %+v", run)
	}
	starts := func(p calc.Params) []time.Duration {
		var at []time.Duration
		for s := newStreamSource(p); s.ok; s.advance() {
			at = append(at, s.at)
		}
		return at
	}
	if got := starts(p); len(got) != 10 || got[0] != 0 || got[1] != 100*time.Millisecond || got[9] != 900*time.Millisecond {
		t.Errorf("even starts %v", got)
	}

	// Poisson: the first request starts one gap after 0; each gap is the seeded exponential
	// stream PCG(seed, 1<<63) over the rate, truncated to the nanosecond.
	p.Arrivals, p.Rate, p.Run, p.Seed = calc.Poisson, 1000, 10*time.Second, 7
	r := rand.New(rand.NewPCG(7, 1<<63))
	var want []time.Duration
	for at := time.Duration(0); ; {
		at += time.Duration(r.ExpFloat64() * 1e9 / 1000)
		if at >= p.Run {
			break
		}
		want = append(want, at)
	}
	got := starts(p)
	if !reflect.DeepEqual(got, want) || got[0] == 0 {
		t.Errorf("poisson: %d starts, first %v; want %d, first %v", len(got), got[:1], len(want), want[:1])
	}
	// A mean of 10000; five standard deviations are 500.
	if len(got) < 9500 || len(got) > 10500 {
		t.Errorf("poisson: %d requests in 10s at 1000/s", len(got))
	}
	p.Clients, p.Attempts, p.Window = 1, 1, 100*time.Millisecond
	run = mustOverload(t, p, calc.OverloadCase{Mode: calc.Immediate})
	if run.Stream != len(want) || run.Requests != len(want)+1 || run.Attempts != len(want)+1 {
		t.Errorf("poisson run: stream %d, requests %d, attempts %d; want %d", run.Stream, run.Requests, run.Attempts, len(want))
	}
}

// TestOverloadRecovered is the worked example of Recovered. One client at 0 and a stream of
// 10/s (0, 100ms, ..., 1.9s) through a 500ms outage, 3 attempts 250ms apart (jitter none,
// factor 1, call 0), a capacity of 2 per 100ms window. The attempts before 500ms fail. At 500ms
// the client's and stream request 0's third attempts are served and take window 5, so stream
// request 5, new at 500ms, fails; at 550ms request 3's second attempt fails too. In window 6
// request 1's third attempt and request 6 take it, and request 4's second (650ms) fails; in
// window 7 request 2's third and request 7, and request 5's second (750ms) fails. From 800ms on
// each window holds at most two attempts (a new one and a third attempt), all served at once:
// recovered at 800ms, while the stream ran. 21 requests, all through: 7 of 3 attempts and 14 of
// one, 35 attempts, 14 failed.
func TestOverloadRecovered(t *testing.T) {
	p := crowd(1, 3)
	p.Rate, p.Run, p.Outage, p.Capacity = 10, 2*time.Second, 500*time.Millisecond, 2
	p.Jitter, p.Factor, p.Base, p.Cap = policy.None, 1, 250*time.Millisecond, 250*time.Millisecond
	run := mustOverload(t, p, calc.OverloadCase{Mode: calc.Backoff(policy.None)})
	if run.Recovered != 800*time.Millisecond || !run.RecoveredInStream || run.Requests != 21 || run.Accepted != 21 ||
		run.Attempts != 35 || run.Failed != 14 || run.Served != 21 {
		t.Errorf("recovered %v (in stream %v), requests %d, accepted %d, attempts %d, failed %d, served %d",
			run.Recovered, run.RecoveredInStream, run.Requests, run.Accepted, run.Attempts, run.Failed, run.Served)
	}
	failed := []int{2, 1, 3, 2, 2, 2, 1, 1, 0, 0}
	for k, f := range failed {
		if run.Windows[k].Failed != f {
			t.Errorf("window %d: %d failed, want %d", k, run.Windows[k].Failed, f)
		}
	}

	// With a stream of 600ms (requests 0..5) window 5 is as above, then request 1's third and
	// 4's second attempt are served in window 6, 2's third and 5's second in 7, 3's third in 8:
	// recovered at 600ms, when the stream had ended.
	p.Run = 600 * time.Millisecond
	if run := mustOverload(t, p, calc.OverloadCase{Mode: calc.Backoff(policy.None)}); run.Recovered != 600*time.Millisecond || run.RecoveredInStream {
		t.Errorf("run 600ms: recovered %v, in stream %v", run.Recovered, run.RecoveredInStream)
	}
}

// TestOverloadMetastable: a stream of 8/s (every 125ms) for 4s, a capacity of 1 per 100ms, a
// queue of 20, a timeout of 300ms, call 0, 4 attempts 200ms apart, one client at 0.
//
// Without an outage the server keeps up: client 0 and stream request 0 arrive at 0, one is
// served and one queued; each later request (125ms, 250ms, 375ms) finds the window taken by the
// queue's head and queues, served at the next window's start within its timeout. No attempt
// arrives in window 4 (400..500ms) and from there on each window holds at most one, served at
// once: recovered at 400ms, and everything succeeds.
//
// With a 1s outage the requests of the outage retry into the windows after it at up to three
// attempts per window of one slot. An attempt is useful only if served within 300ms: when it
// joins the queue behind two or more it is served after its client gave up (wasted), and its
// request retries into the same queue. Once the queue is that long (by 2s) the server serves
// only wasted attempts until it has drained, long after the stream ended: it never recovers.
// With grpc's throttle the retries are refused instead, the queue drains and it recovers while
// the stream still runs.
func TestOverloadMetastable(t *testing.T) {
	p := crowd(1, 4)
	p.Rate, p.Run, p.Outage, p.Capacity, p.Queue, p.Timeout = 8, 4*time.Second, 0, 1, 20, 300*time.Millisecond
	p.Jitter, p.Factor, p.Base, p.Cap = policy.None, 1, 200*time.Millisecond, 200*time.Millisecond
	mode := calc.Backoff(policy.None)
	calm := mustOverload(t, p, calc.OverloadCase{Mode: mode})
	if calm.Recovered != 400*time.Millisecond || !calm.RecoveredInStream || calm.Requests != 33 || calm.Accepted != 33 || calm.Wasted != 0 {
		t.Errorf("no outage: recovered %v, requests %d, accepted %d, wasted %d", calm.Recovered, calm.Requests, calm.Accepted, calm.Wasted)
	}

	p.Outage = time.Second
	down := mustOverload(t, p, calc.OverloadCase{Mode: mode})
	if down.Recovered != -1 || down.RecoveredInStream || down.Wasted == 0 || down.TimedOut < down.Wasted {
		t.Errorf("outage: recovered %v, wasted %d, timed out %d", down.Recovered, down.Wasted, down.TimedOut)
	}
	for k := 20; k < len(down.Windows); k++ {
		if w := down.Windows[k]; w.Served != 0 || w.Wasted != 1 {
			t.Errorf("outage, window %d: %+v, want one wasted attempt served and no useful one", k, w)
		}
	}
	for k := 20; k < 40; k++ {
		if down.Windows[k].Queue < 3 {
			t.Errorf("outage, window %d: queue %d, want 3 or more", k, down.Windows[k].Queue)
		}
	}

	p.Limiter = limiter.GRPC
	throttled := mustOverload(t, p, calc.OverloadCase{Mode: mode, Limiter: limiter.GRPC})
	if throttled.Recovered < p.Outage || !throttled.RecoveredInStream || throttled.Refused == 0 || throttled.Accepted <= down.Accepted {
		t.Errorf("grpc: recovered %v (in stream %v), refused %d, accepted %d (without: %d)",
			throttled.Recovered, throttled.RecoveredInStream, throttled.Refused, throttled.Accepted, down.Accepted)
	}
}

// TestOverloadPausing: pause is called every PauseEvery attempts and does not change the result;
// when it returns false the run stops at once.
func TestOverloadPausing(t *testing.T) {
	p := crowd(1000, 10)
	p.Rate, p.Run, p.Queue, p.Timeout, p.Limiter = 5000, 2*time.Second, 50, 300*time.Millisecond, limiter.AWS
	c := calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.AWS}
	want := mustOverload(t, p, c)
	calls := 0
	got, done, err := OverloadPausing(p, c, func() bool { calls++; return true })
	if err != nil || !done || !reflect.DeepEqual(got, want) {
		t.Fatalf("pausing: done %v, %v, same %v", done, err, reflect.DeepEqual(got, want))
	}
	if calls != want.Attempts/policy.PauseEvery || calls == 0 {
		t.Errorf("%d pauses for %d attempts", calls, want.Attempts)
	}
	calls = 0
	_, done, err = OverloadPausing(p, c, func() bool { calls++; return false })
	if err != nil || done || calls != 1 {
		t.Errorf("stopped: done %v, %v, %d pauses", done, err, calls)
	}
}

// TestOverloadLimits: the work bound counts the stream, and an open system's windows run to its
// last event; closed herds keep their own bound.
func TestOverloadLimits(t *testing.T) {
	p := crowd(100, 10)
	p.Rate, p.Run = 1000, 200*time.Second // 100 + 200000 requests × 10 attempts
	if err := calc.OverloadWork(p); err == nil || err.Error() != "200100 requests (100 clients + 200000 of the stream) × 10 attempts is over the limit of 2000000 request-attempts" {
		t.Errorf("work: %v", err)
	}
	p.Run = 199900 * time.Millisecond // 199900 + 100 = 200000 requests × 10: at the limit
	if err := calc.OverloadWork(p); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	p.Arrivals = calc.Poisson // 199900 + 8√199900 + 8 = 203485 (ceil)
	if err := calc.OverloadWork(p); err == nil || !strings.Contains(err.Error(), "203585 requests (100 clients + at most 203485 of the stream)") {
		t.Errorf("poisson: %v", err)
	}
	if err := calc.OverloadWork(crowd(300000, 10)); err != nil {
		t.Errorf("no stream: %v (herdWork says it)", err)
	}

	for _, tt := range []struct {
		name string
		set  func(*calc.Params)
		msg  string // "" when valid
	}{
		// 1 client, 2 attempts of base 100ms (proportional reaches 120ms): the herd's last
		// attempt by 120ms; the stream's last start 59.9s: 59.9 + 0.12 = 60.02s in 10ms windows
		// is 6003 windows.
		{"stream", func(p *calc.Params) { p.Rate, p.Run = 10, time.Minute }, ""},
		{"stream too long", func(p *calc.Params) { p.Rate, p.Run = 10, 2*time.Minute },
			`calc: window "10ms": the last event can come as late as 2 min: 12003 windows, over the limit of 10000; make the window at least 20ms`},
		// A queue of 1000 at 1 per window waits 1000 windows, before and after the retry: with the
		// 120ms wait, 2000 windows + 12 + 1 = 2013.
		{"queue", func(p *calc.Params) { p.Queue, p.Capacity = 1000, 1 }, ""},
		{"queue too long", func(p *calc.Params) { p.Queue, p.Capacity = 5000, 1 }, "10013 windows, over the limit of 10000; lower attempts"},
		// A timeout bounds the queue's wait: 2 × 1s + 120ms.
		{"timeout", func(p *calc.Params) { p.Queue, p.Capacity, p.Timeout = 5000, 1, time.Second }, ""},
		{"timeout too long", func(p *calc.Params) { p.Queue, p.Capacity, p.Timeout = 5000, 1, 50*time.Second }, "10013 windows"},
	} {
		p := crowd(1, 2)
		p.Window, p.Base, p.Cap = 10*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond
		tt.set(&p)
		err := p.ValidateHerd()
		_, oerr := Overload(p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None})
		if tt.msg == "" {
			if err != nil || oerr != nil {
				t.Errorf("%s: %v, %v", tt.name, err, oerr)
			}
			continue
		}
		fes := policy.FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != "window" || !strings.Contains(err.Error(), tt.msg) || oerr == nil || oerr.Error() != err.Error() {
			t.Errorf("%s: %v (overload %v), want an error on window with %q", tt.name, err, oerr, tt.msg)
		}
	}
}

// A limiter that refuses every retry of the outage leaves nothing to arrive after it: the
// server, idle and healthy from the outage's end, recovered then (it is not "not recovered").
// grpc's 10 tokens allow 4 retries of the 100 clients that fail at 0; every other failure is
// refused, and every retry waits at most 200 ms (full jitter of 100 ms, then 200 ms): nothing
// arrives after 1 s, the default outage. Without a stream, run alone does not make the recovery
// "while the stream ran".
func TestOverloadIdleAfterOutage(t *testing.T) {
	p := calc.Default()
	p.FailRate, p.Run = 0.1, time.Minute // run without rate: no stream
	r, err := Overload(p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.GRPC})
	if err != nil {
		t.Fatal(err)
	}
	if r.Accepted != 0 || r.Refused != 100 || r.Recovered != time.Second || !r.Idle || r.RecoveredInStream {
		t.Errorf("grpc: %d succeeded, %d refused, recovered %v, idle %v, in stream %v; want 0, 100, 1s, true, false",
			r.Accepted, r.Refused, r.Recovered, r.Idle, r.RecoveredInStream)
	}
	if last := len(r.Arrivals) - 1; p.WindowStart(last) >= time.Second {
		t.Errorf("an arrival in window %d, after the outage", last)
	}
	// Without a limiter the retries reach the server after the outage: not idle.
	r, err = Overload(p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None})
	if err != nil {
		t.Fatal(err)
	}
	if r.Idle || !r.Recovers() || r.RecoveredInStream {
		t.Errorf("none: idle %v, recovered %v, in stream %v; want false, a time, false", r.Idle, r.Recovered, r.RecoveredInStream)
	}
}
