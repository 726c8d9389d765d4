package policy_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// scheduleTests are worked by hand: bounds of the waits before attempts 2.., totals in ms.
var scheduleTests = []struct {
	name                  string
	query                 string
	min, max              []time.Duration // per retry
	mean                  []float64       // per retry, ms
	best, expected, worst float64         // ms
}{
	{"full", "base=100ms&factor=2&cap=1s&attempts=6&jitter=full",
		[]time.Duration{0, 0, 0, 0, 0}, []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1000 * ms},
		[]float64{50, 100, 200, 400, 500}, 0, 1250, 2500},
	{"equal", "base=100ms&factor=2&cap=1s&attempts=6&jitter=equal",
		[]time.Duration{50 * ms, 100 * ms, 200 * ms, 400 * ms, 500 * ms}, []time.Duration{100 * ms, 200 * ms, 400 * ms, 800 * ms, 1000 * ms},
		[]float64{75, 150, 300, 600, 750}, 1250, 1875, 2500},
	{"none", "base=100ms&factor=2&cap=400ms&attempts=4&jitter=none",
		[]time.Duration{100 * ms, 200 * ms, 400 * ms}, []time.Duration{100 * ms, 200 * ms, 400 * ms},
		[]float64{100, 200, 400}, 700, 700, 700},
	// Decorrelated: [100,300], [100,900], then [100,1000]; means 200, 350 exactly (3^2*100 <= 1000).
	{"decorrelated", "base=100ms&factor=2&cap=1s&attempts=6&jitter=decorrelated",
		[]time.Duration{100 * ms, 100 * ms, 100 * ms, 100 * ms, 100 * ms}, []time.Duration{300 * ms, 900 * ms, 1000 * ms, 1000 * ms, 1000 * ms},
		[]float64{200, 350, math.NaN(), math.NaN(), math.NaN()}, 500, math.NaN(), 4200},
	// Proportional ±20% on 1 s x1.6: retry 2 is 1.6 s, in [1280, 1920] ms.
	{"proportional", "base=1s&factor=1.6&cap=120s&attempts=3&jitter=proportional&ratio=0.2",
		[]time.Duration{800 * ms, 1280 * ms}, []time.Duration{1200 * ms, 1920 * ms},
		[]float64{1000, 1600}, 2080, 2600, 3120},
	// Cap before jitter lets proportional exceed the cap: 1 s ±50% reaches 1.5 s.
	{"proportional over cap", "base=1s&factor=2&cap=1s&attempts=2&jitter=proportional&ratio=0.5",
		[]time.Duration{500 * ms}, []time.Duration{1500 * ms}, []float64{1000}, 500, 1000, 1500},
	// Cap after jitter clamps it: uniform on [500, 1500] clamped at 1000 has mean
	// 1000 - 500^2/(2*1000) = 875.
	{"proportional clamped", "base=1s&factor=2&cap=1s&attempts=2&jitter=proportional&ratio=0.5&capat=after",
		[]time.Duration{500 * ms}, []time.Duration{1000 * ms}, []float64{875}, 500, 875, 1000},
	// Full jitter clamped after: raw 4 s, cap 1 s: mean = 1000 - 1000^2/(2*4000) = 875.
	{"full clamped", "base=4s&factor=2&cap=4s&attempts=2&jitter=full&capat=after",
		[]time.Duration{0}, []time.Duration{4000 * ms}, []float64{2000}, 0, 2000, 4000},
	{"equal clamped", "base=1s&factor=4&cap=3s&attempts=3&jitter=equal&capat=after",
		// retry 2: raw 4 s, uniform [2, 4] clamped at 3: mean 3 - 1^2/(2*2) = 2.75 s.
		[]time.Duration{500 * ms, 2000 * ms}, []time.Duration{1000 * ms, 3000 * ms}, []float64{750, 2750}, 2500, 3500, 4000},
	// Polly's jitter from 2 s: [0, (g(k) - g(k-2))/1.4 × 2 s] in whole 100 ns ticks, g(t) =
	// 2^t·tanh(√(4t)), g(0) = 0 (see TestPollyV2ByHand); its means are a quadrature's. The
	// total is not the sum of these ranges: it runs from g(2) to g(3), × 2 s / 1.4 (see
	// TestPollyV2SumsByHand).
	{"decorrelatedv2", "base=2s&cap=168h&attempts=4&jitter=decorrelatedv2",
		[]time.Duration{0, 0, 0}, []time.Duration{2754364500, 5674499100, 8651834300},
		[]float64{math.NaN(), math.NaN(), math.NaN()}, 5674.4989, math.NaN(), 11406.1988},
	// An exact first retry, then equal jitter on the same 1 s (factor 1): retry 1 waits exactly
	// 1 s, every later one [0.5, 1] s with mean 0.75 s. The law of retry 1 is not the others'
	// though their nominal delays are equal.
	{"exact first, factor 1", "base=1s&factor=1&cap=30s&attempts=4&jitter=equal&first=exact",
		[]time.Duration{1000 * ms, 500 * ms, 500 * ms}, []time.Duration{1000 * ms, 1000 * ms, 1000 * ms},
		[]float64{1000, 750, 750}, 2000, 2500, 3000},
	// Full jitter past the cap after an exact first retry: 100 ms, then [0, 100 ms] twice.
	{"exact first, past the cap", "base=100ms&factor=2&cap=100ms&attempts=4&jitter=full&first=exact",
		[]time.Duration{100 * ms, 0, 0}, []time.Duration{100 * ms, 100 * ms, 100 * ms},
		[]float64{100, 50, 50}, 100, 200, 300},
	// Rounding to the nanosecond, ties away from zero: equal jitter on 3 ns waits [2, 3].
	{"ties away from zero", "base=3ns&cap=3ns&factor=1&attempts=2&jitter=equal",
		[]time.Duration{2}, []time.Duration{3}, []float64{2.25e-6}, 2e-6, 2.25e-6, 3e-6},
}

