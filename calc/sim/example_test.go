package sim_test

import (
	"fmt"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

func ExampleHerd() {
	p := calc.Default() // 100 clients at 0, 1s outage, then 20 attempts per 100ms; 6 attempts each
	runs, err := sim.Herd(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range runs {
		fmt.Printf("%-12s %3d attempts, %3d clients through, peak %3d per %v at %v\n",
			r.Mode, r.Attempts, r.Accepted, r.Peak, p.Window, r.PeakAt)
	}
	// Output:
	// immediate    600 attempts,   0 clients through, peak 600 per 100ms at 0s
	// none         580 attempts,  40 clients through, peak 100 per 100ms at 0s
	// full         577 attempts,  84 clients through, peak 224 per 100ms at 0s
	// equal        530 attempts, 100 clients through, peak 200 per 100ms at 0s
	// decorrelated 466 attempts,  97 clients through, peak 100 per 100ms at 0s
	// proportional 525 attempts, 100 clients through, peak 148 per 100ms at 0s
}

// The burst while the server is down and what it receives once back, per 100ms window, at
// 1,000 clients, a 2s outage and a capacity of 50: with full jitter 60 once back, more than the
// capacity; without jitter every client comes back in one window.
func ExampleHerdRun() {
	p, _ := calc.Decode("clients=1000&outage=2s&capacity=50")
	runs, _ := sim.Herd(p)
	for _, r := range runs {
		back := "none"
		if r.PeakBack > 0 {
			back = fmt.Sprintf("%d at %v", r.PeakBack, r.PeakBackAt)
		}
		fmt.Printf("%-12s while down %4d at %v, once back %s\n", r.Mode, r.PeakDown, r.PeakDownAt, back)
	}
	// Output:
	// immediate    while down 6000 at 0s, once back none
	// none         while down 1000 at 0s, once back 1000 at 3.1s
	// full         while down 2275 at 0s, once back 60 at 2s
	// equal        while down 2000 at 0s, once back 133 at 2.3s
	// decorrelated while down 1000 at 0s, once back 68 at 2s
	// proportional while down 1499 at 0s, once back 164 at 3s
}

func ExampleHerd_modes() {
	// Polly's exponential backoff with jitter is no classic mode: its herd runs it last.
	p, _ := calc.Decode("base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0")
	fmt.Println(p.HerdModes())
	runs, _ := sim.Herd(p)
	r := runs[len(runs)-1]
	fmt.Printf("%s: %d attempts, %d clients through, peak %d per %v\n", r.Mode, r.Attempts, r.Accepted, r.Peak, p.Window)
	// Output:
	// [immediate none full equal decorrelated proportional decorrelatedv2]
	// decorrelatedv2: 216 attempts, 100 clients through, peak 100 per 100ms
}

func ExampleHerdMode() {
	p, _ := calc.Decode("clients=6&jitter=none&factor=1&base=50ms&cap=50ms&outage=0&window=100ms&capacity=2&attempts=100")
	r, _ := sim.HerdMode(p, calc.Backoff(policy.None))
	fmt.Printf("%d attempts, %d of %d clients through, the last at %v\n", r.Attempts, r.Accepted, p.Clients, r.LastAccepted)
	fmt.Printf("peak %d in [%v, %v); per window: %v\n", r.Peak, r.PeakAt, r.PeakAt+p.Window, r.Arrivals)
	// Output:
	// 18 attempts, 6 of 6 clients through, the last at 200ms
	// peak 10 in [0s, 100ms); per window: [10 6 2]
}

func ExampleHerdAxes() {
	p := calc.Default()
	runs, _ := sim.Herd(p)
	x, y := sim.HerdAxes(p, runs)
	fmt.Println("time:", x.Ticks)
	fmt.Println("immediate, attempts per window:", y[0].Ticks)
	fmt.Println("none, attempts per window:", y[1].Ticks)
	// Output:
	// time: [0s 1s 2s 3s 4s]
	// immediate, attempts per window: [0 100 200 300 400 500 600]
	// none, attempts per window: [0 20 40 60 80 100]
}

func ExampleOverload() {
	// 100 clients fail at once through an hour's outage, each call taking 1ms, and retry at once
	// (the immediate baseline) behind gRPC's retryThrottling (10 tokens, a retry needs more than
	// half of them): requests 0..3 take 10→6 and retry, request 4 takes 6→5 and is refused, as
	// are the other 95; the 4 retries fail with none left and are refused too.
	p, _ := calc.Decode("clients=100&attempts=3&call=1ms&capacity=0&outage=1h&limiter=grpc")
	r, _ := sim.Overload(p, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.GRPC})
	fmt.Println(r.Attempts, "attempts,", r.Refused, "refused,", r.Accepted, "succeeded")
	// Output:
	// 104 attempts, 100 refused, 0 succeeded
}

func ExampleLimiterBoundWords() {
	// Under total failure gRPC's tokens only come back with successes: 10 tokens, and a retry
	// needs more than half of them, so 4 retries in all.
	p, _ := calc.Decode("rate=80&run=10s&attempts=8&limiter=grpc")
	fmt.Println(sim.LimiterBoundWords(p, limiter.GRPC))
	// Output:
	// grpc: the tokens (10) only come back with successes, and a retry needs more than half of them left after its failure: 4 retries in all, then only first attempts: 80 attempts per second.
}

func ExampleErrorRateOf() {
	p, _ := calc.Decode("attempts=4&failrate=0.5&rate=100&run=10s")
	e := sim.ErrorRateOf(p)
	// 4 attempts, each failing with probability 0.5: 1 + 0.5 + 0.25 + 0.125 = 1.875 attempts
	// per request, success 1 − 0.5^4 = 0.9375; the retries add 0.875 per request, 87.5 per
	// second at 100 requests per second.
	fmt.Printf("attempts %v, success %v, retries %v per request, %v per second\n", e.Attempts, e.Success, e.Retries, e.RetriesPerSecond)
	for _, b := range e.Limiters {
		bound := "no bound"
		if b.Bounded {
			bound = fmt.Sprintf("bound %.4g", b.Bound)
		}
		fmt.Printf("%s: %s, %.4g attempts per request\n", b.Limiter, bound, b.Attempts)
	}
	// none, grpc and envoy: no bound from their rule alone, the policy's 1.875.
	// aws: a first-attempt success adds 1 (probability 0.5), a retry costs 5 and comes back when
	// it succeeds, 5 × 0.5 = 2.5 net: 0.5/2.5 = 0.2 retries per request; aws2026, 14 per retry:
	// 0.5/7 = 0.07143. finagle: 10 per second of reserve over 100 requests per second, plus 20%
	// of them: 0.3. adaptive: 0.1 per request's start. retrybreaker: first attempts alone fail
	// 50%, over its 10%: no retries.
	// Output:
	// attempts 1.875, success 0.9375, retries 0.875 per request, 87.5 per second
	// none: no bound, 1.875 attempts per request
	// grpc: no bound, 1.875 attempts per request
	// aws: bound 0.2, 1.2 attempts per request
	// aws2026: bound 0.07143, 1.071 attempts per request
	// finagle: bound 0.3, 1.3 attempts per request
	// envoy: no bound, 1.875 attempts per request
	// adaptive: bound 0.1, 1.1 attempts per request
	// retrybreaker: bound 0, 1 attempts per request
}

func Example_collapse() {
	// Brooker's server: 1 s + 0.01 s per attempt in service (itself counted), a 3 s timeout, no
	// retries. λS attempts are in service (Little's law), so S = 1 + 0.01 × λS,
	// S = 1 / (1 − 0.01λ): at 80 per second 1 / 0.2 = 5 s, over 3 s; S ≤ 3 while
	// λ ≤ (3 − 1) / (0.01 × 3) = 66.67 per second; no steady state at all from 1 / 0.01 = 100 per
	// second. At 60 per second S = 1 / 0.4 = 2.5 s. The even stream meets it exactly: at 80 per
	// second an attempt finds the 399 started in the 5 s before it, and itself: 1 + 4 = 5 s.
	for _, rate := range []string{"80", "60"} {
		p, _ := calc.Decode("rate=" + rate + "&run=2m&clients=1&outage=0&attempts=1&capacity=0&window=1s&timeout=3s&latency=1s&slope=10ms")
		c := p.Collapse()
		fmt.Printf("rate %v: steady %.4g s, times out %v, threshold %.4g per second, limit %.4g\n", c.Rate, c.Steady, c.TimesOut, c.Threshold, c.Limit)
		run, _ := sim.Overload(p, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None})
		w := run.Windows[110]
		fmt.Printf("  simulated at 110 s: %d in service, %v, %d served in time, %d wasted\n", w.InService, w.Latency, w.Served, w.Wasted)
	}
	// Output:
	// rate 80: steady 5 s, times out true, threshold 66.67 per second, limit 100
	//   simulated at 110 s: 400 in service, 5s, 0 served in time, 80 wasted
	// rate 60: steady 2.5 s, times out false, threshold 66.67 per second, limit 100
	//   simulated at 110 s: 150 in service, 2.5s, 60 served in time, 0 wasted
}

