package calc

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// herdTests are worked by hand. Arrivals are per window of the query's window (100ms unless
// given); last is -1 when no client got through.
var herdTests = []struct {
	name  string
	query string
	mode  HerdMode
	want  HerdRun // Mode, MeanPerClient are filled in by the test
}{
	// Every client attempts at 0, 20, ..., 680 ms, all before the outage ends, and at 700 ms,
	// which is accepted: 36 attempts each, 144 in all. A window [t, t+200ms) starting at an
	// arrival holds 10 arrival times of 4 attempts: 40, first at 0. Windows of 200 ms hold
	// 10, 10, 10 and 6 (600..700) arrival times.
	{"issue: four clients, 20ms", "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=0&outage=700ms&window=200ms&capacity=0&attempts=100",
		Backoff(None), HerdRun{Attempts: 144, Accepted: 4, Peak: 40, MaxPerClient: 36, LastAccepted: 700 * ms, Arrivals: []int{40, 40, 40, 24}}},
	// Decorrelated jitter with base == cap waits min(cap, base + u*(3*prev - base)) = cap: the same.
	{"issue: four clients, decorrelated at its cap", "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=0&outage=700ms&window=200ms&capacity=0&attempts=100",
		Backoff(Decorrelated), HerdRun{Attempts: 144, Accepted: 4, Peak: 40, MaxPerClient: 36, LastAccepted: 700 * ms, Arrivals: []int{40, 40, 40, 24}}},
	// With a 25 ms call, attempt n starts at 45(n-1) ms: 0..675 fail (16 attempts), 720 is
	// accepted: 17 each, 68 in all. A 200 ms window holds at most 5 arrival times (0..180): 20.
	// Windows hold 0,45,90,135,180 | 225,270,315,360 | 405,450,495,540,585 | 630,675,720.
	{"issue: four clients, 25ms calls", "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=25ms&outage=700ms&window=200ms&capacity=0&attempts=100",
		Backoff(None), HerdRun{Attempts: 68, Accepted: 4, Peak: 20, MaxPerClient: 17, LastAccepted: 720 * ms, Arrivals: []int{20, 16, 20, 12}}},
	// Immediate retries with no call: all 6 attempts of all 100 clients at 0, inside the outage.
	{"issue: immediate at zero", "jitter=none&call=0&attempts=6",
		Immediate, HerdRun{Attempts: 600, GaveUp: 100, Peak: 600, MaxPerClient: 6, LastAccepted: -1, Arrivals: []int{600}}},
	// At 0: clients 0, 1 accepted, 2..5 fail. At 50: window [0, 100) is full, 2..5 fail. At 100:
	// 2, 3 accepted, 4, 5 fail; at 150 they fail again; at 200 they are accepted. 6+4+4+2+2 = 18;
	// [0, 100) holds 6+4 = 10; clients 4 and 5 make 5 attempts each.
	{"issue: capacity 2", "clients=6&jitter=none&factor=1&base=50ms&cap=50ms&outage=0&window=100ms&capacity=2&attempts=100",
		Backoff(None), HerdRun{Attempts: 18, Accepted: 6, Peak: 10, MaxPerClient: 5, LastAccepted: 200 * ms, Arrivals: []int{10, 6, 2}}},
	// Attempts at 0, 100, 200 fail in the outage; 300 would reach the 250 ms budget.
	{"budget", "clients=2&jitter=none&factor=1&base=100ms&cap=100ms&budget=250ms&outage=1s",
		Backoff(None), HerdRun{Attempts: 6, GaveUp: 2, Peak: 2, MaxPerClient: 3, LastAccepted: -1, Arrivals: []int{2, 2, 2}}},
	// Starts at floor(i*1s/4): 0, 250, 500, 750 ms, each accepted at once, in windows 0, 2, 5, 7.
	{"spread", "clients=4&spread=1s&outage=0&capacity=0&jitter=none",
		Backoff(None), HerdRun{Attempts: 4, Accepted: 4, Peak: 1, MaxPerClient: 1, LastAccepted: 750 * ms, Arrivals: []int{1, 0, 1, 0, 0, 1, 0, 1}}},
	// Spread 1 ns over 4 clients: floor(i/4) = 0 for all, so all four attempts come at 0.
	{"spread shorter than the clients", "clients=4&spread=1ns&outage=0&capacity=0&jitter=none",
		Backoff(None), HerdRun{Attempts: 4, Accepted: 4, Peak: 4, MaxPerClient: 1, Arrivals: []int{4}}},
	// Attempts at 0 and 30 fail in the outage. At 60 client 0 takes the window's one place and
	// 1, 2 fail; at 90 the window is still full and 1, 2 have used their 4 attempts.
	{"capacity after the outage", "clients=3&jitter=none&factor=1&base=30ms&cap=30ms&outage=50ms&window=100ms&capacity=1&attempts=4",
		Backoff(None), HerdRun{Attempts: 11, Accepted: 1, GaveUp: 2, Peak: 11, MaxPerClient: 4, LastAccepted: 60 * ms, Arrivals: []int{11}}},
	// Immediate with a 10 ms call: 0, 10, 20 fail, 30 is accepted.
	{"immediate with calls", "clients=2&call=10ms&outage=25ms&attempts=6&capacity=0",
		Immediate, HerdRun{Attempts: 8, Accepted: 2, Peak: 8, MaxPerClient: 4, LastAccepted: 30 * ms, Arrivals: []int{8}}},
	// The peak's window slides. Starts floor(i*90ms/3) = 0, 30, 60; retries every 50 ms; one
	// attempt accepted per 100 ms window once the outage ends at 100:
	//   client 0: 0, 50 fail; 100 accepted ([100, 200) now full)
	//   client 1: 30, 80, 130, 180 fail; 230 fails ([200, 300) taken at 210); 280 fails; 330 accepted
	//   client 2: 60, 110, 160 fail; 210 accepted
	// Arrivals 0 30 50 60 80 | 100 110 130 160 180 | 210 230 280 | 330. The fixed windows hold
	// 5, 5, 3, 1, but [30, 130) holds 30 50 60 80 100 110: 6, first at 30.
	{"sliding peak", "clients=3&spread=90ms&jitter=none&factor=1&base=50ms&cap=50ms&outage=100ms&window=100ms&capacity=1&attempts=10",
		Backoff(None), HerdRun{Attempts: 14, Accepted: 3, Peak: 6, PeakAt: 30 * ms, MaxPerClient: 7, LastAccepted: 330 * ms, Arrivals: []int{5, 5, 3, 1}}},
}