func TestSchedule(t *testing.T) {
	for _, tt := range scheduleTests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustDecode(t, tt.query)
			s := p.Schedule()
			if len(s.Rows) != p.Attempts {
				t.Fatalf("%d rows for %d attempts", len(s.Rows), p.Attempts)
			}
			if r := s.Rows[0]; r.Attempt != 1 || r.Retry != 0 || r.Max != 0 || r.Earliest != 0 || r.Latest != 0 {
				t.Errorf("first attempt %+v", r)
			}
			for k, r := range s.Rows[1:] {
				if r.Min != tt.min[k] || r.Max != tt.max[k] {
					t.Errorf("retry %d: [%v, %v], want [%v, %v]", k+1, r.Min, r.Max, tt.min[k], tt.max[k])
				}
				if !math.IsNaN(tt.mean[k]) && !near(r.Mean/1e6, tt.mean[k], 1e-12) {
					t.Errorf("retry %d: mean %v ms, want %v", k+1, r.Mean/1e6, tt.mean[k])
				}
			}
			if !near(float64(s.Total.Min)/1e6, tt.best, 0) || !near(float64(s.Total.Max)/1e6, tt.worst, 0) {
				t.Errorf("totals [%v, %v], want [%v, %v] ms", s.Total.Min, s.Total.Max, tt.best, tt.worst)
			}
			if !math.IsNaN(tt.expected) && !near(s.Total.Mean/1e6, tt.expected, 1e-12) {
				t.Errorf("expected total %v ms, want %v", s.Total.Mean/1e6, tt.expected)
			}
		})
	}
}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestStarts(t *testing.T) {
	// Attempts start at 0, 100, 300, 700 ms.
	s := mustDecode(t, "base=100ms&factor=2&cap=400ms&attempts=4&jitter=none").Schedule()
	for i, want := range []time.Duration{0, 100 * ms, 300 * ms, 700 * ms} {
		if r := s.Rows[i]; r.Earliest != want || r.Latest != want {
			t.Errorf("attempt %d starts in [%v, %v], want %v", i+1, r.Earliest, r.Latest, want)
		}
	}
	// A call of 25 ms before each wait: 0, 125, 350.
	s = mustDecode(t, "base=100ms&factor=2&cap=400ms&attempts=3&jitter=none&call=25ms").Schedule()
	if s.Rows[1].Earliest != 125*ms || s.Rows[2].Latest != 350*ms {
		t.Errorf("starts with call: %+v", s.Rows)
	}
}

