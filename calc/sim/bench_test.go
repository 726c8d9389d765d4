package sim

import (
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// BenchmarkHerd100000x20 runs all six modes for the largest herd of 20 attempts, the defaults
// otherwise: 100000 clients through a 1s outage, 20 attempts per 100ms after it.
func BenchmarkHerd100000x20(b *testing.B) {
	p := mustDecode(b, "clients=100000&attempts=20")
	for b.Loop() {
		if _, err := Herd(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHerd100000x20Mode runs one mode at a time, as the page does.
func BenchmarkHerd100000x20Mode(b *testing.B) {
	p := mustDecode(b, "clients=100000&attempts=20")
	for _, m := range calc.HerdModes() {
		b.Run(m.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := HerdMode(p, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOverload runs one overload case at the work limit, as the page runs each of its
// cases: 100 clients and 199900 requests of a stream of 1000/s (200000 × 10 attempts) through
// the default outage, 20 attempts per 100ms after it, a queue of 1000 and a timeout of 1s, with
// no limiter and with aws's; and 2000000 requests of one attempt (the most requests).
func BenchmarkOverload(b *testing.B) {
	for _, bc := range overloadBenches() {
		b.Run(bc.name, func(b *testing.B) {
			if err := calc.OverloadWork(bc.p); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Overload(bc.p, bc.c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// overloadBench is one case of BenchmarkOverload.
type overloadBench struct {
	name string
	p    calc.Params
	c    calc.OverloadCase
}

func overloadBenches() []overloadBench {
	p := calc.Default()
	p.Attempts, p.Rate, p.Run, p.Queue, p.Timeout = 10, 1000, 199900*time.Millisecond, 1000, time.Second
	one := p
	one.Attempts, one.Rate, one.Run = 1, 10000, 199990*time.Millisecond
	return []overloadBench{
		{"stream", p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None}},
		{"stream/immediate", p, calc.OverloadCase{Mode: calc.Immediate, Limiter: limiter.None}},
		{"stream/aws", p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.AWS}},
		{"stream/finagle", p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.Finagle}},
		{"requests", one, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None}},
		// Breakers ask at every attempt; sre keeps a rolling window and draws, resilience4j a ring.
		{"stream/gobreaker", p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None, Breaker: breaker.Gobreaker}},
		{"stream/resilience4j", p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None, Breaker: breaker.Resilience4j}},
		{"stream/sre", p, calc.OverloadCase{Mode: calc.Backoff(policy.Full), Limiter: limiter.None, Breaker: breaker.SRE}},
	}
}
