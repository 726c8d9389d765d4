package sim

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// herdTests are worked by hand. Arrivals are per window of the query's window (100ms unless
// given); last is -1 when no client got through. PeakDown and PeakBack count each window's
// attempts before the outage's end and the others apart (the window the outage ends in on both
// sides); a time of -1 says that no attempt came on that side.
var herdTests = []struct {
	name  string
	query string
	mode  calc.HerdMode
	want  HerdRun // Mode, MeanPerClient are filled in by the test
}{
	// Every client attempts at 0, 20, ..., 680 ms, all before the outage ends, and at 700 ms,
	// which is accepted: 36 attempts each, 144 in all. A window [t, t+200ms) starting at an
	// arrival holds 10 arrival times of 4 attempts: 40, first at 0. Windows of 200 ms hold
	// 10, 10, 10 and 6 (600..700) arrival times. The outage ends inside [600, 800): its 20
	// attempts at 600..680 count while down, its 4 at 700 once back (from 700).
	{"issue: four clients, 20ms", "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=0&outage=700ms&window=200ms&capacity=0&attempts=100",
		calc.Backoff(policy.None), HerdRun{Attempts: 144, Accepted: 4, Peak: 40, MaxPerClient: 36, LastAccepted: 700 * ms, Arrivals: []int{40, 40, 40, 24},
			PeakDown: 40, PeakBack: 4, PeakBackAt: 700 * ms}},
	// Decorrelated jitter with base == cap waits min(cap, base + u*(3*prev - base)) = cap: the same.
	{"issue: four clients, decorrelated at its cap", "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=0&outage=700ms&window=200ms&capacity=0&attempts=100",
		calc.Backoff(policy.Decorrelated), HerdRun{Attempts: 144, Accepted: 4, Peak: 40, MaxPerClient: 36, LastAccepted: 700 * ms, Arrivals: []int{40, 40, 40, 24},
			PeakDown: 40, PeakBack: 4, PeakBackAt: 700 * ms}},
	// With a 25 ms call, attempt n starts at 45(n-1) ms: 0..675 fail (16 attempts), 720 is
	// accepted: 17 each, 68 in all. A 200 ms window holds at most 5 arrival times (0..180): 20.
	// Windows hold 0,45,90,135,180 | 225,270,315,360 | 405,450,495,540,585 | 630,675,720.
	{"issue: four clients, 25ms calls", "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=25ms&outage=700ms&window=200ms&capacity=0&attempts=100",
		calc.Backoff(policy.None), HerdRun{Attempts: 68, Accepted: 4, Peak: 20, MaxPerClient: 17, LastAccepted: 720 * ms, Arrivals: []int{20, 16, 20, 12},
			PeakDown: 20, PeakBack: 4, PeakBackAt: 700 * ms}},
	// Immediate retries with no call: all 6 attempts of all 100 clients at 0, inside the outage.
	{"issue: immediate at zero", "jitter=none&call=0&attempts=6",
		calc.Immediate, HerdRun{Attempts: 600, GaveUp: 100, Peak: 600, MaxPerClient: 6, LastAccepted: -1, Arrivals: []int{600},
			PeakDown: 600, PeakBackAt: -1}},
	// At 0: clients 0, 1 accepted, 2..5 fail. At 50: window [0, 100) is full, 2..5 fail. At 100:
	// 2, 3 accepted, 4, 5 fail; at 150 they fail again; at 200 they are accepted. 6+4+4+2+2 = 18;
	// [0, 100) holds 6+4 = 10; clients 4 and 5 make 5 attempts each.
	{"issue: capacity 2", "clients=6&jitter=none&factor=1&base=50ms&cap=50ms&outage=0&window=100ms&capacity=2&attempts=100",
		calc.Backoff(policy.None), HerdRun{Attempts: 18, Accepted: 6, Peak: 10, MaxPerClient: 5, LastAccepted: 200 * ms, Arrivals: []int{10, 6, 2},
			PeakDownAt: -1, PeakBack: 10}},
	// Attempts at 0, 100, 200 fail in the outage; 300 would reach the 250 ms budget.
	{"budget", "clients=2&jitter=none&factor=1&base=100ms&cap=100ms&budget=250ms&outage=1s",
		calc.Backoff(policy.None), HerdRun{Attempts: 6, GaveUp: 2, Peak: 2, MaxPerClient: 3, LastAccepted: -1, Arrivals: []int{2, 2, 2},
			PeakDown: 2, PeakBackAt: -1}},
	// Starts at floor(i*1s/4): 0, 250, 500, 750 ms, each accepted at once, in windows 0, 2, 5, 7.
	{"spread", "clients=4&spread=1s&outage=0&capacity=0&jitter=none",
		calc.Backoff(policy.None), HerdRun{Attempts: 4, Accepted: 4, Peak: 1, MaxPerClient: 1, LastAccepted: 750 * ms, Arrivals: []int{1, 0, 1, 0, 0, 1, 0, 1},
			PeakDownAt: -1, PeakBack: 1}},
	// Spread 1 ns over 4 clients: floor(i/4) = 0 for all, so all four attempts come at 0.
	{"spread shorter than the clients", "clients=4&spread=1ns&outage=0&capacity=0&jitter=none",
		calc.Backoff(policy.None), HerdRun{Attempts: 4, Accepted: 4, Peak: 4, MaxPerClient: 1, Arrivals: []int{4},
			PeakDownAt: -1, PeakBack: 4}},
	// Attempts at 0 and 30 fail in the outage. At 60 client 0 takes the window's one place and
	// 1, 2 fail; at 90 the window is still full and 1, 2 have used their 4 attempts. Of [0, 100)'s
	// 11, the 6 at 0 and 30 came while down, the 5 at 60 and 90 once back (from 50).
	{"capacity after the outage", "clients=3&jitter=none&factor=1&base=30ms&cap=30ms&outage=50ms&window=100ms&capacity=1&attempts=4",
		calc.Backoff(policy.None), HerdRun{Attempts: 11, Accepted: 1, GaveUp: 2, Peak: 11, MaxPerClient: 4, LastAccepted: 60 * ms, Arrivals: []int{11},
			PeakDown: 6, PeakBack: 5, PeakBackAt: 50 * ms}},
	// Immediate with a 10 ms call: 0, 10, 20 fail, 30 is accepted.
	{"immediate with calls", "clients=2&call=10ms&outage=25ms&attempts=6&capacity=0",
		calc.Immediate, HerdRun{Attempts: 8, Accepted: 2, Peak: 8, MaxPerClient: 4, LastAccepted: 30 * ms, Arrivals: []int{8},
			PeakDown: 6, PeakBack: 2, PeakBackAt: 25 * ms}},
	// The peak's window slides. Starts floor(i*90ms/3) = 0, 30, 60; retries every 50 ms; one
	// attempt accepted per 100 ms window once the outage ends at 100:
	//   client 0: 0, 50 fail; 100 accepted ([100, 200) now full)
	//   client 1: 30, 80, 130, 180 fail; 230 fails ([200, 300) taken at 210); 280 fails; 330 accepted
	//   client 2: 60, 110, 160 fail; 210 accepted
	// Arrivals 0 30 50 60 80 | 100 110 130 160 180 | 210 230 280 | 330. The fixed windows hold
	// 5, 5, 3, 1, but [30, 130) holds 30 50 60 80 100 110: 6, first at 30.
	{"sliding peak", "clients=3&spread=90ms&jitter=none&factor=1&base=50ms&cap=50ms&outage=100ms&window=100ms&capacity=1&attempts=10",
		calc.Backoff(policy.None), HerdRun{Attempts: 14, Accepted: 3, Peak: 6, PeakAt: 30 * ms, MaxPerClient: 7, LastAccepted: 330 * ms, Arrivals: []int{5, 5, 3, 1},
			PeakDown: 5, PeakBack: 5, PeakBackAt: 100 * ms}},
}