func TestHerdByHand(t *testing.T) {
	for _, tt := range herdTests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustDecode(t, tt.query)
			got, err := p.HerdMode(tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.Mode = tt.mode
			want.GaveUp = p.Clients - want.Accepted
			want.MeanPerClient = float64(want.Attempts) / float64(p.Clients)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s\n got %+v\nwant %+v", tt.query, tt.mode, got, want)
			}
		})
	}
}

func TestHerdModes(t *testing.T) {
	var names []string
	for _, m := range HerdModes() {
		names = append(names, m.String())
	}
	if got := strings.Join(names, " "); got != "immediate none full equal decorrelated proportional" {
		t.Errorf("modes %s", got)
	}
	if j, ok := Backoff(Equal).Jitter(); !ok || j != Equal {
		t.Errorf("Backoff(Equal).Jitter() = %v, %v", j, ok)
	}
	if _, ok := Immediate.Jitter(); ok {
		t.Error("Immediate has a jitter")
	}
	runs, err := Default().Herd()
	if err != nil || len(runs) != 6 {
		t.Fatalf("Herd: %d runs, %v", len(runs), err)
	}
	for i, m := range HerdModes() {
		one, err := Default().HerdMode(m)
		if err != nil || !reflect.DeepEqual(one, runs[i]) {
			t.Errorf("HerdMode(%s) differs from Herd: %+v, %v", m, one, err)
		}
	}
	last := AllJitters()[len(AllJitters())-1]
	if _, err := Default().HerdMode(Backoff(last) + 1); err == nil {
		t.Error("HerdMode ran a mode that does not exist")
	}
	// Modes outside HerdModes run too.
	if run, err := Default().HerdMode(Backoff(last)); err != nil || run.Accepted+run.GaveUp != Default().Clients {
		t.Errorf("HerdMode(%s): %+v, %v", Backoff(last), run, err)
	}
}

