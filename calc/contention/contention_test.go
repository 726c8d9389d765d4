package contention

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/policy"
)

// postSetup is the post's policy: base 5ms, cap 2s.
func postSetup() policy.Params {
	p := policy.Default()
	p.Base, p.Cap = 5*time.Millisecond, 2*time.Second
	return p
}

// allContentionModes are the simulator's five and the policy's with every jitter mode.
func allContentionModes() []Mode {
	ms := Modes()
	for _, j := range policy.AllJitters() {
		ms = append(ms, Policy(j))
	}
	return ms
}

// fixedHops is a network whose every hop takes 10ms.
var fixedHops = contentionNet{mean: float64(10 * time.Millisecond)}

// contentionLog runs one run of n clients on fixed hops and returns what the server saw, one
// line per message, with the run's calls and time.
func contentionLog(t *testing.T, p policy.Params, m Mode, n int) (log string, r Result) {
	t.Helper()
	e := newContention(p, fixedHops, nil)
	var lines []string
	e.seen = func(i int, write bool, at time.Duration, ok bool) {
		what := "read"
		if write {
			what = map[bool]string{true: "write ok", false: "write failed"}[ok]
		}
		lines = append(lines, fmt.Sprintf("%d %s at %v", i, what, at))
	}
	r, done := e.result(m, n, 1)
	if !done {
		t.Fatal("not done")
	}
	return strings.Join(lines, "\n"), r
}

// One client has nothing to contend with: a read and a write, four hops.
func TestContentionOneClient(t *testing.T) {
	for _, m := range allContentionModes() {
		log, r := contentionLog(t, postSetup(), m, 1)
		if want := "0 read at 10ms\n0 write ok at 30ms"; log != want {
			t.Errorf("%v: server saw\n%s\nwant\n%s", m, log, want)
		}
		if r.Calls.Mean != 1 || r.Time.Mean != 40e6 {
			t.Errorf("%v: %v calls, time %v, want 1 call at 40ms", m, r.Calls.Mean, time.Duration(r.Time.Mean))
		}
	}
	// On the post's network the time is four hops of |Normal(10ms, 2ms)|: 40ms ± 4ms.
	rs, err := Run(postSetup(), 1, 1000, Full)
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Calls != (RunSpread{Mean: 1, Min: 1, P50: 1, P90: 1, Max: 1}) {
		t.Errorf("calls of one client: %+v", r.Calls)
	}
	if se := r.Time.StdErr(r.Runs); math.Abs(r.Time.Mean-40e6) > 4*se || math.Abs(r.Time.SD-4e6) > 0.3e6 {
		t.Errorf("time of one client: mean %v (se %v), sd %v; want 40ms, sd 4ms", time.Duration(r.Time.Mean), time.Duration(se), time.Duration(r.Time.SD))
	}
}