func TestHerdByHand(t *testing.T) {
	for _, tt := range herdTests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustDecode(t, tt.query)
			got, err := HerdMode(p, tt.mode)
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
	for _, m := range calc.HerdModes() {
		names = append(names, m.String())
	}
	if got := strings.Join(names, " "); got != "immediate none full equal decorrelated proportional" {
		t.Errorf("modes %s", got)
	}
	if j, ok := calc.Backoff(policy.Equal).Jitter(); !ok || j != policy.Equal {
		t.Errorf("Backoff(Equal).Jitter() = %v, %v", j, ok)
	}
	if _, ok := calc.Immediate.Jitter(); ok {
		t.Error("Immediate has a jitter")
	}
	runs, err := Herd(calc.Default())
	if err != nil || len(runs) != 6 {
		t.Fatalf("Herd: %d runs, %v", len(runs), err)
	}
	for i, m := range calc.HerdModes() {
		one, err := HerdMode(calc.Default(), m)
		if err != nil || !reflect.DeepEqual(one, runs[i]) {
			t.Errorf("HerdMode(%s) differs from Herd: %+v, %v", m, one, err)
		}
	}
	last := policy.AllJitters()[len(policy.AllJitters())-1]
	if _, err := HerdMode(calc.Default(), calc.Backoff(last)+1); err == nil {
		t.Error("HerdMode ran a mode that does not exist")
	}
	// Modes outside HerdModes run too.
	if run, err := HerdMode(calc.Default(), calc.Backoff(last)); err != nil || run.Accepted+run.GaveUp != calc.Default().Clients {
		t.Errorf("HerdMode(%s): %+v, %v", calc.Backoff(last), run, err)
	}
}