func TestBudget(t *testing.T) {
	// Attempt 4 starts at exactly 2.1 ms: a start equal to the budget is out.
	s := mustDecode(t, "base=0.7&factor=1&cap=0.7&jitter=none&budget=2.1").Schedule()
	want := []policy.BudgetStatus{policy.Always, policy.Always, policy.Always, policy.Never, policy.Never, policy.Never}
	for i, r := range s.Rows {
		if r.Budget != want[i] {
			t.Errorf("attempt %d (start %v): %v, want %v", i+1, r.Earliest, r.Budget, want[i])
		}
	}
	if s.Rows[3].Earliest != 2100*time.Microsecond || s.Always != 3 || s.AtMost != 3 {
		t.Errorf("attempt 4 at %v; always %d, at most %d", s.Rows[3].Earliest, s.Always, s.AtMost)
	}
	// Full jitter, budget 1 s: latest starts 0, .1, .3, .7, 1.5, 2.5 s; earliest all 0.
	s = mustDecode(t, "base=100ms&factor=2&cap=1s&attempts=6&budget=1s").Schedule()
	want = []policy.BudgetStatus{policy.Always, policy.Always, policy.Always, policy.Always, policy.Sometimes, policy.Sometimes}
	for i, r := range s.Rows {
		if r.Budget != want[i] {
			t.Errorf("full, attempt %d: %v, want %v", i+1, r.Budget, want[i])
		}
	}
	if s.Always != 4 || s.AtMost != 6 {
		t.Errorf("always %d, at most %d", s.Always, s.AtMost)
	}
	// Without a budget every attempt counts.
	if s := calc.Default().Schedule(); s.Always != 6 || s.AtMost != 6 || s.Rows[2].Budget != policy.NoBudget {
		t.Errorf("no budget: %+v", s)
	}
}

func TestWaitWithFixedDraw(t *testing.T) {
	p := mustDecode(t, "base=100ms&factor=2&cap=1s&jitter=full")
	a, s := p.Wait(1, 0.5, 7)
	b, _ := p.Wait(2, 0.5, 7)
	if a != 50*ms || b != 100*ms || s != 7 {
		t.Errorf("u=0.5: %v then %v (state %v), want 50ms then 100ms (state 7)", a, b, s)
	}
	p.Cap = 250 * ms
	if w, _ := p.Wait(3, 0.5, 0); w != 125*ms {
		t.Errorf("cap 250ms, before the fourth attempt: %v, want 125ms", w)
	}
	d := mustDecode(t, "base=100ms&cap=1s&jitter=decorrelated")
	if d.FirstState() != 1e8 {
		t.Errorf("decorrelated starts from %v, want base", d.FirstState())
	}
	for _, c := range []struct {
		u          float64
		prev, want time.Duration
	}{{0, 300 * ms, 100 * ms}, {0.5, 300 * ms, 500 * ms}, {0.999, 900 * ms, 1000 * ms}} {
		if got, next := d.Wait(3, c.u, float64(c.prev)); got != c.want || next != float64(c.want) {
			t.Errorf("decorrelated u=%v prev=%v: %v (state %v), want %v", c.u, c.prev, got, next, c.want)
		}
	}
}

// TestSaturation: factor 100 over 999 retries overflows float64 and int64 many times over.
func TestSaturation(t *testing.T) {
	for _, capat := range []string{"before", "after"} {
		for _, j := range policy.JitterNames() {
			p := mustDecode(t, "factor=100&attempts=1000&cap=168h&ratio=1&capat="+capat+"&jitter="+j)
			s := p.Schedule()
			last := s.Rows[len(s.Rows)-1]
			nominal := p.Cap
			if p.Jitter.FromPrevious() {
				nominal = 0 // none (TestChainModesHaveNoNominal)
			}
			if last.Nominal != nominal || last.Max > 2*p.Cap || last.Max < p.Cap/2 || math.IsNaN(last.Mean) || math.IsInf(last.Mean, 0) || last.Latest <= 0 {
				t.Errorf("%s/%s: last row %+v", capat, j, last)
			}
			if math.IsNaN(s.Total.Mean) || s.Total.Max <= 0 || s.Total.Max < s.Rows[len(s.Rows)-2].Latest {
				t.Errorf("%s/%s: totals %+v", capat, j, s.Total)
			}
			// A mode of whole steps takes the nominal delay as capped, and Sidekiq's adds to it.
			if capat == "after" && s.ExceedsCap && !p.Jitter.HasStep() {
				t.Errorf("%s/%s: a clamped wait exceeds cap", capat, j)
			}
		}
	}
}

