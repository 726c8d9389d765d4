package sim

import (
	"fmt"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// tightBreakers are parameters under which every breaker trips, probes and closes within a run
// of a second or two; the defaults (60 s open, 100 calls seen) mostly stay closed there.
func tightBreakers() breaker.Params {
	p := breaker.Defaults()
	p.GobreakerFailures, p.GobreakerMaxRequests, p.GobreakerTimeout = 2, 2, 150*ms
	p.R4jFailurePercent, p.R4jSlowPercent, p.R4jSlowAfter = 50, 50, 40*ms
	p.R4jWindow, p.R4jMinCalls, p.R4jWait, p.R4jHalfOpen = 5, 3, 150*ms, 2
	p.PollyRatio, p.PollyThroughput, p.PollySampling, p.PollyBreak = 0.3, 3, 500*ms, 500*ms // Polly's least
	p.FailsafeFailures, p.FailsafeOf, p.FailsafeSuccesses, p.FailsafeSuccessOf = 2, 3, 1, 2
	p.FailsafeDelay = 120 * ms
	return p
}

// smallBreakerParams draws breaker parameters from next (a number in [0, n)) that act within a
// short run: thresholds of a few calls, open periods and windows of milliseconds, and each of
// failsafe's four ways of counting.
func smallBreakerParams(next func(n int) int) breaker.Params {
	msn := func(n int) time.Duration { return time.Duration(1+next(n)) * ms }
	p := breaker.Defaults()
	p.GobreakerFailures, p.GobreakerMaxRequests, p.GobreakerTimeout = next(4), 1+next(3), msn(300)
	p.R4jFailurePercent, p.R4jSlowPercent = float64(10+next(91)), float64(10+next(91))
	p.R4jSlowAfter, p.R4jWindow = msn(100), 1+next(10)
	p.R4jMinCalls, p.R4jWait, p.R4jHalfOpen = 1+next(p.R4jWindow), msn(300), 1+next(4)
	p.PollyRatio, p.PollyThroughput = float64(1+next(10))/10, 2+next(8)
	p.PollySampling, p.PollyBreak = 490*ms+10*msn(100), 499*ms+msn(300) // Polly takes 500 ms or more
	p.FailsafeDelay = msn(300)
	switch next(4) {
	case 0: // WithFailureThresholdRatio(f, n)
		p.FailsafeOf = 1 + next(5)
		p.FailsafeFailures = 1 + next(p.FailsafeOf)
	case 1: // and WithSuccessThresholdRatio(s, n)
		p.FailsafeOf = 1 + next(5)
		p.FailsafeFailures = 1 + next(p.FailsafeOf)
		p.FailsafeSuccessOf = 1 + next(4)
		p.FailsafeSuccesses = 1 + next(p.FailsafeSuccessOf)
	case 2: // WithFailureThresholdPeriod(f, period)
		f := 1 + next(4)
		p.FailsafeFailures, p.FailsafeOf, p.FailsafeExecutions, p.FailsafePeriod = f, f, f, 10*msn(100)
	default: // WithFailureRateThreshold(r, e, period)
		p.FailsafeRate, p.FailsafeExecutions, p.FailsafePeriod = float64(1+next(10))/10, 1+next(6), 10*msn(100)
	}
	return p
}

// breakerCases are small open systems in which calls fail in every way (outage, full server,
// timeout, error, slow answers) for the breakers to count; two processes, so that a breaker
// per client and a shared one differ.
var breakerCases = []struct {
	name string
	set  func(p *calc.Params)
}{
	{"outage, stream and crowd", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Outage, p.Capacity, p.Call = 6, 30, time.Second, 400*ms, 3, 10*ms
		p.Attempts, p.Processes = 5, 2
	}},
	{"queue, timeout and errors", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Timeout, p.Capacity, p.Call = 3, 50, time.Second, 4, 60*ms, 3, 20*ms
		p.FailRate, p.Processes, p.Outage = 0.3, 2, 150*ms
	}},
	{"slow under load, with a timeout", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Capacity, p.Call, p.Latency, p.Slope = 4, 60, time.Second, 0, 5*ms, 30*ms, 6*ms
		p.Timeout, p.Processes = 90*ms, 2
	}},
	{"call 0: ties at one instant, and a budget", func(p *calc.Params) {
		p.Clients, p.Rate, p.Run, p.Queue, p.Capacity, p.Call, p.Outage = 4, 30, 600*ms, 2, 2, 0, 250*ms
		p.Jitter, p.Base, p.Factor, p.Cap, p.Budget = policy.None, 50*ms, 1, 50*ms, 400*ms
		p.Processes = 2
	}},
}