// Two and three clients on 10ms hops, worked by hand. All read version 0 at 10ms and write at
// 30ms; the server takes client 0's write first (ties go by index) and fails the others, whose
// answers come back at 40ms: each waits its wait for failure 1, then reads again 10ms later.
func TestContentionFixedHops(t *testing.T) {
	tests := []struct {
		name  string
		p     policy.Params
		m     Mode
		n     int
		log   string
		calls float64
		time  time.Duration
	}{
		{"two, no backoff", postSetup(), None, 2,
			"0 read at 10ms\n1 read at 10ms\n0 write ok at 30ms\n1 write failed at 30ms\n1 read at 50ms\n1 write ok at 70ms", 3, 80 * time.Millisecond},
		// The simulator's first wait is 2 × base: 10ms.
		{"two, exponential", postSetup(), Exponential, 2,
			"0 read at 10ms\n1 read at 10ms\n0 write ok at 30ms\n1 write failed at 30ms\n1 read at 60ms\n1 write ok at 80ms", 3, 90 * time.Millisecond},
		// The calculator's first wait is base: 5ms.
		{"two, the policy without jitter", postSetup(), Policy(policy.None), 2,
			"0 read at 10ms\n1 read at 10ms\n0 write ok at 30ms\n1 write failed at 30ms\n1 read at 55ms\n1 write ok at 75ms", 3, 85 * time.Millisecond},
		// Without jitter the two that failed stay in step: they read together at 60ms and
		// collide again at 80ms; client 2 then waits 20ms.
		{"three, exponential", postSetup(), Exponential, 3,
			"0 read at 10ms\n1 read at 10ms\n2 read at 10ms\n0 write ok at 30ms\n1 write failed at 30ms\n2 write failed at 30ms\n" +
				"1 read at 60ms\n2 read at 60ms\n1 write ok at 80ms\n2 write failed at 80ms\n2 read at 120ms\n2 write ok at 140ms", 6, 150 * time.Millisecond},
		// A read that arrives after another's write sees it: client 1's write at 30ms comes
		// after client 0's, which changed the version, so it fails; its read at 50ms sees 1.
		{"two, no backoff, base 1ns", func() policy.Params { p := postSetup(); p.Base = 1; return p }(), None, 2,
			"0 read at 10ms\n1 read at 10ms\n0 write ok at 30ms\n1 write failed at 30ms\n1 read at 50ms\n1 write ok at 70ms", 3, 80 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log, r := contentionLog(t, tt.p, tt.m, tt.n)
			if log != tt.log {
				t.Errorf("server saw\n%s\nwant\n%s", log, tt.log)
			}
			if r.Calls.Mean != tt.calls || r.Time.Mean != float64(tt.time) {
				t.Errorf("%v calls, time %v; want %v, %v", r.Calls.Mean, time.Duration(r.Time.Mean), tt.calls, tt.time)
			}
		})
	}
	// With jitter the second client's wait is drawn: between 0 and 10ms for full jitter, 5 and
	// 10ms for equal, 5 and 15ms for decorrelated, so it is through between 80 and 95ms.
	for _, c := range []struct {
		m      Mode
		lo, hi time.Duration
	}{{Full, 80, 90}, {Equal, 85, 90}, {Decorrelated, 85, 95}} {
		e := newContention(postSetup(), fixedHops, nil)
		r, _ := e.result(c.m, 2, 200)
		if r.Calls.Mean != 3 || r.Time.Min < float64(c.lo*time.Millisecond) || r.Time.Max >= float64(c.hi*time.Millisecond) || r.Time.Max-r.Time.Min < 0.8*float64(c.hi-c.lo)*1e6 {
			t.Errorf("%v: %v calls, time in [%v, %v], want 3 in [%vms, %vms)", c.m, r.Calls.Mean,
				time.Duration(r.Time.Min), time.Duration(r.Time.Max), c.lo, c.hi)
		}
	}
}