func TestExceedsCap(t *testing.T) {
	if !mustDecode(t, "jitter=proportional&ratio=0.2&base=10s").Schedule().ExceedsCap {
		t.Error("proportional with the cap before jitter should say a wait can exceed cap")
	}
	for _, q := range []string{"jitter=full", "jitter=proportional&ratio=0.2&capat=after", "jitter=decorrelated", "jitter=proportional&ratio=0"} {
		if mustDecode(t, q).Schedule().ExceedsCap {
			t.Errorf("%s: no wait can exceed cap", q)
		}
	}
}

func TestWorstCaseAttempts(t *testing.T) {
	for q, want := range map[string]string{
		"attempts=3&layers=3":     "27",
		"attempts=4&layers=5":     "1024",
		"attempts=1000&layers=10": "1000000000000000000000000000000",
		"attempts=1&layers=10":    "1",
	} {
		if got := mustDecode(t, q).WorstCaseAttempts().String(); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
}

// TestMeansByMonteCarlo checks every closed-form mean, and the decorrelated grid, against plain
// sampling of the same formulas written out here independently of Wait.
func TestMeansByMonteCarlo(t *testing.T) {
	const n = 400000
	for _, q := range []string{
		"base=100ms&factor=2&cap=1s&attempts=8&jitter=full&capat=after",
		"base=100ms&factor=3&cap=1s&attempts=6&jitter=equal&capat=after",
		"base=100ms&factor=2&cap=1s&attempts=6&jitter=proportional&ratio=0.5&capat=after",
		"base=100ms&factor=2&cap=1s&attempts=12&jitter=decorrelated",
		"base=1ms&factor=2&cap=1s&attempts=40&jitter=decorrelated",
	} {
		p := mustDecode(t, q)
		s := p.Schedule()
		r := rand.New(rand.NewPCG(7, 7))
		sum := make([]float64, p.Attempts)
		sumSq := make([]float64, p.Attempts)
		b, c := p.Base.Seconds(), p.Cap.Seconds()
		for range n {
			prev := b
			for k := 1; k < p.Attempts; k++ {
				u := r.Float64()
				raw := b * math.Pow(p.Factor, float64(k-1))
				var w float64
				switch p.Jitter {
				case policy.Full:
					w = u * raw
				case policy.Equal:
					w = raw/2 + u*raw/2
				case policy.Proportional:
					w = raw * (1 - p.Ratio + 2*p.Ratio*u)
				case policy.Decorrelated:
					w = b + u*(3*prev-b)
				}
				w = math.Min(c, w)
				prev = w
				sum[k] += w
				sumSq[k] += w * w
			}
		}
		for k := 1; k < p.Attempts; k++ {
			mc := sum[k] / n
			se := math.Sqrt((sumSq[k]/n - mc*mc) / n)
			got := s.Rows[k].Mean / 1e9
			if math.Abs(got-mc) > 4*se+1e-9 {
				t.Errorf("%s retry %d: mean %.6f s, sampling says %.6f ± %.6f", q, k, got, mc, se)
			}
		}
	}
}

// Decorrelated jitter and Polly's decorrelatedv2 read neither factor nor offset: the schedule
// shows no nominal delay for them (issue 37: it showed base × factor^(k−1), 100 ms, 300 ms,
// 900 ms at factor 3, from the factor the words say is not used). Every other column is the same
// at factor 2 and 3.
func TestChainModesHaveNoNominal(t *testing.T) {
	for _, j := range []string{"decorrelated", "decorrelatedv2"} {
		a := mustDecode(t, "base=100ms&factor=3&offset=2s&cap=10s&attempts=5&jitter="+j).Schedule()
		b := mustDecode(t, "base=100ms&factor=2&cap=10s&attempts=5&jitter="+j).Schedule()
		for k, r := range a.Rows {
			if r.Nominal != 0 {
				t.Errorf("%s retry %d: nominal %v, want none (0)", j, r.Retry, r.Nominal)
			}
			if r != b.Rows[k] {
				t.Errorf("%s retry %d: %+v at factor 3 with an offset, %+v at factor 2", j, r.Retry, r, b.Rows[k])
			}
		}
	}
}

// TestScheduleTestsInvariants: the worked schedules keep checkInvariants (calc's TestInvariants
// holds them for the golden file's links).
func TestScheduleTestsInvariants(t *testing.T) {
	for _, tt := range scheduleTests {
		checkInvariants(t, mustDecode(t, tt.query+"&samples=500"))
	}
}
