package calc_test

import (
	"fmt"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

func ExampleParams_Schedule() {
	p, _ := calc.Decode("base=100ms&factor=2&cap=1s&attempts=6&jitter=full")
	s := p.Schedule()
	for _, r := range s.Rows[1:] {
		fmt.Printf("attempt %d (retry %d) waits %v..%v\n", r.Attempt, r.Retry, r.Min, r.Max)
	}
	fmt.Printf("total wait: best %v, expected %s, worst %v\n", s.Total.Min, policy.Human(s.Total.Mean), s.Total.Max)
	// Output:
	// attempt 2 (retry 1) waits 0s..100ms
	// attempt 3 (retry 2) waits 0s..200ms
	// attempt 4 (retry 3) waits 0s..400ms
	// attempt 5 (retry 4) waits 0s..800ms
	// attempt 6 (retry 5) waits 0s..1s
	// total wait: best 0s, expected 1.25 s, worst 2.5s
}

func ExampleDecode() {
	p, err := calc.Decode("base=20s&cap=10s&attempts=0&jitter=full")
	for _, fe := range policy.FieldErrors(err) {
		fmt.Println(fe)
	}
	fmt.Println(p.Encode())
	// Output:
	// calc: cap "10s": must be at least base (20s) and at most 168h
	// calc: attempts "0": must be between 1 and 1000
	// add=0&attempts=6&base=20s&budget=0&call=0&cap=20s&capacity=20&capat=before&clients=100&factor=2&first=jittered&growth=exponential&jitter=full&layers=1&outage=1s&ratio=0.2&samples=10000&seed=1&spread=0&window=100ms
}

func ExampleParams_Wait() {
	// waits draws u = 0.5 before every retry, passing each wait's state on to the next.
	waits := func(p calc.Params) []time.Duration {
		var out []time.Duration
		state := p.FirstState()
		for k := 1; k <= 3; k++ {
			var w time.Duration
			w, state = p.Wait(k, 0.5, state)
			out = append(out, w)
		}
		return out
	}
	fmt.Println(waits(calc.Default())) // 100ms doubling, cap 10s, full jitter
	// Polly's exponential backoff with jitter from 2s: each wait depends on the previous draw.
	p, _ := calc.Decode("base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0")
	fmt.Println(waits(p))
	// Output:
	// [50ms 100ms 200ms]
	// [1.7948098s 2.186007s 4.0714959s]
}

func ExampleParams_Schedule_budget() {
	p, _ := calc.Decode("base=0.7&factor=1&cap=0.7&jitter=none&budget=2.1")
	for _, r := range p.Schedule().Rows[:5] {
		fmt.Printf("attempt %d starts at %v: %v\n", r.Attempt, r.Earliest, r.Budget)
	}
	// Output:
	// attempt 1 starts at 0s: always
	// attempt 2 starts at 700µs: always
	// attempt 3 starts at 1.4ms: always
	// attempt 4 starts at 2.1ms: never
	// attempt 5 starts at 2.8ms: never
}

func ExampleParams_Sample() {
	p, _ := calc.Decode("base=100ms&factor=2&cap=1s&attempts=4&jitter=equal&samples=10000&seed=1")
	s := p.Sample()
	for i, a := range s.Starts {
		fmt.Printf("attempt %d: p50 %v, p99 %v\n", i+1, a.Start.P50.Round(time.Millisecond), a.Start.P99.Round(time.Millisecond))
	}
	// Output:
	// attempt 1: p50 0s, p99 0s
	// attempt 2: p50 75ms, p99 99ms
	// attempt 3: p50 226ms, p99 290ms
	// attempt 4: p50 525ms, p99 659ms
}

func ExampleParams_WorstCaseAttempts() {
	p, _ := calc.Decode("attempts=4&layers=5")
	fmt.Println(p.WorstCaseAttempts(), "attempts reach the innermost service")
	// Output: 1024 attempts reach the innermost service
}

func ExampleParams_ValidateHerd() {
	p, _ := calc.Decode("base=10s&cap=10s&attempts=2&ratio=0&window=1ms")
	fmt.Println(p.ValidateHerd())
	// Output: calc: window "1ms": the last attempt can come as late as 10 s: 10001 windows, over the limit of 10000; make the window at least 2ms
}

func ExampleParams_WithinBudget() {
	// Equal jitter waits 0.5-1 s, 1-2 s, 2-4 s, 4-8 s, 8-16 s; a 6.5 s budget cuts every path.
	p, _ := calc.Decode("base=1s&factor=2&cap=1m&attempts=6&jitter=equal&budget=6.5s")
	t, w := p.Schedule().Total, p.WithinBudget()
	fmt.Printf("policy, ignoring the budget: best %v, worst %v\n", t.Min, t.Max)
	fmt.Printf("within the budget: best %v, worst %v, exact %v\n", w.Min, w.Max, w.Exact)
	// Output:
	// policy, ignoring the budget: best 15.5s, worst 31s
	// within the budget: best 2.5s, worst 6.499999999s, exact true
}

func ExampleParams_WaitWords() {
	p, _ := calc.Decode("base=1s&cap=1m&jitter=upward&ratio=0.1")
	fmt.Println(p.WaitWords())
	fmt.Println(p.Jitter.Library(), p.Jitter.FromPrevious())
	// Output:
	// Retry k waits a random time between d and d × (1 + 0.1), d = min(1 min, 1 s × 2^(k−1)) (upward jitter).
	// k8s false
}

func ExampleUnknownKeys() {
	// export is another package's key; bse and attempt are typos, utm_source is no one's.
	err := calc.UnknownKeys("attempt=8&bse=1s&export=grpc&utm_source=mail", "export")
	for _, fe := range policy.FieldErrors(err) {
		fmt.Println(fe)
	}
	fmt.Println(calc.BareMillis("budget", "20"), calc.BareMillis("budget", "20s"))
	// Output:
	// calc: attempt "8": unknown key; did you mean attempts?
	// calc: bse "1s": unknown key; did you mean base?
	// calc: utm_source "mail": unknown key
	// true false
}

func ExampleCompare() {
	// B waits twice A's wait before each retry: every difference is A's own wait, and every
	// start's difference is A's start.
	a, _ := calc.Decode("base=100ms&factor=2&cap=10s&attempts=4&jitter=none")
	b, _ := calc.Decode("base=200ms&factor=2&cap=10s&attempts=4&jitter=none")
	c := calc.Compare(a.Report(), b.Report())
	for _, row := range c.Rows {
		fmt.Println(row.Attempt, row.Diff.Max, row.Diff.Latest)
	}
	fmt.Println("total", c.Total.Max)
	// Output:
	// 1 0s 0s
	// 2 100ms 100ms
	// 3 200ms 300ms
	// 4 400ms 700ms
	// total 700ms
}

func ExampleParams_Solutions() {
	// Without jitter, 6 attempts of base 1s and factor 2 start at 0, 1s, 3s, 7s, 15s and 31s: 3
	// of them start before a 6.5s budget. All 6 do when the five waits, 31 × base, stay under
	// 6.5s: a base of at most 209677419ns (31 × 209677420ns is 6.50000002s), typed 209ms.
	p, _ := calc.Decode("base=1s&factor=2&cap=1m&attempts=6&jitter=none&budget=6.5s")
	s := p.Solutions()[0]
	fmt.Println(s.Jitter, s.Always.Value, s.Worst.Base.Value, policy.TypedDuration(s.Worst.Base.Typed))
	// Output:
	// none 3 209.677419ms 209ms
}