// A policy's herd runs the classic modes, then its own mode when it is a library's: the herd
// always shows the policy itself.
func TestParamsHerdModes(t *testing.T) {
	for _, j := range AllJitters() {
		p := mustDecode(t, "clients=50&attempts=7&add=300ms&ratio=0.4&outage=800ms&capacity=10&spread=50ms&seed=4").WithJitter(j)
		want := HerdModes()
		if !slices.Contains(Jitters(), j) {
			want = append(want, Backoff(j))
		}
		if got := p.HerdModes(); !slices.Equal(got, want) {
			t.Errorf("%s: HerdModes %v, want %v", j, got, want)
		}
		runs, err := p.Herd()
		if err != nil || len(runs) != len(want) {
			t.Fatalf("%s: Herd: %d runs, %v", j, len(runs), err)
		}
		for i, m := range want {
			one, err := p.HerdMode(m)
			if err != nil || runs[i].Mode != m || !reflect.DeepEqual(one, runs[i]) {
				t.Errorf("%s: run %d is %s; HerdMode(%s) differs from Herd: %+v, %v", j, i, runs[i].Mode, m, one, err)
			}
		}
	}
	// The policy's own mode bounds the windows: additive jitter of a day outlasts the classic
	// modes, so its herd needs a longer window, where a policy with full jitter and the same add
	// has a herd that fits (and runs additive on its own only with HerdMode, which refuses it).
	p := mustDecode(t, "jitter=full&add=24h&attempts=4&clients=10&window=1s")
	if err := p.ValidateHerd(); err != nil {
		t.Fatalf("full jitter's herd: %v", err)
	}
	if _, err := p.HerdMode(Backoff(Additive)); err == nil {
		t.Error("HerdMode ran additive waits past the windows")
	}
	_, err := p.WithJitter(Additive).Herd()
	if fes := FieldErrors(err); len(fes) != 1 || fes[0].Key != "window" || !strings.Contains(err.Error(), "as late as 3 d: 259201 windows") {
		t.Errorf("additive jitter's herd: %v", err)
	}
}

