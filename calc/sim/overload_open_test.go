package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
)

// randomOpen draws a valid open system from r for TestOverloadAgainstModelOpen: every limiter's keys,
// a queue, a timeout shorter or longer than the call, a stream of either spacing, processes,
// budgets, zero calls and waits (events at one instant), and sizes from a handful of requests
// to tens of thousands, so that windows hold from one key to thousands (both sorts, the late
// heap, the queue's compaction).
func randomOpen(r *rand.Rand) calc.Params {
	p := randomClosed(r)
	ns := func(max int64) time.Duration { return time.Duration(r.Int64N(max + 1)) }
	scale := []time.Duration{1, 1, 1000, 1000000}[r.IntN(4)] // ns, µs or ms per unit
	p.Base, p.Cap, p.Add = p.Base*scale, p.Cap*scale, p.Add*scale
	p.Call, p.Window, p.Outage, p.Spread = p.Call*scale, p.Window*scale, p.Outage*scale, p.Spread*scale
	if p.Budget > 0 {
		p.Budget *= scale
	}
	p.Capacity = r.IntN(3) * r.IntN(40)
	if r.IntN(5) > 0 {
		n := 1 + r.IntN([]int{30, 300, 3000, 30000}[r.IntN(4)])
		p.Run = 1 + ns(int64(2000*scale))
		p.Rate = float64(n) / p.Run.Seconds()
		p.Rate = min(max(p.Rate, 0.001), calc.MaxRate)
		p.Arrivals = calc.Spacing(r.IntN(2))
	}
	if r.IntN(2) == 0 {
		p.Queue = 1 + r.IntN([]int{3, 30, 3000}[r.IntN(3)])
	}
	if r.IntN(2) == 0 {
		p.Timeout = 1 + ns(int64(60*scale))
	}
	p.Processes = 1 + r.IntN(5)
	p.Limiter = limiter.Kind(r.IntN(int(limiter.Count)))
	if r.IntN(2) == 0 {
		p.Limits = limiter.Params{
			GRPCMaxTokens: float64(1 + r.IntN(20)), GRPCTokenRatio: float64(1+r.IntN(10)) / 10,
			FinagleTTL: time.Duration(1+r.IntN(3)) * time.Second, FinagleMinRetries: r.IntN(3),
			FinaglePercent: float64(r.IntN(5)) / 10, EnvoyPercent: float64(r.IntN(60)), EnvoyMinConcurrency: r.IntN(4),
			FailsafeMaxRate: float64(r.IntN(6)) / 10, FailsafeMinConcurrency: r.IntN(4),
		}
	}
	return p
}

// TestOverloadAgainstModelOpen: the simulation, with the shortcuts it takes for speed, gives
// exactly what the independent model gives, every field of every window, on random open systems
// of up to tens of thousands of requests, for every case the page runs.
func TestOverloadAgainstModelOpen(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 2))
	// An error rate a third of the time, from a stream of its own so that the systems drawn
	// from r stay the ones drawn before it.
	fr := rand.New(rand.NewPCG(15, 3))
	// A quarter of the systems also run the policy's mode and p's limiter with every breaker, at
	// a placement and scope drawn, with the libraries' defaults or parameters that act within
	// the run; from a stream of its own too.
	br := rand.New(rand.NewPCG(15, 4))
	n, runs, big, erring, tripped := 20, 0, 0, 0, 0
	if testing.Short() || runtime.GOARCH == "wasm" {
		n = 5
	}
	compare := func(i int, p calc.Params, c calc.OverloadCase) {
		want := overloadByHeap(p, c)
		got, err := Overload(p, c)
		if err != nil {
			t.Fatalf("%s: %v", describeOpen(p), err)
		}
		// The windows that validation counts bound the run's (OverloadWindows).
		if w, err := p.OverloadWindows(c.Mode); err != nil || len(got.Windows) > w {
			t.Fatalf("%d %s: %s: %d windows, over the %d OverloadWindows counts (%v)", i, c.Mode, describeOpen(p), len(got.Windows), w, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d %s %s %s: %s:\n%s", i, c.Mode, c.Limiter, c.Breaker, describeOpen(p), firstDiff("run", reflect.ValueOf(got), reflect.ValueOf(want), "engine", "model"))
		}
		paused, done, err := OverloadPausing(p, c, func() bool { return true })
		if err != nil || !done || !reflect.DeepEqual(paused, got) {
			t.Fatalf("%s %s %s: %s: pausing changes the run (done %v, %v)", c.Mode, c.Limiter, c.Breaker, describeOpen(p), done, err)
		}
		runs++
		if want.Requests >= 1000 {
			big++
		}
		if want.Errors > 0 {
			erring++
		}
		if want.Trips > 0 {
			tripped++
		}
	}
	for i := 0; i < n; {
		p := randomOpen(r)
		if fr.IntN(3) == 0 {
			p.FailRate = float64(fr.IntN(10)) / 10
		}
		if p.Validate() != nil || !p.Open() {
			continue
		}
		if _, err := p.OverloadWindows(calc.Immediate); err != nil {
			continue
		}
		i++
		// The page's cases: every mode with p's limiter, p's own mode with every limiter.
		for _, c := range p.OverloadCases() {
			compare(i, p, c)
		}
		if br.IntN(4) == 0 {
			p.BreakerAt, p.Breakers = calc.BreakerAt(br.IntN(2)), calc.BreakerScope(br.IntN(2))
			if br.IntN(2) == 0 {
				p.BreakerParams = smallBreakerParams(br.IntN)
			}
			for _, b := range breaker.Kinds()[1:] {
				p.Breaker = b
				compare(i, p, calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: p.Limiter, Breaker: b})
			}
		}
	}
	t.Logf("%d runs compared, %d of 1000 requests or more, %d with errors, %d with a breaker that tripped", runs, big, erring, tripped)
	if big == 0 && n == 20 { // the five cases of short runs may all be small
		t.Error("no large run was compared")
	}
}