// The waits after failure n, with the post's base 5ms and cap 2s.
func TestContentionWait(t *testing.T) {
	const ms = float64(time.Millisecond)
	almost1 := 1 - 0x1p-53
	tests := []struct {
		m         Mode
		n         int
		u, state  float64
		want      time.Duration
		wantState float64
	}{
		{None, 1, 0.5, 0, 0, 0},
		{None, 499, 0.5, 0, 0, 0},
		// The simulator's expo(n) = min(cap, 2^n × base): failure 1 waits 2 × base.
		{Exponential, 1, 0.5, 0, 10 * time.Millisecond, 0},
		{Exponential, 2, 0, 0, 20 * time.Millisecond, 0},
		{Exponential, 8, 0, 0, 1280 * time.Millisecond, 0},
		{Exponential, 9, 0, 0, 2 * time.Second, 0},    // 2560ms, capped
		{Exponential, 2000, 0, 0, 2 * time.Second, 0}, // 2^2000 overflows float64: still cap
		{Full, 1, 0, 0, 0, 0},
		{Full, 1, 0.5, 0, 5 * time.Millisecond, 0},
		{Full, 3, 0.25, 0, 10 * time.Millisecond, 0},
		{Full, 9, 0.5, 0, time.Second, 0},
		{Full, 1000, almost1, 0, 2 * time.Second, 0}, // rounds up to cap, never past it
		{Equal, 1, 0, 0, 5 * time.Millisecond, 0},
		{Equal, 1, 0.5, 0, 7500 * time.Microsecond, 0},
		{Equal, 9, 0.5, 0, 1500 * time.Millisecond, 0},
		{Equal, 1000, 0, 0, time.Second, 0},
		// sleep = min(cap, uniform(base, 3 × sleep)), from sleep = base: in [5ms, 15ms) first.
		{Decorrelated, 1, 0, 5 * ms, 5 * time.Millisecond, 5 * ms},
		{Decorrelated, 1, 0.5, 5 * ms, 10 * time.Millisecond, 10 * ms},
		{Decorrelated, 2, 0.5, 10 * ms, 17500 * time.Microsecond, 17.5 * ms},
		{Decorrelated, 7, 0.5, 1000 * ms, 1502500 * time.Microsecond, 1502.5 * ms},
		{Decorrelated, 8, 0.9, 1000 * ms, 2 * time.Second, 2000 * ms},
		{Decorrelated, 9, 0, 2000 * ms, 5 * time.Millisecond, 5 * ms},
		// The policy's retry k waits base × factor^(k−1): failure 1 waits base, not 2 × base.
		{Policy(policy.None), 1, 0.5, 0, 5 * time.Millisecond, 0},
		{Policy(policy.None), 2, 0.5, 0, 10 * time.Millisecond, 0},
		{Policy(policy.None), 10, 0.5, 0, 2 * time.Second, 0},
		{Policy(policy.Full), 1, 0.5, 0, 2500 * time.Microsecond, 0},
		{Policy(policy.Equal), 2, 0.5, 0, 7500 * time.Microsecond, 0},
		{Policy(policy.Decorrelated), 1, 0.5, 5 * ms, 10 * time.Millisecond, 10 * ms},
		{Policy(policy.Upward), 1, 0.5, 0, 5500 * time.Microsecond, 0}, // ratio 0.2
		{Policy(policy.FullMs), 1, 0.5, 0, 2 * time.Millisecond, 0},    // whole ms below 5ms
		{Policy(policy.Proportional), 1000, 0, 0, 1600 * time.Millisecond, 0},
	}
	for _, tt := range tests {
		got, state := Wait(postSetup(), tt.m, tt.n, tt.u, tt.state)
		if got != tt.want || state != tt.wantState {
			t.Errorf("%v after failure %d, u %v, state %v: %v (state %v), want %v (state %v)",
				tt.m, tt.n, tt.u, tt.state, got, state, tt.want, tt.wantState)
		}
	}
}

// The policy's waits in the simulation, read from a table of laws, are policy.Params.Wait's.
func TestContentionPolicyWaits(t *testing.T) {
	// The policies, as their links read (calc.Decode is the front's, above this package).
	policies := []struct {
		q   string
		set func(p *policy.Params)
	}{
		{"base=5ms&cap=2s", func(p *policy.Params) { p.Base, p.Cap = 5*time.Millisecond, 2*time.Second }},
		{"base=1ms&cap=1h&factor=3&capat=after&ratio=0.5", func(p *policy.Params) {
			p.Base, p.Cap, p.Factor, p.CapAt, p.Ratio = time.Millisecond, time.Hour, 3, policy.CapAfter, 0.5
		}},
		{"growth=linear&first=exact&add=7ms", func(p *policy.Params) { p.Growth, p.FirstExact, p.Add = policy.Linear, true, 7*time.Millisecond }},
		{"capat=fixed&base=1s&cap=20s", func(p *policy.Params) { p.CapAt, p.Base, p.Cap = policy.CapFixed, time.Second, 20*time.Second }},
		{"base=1ns&cap=1ns", func(p *policy.Params) { p.Base, p.Cap = 1, 1 }},
	}
	for _, c := range policies {
		q := c.q
		for _, j := range policy.AllJitters() {
			p := policy.Default()
			c.set(&p)
			p = p.WithJitter(j)
			m := Policy(j)
			e := newContention(p, postNet, nil)
			wait, start := e.waiter(m)
			var c contender
			c.rng.Seed(1, 2)
			c.state = start
			if start != first(p, m) {
				t.Errorf("%s %v: first state %v, want %v", q, j, start, first(p, m))
			}
			for n := 1; n < MaxContenders; n++ {
				c.failures = int32(n)
				r := c.rng // the draw the wait will make, if it makes one
				want, wantState := Wait(p, m, n, mathx.Unit(&r), c.state)
				if got := wait(&c); got != want || c.state != wantState {
					t.Fatalf("%s %v failure %d: %v (state %v), want %v (state %v)", q, j, n, got, c.state, want, wantState)
				}
			}
		}
	}
}

