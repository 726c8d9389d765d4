package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// herdQueries are policies the properties are checked on; each runs with several seeds.
var herdQueries = []string{
	"clients=50&attempts=8&cap=2s",
	"clients=40&attempts=10&cap=1s&jitter=equal&call=15ms&outage=2s&capacity=5&window=50ms",
	"clients=30&attempts=12&base=10ms&cap=5s&budget=3s&outage=500ms&capacity=3",
	"clients=25&attempts=9&base=50ms&cap=400ms&capat=after&ratio=0.6&outage=300ms&window=20ms&capacity=2",
	"clients=60&attempts=6&spread=300ms&outage=400ms&capacity=10&call=5ms",
	"clients=20&attempts=15&base=1ms&factor=1.5&cap=80ms&outage=10ms&window=1ms&capacity=1&budget=200ms",
	"clients=10&attempts=30&base=3ns&factor=1.3&cap=7ns&outage=20ns&window=2ns&capacity=1",
	"clients=40&attempts=8&base=30ms&cap=1s&call=7ms&outage=250ms&capacity=4", // the outage ends inside a window
}

// herdSeeds is how many seeds each property tries.
func herdSeeds() int {
	if testing.Short() {
		return 5
	}
	return 40
}

// seenAttempts runs one mode and returns each client's attempt times, checking that the server
// saw attempts in order of time and then of client index, and each client's in order.
func seenAttempts(t *testing.T, p calc.Params, m calc.HerdMode) (HerdRun, [][]time.Duration) {
	t.Helper()
	windows, err := p.HerdWindows(m)
	if err != nil {
		t.Fatal(err)
	}
	times := make([][]time.Duration, p.Clients)
	lastAt, lastClient := time.Duration(-1), -1
	run, _ := herd(p, m, windows, &herdScratch{}, herdHooks{seen: func(client, attempt int, at time.Duration, accepted bool) {
		if at < lastAt || at == lastAt && client < lastClient {
			t.Fatalf("%s %s: client %d at %v after client %d at %v", p.Encode(), m, client, at, lastClient, lastAt)
		}
		if attempt != len(times[client])+1 {
			t.Fatalf("%s %s: client %d makes attempt %d after %d", p.Encode(), m, client, attempt, len(times[client]))
		}
		lastAt, lastClient = at, client
		times[client] = append(times[client], at)
	}})
	return run, times
}

// TestHerdWithinSchedule: every client's n-th attempt starts within the schedule's
// [earliest, latest] for attempt n, shifted by the client's start, and before the budget.
func TestHerdWithinSchedule(t *testing.T) {
	for _, q := range herdQueries {
		for seed := range herdSeeds() {
			p := mustDecode(t, fmt.Sprintf("%s&seed=%d", q, seed))
			for _, m := range calc.HerdModes()[1:] {
				j, _ := m.Jitter()
				rows := p.WithJitter(j).Schedule().Rows
				_, times := seenAttempts(t, p, m)
				for i, ts := range times {
					start := p.ClientStart(i)
					for n, at := range ts {
						r := rows[n]
						if at-start < r.Earliest || at-start > r.Latest || p.Budget > 0 && at-start >= p.Budget {
							t.Fatalf("%s %s: client %d attempt %d at %v+%v, outside [%v, %v]", p.Encode(), m, i, n+1, start, at-start, r.Earliest, r.Latest)
						}
					}
				}
			}
		}
	}
}

// TestHerdStreams: a client that is never accepted makes the attempts of its own stream,
// PCG(seed, i) read as rand.Rand.Float64, one draw per retry, with the waits of Params.Wait.
func TestHerdStreams(t *testing.T) {
	for _, j := range []policy.Jitter{policy.Full, policy.Equal, policy.Decorrelated, policy.Proportional, policy.DecorrelatedV2} {
		p := mustDecode(t, "clients=20&attempts=8&cap=3s&outage=24h&seed=77&spread=1s&call=3ms")
		p.Jitter = j
		_, times := seenAttempts(t, p, calc.Backoff(j))
		for i, ts := range times {
			r := rand.New(rand.NewPCG(77, uint64(i)))
			at, state := time.Duration(i)*50*ms, p.FirstState() // 1s/20 apart
			for n, got := range ts {
				if n > 0 {
					var w time.Duration
					w, state = p.Wait(n, r.Float64(), state)
					at += p.Call + w
				}
				if got != at {
					t.Fatalf("%s client %d attempt %d at %v, want %v", j, i, n+1, got, at)
				}
			}
			if len(ts) != p.Attempts {
				t.Fatalf("%s client %d made %d attempts", j, i, len(ts))
			}
		}
	}
}