// TestOverloadBreakersAgainstModel: the simulation and the model agree exactly, windows
// included, for every breaker at either placement and scope, with every limiter, in the
// immediate mode and the policy's, under the libraries' defaults and under tight parameters.
func TestOverloadBreakersAgainstModel(t *testing.T) {
	runs, tripped, rejected, probed, blocked := 0, 0, 0, 0, 0
	for _, tt := range breakerCases {
		for _, params := range []breaker.Params{breaker.Defaults(), tightBreakers()} {
			p := calc.Default()
			tt.set(&p)
			p.BreakerParams = params
			for _, b := range breaker.Kinds()[1:] {
				for _, at := range []calc.BreakerAt{calc.BreakerAtAttempt, calc.BreakerAtCall} {
					for _, scope := range []calc.BreakerScope{calc.BreakerPerClient, calc.BreakerShared} {
						p.Breaker, p.BreakerAt, p.Breakers = b, at, scope
						for _, m := range []calc.HerdMode{calc.Immediate, calc.Backoff(p.Jitter)} {
							for _, l := range limiter.Kinds() {
								r := compareOverload(t, tt.name, p, calc.OverloadCase{Mode: m, Limiter: l, Breaker: b})
								runs++
								tripped += min(r.Trips, 1)
								rejected += min(r.Rejected, 1)
								probed += min(r.Probes, 1)
								blocked += min(r.Blocked, 1)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d runs compared: %d tripped, %d rejected, %d probed, %d blocked a call", runs, tripped, rejected, probed, blocked)
}

// describeBreakerRun is the run's breaker counts, for a failing test's message.
func describeBreakerRun(r OverloadRun) string {
	return fmt.Sprintf("breakers %d rejected %d trips %d probes %d (most %d) open %v blocked %d",
		r.Breakers, r.Rejected, r.Trips, r.Probes, r.MaxProbes, r.OpenTime, r.Blocked)
}

// breakerWindows are n windows, each filled in by set from its index: the hand-worked runs
// below describe their windows by rule rather than one by one.
func breakerWindows(n int, set func(k int, w *OverloadWindow)) []OverloadWindow {
	ws := make([]OverloadWindow, n)
	for k := range ws {
		set(k, &ws[k])
	}
	return ws
}

// breakerArrivals are n windows' arrivals, 1 in each window at listed, 0 elsewhere.
func breakerArrivals(n int, listed ...int) []int {
	a := make([]int, n)
	for _, k := range listed {
		a[k]++
	}
	return a
}

// steps are k·10 + offset for k in [from, to): the windows of attempts 1 s apart, 100ms windows.
func steps(from, to int, offsets ...int) []int {
	var ks []int
	for k := from; k < to; k++ {
		for _, o := range offsets {
			ks = append(ks, 10*k+o)
		}
	}
	return ks
}

// overloadBreakerTests are worked by hand from the rules (docs/overload-model.md, "Circuit
// breakers") and the libraries' defaults; Mode, Limiter, Breaker and MeanPerClient are filled
// in by the test, and both the simulation and the model must give them.
var overloadBreakerTests = []struct {
	name string
	set  func(p *calc.Params)
	c    calc.OverloadCase
	want OverloadRun
}{
	// One client, waits of 10 s, a call of 100ms, an outage of 115 s, 1 s windows. Its attempts
	// 1 to 6 (at 0, 10.1, 20.2, 30.3, 40.4, 50.5 s) fail in the outage and it learns each 100ms
	// later: gobreaker counts consecutive failures and trips when they exceed 5, at 50.6 s, open
	// until 110.6 s. Attempts 7 to 12 (60.6, 70.6, ..., 110.6 s: a rejection is known at once,
	// the wait follows) are rejected; at 110.6 s the expiry is not before now (gobreaker's
	// strict Before), so the 12th is rejected too. The 13th, at 120.6 s, finds the open period
	// over: the breaker turns half-open, the attempt is its probe, served (the outage is over)
	// and its success at 120.7 s closes it (MaxRequests 1). Open from 50.6 to 120.6 s: 70 s.
	// Recovery: windows 115 to 120 are clean.
	{"gobreaker: the 6th failure trips it, rejections are retried, the probe after 60 s closes it", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call, p.Window = 1, 115*time.Second, 0, 100*ms, time.Second
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 13, policy.None, 10*time.Second, 1, 10*time.Second
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Breaker: breaker.Gobreaker}, OverloadRun{
		HerdRun: HerdRun{Attempts: 13, Accepted: 1, Peak: 1, MaxPerClient: 13, LastAccepted: 120600 * ms,
			Arrivals: breakerArrivals(121, steps(0, 13, 0)...), PeakDown: 1, PeakBack: 1, PeakBackAt: 120 * time.Second},
		Requests: 1, Served: 1, Failed: 6, Recovered: 115 * time.Second,
		Breakers: 1, Rejected: 6, Trips: 1, Probes: 1, MaxProbes: 1, OpenTime: 70 * time.Second,
		Windows: breakerWindows(121, func(k int, w *OverloadWindow) {
			switch {
			case k == 0:
				w.New, w.Failed = 1, 1
			case k%10 == 0 && k <= 50:
				w.Retries, w.Failed = 1, 1
			case k%10 == 0 && k <= 110:
				w.Retries, w.Rejected = 1, 1
			case k == 120:
				w.Retries, w.Served, w.Probes = 1, 1, 1
			}
			if k >= 50 && k < 120 {
				w.Open = 1
			} else {
				w.Closed = 1
			}
		}),
	}},
	// Seven clients 1 s apart (spread 7 s), 3 attempts 100ms apart, all in the outage (10 s):
	// client i's attempts arrive at i, i + 0.2, i + 0.4 s and fail, its call ends out of
	// attempts at i + 0.5 s. Around the call, gobreaker hears one failure per call, not three:
	// the 6th, client 5's at 5.5 s, trips it; client 6's call at 6 s is rejected and ends
	// (blocked), so no limiter or server hears of it. Open from 5.5 s to the last event, 6 s.
	// Nothing arrives after the outage: the server is idle from its end, 10 s, recovered then.
	{"gobreaker around the call: one failure per call, three attempts each", func(p *calc.Params) {
		p.Clients, p.Spread, p.Outage, p.Capacity, p.Call = 7, 7*time.Second, 10*time.Second, 0, 100*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 3, policy.None, 100*ms, 1, 100*ms
		p.BreakerAt = calc.BreakerAtCall
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Breaker: breaker.Gobreaker}, OverloadRun{
		HerdRun: HerdRun{Attempts: 19, GaveUp: 7, Peak: 1, MaxPerClient: 3, LastAccepted: -1,
			Arrivals: breakerArrivals(61, append(steps(0, 6, 0, 2, 4), 60)...), PeakDown: 1, PeakBackAt: -1},
		Requests: 7, OutOfAttempts: 6, Blocked: 1, Failed: 18, Recovered: 10 * time.Second, Idle: true,
		Breakers: 1, Rejected: 1, Trips: 1, OpenTime: 500 * ms,
		Windows: breakerWindows(61, func(k int, w *OverloadWindow) {
			switch {
			case k == 60:
				w.New, w.Rejected = 1, 1
			case k%10 == 0:
				w.New, w.Failed = 1, 1
			case k%10 == 2 || k%10 == 4:
				w.Retries, w.Failed = 1, 1
			}
			if k >= 55 {
				w.Open = 1
			} else {
				w.Closed = 1
			}
		}),
	}},
	// The same at each attempt: clients 0 and 1 make its six failures, the 6th known at 1.5 s
	// (1.4 + 0.1) trips it. Clients 2 to 6 have each attempt rejected at once and retried 100ms
	// later: at i, i + 0.1, i + 0.2 s, out of attempts at i + 0.2 s. Open from 1.5 s to 6.2 s.
	{"gobreaker at each attempt: two calls trip it", func(p *calc.Params) {
		p.Clients, p.Spread, p.Outage, p.Capacity, p.Call = 7, 7*time.Second, 10*time.Second, 0, 100*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 3, policy.None, 100*ms, 1, 100*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Breaker: breaker.Gobreaker}, OverloadRun{
		HerdRun: HerdRun{Attempts: 21, GaveUp: 7, Peak: 1, MaxPerClient: 3, LastAccepted: -1,
			Arrivals: breakerArrivals(63, append(steps(0, 2, 0, 2, 4), steps(2, 7, 0, 1, 2)...)...), PeakDown: 1, PeakBackAt: -1},
		Requests: 7, OutOfAttempts: 7, Failed: 6, Recovered: 10 * time.Second, Idle: true,
		Breakers: 1, Rejected: 15, Trips: 1, OpenTime: 4700 * ms,
		Windows: breakerWindows(63, func(k int, w *OverloadWindow) {
			switch {
			case k < 20 && k%10 == 0:
				w.New, w.Failed = 1, 1
			case k < 20 && (k%10 == 2 || k%10 == 4):
				w.Retries, w.Failed = 1, 1
			case k >= 20 && k%10 == 0:
				w.New, w.Rejected = 1, 1
			case k >= 20 && (k%10 == 1 || k%10 == 2):
				w.Retries, w.Rejected = 1, 1
			}
			if k >= 15 {
				w.Open = 1
			} else {
				w.Closed = 1
			}
		}),
	}},
	// failsafe (opens on 1 failure, 1 minute), two processes, clients at 0 and 0.5 s (spread
	// 1 s), an outage of 150ms, 3 attempts 100ms apart. Client 0 fails at 0 and learns it at
	// 0.1 s: its breaker opens; its retries at 0.2 and 0.3 s are rejected, out of attempts at
	// 0.3 s. With a breaker per client, client 1's (process 1) is closed: served at 0.5 s, a
	// success at 0.6 s. One breaker open from 0.1 s to the last event, 0.6 s. Recovery: windows
	// 2 and 3 hold rejections, 4 and 5 are clean.
	{"failsafe per client: another process's breaker stays closed", func(p *calc.Params) {
		p.Clients, p.Spread, p.Processes, p.Outage, p.Capacity, p.Call = 2, time.Second, 2, 150*ms, 0, 100*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 3, policy.None, 100*ms, 1, 100*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Breaker: breaker.Failsafe}, OverloadRun{
		HerdRun: HerdRun{Attempts: 4, Accepted: 1, GaveUp: 1, Peak: 1, MaxPerClient: 3, LastAccepted: 500 * ms,
			Arrivals: []int{1, 0, 1, 1, 0, 1}, PeakDown: 1, PeakBack: 1, PeakBackAt: 200 * ms},
		Requests: 2, OutOfAttempts: 1, Served: 1, Failed: 1, Recovered: 400 * ms,
		Breakers: 2, Rejected: 2, Trips: 1, OpenTime: 500 * ms,
		Windows: []OverloadWindow{{New: 1, Failed: 1, Closed: 2}, {Closed: 1, Open: 1},
			{Retries: 1, Rejected: 1, Closed: 1, Open: 1}, {Retries: 1, Rejected: 1, Closed: 1, Open: 1},
			{Closed: 1, Open: 1}, {New: 1, Served: 1, Closed: 1, Open: 1}},
	}},
	// Shared: client 1 asks the breaker client 0 opened, and each of its attempts, at 0.5, 0.6
	// and 0.7 s, is rejected; it ends out of attempts at 0.7 s, open time 0.6 s.
	{"failsafe shared: one client's failure rejects the other's calls", func(p *calc.Params) {
		p.Clients, p.Spread, p.Processes, p.Outage, p.Capacity, p.Call = 2, time.Second, 2, 150*ms, 0, 100*ms
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 3, policy.None, 100*ms, 1, 100*ms
		p.Breakers = calc.BreakerShared
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Breaker: breaker.Failsafe}, OverloadRun{
		HerdRun: HerdRun{Attempts: 6, GaveUp: 2, Peak: 1, MaxPerClient: 3, LastAccepted: -1,
			Arrivals: []int{1, 0, 1, 1, 0, 1, 1, 1}, PeakDown: 1, PeakBack: 1, PeakBackAt: 200 * ms},
		Requests: 2, OutOfAttempts: 2, Failed: 1, Recovered: -1,
		Breakers: 1, Rejected: 5, Trips: 1, OpenTime: 600 * ms,
		Windows: []OverloadWindow{{New: 1, Failed: 1, Closed: 1}, {Open: 1},
			{Retries: 1, Rejected: 1, Open: 1}, {Retries: 1, Rejected: 1, Open: 1}, {Open: 1},
			{New: 1, Rejected: 1, Open: 1}, {Retries: 1, Rejected: 1, Open: 1}, {Retries: 1, Rejected: 1, Open: 1}},
	}},
	// A rejection is a failure for the limiter too. failsafe and grpc with 3 tokens (a retry is
	// refused once they are at or below 1.5): the outage failure known at 0.1 s opens the
	// breaker and takes a token (2 left: the retry is allowed); the retry at 0.2 s is rejected
	// at once, takes another (1 left) and is refused then, with 3 attempts still to go.
	{"a rejection is a failure for the limiter", func(p *calc.Params) {
		p.Clients, p.Outage, p.Capacity, p.Call, p.Limits.GRPCMaxTokens = 1, time.Second, 0, 100*ms, 3
		p.Attempts, p.Jitter, p.Base, p.Factor, p.Cap = 5, policy.None, 100*ms, 1, 100*ms
	}, calc.OverloadCase{Mode: calc.Backoff(policy.None), Limiter: limiter.GRPC, Breaker: breaker.Failsafe}, OverloadRun{
		HerdRun: HerdRun{Attempts: 2, GaveUp: 1, Peak: 1, MaxPerClient: 2, LastAccepted: -1, Arrivals: []int{1, 0, 1},
			PeakDown: 1, PeakBackAt: -1},
		Requests: 1, Refused: 1, Failed: 1, Recovered: time.Second, Idle: true,
		Breakers: 1, Rejected: 1, Trips: 1, OpenTime: 100 * ms,
		Windows: []OverloadWindow{{New: 1, Failed: 1, Closed: 1}, {Open: 1}, {Retries: 1, Rejected: 1, Refused: 1, Open: 1}},
	}},
	// failsafe around the call, open for 300ms. Three single-attempt calls at 0, 0.2 and 0.4 s
	// (spread 600ms), an outage of 200ms: the first fails, its call ends at 0.1 s and opens the
	// breaker; the second is blocked at 0.2 s; at 0.4 s the open period is over (failsafe: at
	// least the delay), the breaker turns half-open and the call is its probe, served. Window
	// 4 ends half-open: the success that closes it comes at 0.5 s, in window 5, which counts
	// nothing else and is trimmed. Recovery: window 2 holds the block, 3 and 4 are clean.
	{"failsafe around the call: blocked, then the probe", func(p *calc.Params) {
		p.Clients, p.Spread, p.Outage, p.Capacity, p.Call, p.Attempts = 3, 600*ms, 200*ms, 0, 100*ms, 1
		p.BreakerAt, p.BreakerParams.FailsafeDelay = calc.BreakerAtCall, 300*ms
	}, calc.OverloadCase{Mode: calc.Immediate, Breaker: breaker.Failsafe}, OverloadRun{
		HerdRun: HerdRun{Attempts: 3, Accepted: 1, GaveUp: 2, Peak: 1, MaxPerClient: 1, LastAccepted: 400 * ms,
			Arrivals: []int{1, 0, 1, 0, 1}, PeakDown: 1, PeakBack: 1, PeakBackAt: 200 * ms},
		Requests: 3, OutOfAttempts: 1, Blocked: 1, Served: 1, Failed: 1, Recovered: 300 * ms,
		Breakers: 1, Rejected: 1, Trips: 1, Probes: 1, MaxProbes: 1, OpenTime: 300 * ms,
		Windows: []OverloadWindow{{New: 1, Failed: 1, Closed: 1}, {Open: 1}, {New: 1, Rejected: 1, Open: 1}, {Open: 1},
			{New: 1, Served: 1, Probes: 1, HalfOpen: 1}},
	}},
}

func TestOverloadBreakersByHand(t *testing.T) {
	for _, tt := range overloadBreakerTests {
		p := calc.Default()
		tt.set(&p)
		p.Breaker = tt.c.Breaker
		if err := p.ValidateHerd(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := tt.want
		want.Mode, want.Limiter, want.Breaker = tt.c.Mode, tt.c.Limiter, tt.c.Breaker
		want.MeanPerClient = float64(want.Attempts) / float64(want.Requests)
		if d := overloadDiff(overloadByHeap(p, tt.c), want, "model", "by hand"); d != "" {
			t.Errorf("%s: model %s", tt.name, d)
		}
		got, err := Overload(p, tt.c)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if d := overloadDiff(got, want, "simulation", "by hand"); d != "" {
			t.Errorf("%s: simulation %s (%s)", tt.name, d, describeBreakerRun(got))
		}
	}
}