func TestContentionDeterministic(t *testing.T) {
	p := postSetup()
	modes := ModesOf(p)
	a, err := Run(p, 30, 20, modes...)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(p, 30, 20, modes...)
	if !slices.Equal(a, b) {
		t.Errorf("two runs differ:\n%+v\n%+v", a, b)
	}
	pauses := 0
	c, done, err := RunPausing(p, 30, 20, modes, func() bool { pauses++; return true })
	if !slices.Equal(a, c) || !done || err != nil || pauses == 0 {
		t.Errorf("pausing changed the result (%d pauses, done %v, %v):\n%+v\n%+v", pauses, done, err, a, c)
	}
	stopped, done, err := RunPausing(p, 30, 20, modes, func() bool { return false })
	if done || err != nil || len(stopped) != 0 {
		t.Errorf("stopped at the first pause: %d results, done %v, %v", len(stopped), done, err)
	}
	p.Seed++
	d, _ := Run(p, 30, 20, modes...)
	if slices.Equal(a, d) {
		t.Error("another seed gave the same results")
	}
	for _, r := range a {
		for _, s := range []RunSpread{r.Calls, r.Time} {
			if !(s.Min <= s.P50 && s.P50 <= s.P90 && s.P90 <= s.Max && s.Min <= s.Mean && s.Mean <= s.Max && s.SD >= 0) {
				t.Errorf("%v: spread out of order: %+v", r.Mode, s)
			}
		}
		if r.Calls.Min < 30 || r.Calls.Max > 30*30 {
			t.Errorf("%v: calls %+v outside [n, n²]", r.Mode, r.Calls)
		}
	}
}

// The sweep's points are Contention's at each n.
func TestContentionSweep(t *testing.T) {
	p := postSetup()
	modes := []Mode{Full, Policy(policy.DecorrelatedV2)}
	points, done, err := Sweep(p, 2, modes, nil)
	if err != nil || !done || len(points) != 20 {
		t.Fatalf("sweep: %d points, done %v, %v", len(points), done, err)
	}
	for i, pt := range points {
		if pt.Clients != 10*(i+1) {
			t.Errorf("point %d at %d clients", i, pt.Clients)
		}
		want, _ := Run(p, pt.Clients, 2, modes...)
		if !slices.Equal(pt.Results, want) {
			t.Errorf("point %d: %+v, want %+v", i, pt.Results, want)
		}
	}
	calls := 0
	part, done, err := Sweep(p, 2, modes, func() bool { calls++; return calls < 3 })
	if done || err != nil || len(part) == 0 || len(part) >= 20 {
		t.Errorf("stopped sweep: %d points, done %v, %v", len(part), done, err)
	}
}

func TestContentionErrors(t *testing.T) {
	p := postSetup()
	for _, tt := range []struct {
		n, runs int
		modes   []Mode
		want    string
	}{
		{0, 1, nil, `calc: contenders "0": must be between 1 and 500`},
		{501, 1, nil, `calc: contenders "501": must be between 1 and 500`},
		{1, 0, nil, `calc: runs "0": must be between 1 and 1000`},
		{1, 1001, nil, `calc: runs "1001": must be between 1 and 1000`},
		{1, 1, []Mode{Policy(policy.Jitter(len(policy.AllJitters())))}, "calc: no contention mode 17"},
	} {
		_, err := Run(p, tt.n, tt.runs, tt.modes...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Contention(%d, %d, %v): %v, want %q", tt.n, tt.runs, tt.modes, err, tt.want)
		}
	}
	if _, _, err := Sweep(p, 0, nil, nil); err == nil {
		t.Error("a sweep of 0 runs")
	}
}