// TestHerdOutageOutlastsSchedule: with no capacity limit and an outage longer than the slowest
// schedule, every client makes every attempt, in every mode.
func TestHerdOutageOutlastsSchedule(t *testing.T) {
	for _, q := range herdQueries {
		for seed := range herdSeeds() {
			p := mustDecode(t, fmt.Sprintf("%s&seed=%d", q, seed))
			p.Capacity, p.Budget = 0, 0
			p.Outage = p.HerdHorizon(calc.Immediate) + 1
			runs, err := Herd(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs {
				if r.Attempts != p.Clients*p.Attempts || r.GaveUp != p.Clients || r.LastAccepted != -1 {
					t.Fatalf("%s %s: %d attempts, %d gave up, want %d and %d", p.Encode(), r.Mode, r.Attempts, r.GaveUp, p.Clients*p.Attempts, p.Clients)
				}
			}
		}
	}
}

// TestHerdPeakAtMostImmediate: when every client starts at 0, no backoff mode's peak is above
// immediate retry's.
func TestHerdPeakAtMostImmediate(t *testing.T) {
	for _, q := range herdQueries {
		for seed := range herdSeeds() {
			p := mustDecode(t, fmt.Sprintf("%s&seed=%d", q, seed))
			p.Spread = 0
			runs, err := Herd(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range runs[1:] {
				if r.Peak > runs[0].Peak {
					t.Fatalf("%s: %s peaks at %d, immediate at %d", p.Encode(), r.Mode, r.Peak, runs[0].Peak)
				}
			}
		}
	}
}

// TestHerdKeyBits: a window's key holds the time within the window above the client index.
func TestHerdKeyBits(t *testing.T) {
	if calc.MaxClients > 1<<clientBits || calc.MaxWindow > 1<<(64-clientBits) {
		t.Errorf("keys of %d bits cannot hold %d clients and windows of %v", clientBits, calc.MaxClients, calc.MaxWindow)
	}
}

func TestHerdAgainstHeap(t *testing.T) {
	queries := append(slices.Clone(herdQueries), "clients=3000&attempts=12&spread=2s&capacity=100&window=30ms",
		"clients=500&attempts=20&call=0&outage=0&capacity=1&window=1ns&base=1ns&cap=4ns")
	for _, tt := range herdTests {
		queries = append(queries, tt.query)
	}
	for _, q := range queries {
		for seed := range max(2, herdSeeds()/8) {
			p := mustDecode(t, fmt.Sprintf("%s&seed=%d", q, seed))
			for _, m := range calc.HerdModes() {
				got, _ := HerdMode(p, m)
				want, _ := herdByHeap(p, m)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s %s:\n got %+v\nwant %+v", p.Encode(), m, got, want)
				}
			}
		}
	}
}

// checkHerd holds for every herd: every client ends accepted or given up; the counts add up;
// the peak and the arrivals count the attempts; the server sees attempts in order.
func checkHerd(t *testing.T, p calc.Params, m calc.HerdMode) {
	t.Helper()
	r, times := seenAttempts(t, p, m)
	sum := 0
	for _, ts := range times {
		sum += len(ts)
		if len(ts) == 0 || len(ts) > p.Attempts || len(ts) > r.MaxPerClient {
			t.Fatalf("%s %s: a client made %d attempts (max %d)", p.Encode(), m, len(ts), r.MaxPerClient)
		}
	}
	arrivals := 0
	for _, n := range r.Arrivals {
		arrivals += n
	}
	switch {
	case r.Accepted+r.GaveUp != p.Clients:
		t.Fatalf("%s %s: %d accepted + %d gave up != %d clients", p.Encode(), m, r.Accepted, r.GaveUp, p.Clients)
	case r.Attempts != sum || arrivals != sum:
		t.Fatalf("%s %s: %d attempts, %d by client, %d in arrivals", p.Encode(), m, r.Attempts, sum, arrivals)
	case r.Peak < 1 || r.Peak > r.Attempts || len(r.Arrivals) > calc.MaxHerdWindows || r.Arrivals[len(r.Arrivals)-1] == 0:
		t.Fatalf("%s %s: peak %d of %d attempts, %d windows", p.Encode(), m, r.Peak, r.Attempts, len(r.Arrivals))
	case r.Accepted > 0 && r.LastAccepted < p.Outage, r.Accepted == 0 && r.LastAccepted != -1:
		t.Fatalf("%s %s: %d accepted, the last at %v", p.Encode(), m, r.Accepted, r.LastAccepted)
	case r.MeanPerClient != float64(r.Attempts)/float64(p.Clients):
		t.Fatalf("%s %s: mean %v", p.Encode(), m, r.MeanPerClient)
	}
	want, made := herdByHeap(p, m)
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("%s %s:\n got %+v\nheap %+v", p.Encode(), m, r, want)
	}
	for i, ts := range times {
		if len(ts) != made[i] {
			t.Fatalf("%s %s: client %d made %d attempts, %d by the heap", p.Encode(), m, i, len(ts), made[i])
		}
	}
}

func FuzzHerd(f *testing.F) {
	for _, tt := range herdTests {
		f.Add(tt.query)
	}
	for _, q := range herdQueries {
		f.Add(q)
	}
	for _, q := range goldenQueries {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, _ := calc.Decode(q)
		p.Clients, p.Attempts = min(p.Clients, 40), min(p.Attempts, 40) // fast, and still valid
		if err := p.ValidateHerd(); err != nil {
			if fes := policy.FieldErrors(err); len(fes) != 1 || fes[0].Key != "window" {
				t.Fatalf("%s: %v", p.Encode(), err)
			}
			return
		}
		for _, m := range p.HerdModes() {
			checkHerd(t, p, m)
		}
	})
}

func TestHerdInvariants(t *testing.T) {
	for _, q := range append(slices.Clone(herdQueries), goldenQueries...) {
		p := mustDecode(t, q)
		if p.ValidateHerd() == nil {
			for _, m := range p.HerdModes() {
				checkHerd(t, p, m)
			}
		}
	}
}