// A policy's herd runs the classic modes, then its own mode when it is a library's: the herd
// always shows the policy itself.
func TestParamsHerdModes(t *testing.T) {
	for _, j := range policy.AllJitters() {
		p := mustDecode(t, "clients=50&attempts=7&add=300ms&ratio=0.4&outage=800ms&capacity=10&spread=50ms&seed=4").WithJitter(j)
		want := calc.HerdModes()
		if !slices.Contains(policy.Jitters(), j) {
			want = append(want, calc.Backoff(j))
		}
		if got := p.HerdModes(); !slices.Equal(got, want) {
			t.Errorf("%s: HerdModes %v, want %v", j, got, want)
		}
		runs, err := Herd(p)
		if err != nil || len(runs) != len(want) {
			t.Fatalf("%s: Herd: %d runs, %v", j, len(runs), err)
		}
		for i, m := range want {
			one, err := HerdMode(p, m)
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
	if _, err := HerdMode(p, calc.Backoff(policy.Additive)); err == nil {
		t.Error("HerdMode ran additive waits past the windows")
	}
	_, err := Herd(p.WithJitter(policy.Additive))
	if fes := policy.FieldErrors(err); len(fes) != 1 || fes[0].Key != "window" || !strings.Contains(err.Error(), "as late as 3 d: 259201 windows") {
		t.Errorf("additive jitter's herd: %v", err)
	}
}

// TestHerdDefaults: with the defaults, un-jittered backoff gets 40 of 100 clients through (all
// fail at 0, 100, 300 and 700 ms; at 1.5 s and 3.1 s 20 of them get through), and every
// jittered mode most of them. The numbers are printed, not ranked.
func TestHerdDefaults(t *testing.T) {
	const seeds = 10
	sums := map[calc.HerdMode]int{}
	for seed := 1; seed <= seeds; seed++ {
		p := calc.Default()
		p.Seed = uint64(seed)
		runs, err := Herd(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			sums[r.Mode] += r.Accepted
			switch r.Mode {
			case calc.Immediate:
				if r.Accepted != 0 || r.Peak != 600 {
					t.Errorf("seed %d: immediate %+v", seed, r)
				}
			case calc.Backoff(policy.None):
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
	for _, m := range calc.HerdModes() {
		t.Logf("%-12s %5.1f of 100 clients through (mean of %d seeds)", m, float64(sums[m])/seeds, seeds)
	}
}

func TestHerdDeterministic(t *testing.T) {
	p := mustDecode(t, "clients=2000&attempts=10&spread=250ms&seed=9")
	a, _ := Herd(p)
	b, _ := Herd(p)
	if !reflect.DeepEqual(a, b) {
		t.Error("same inputs, different herds")
	}
	p.Seed = 10
	if c, _ := Herd(p); reflect.DeepEqual(a[2], c[2]) {
		t.Error("another seed gave the same full-jitter herd")
	}
}

// Pausing changes nothing in the result, and a pause that says stop ends the run.
func TestHerdModePausing(t *testing.T) {
	p := mustDecode(t, "clients=20000&attempts=6&jitter=full")
	for _, m := range calc.HerdModes() {
		want, _ := HerdMode(p, m)
		pauses := 0
		got, done, err := HerdModePausing(p, m, func() bool { pauses++; return true })
		if err != nil || !done || !slices.Equal(got.Arrivals, want.Arrivals) || got.Attempts != want.Attempts ||
			got.Peak != want.Peak || got.LastAccepted != want.LastAccepted {
			t.Errorf("%s: paused run differs: %+v", m, got)
		}
		// A pause every PauseEvery attempts, and every PauseEvery clients started.
		if pauses != want.Attempts/policy.PauseEvery+p.Clients/policy.PauseEvery {
			t.Errorf("%s: %d pauses for %d attempts of %d clients", m, pauses, want.Attempts, p.Clients)
		}
	}
	stops := 0
	_, done, _ := HerdModePausing(p, calc.Immediate, func() bool { stops++; return false })
	if done || stops != 1 {
		t.Errorf("a run told to stop: done %v after %d pauses", done, stops)
	}
}

// TestHerdPeakDownAndBack: the link (1,000 clients, a 2s outage, 50 per 100ms once
// back). Without jitter every client makes attempt k at the same time: 0, 100, 300, 700 and
// 1500ms (waits of 100ms doubling, no call), all in the outage, then 3100ms, in window 31, the
// first after it: 1,000 attempts in one window on each side, so both peaks are exactly the
// clients. With full jitter the peaks are counted again from each client's attempt times.
// Moving the outage's end into a window (2.05s) splits that window between the two.
func TestHerdPeakDownAndBack(t *testing.T) {
	p := mustDecode(t, "clients=1000&outage=2s&capacity=50")
	none, err := HerdMode(p, calc.Backoff(policy.None))
	if err != nil {
		t.Fatal(err)
	}
	if none.PeakDown != 1000 || none.PeakDownAt != 0 || none.PeakBack != 1000 || none.PeakBackAt != 3100*ms {
		t.Errorf("none: while down %d at %v, once back %d at %v; want 1000 at 0s, 1000 at 3.1s",
			none.PeakDown, none.PeakDownAt, none.PeakBack, none.PeakBackAt)
	}
	imm, _ := HerdMode(p, calc.Immediate) // all 6,000 attempts at 0: none once back
	if imm.PeakDown != 6000 || imm.PeakDownAt != 0 || imm.PeakBack != 0 || imm.PeakBackAt != -1 {
		t.Errorf("immediate: while down %d at %v, once back %d at %v", imm.PeakDown, imm.PeakDownAt, imm.PeakBack, imm.PeakBackAt)
	}
	for _, outage := range []time.Duration{2 * time.Second, 2050 * ms} {
		p.Outage = outage
		run, times := seenAttempts(t, p, calc.Backoff(policy.Full))
		down, back := map[time.Duration]int{}, map[time.Duration]int{} // by window start
		for _, ts := range times {
			for _, at := range ts {
				if start := at / p.Window * p.Window; at < outage {
					down[start]++
				} else {
					back[start]++
				}
			}
		}
		most := func(m map[time.Duration]int, from func(time.Duration) time.Duration) (int, time.Duration) {
			n, at := 0, time.Duration(-1)
			for start, c := range m {
				if c > n || c == n && from(start) < at {
					n, at = c, from(start)
				}
			}
			return n, at
		}
		dn, dAt := most(down, func(s time.Duration) time.Duration { return s })
		bn, bAt := most(back, func(s time.Duration) time.Duration { return max(s, outage) })
		if run.PeakDown != dn || run.PeakDownAt != dAt || run.PeakBack != bn || run.PeakBackAt != bAt {
			t.Errorf("outage %v, full: while down %d at %v, once back %d at %v; counted %d at %v, %d at %v",
				outage, run.PeakDown, run.PeakDownAt, run.PeakBack, run.PeakBackAt, dn, dAt, bn, bAt)
		}
		if outage == 2*time.Second && (dn != 2275 || dAt != 0 || bn != 60 || bAt != 2*time.Second) {
			t.Errorf("full: counted %d at %v while down, %d at %v once back; the issue saw 2275 at 0, 60 at 2s", dn, dAt, bn, bAt)
		}
		if split := down[2*time.Second] + back[2*time.Second]; outage == 2050*ms && (down[2*time.Second] == 0 || split != run.Arrivals[20]) {
			t.Errorf("outage 2.05s: window [2s, 2.1s) holds %d, %d down and %d back", run.Arrivals[20], down[2*time.Second], back[2*time.Second])
		}
	}
}