// What one link's breaker does without a simulation: gobreaker at each attempt of the default
// policy (its last attempt starts at most 3.1 s after the first), 50 requests per second
// through 5 processes.
func ExampleBreakerFactsOf() {
	p, _ := calc.Decode("rate=50&run=1m&processes=5&breaker=gobreaker")
	f := sim.BreakerFactsOf(p)
	fmt.Println(f.FedPerCall, f.OpenPeriod, f.Schedule, f.OpenLonger, f.MinCalls, f.PerBreaker, f.Reach)
	fmt.Println(f.Words)
	// Output:
	// 6 1m0s 3.1s true 6 10 600ms
	// Every attempt asks the gobreaker breaker (one per client process) first: a rejected attempt fails at once without reaching the server, and the policy retries it after its wait as after any failure (the limiter is asked as usual), as most libraries do by default. One call that fails every attempt feeds the breaker 6 failed results. Its open period, 1 min, is longer than the policy's whole schedule (its last attempt starts at most 3.1 s after the first): the retries of a call that opened it meet it open. It can open after 6 failed results; the stream gives each breaker 10 new requests per second: 600 ms to get there from its first attempts alone.
}

// A retry storm after a 20 s outage at a server that slows under load (1 s + 10 ms per attempt
// in service, 3 s timeout) with 60 requests per second from 100 client processes. AWS's quota
// (500 tokens per process, 5 a retry, 10 after a timeout) is spread over 100 processes: the
// storm keeps the server over its timeout until 137 s. go-zero's SRE throttling in each process
// rejects calls at random once its calls over the last 10 s outnumber 1.5 × its successes + 5,
// and the server is back at 28 s. gobreaker, open 60 s after 6 failures in a row, keeps every
// process off the server until 69 s: later than sre, earlier than the quota alone. With grpc's
// throttling the server is back at the outage's end, and gobreaker's open period delays that
// by 49 s.
func ExampleOverload_breakers() {
	for _, q := range []string{"limiter=aws", "limiter=grpc"} {
		p, _ := calc.Decode("rate=60&run=3m&outage=20s&clients=1&timeout=3s&latency=1s&slope=10ms&capacity=0&window=1s&attempts=4&base=1s&processes=100&" + q)
		for _, b := range []breaker.Kind{breaker.None, breaker.SRE, breaker.Gobreaker} {
			r, _ := sim.Overload(p, calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: p.Limiter, Breaker: b})
			fmt.Printf("%s, breaker %s: recovered at %v, %d of %d succeeded, %d attempts rejected, %d trips\n",
				r.Limiter, b, r.Recovered, r.Accepted, r.Requests, r.Rejected, r.Trips)
		}
	}
	// Output:
	// aws, breaker none: recovered at 2m17s, 2836 of 10801 succeeded, 0 attempts rejected, 0 trips
	// aws, breaker sre: recovered at 28s, 9722 of 10801 succeeded, 2265 attempts rejected, 0 trips
	// aws, breaker gobreaker: recovered at 1m9s, 6961 of 10801 succeeded, 13240 attempts rejected, 100 trips
	// grpc, breaker none: recovered at 20s, 9600 of 10801 succeeded, 0 attempts rejected, 0 trips
	// grpc, breaker sre: recovered at 20s, 9600 of 10801 succeeded, 28 attempts rejected, 0 trips
	// grpc, breaker gobreaker: recovered at 1m9s, 6921 of 10801 succeeded, 3670 attempts rejected, 100 trips
}