func TestContentionModeNames(t *testing.T) {
	var names []string
	for _, m := range ModesOf(policy.Default().WithJitter(policy.Upward)) {
		names = append(names, m.String()+": "+m.Title())
	}
	want := "nobackoff: No backoff, exponential: Exponential backoff, fulljitter: Full jitter, equaljitter: Equal jitter, " +
		"decorrelatedjitter: Decorrelated jitter, policy-upward: This policy: Upward jitter"
	if got := strings.Join(names, ", "); got != want {
		t.Errorf("modes %s\nwant %s", got, want)
	}
	if s := Policy(policy.Jitter(len(policy.AllJitters()))).String(); s != "ContentionMode(17)" {
		t.Errorf("a mode that does not exist: %s", s)
	}
}

// normal is the standard normal: its mean, variance and the share below a few points are
// checked within 5 standard errors over a million draws.
func TestNormal(t *testing.T) {
	const n = 1000000
	r := rand.NewPCG(1, 2)
	var sum, sq float64
	cuts := []float64{-2, -1, 0, 0.5, 1, 3}
	below := make([]int, len(cuts))
	for range n {
		x := normal(r)
		sum += x
		sq += x * x
		for i, c := range cuts {
			if x < c {
				below[i]++
			}
		}
	}
	mean, variance := sum/n, sq/n-(sum/n)*(sum/n)
	if math.Abs(mean) > 5/math.Sqrt(n) || math.Abs(variance-1) > 5*math.Sqrt(2.0/n) {
		t.Errorf("mean %v, variance %v", mean, variance)
	}
	for i, c := range cuts {
		phi := 0.5 * math.Erfc(-c/math.Sqrt2)
		if got := float64(below[i]) / n; math.Abs(got-phi) > 5*math.Sqrt(phi*(1-phi)/n)+1e-9 {
			t.Errorf("share below %v: %v, want %v", c, got, phi)
		}
	}
}

// contentionGolden pins a small experiment's every figure, so that the page (wasm) and the
// native program must give the same bits: make test runs calc's tests under wasm too.
const contentionGolden = `nobackoff 54.2 1.7888543819998317 51 55 55 55 | 4.02810075e+08 3.0319940122721467e+07 3.49182998e+08 4.14831199e+08 4.20333316e+08 4.20333316e+08
exponential 54 2.23606797749979 50 55 55 55 | 4.2930859474e+09 1.505173283356723e+09 1.60056236e+09 4.964831199e+09 4.970333316e+09 4.970333316e+09
fulljitter 38.4 2.0736441353327724 36 38 41 41 | 4.576908474e+08 8.388337704851227e+07 3.21169182e+08 4.96429636e+08 5.3211059e+08 5.3211059e+08
equaljitter 42.8 1.4832396974191324 41 43 45 45 | 7.45108678e+08 6.833244946629256e+07 6.72174877e+08 7.26525775e+08 8.46021075e+08 8.46021075e+08
decorrelatedjitter 38.4 1.5165750888103102 37 38 41 41 | 4.249395474e+08 5.701671828770789e+07 3.59090435e+08 4.38602276e+08 5.05507289e+08 5.05507289e+08
policy-decorrelatedv2 42.6 2.073644135332772 41 42 46 46 | 4.193512602e+08 8.563493976517403e+07 3.2004506e+08 4.37590867e+08 5.13244362e+08 5.13244362e+08
`

func TestContentionGolden(t *testing.T) {
	p := postSetup().WithJitter(policy.DecorrelatedV2)
	rs, err := Run(p, 10, 5, ModesOf(p)...)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rs {
		c, m := r.Calls, r.Time
		fmt.Fprintln(&b, r.Mode, c.Mean, c.SD, c.Min, c.P50, c.P90, c.Max, "|", m.Mean, m.SD, m.Min, m.P50, m.P90, m.Max)
	}
	if b.String() != contentionGolden {
		t.Errorf("got\n%s\nwant\n%s", b.String(), contentionGolden)
	}
}