// herdQueries are policies the properties are checked on; each runs with several seeds.
var herdQueries = []string{
	"clients=50&attempts=8&cap=2s",
	"clients=40&attempts=10&cap=1s&jitter=equal&call=15ms&outage=2s&capacity=5&window=50ms",
	"clients=30&attempts=12&base=10ms&cap=5s&budget=3s&outage=500ms&capacity=3",
	"clients=25&attempts=9&base=50ms&cap=400ms&capat=after&ratio=0.6&outage=300ms&window=20ms&capacity=2",
	"clients=60&attempts=6&spread=300ms&outage=400ms&capacity=10&call=5ms",
	"clients=20&attempts=15&base=1ms&factor=1.5&cap=80ms&outage=10ms&window=1ms&capacity=1&budget=200ms",
	"clients=10&attempts=30&base=3ns&factor=1.3&cap=7ns&outage=20ns&window=2ns&capacity=1",
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
func seenAttempts(t *testing.T, p Params, m HerdMode) (HerdRun, [][]time.Duration) {
	t.Helper()
	windows, err := p.herdWindows(m)
	if err != nil {
		t.Fatal(err)
	}
	times := make([][]time.Duration, p.Clients)
	lastAt, lastClient := time.Duration(-1), -1
	run, _ := p.herd(m, windows, &herdScratch{}, herdHooks{seen: func(client, attempt int, at time.Duration, accepted bool) {
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
			for _, m := range HerdModes()[1:] {
				j, _ := m.Jitter()
				rows := p.WithJitter(j).Schedule().Rows
				_, times := seenAttempts(t, p, m)
				for i, ts := range times {
					start := p.clientStart(i)
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
	for _, j := range []Jitter{Full, Equal, Decorrelated, Proportional, DecorrelatedV2} {
		p := mustDecode(t, "clients=20&attempts=8&cap=3s&outage=24h&seed=77&spread=1s&call=3ms")
		p.Jitter = j
		_, times := seenAttempts(t, p, Backoff(j))
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
			p.Outage = p.herdHorizon(Immediate) + 1
			runs, err := p.Herd()
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
			runs, err := p.Herd()
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

// TestHerdDefaults: with the defaults, un-jittered backoff gets 40 of 100 clients through (all
// fail at 0, 100, 300 and 700 ms; at 1.5 s and 3.1 s 20 of them get through), and every
// jittered mode most of them. The numbers are printed, not ranked.
func TestHerdDefaults(t *testing.T) {
	const seeds = 10
	sums := map[HerdMode]int{}
	for seed := 1; seed <= seeds; seed++ {
		p := Default()
		p.Seed = uint64(seed)
		runs, err := p.Herd()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			sums[r.Mode] += r.Accepted
			switch r.Mode {
			case Immediate:
				if r.Accepted != 0 || r.Peak != 600 {
					t.Errorf("seed %d: immediate %+v", seed, r)
				}
			case Backoff(None):
				if r.Accepted != 40 || r.LastAccepted != 3100*ms || r.Attempts != 580 {
					t.Errorf("seed %d: none %+v", seed, r)
				}
			default:
				if r.Accepted < 60 {
					t.Errorf("seed %d: %s got only %d of 100 through", seed, r.Mode, r.Accepted)
				}
			}
		}
	}
	for _, m := range HerdModes() {
		t.Logf("%-12s %5.1f of 100 clients through (mean of %d seeds)", m, float64(sums[m])/seeds, seeds)
	}
}

func TestHerdDeterministic(t *testing.T) {
	p := mustDecode(t, "clients=2000&attempts=10&spread=250ms&seed=9")
	a, _ := p.Herd()
	b, _ := p.Herd()
	if !reflect.DeepEqual(a, b) {
		t.Error("same inputs, different herds")
	}
	p.Seed = 10
	if c, _ := p.Herd(); reflect.DeepEqual(a[2], c[2]) {
		t.Error("another seed gave the same full-jitter herd")
	}
}

func TestValidateHerd(t *testing.T) {
	if err := Default().ValidateHerd(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for _, tt := range []struct {
		query string
		msg   string // "" when valid
	}{
		// With ratio 0 every mode's latest start of attempt 2 is base: 9999ms in 1ms windows
		// ends in window 9999, the 10000th.
		{"base=9999ms&cap=9999ms&attempts=2&ratio=0&window=1ms", ""},
		{"base=10000ms&cap=10000ms&attempts=2&ratio=0&window=1ms",
			`calc: window "1ms": the last attempt can come as late as 10 s: 10001 windows, over the limit of 10000; make the window at least 2ms`},
		// The last client starts at floor(99*1s/100) = 990ms.
		{"base=9009ms&cap=9009ms&attempts=2&ratio=0&window=1ms&spread=1s", ""},
		{"base=9010ms&cap=9010ms&attempts=2&ratio=0&window=1ms&spread=1s", "10001 windows"},
		// Proportional ±20% reaches 1.2*cap: 12s in 1ms windows.
		{"base=10s&cap=10s&attempts=2&ratio=0.2&window=1ms", "as late as 12 s: 12001 windows"},
		// 999 waits of up to 168h: no window up to 1h fits.
		{"base=1ms&cap=168h&attempts=1000&jitter=decorrelated", "lower attempts or cap, or set a budget"},
		// A budget of 1h bounds it: (1h-1ns)/100ms + 1 = 36000 windows; 500ms windows fit.
		{"base=1ms&cap=168h&attempts=1000&budget=1h", "36000 windows, over the limit of 10000; make the window at least 500ms"},
		{"base=1ms&cap=168h&attempts=1000&budget=1h&window=500ms", ""},
	} {
		p := mustDecode(t, tt.query)
		err := p.ValidateHerd()
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.query, err)
			}
			continue
		}
		fes := FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != "window" || !strings.Contains(fes[0].Error(), tt.msg) {
			t.Errorf("%s: %v, want an error on window with %q", tt.query, err, tt.msg)
		}
		if _, herr := p.Herd(); herr == nil || herr.Error() != err.Error() {
			t.Errorf("%s: Herd returned %v", tt.query, herr)
		}
		if _, herr := p.HerdMode(Immediate); herr == nil || herr.Error() != err.Error() {
			t.Errorf("%s: HerdMode returned %v", tt.query, herr)
		}
	}
	// Invalid params are reported, not simulated: a zero window must not divide by zero.
	if _, err := (Params{}).Herd(); len(FieldErrors(err)) == 0 {
		t.Errorf("Params{}.Herd(): %v", err)
	}
}

// TestHerdKeyBits: a window's key holds the time within the window above the client index.
func TestHerdKeyBits(t *testing.T) {
	if MaxClients > 1<<clientBits || MaxWindow > 1<<(64-clientBits) {
		t.Errorf("keys of %d bits cannot hold %d clients and windows of %v", clientBits, MaxClients, MaxWindow)
	}
}

func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var spare []uint64
	for _, n := range []int{0, 1, 2, 100, 511, 512, 513, 3000, 70000} {
		for _, spread := range []uint64{1, 1 << 17, 1 << 40, 1 << 59} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64N(spread)<<5 | uint64(i%7)
			}
			want := slices.Sorted(slices.Values(keys))
			spare = sortKeys(keys, spare)
			if !slices.Equal(keys, want) {
				t.Fatalf("n=%d spread=%d: not sorted", n, spread)
			}
		}
	}
}

// herdByHeap is the model written plainly: one heap of every client keyed by (time, index),
// the waits from Params.Wait, the peak from all arrival times. TestHerdAgainstHeap and FuzzHerd
// compare the calendar queue with it.
func herdByHeap(p Params, m HerdMode) (HerdRun, []int) {
	j, backoff := m.Jitter()
	q := p.WithJitter(j)
	rows := q.Schedule().Rows
	type client struct {
		r     *rand.Rand
		start time.Duration
		state float64
		made  int
	}
	clients := make([]client, p.Clients)
	h := &eventHeap{}
	for i := range clients {
		start := time.Duration(uint64(i) * uint64(p.Spread) / uint64(p.Clients))
		clients[i] = client{rand.New(rand.NewPCG(p.Seed, uint64(i))), start, q.FirstState(), 0}
		heap.Push(h, event{start, i})
	}
	run := HerdRun{Mode: m, LastAccepted: -1}
	var times []time.Duration
	taken := map[time.Duration]int{}
	for h.Len() > 0 {
		e := heap.Pop(h).(event)
		c := &clients[e.client]
		c.made++
		times = append(times, e.at)
		k := e.at / p.Window
		ok := e.at >= p.Outage && (p.Capacity == 0 || taken[k] < p.Capacity)
		if ok {
			taken[k]++
			run.Accepted++
			run.LastAccepted = e.at
			continue
		}
		if c.made == p.Attempts {
			run.GaveUp++
			continue
		}
		var w time.Duration
		state := c.state
		if backoff {
			u := 0.0
			// decorrelatedv2 draws even where the wait is fixed: the next wait depends on the draw.
			if rows[c.made].Min < rows[c.made].Max || q.Jitter == DecorrelatedV2 {
				u = c.r.Float64()
			}
			w, state = q.Wait(c.made, u, c.state)
		}
		next := e.at - c.start + p.Call + w
		if p.Budget > 0 && next >= p.Budget {
			run.GaveUp++
			continue
		}
		c.state = state
		heap.Push(h, event{c.start + next, e.client})
	}
	run.Attempts = len(times)
	run.Arrivals = make([]int, times[len(times)-1]/p.Window+1)
	for i, t := range times {
		run.Arrivals[t/p.Window]++
		n, _ := slices.BinarySearch(times, t+p.Window)
		if n-i > run.Peak {
			run.Peak, run.PeakAt = n-i, t
		}
	}
	made := make([]int, p.Clients)
	for i, c := range clients {
		made[i] = c.made
		run.MaxPerClient = max(run.MaxPerClient, c.made)
	}
	run.MeanPerClient = float64(run.Attempts) / float64(p.Clients)
	return run, made
}

type event struct {
	at     time.Duration
	client int
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].client < h[j].client
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
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
			for _, m := range HerdModes() {
				got, _ := p.HerdMode(m)
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
func checkHerd(t *testing.T, p Params, m HerdMode) {
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
	case r.Peak < 1 || r.Peak > r.Attempts || len(r.Arrivals) > MaxHerdWindows || r.Arrivals[len(r.Arrivals)-1] == 0:
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
	for _, tt := range decodeTests {
		f.Add(tt.query)
	}
	for _, q := range goldenQueries {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, _ := Decode(q)
		p.Clients, p.Attempts = min(p.Clients, 40), min(p.Attempts, 40) // fast, and still valid
		if err := p.ValidateHerd(); err != nil {
			if fes := FieldErrors(err); len(fes) != 1 || fes[0].Key != "window" {
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

// Pausing changes nothing in the result, and a pause that says stop ends the run.
func TestHerdModePausing(t *testing.T) {
	p := mustDecode(t, "clients=20000&attempts=6&jitter=full")
	for _, m := range HerdModes() {
		want, _ := p.HerdMode(m)
		pauses := 0
		got, done, err := p.HerdModePausing(m, func() bool { pauses++; return true })
		if err != nil || !done || !slices.Equal(got.Arrivals, want.Arrivals) || got.Attempts != want.Attempts ||
			got.Peak != want.Peak || got.LastAccepted != want.LastAccepted {
			t.Errorf("%s: paused run differs: %+v", m, got)
		}
		// A pause every PauseEvery attempts, and every PauseEvery clients started.
		if pauses != want.Attempts/PauseEvery+p.Clients/PauseEvery {
			t.Errorf("%s: %d pauses for %d attempts of %d clients", m, pauses, want.Attempts, p.Clients)
		}
	}
	stops := 0
	_, done, _ := p.HerdModePausing(Immediate, func() bool { stops++; return false })
	if done || stops != 1 {
		t.Errorf("a run told to stop: done %v after %d pauses", done, stops)
	}
}

// A first run of many clients grows its window buffers a slice at a time, pausing between, and
// gives the same result.
func TestHerdPreparePauses(t *testing.T) {
	p := mustDecode(t, "clients=20000&attempts=6&jitter=full")
	want, _ := p.HerdMode(Backoff(Full))
	herdScratches.get() // the next run starts from new buffers
	pauses := 0
	got, done, _ := p.HerdModePausing(Backoff(Full), func() bool { pauses++; return true })
	if !done || !slices.Equal(got.Arrivals, want.Arrivals) || got.Peak != want.Peak {
		t.Errorf("a run on new buffers differs: %+v", got)
	}
	growing := (p.Clients + PauseEvery - 1) / PauseEvery
	if wantPauses := want.Attempts/PauseEvery + p.Clients/PauseEvery + growing; pauses != wantPauses {
		t.Errorf("%d pauses on new buffers, want %d (%d while growing them)", pauses, wantPauses, growing)
	}
}
