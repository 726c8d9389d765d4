package calc

import (
	"testing"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
)

func BenchmarkSchedule1000(b *testing.B) {
	p := mustDecode(b, "attempts=1000")
	for b.Loop() {
		p.Schedule()
	}
}

func BenchmarkScheduleDecorrelated1000(b *testing.B) {
	p := mustDecode(b, "attempts=1000&jitter=decorrelated&base=1ms&cap=168h")
	for b.Loop() {
		p.Schedule()
	}
}

func BenchmarkSample200000(b *testing.B) {
	p := mustDecode(b, "samples=200000")
	for b.Loop() {
		p.Sample()
	}
}

func BenchmarkReportDefault(b *testing.B) {
	p := Default()
	for b.Loop() {
		p.Report()
	}
}

// BenchmarkHerd100000x20 runs all six modes for the largest herd of 20 attempts, the defaults
// otherwise: 100000 clients through a 1s outage, 20 attempts per 100ms after it.
func BenchmarkHerd100000x20(b *testing.B) {
	p := mustDecode(b, "clients=100000&attempts=20")
	for b.Loop() {
		if _, err := p.Herd(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHerd100000x20Mode runs one mode at a time, as the page does.
func BenchmarkHerd100000x20Mode(b *testing.B) {
	p := mustDecode(b, "clients=100000&attempts=20")
	for _, m := range HerdModes() {
		b.Run(m.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := p.HerdMode(m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScheduleDecorrelatedV2x1000 is Polly's jitter over the most attempts and the widest
// cap, where the mean's quadrature runs longest before every wait settles on the cap.
func BenchmarkScheduleDecorrelatedV2x1000(b *testing.B) {
	p := mustDecode(b, "attempts=1000&jitter=decorrelatedv2&base=1ms&cap=168h")
	for b.Loop() {
		p.Schedule()
	}
}

// BenchmarkSampleDecorrelatedV2 draws the default 10000 paths of Polly's jitter, two pure-Go
// exponentials a draw.
func BenchmarkSampleDecorrelatedV2(b *testing.B) {
	p := mustDecode(b, "jitter=decorrelatedv2")
	for b.Loop() {
		p.Sample()
	}
}

// BenchmarkSampleDefault is the page's input path at the defaults: 10000 paths of 6 attempts.
func BenchmarkSampleDefault(b *testing.B) {
	p := Default()
	for b.Loop() {
		p.Sample()
	}
}

// BenchmarkOverload runs one overload case at the work limit, as the page runs each of its
// cases: 100 clients and 199900 requests of a stream of 1000/s (200000 × 10 attempts) through
// the default outage, 20 attempts per 100ms after it, a queue of 1000 and a timeout of 1s, with
// no limiter and with aws's; and 2000000 requests of one attempt (the most requests).
func BenchmarkOverload(b *testing.B) {
	for _, bc := range overloadBenches() {
		b.Run(bc.name, func(b *testing.B) {
			if err := overloadWork(bc.p); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := bc.p.Overload(bc.c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSolutions is the worst-case fit to a budget for every compared mode at the defaults
// with a 30s budget: it runs in ReportBounds, on the input path.
func BenchmarkSolutions(b *testing.B) {
	p := mustDecode(b, "budget=30s")
	for b.Loop() {
		p.Solutions()
	}
}

// BenchmarkSolutions1000 is the same for the most attempts, each retry's wait still within a
// 1h budget, with the cap fixed, where the search splits at every retry's crossing of the cap.
func BenchmarkSolutions1000(b *testing.B) {
	p := mustDecode(b, "budget=1h&attempts=1000&base=1ms&factor=1.01&cap=5s&capat=fixed&jitter=proportional")
	for b.Loop() {
		p.Solutions()
	}
}

// BenchmarkSolveSample is the sampled fit (10000 paths) for every compared mode at the defaults
// with a 30s budget: the page runs it after the paint.
func BenchmarkSolveSample(b *testing.B) {
	r := mustDecode(b, "budget=30s").ReportBounds()
	for b.Loop() {
		r.SolveSample(r.Solutions, nil)
	}
}

// BenchmarkReportBoundsBudget is the page's input path with a budget: the bounds, the within-
// budget totals and the worst-case fit of every compared mode (no sampling).
func BenchmarkReportBoundsBudget(b *testing.B) {
	p := mustDecode(b, "budget=30s")
	for b.Loop() {
		p.ReportBounds()
	}
}

// overloadBench is one case of BenchmarkOverload.
type overloadBench struct {
	name string
	p    Params
	c    OverloadCase
}

func overloadBenches() []overloadBench {
	p := Default()
	p.Attempts, p.Rate, p.Run, p.Queue, p.Timeout = 10, 1000, 199900*time.Millisecond, 1000, time.Second
	one := p
	one.Attempts, one.Rate, one.Run = 1, 10000, 199990*time.Millisecond
	return []overloadBench{
		{"stream", p, OverloadCase{Mode: Backoff(Full), Limiter: limiter.None}},
		{"stream/immediate", p, OverloadCase{Mode: Immediate, Limiter: limiter.None}},
		{"stream/aws", p, OverloadCase{Mode: Backoff(Full), Limiter: limiter.AWS}},
		{"stream/finagle", p, OverloadCase{Mode: Backoff(Full), Limiter: limiter.Finagle}},
		{"requests", one, OverloadCase{Mode: Backoff(Full), Limiter: limiter.None}},
		// Breakers ask at every attempt; sre keeps a rolling window and draws, resilience4j a ring.
		{"stream/gobreaker", p, OverloadCase{Mode: Backoff(Full), Limiter: limiter.None, Breaker: breaker.Gobreaker}},
		{"stream/resilience4j", p, OverloadCase{Mode: Backoff(Full), Limiter: limiter.None, Breaker: breaker.Resilience4j}},
		{"stream/sre", p, OverloadCase{Mode: Backoff(Full), Limiter: limiter.None, Breaker: breaker.SRE}},
	}
}