// describeOpen is p's query and its overload fields.
func describeOpen(p calc.Params) string {
	return fmt.Sprintf("%s rate=%v run=%v arrivals=%v queue=%d timeout=%v processes=%d limiter=%v limits=%+v failrate=%v breakerparams=%+v",
		p.Encode(), p.Rate, p.Run, p.Arrivals, p.Queue, p.Timeout, p.Processes, p.Limiter, p.Limits, p.FailRate, p.BreakerParams)
}

// TestOverloadAgainstModelLarge compares the engine with the model on BenchmarkOverload's cases
// at a tenth of their length: up to 200000 request-attempts each, thousands of attempts a window,
// the queue's compaction and the shortcuts the engine takes. The model takes seconds a
// case; in wasm, ten times that, so there the smaller random cases above stand for it.
func TestOverloadAgainstModelLarge(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("natively only: minutes in wasm; TestOverloadAgainstModelOpen runs there")
	}
	for _, bc := range overloadBenches() {
		bc.p.Run /= 10
		want := overloadByHeap(bc.p, bc.c)
		got, err := Overload(bc.p, bc.c)
		if err != nil {
			t.Fatal(err)
		}
		if want.Attempts < 20000 { // the limiters refuse most retries: 20226 attempts with aws
			t.Errorf("%s: %d attempts, not a large case", bc.name, want.Attempts)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n%s", bc.name, firstDiff("run", reflect.ValueOf(got), reflect.ValueOf(want), "engine", "model"))
		}
	}
}

// TestOverloadWindowsCountTheQueue: the server takes a queued attempt after its client's timeout
// all the same (counted wasted), so a queue that drains slowly runs past the timeout's horizon.
// OverloadWindows counted the timeout only: a run of 487 windows was counted 38, and a link
// within every key's limit made a million windows, 42 s and 7 GB in table -format json.
func TestOverloadWindowsCountTheQueue(t *testing.T) {
	p := mustDecode(t, "rate=3000&run=2s&attempts=3&clients=1&queue=20000&timeout=200ms")
	w, err := p.OverloadWindows(p.OwnCase().Mode)
	if err != nil {
		t.Fatal(err)
	}
	run, err := Overload(p, p.OwnCase())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Windows) > w || len(run.Windows) < 400 || run.Wasted == 0 {
		t.Errorf("%d windows, %d wasted; OverloadWindows counts %d", len(run.Windows), run.Wasted, w)
	}
	p = mustDecode(t, "rate=100000&run=1999ms&attempts=10&clients=1&queue=1000000&timeout=1s&capacity=1")
	if _, err := p.OverloadWindows(p.OwnCase().Mode); err == nil || !strings.Contains(err.Error(), "windows, over the limit of 10000") {
		t.Errorf("a queue of 1000000 served one a window: %v, want the windows over the limit", err)
	}
}
