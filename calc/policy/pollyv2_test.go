package policy_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/policy"
)

// pollyCS is Polly v8's C#, transcribed on its own from Polly.Core/Retry/RetryHelper.cs
// (GetRetryDelay with DecorrelatedJitterBackoffV2) and RetryResilienceStrategy.cs (the state
// starts at 0, the attempt at 0), with Go's math.Pow, Tanh and Sqrt standing in for .NET's Math.
type pollyCS struct {
	delayTicks int64   // Delay.Ticks
	maxDelay   int64   // MaxDelay.Ticks; -1 for null
	prev       float64 // ref double state
}

// maxTimeSpanTicks is Polly's (double)TimeSpan.MaxValue.Ticks - 1_000.
const maxTimeSpanTicks = float64(math.MaxInt64) - 1000

// retryDelay is GetRetryDelay(Exponential, jitter: true, attempt, ...) for the randomizer's u.
func (c *pollyCS) retryDelay(attempt int, u float64) int64 {
	const PFactor = 4.0
	const RpScalingFactor = 1 / 1.4
	t := float64(attempt) + u
	next := math.Pow(2, t) * math.Tanh(math.Sqrt(PFactor*t))
	var ticks int64
	if math.IsInf(next, 0) {
		c.prev = next
		ticks = int64(maxTimeSpanTicks)
	} else {
		formulaIntrinsicValue := next - c.prev
		c.prev = next
		ticks = int64(math.Min(formulaIntrinsicValue*RpScalingFactor*float64(c.delayTicks), maxTimeSpanTicks))
	}
	if c.maxDelay >= 0 && ticks > c.maxDelay {
		return c.maxDelay
	}
	return ticks
}

// pollyDraws are the randomizer's outputs the transcription is compared on: seeded streams and
// the edges of [0, 1).
func pollyDraws(n int) [][]float64 {
	const top = 1 - 1.0/(1<<53)
	var seqs [][]float64
	for _, u := range []float64{0, top, 0.5} {
		seq := make([]float64, n)
		for i := range seq {
			seq[i] = u
		}
		seqs = append(seqs, seq)
	}
	alt := make([]float64, n)
	for i := range alt {
		alt[i] = top * float64(i%2)
	}
	seqs = append(seqs, alt)
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 99))
		seq := make([]float64, n)
		for i := range seq {
			seq[i] = r.Float64()
		}
		seqs = append(seqs, seq)
	}
	return seqs
}

// TestPollyV2AgainstTranscription runs calc's waits and the C# transcription on the same draws.
// calc's exp2 and tanh are within an ulp of math.Pow and math.Tanh (and of .NET's), not always
// equal to them, so g can differ in its last bits (the log counts how often). A wait under 168h
// is at most 6e12 ticks, where that moves it by about 1e-3 ticks: the waits must agree to the
// tick, except where the exact product falls that close to a whole tick and the two truncate to
// neighbours, one tick apart.
func TestPollyV2AgainstTranscription(t *testing.T) {
	exact, total, sameState := 0, 0, 0
	for _, q := range []string{
		"preset=polly-exponential-jitter&attempts=60",
		"jitter=decorrelatedv2&base=100ms&cap=30s&attempts=40",
		"jitter=decorrelatedv2&base=1ms&cap=168h&attempts=1000",
		"jitter=decorrelatedv2&base=24h&cap=24h&attempts=30",
		// One tick: uncapped up to g ~ 8e12, the largest g a wait under 168h can come from.
		"jitter=decorrelatedv2&base=100ns&cap=168h&attempts=60",
	} {
		p := mustDecode(t, q)
		maxDelay := int64(p.Cap / 100)
		if p.Cap == policy.MaxCap {
			maxDelay = -1 // the calculator's largest cap stands for none
		}
		for _, draws := range pollyDraws(p.Attempts - 1) {
			cs := pollyCS{delayTicks: int64(p.Base / 100), maxDelay: maxDelay}
			state := p.FirstState()
			for k := 1; k < p.Attempts; k++ {
				want := time.Duration(cs.retryDelay(k-1, draws[k-1]))
				if want > p.Cap/100 { // saturated ticks would overflow as nanoseconds
					want = p.Cap
				} else {
					want *= 100
				}
				var got time.Duration
				got, state = p.Wait(k, draws[k-1], state)
				d := math.Abs(float64(got - want))
				total++
				exact += b2i(d == 0)
				if d > 100 {
					t.Fatalf("%s retry %d, u=%v: calc %d ns, Polly %d ns", q, k, draws[k-1], got, want)
				}
				sameState += b2i(state == cs.prev)
				if math.Abs(state-cs.prev) > 4*0x1p-52*cs.prev {
					t.Fatalf("%s retry %d: state %v, Polly's prev %v", q, k, state, cs.prev)
				}
			}
		}
	}
	t.Logf("%d of %d waits equal to the tick; %d states (g) equal to the bit", exact, total, sameState)
	if exact < total*99/100 {
		t.Errorf("only %d of %d waits equal to the tick", exact, total)
	}
}

// TestPollyV2ByHand: the bounds and waits of Polly's defaults (Delay 2s = 2e7 ticks), worked
// with bc at 40 digits: g(t) = 2^t·tanh(√(4t)).
func TestPollyV2ByHand(t *testing.T) {
	p := mustDecode(t, "preset=polly-exponential-jitter")
	rows := p.Schedule().Rows
	for k, want := range []time.Duration{
		2754364500, // trunc(2·tanh(2)/1.4 · 2e7) = trunc(27543645.145) ticks
		5674499100, // g(2) - g(0): trunc(4·tanh(√8)/1.4 · 2e7) = trunc(56744991.166)
		8651834300, // g(3) - g(1): trunc((8·tanh(√12) - 2·tanh(2))/1.4 · 2e7) = trunc(86518343.266)
	} {
		if r := rows[k+1]; r.Min != 0 || r.Max != want || r.AtCap != 0 {
			t.Errorf("retry %d: [%v, %v] at cap %v, want [0, %v] and 0", k+1, r.Min, r.Max, r.AtCap, want)
		}
	}
	// u = 0.5 at every retry: g(0.5) = √2·tanh(√2), then g(1.5) - g(0.5), g(2.5) - g(1.5).
	state := p.FirstState()
	for k, want := range []time.Duration{1794809800, 2186007000, 4071495900} { // 17948098.71, 21860070.95, 40714959.25 ticks
		var got time.Duration
		if got, state = p.Wait(k+1, 0.5, state); got != want {
			t.Errorf("retry %d, u=0.5: %v, want %v", k+1, got, want)
		}
	}
	// The means without a clamp, by Simpson's rule in bc: ∫_0^1 g = 1.2195620020 (as ∫ g(w²)·2w dw,
	// which is smooth), ∫_1^2 g = 2.8409669694; retry 1 waits 2e9/1.4 · ∫_0^1 g on average, retry
	// 2 that of ∫_1^2 g - ∫_0^1 g.
	for k, want := range []float64{1742231431.37, 2316292810.70} {
		if got := rows[k+1].Mean; math.Abs(got-want) > 1e-4*want {
			t.Errorf("retry %d: mean %.0f ns, want %.0f", k+1, got, want)
		}
	}
	// Polly's RpScalingFactor is 1 / 1.4d, a division at run time in C#.
	x := 1.4
	if 1/x != policy.PollyScaling {
		t.Errorf("1/1.4 = %v at run time, policy.PollyScaling %v", 1/x, policy.PollyScaling)
	}
	// A base that is not whole ticks is a fractional tick count: 150ns is 1.5 ticks.
	q := mustDecode(t, "jitter=decorrelatedv2&base=150ns&cap=1s")
	if w, _ := q.Wait(1, 0.75, 0); w != time.Duration(math.Trunc(policy.PollyG(0.75)*policy.PollyScaling*1.5))*100 {
		t.Errorf("base 150ns, u=0.75: %v", w)
	}
}

// pollyQueries are the policies the statistics are checked on: Polly's defaults, a cap that
// clamps from retry 5 on, and the widest range over the most attempts.
var pollyQueries = []string{
	"preset=polly-exponential-jitter",
	"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12",
	"jitter=decorrelatedv2&base=1ms&cap=168h&attempts=1000",
}

// pollyBrute is E[min(c, s·(g(T2) - g(T1)))] and P(at cap) for retry k by the midpoint rule on
// an m×m grid of (T1, T2), with math.Pow and math.Tanh: nothing shared with the quadrature.
func pollyBrute(base, cap float64, k, m int) (mean, atCap float64) {
	g := func(t float64) float64 { return math.Pow(2, t) * math.Tanh(math.Sqrt(4*t)) }
	s := base / 1.4
	g1, g2 := make([]float64, m), make([]float64, m)
	for i := range m {
		mid := (float64(i) + 0.5) / float64(m)
		g2[i] = g(float64(k-1) + mid)
		if k > 1 {
			g1[i] = g(float64(k-2) + mid)
		}
	}
	if k == 1 {
		g1 = g1[:1] // g(T1) = 0
	}
	var sum, n float64
	for _, a := range g1 {
		for _, b := range g2 {
			if d := s * (b - a); d >= cap {
				sum += cap
				n++
			} else {
				sum += d
			}
		}
	}
	cells := float64(len(g1) * m)
	return sum / cells, n / cells
}

// TestPollyV2MeansBruteForce: the quadrature's means are within 1e-4 of a 2000×2000 midpoint
// rule, and of the same quadrature on a 16 times finer grid, at small and huge attempts; so is
// the share at cap, in absolute terms.
func TestPollyV2MeansBruteForce(t *testing.T) {
	worst := 0.0
	for _, q := range pollyQueries {
		p := mustDecode(t, q)
		rows := p.Schedule().Rows
		fine, _ := policy.PollyMeans(float64(p.Base), float64(p.Cap), p.Attempts-1, 16*policy.PollyCells)
		for k := 1; k < p.Attempts; k++ {
			r := rows[k]
			if rel := math.Abs(r.Mean-fine[k-1]) / fine[k-1]; rel > 1e-4 {
				t.Errorf("%s retry %d: mean %v, a 16x finer grid %v", q, k, r.Mean, fine[k-1])
			}
			if k > 40 && k%97 != 0 && k < p.Attempts-1 {
				continue // the brute force is slow; past retry 31 every wait there is nearly the cap
			}
			mean, atCap := pollyBrute(float64(p.Base), float64(p.Cap), k, 2000)
			rel := math.Abs(r.Mean-mean) / mean
			worst = max(worst, rel)
			if rel > 1e-4 || math.Abs(r.AtCap-atCap) > 1e-4 {
				t.Errorf("%s retry %d: mean %v at cap %v, brute force %v at cap %v", q, k, r.Mean, r.AtCap, mean, atCap)
			}
		}
	}
	t.Logf("largest relative difference to the brute force: %.2e", worst)
}

// pollyPaths draws n paths of p through Waits.Next, as Sample and the herd do, and calls
// see with every wait.
func pollyPaths(p calc.Params, n int, see func(k int, w time.Duration)) {
	waits := p.Waits()
	for i := range n {
		var r rand.PCG
		r.Seed(p.Seed, uint64(i))
		state := p.FirstState()
		for k := 1; k < p.Attempts; k++ {
			var w time.Duration
			w, state = waits.Next(k, &r, state)
			see(k, w)
		}
	}
}

// TestPollyV2MonteCarlo: every sampled wait lies within its retry's [min, max], and 200000
// paths agree with the means within 1% and with the share at cap within 0.01.
func TestPollyV2MonteCarlo(t *testing.T) {
	const paths = 200000
	for _, q := range pollyQueries {
		p := mustDecode(t, q)
		if p.Attempts > 40 {
			p.Attempts = 40 // the rest is the cap: the saturation test covers it
		}
		rows := p.Schedule().Rows
		sum, atCap := make([]float64, p.Attempts), make([]float64, p.Attempts)
		pollyPaths(p, paths, func(k int, w time.Duration) {
			if r := rows[k]; w < r.Min || w > r.Max {
				t.Fatalf("%s retry %d: waited %v, outside [%v, %v]", q, k, w, r.Min, r.Max)
			}
			sum[k] += float64(w)
			atCap[k] += float64(b2i(w == p.Cap))
		})
		for k := 1; k < p.Attempts; k++ {
			mean, share := sum[k]/paths, atCap[k]/paths
			if r := rows[k]; math.Abs(mean-r.Mean) > 0.01*r.Mean || math.Abs(share-r.AtCap) > 0.01 {
				t.Errorf("%s retry %d: sampled mean %v at cap %v, schedule %v at cap %v", q, k, mean, share, r.Mean, r.AtCap)
			}
		}
	}
}

// TestPollyV2Saturation: over 999 retries g reaches 2^998 and the product with base overflows
// to +Inf; the waits saturate at cap and nothing is NaN or infinite.
func TestPollyV2Saturation(t *testing.T) {
	if s := mustDecode(t, "jitter=decorrelatedv2&attempts=1").Schedule(); len(s.Rows) != 1 || s.Total != (policy.Totals{}) {
		t.Errorf("one attempt: %+v", s)
	}
	for _, q := range []string{
		"base=24h&cap=168h", "base=1ns&cap=168h", "base=1ms&cap=168h", "base=1ns&cap=1ns", "base=24h&cap=24h",
	} {
		p := mustDecode(t, "jitter=decorrelatedv2&attempts=1000&samples=100&"+q)
		s := p.Schedule()
		last := s.Rows[p.Attempts-1]
		if last.Max != p.Cap || last.Mean != float64(p.Cap) || last.AtCap != 1 || s.ExceedsCap {
			t.Errorf("%s: last row %+v", q, last)
		}
		if math.IsNaN(s.Total.Mean) || math.IsInf(s.Total.Mean, 0) || s.Total.Max <= 0 || s.Total.Max > 999*p.Cap {
			t.Errorf("%s: totals %+v", q, s.Total)
		}
		for _, r := range s.Rows[1:] {
			if math.IsNaN(r.Mean) || math.IsNaN(r.AtCap) || r.Max > p.Cap || r.Mean > float64(r.Max) {
				t.Fatalf("%s: row %+v", q, r)
			}
		}
		checkInvariants(t, p)
		for _, u := range []float64{0, 0.5, 1 - 1.0/(1<<53)} {
			if w, g := p.Wait(999, u, policy.PollyG(997.5)); w != p.Cap || math.IsInf(g, 0) {
				t.Errorf("%s: retry 999, u=%v: %v, g %v", q, u, w, g)
			}
		}
	}
	v := mustDecode(t, "jitter=decorrelatedv2&cap=3s")
	for _, diff := range []float64{math.MaxFloat64, math.Inf(1), 1e300} {
		if w := v.PollyV2Wait(diff); w != 3*time.Second {
			t.Errorf("a difference of %v waits %v, want the cap", diff, w)
		}
	}
}

// TestPollyV2Ticks: below the cap every wait is whole 100 ns ticks; the cap, when it is not
// whole ticks, is reached exactly.
func TestPollyV2Ticks(t *testing.T) {
	p := mustDecode(t, "jitter=decorrelatedv2&base=150ns&cap=1234567ns&attempts=30&samples=100")
	atCap := 0
	pollyPaths(p, 1000, func(k int, w time.Duration) {
		if w != p.Cap && w%100 != 0 {
			t.Fatalf("retry %d waits %d ns, not whole ticks", k, w)
		}
		atCap += b2i(w == p.Cap)
	})
	if atCap == 0 {
		t.Error("no wait reached the cap")
	}
	checkInvariants(t, p)
}

// TestPollyTanhOne: the quadrature skips tanh(√(4t)) past pollyTanhOne: it must be 1 there, and
// just below it not yet (or the threshold would be looser than it needs to be).
func TestPollyTanhOne(t *testing.T) {
	if mathx.Tanh(math.Sqrt(4*policy.PollyTanhOne)) != 1 || mathx.Tanh(math.Sqrt(4*90)) == 1 {
		t.Errorf("tanh(√(4·91)) = %v, tanh(√(4·90)) = %v", mathx.Tanh(math.Sqrt(4*policy.PollyTanhOne)), mathx.Tanh(math.Sqrt(4*90)))
	}
}

// TestPollyGMonotonic: g never steps down along an increasing run of t, taken at 64 points of
// each unit and just below each next one, up to t = 999; draw clamps to the bounds regardless.
func TestPollyGMonotonic(t *testing.T) {
	prev := 0.0
	for a := range 999 {
		for i := range 64 {
			t0 := float64(a) + float64(i)/64
			for _, x := range []float64{t0, math.Nextafter(t0+1.0/64, 0)} {
				g := policy.PollyG(x)
				if g < prev {
					t.Fatalf("g(%v) = %v, below the g before it, %v", x, g, prev)
				}
				prev = g
			}
		}
	}
}

// TestPollyV2SumsByHand: with Polly's defaults (Delay 2 s, no MaxDelay: cap 168h) the first k
// waits total s·x_k, s = 2 s / 1.4 and x_k = g(t_k) in [g(k-1), g(k)], less each wait's
// truncation to ticks. In ticks, s·g(1) = 2·tanh(2) × 2e7/1.4 = 27543645.15, s·g(2) =
// 4·tanh(√8) × 2e7/1.4 = 56744991.17, s·g(3) = 8·tanh(√12) × 2e7/1.4 = 114061988.4 (g with
// math.Pow and math.Tanh here). Latest is s·g(k) rounded down to whole ticks (truncation only
// shortens a wait); Earliest s·g(k-1) less a tick per retry, rounded up to whole ticks.
func TestPollyV2SumsByHand(t *testing.T) {
	g := func(t float64) float64 { return math.Pow(2, t) * math.Tanh(math.Sqrt(4*t)) }
	ticks := func(x float64) float64 { return x / 1.4 * 2e7 }
	for _, call := range []time.Duration{0, 250 * time.Millisecond} {
		p := mustDecode(t, "preset=polly-exponential-jitter")
		p.Call = call
		s := p.Schedule()
		for k := 1; k < p.Attempts; k++ {
			r := s.Rows[k]
			calls := time.Duration(k) * call
			latest := time.Duration(math.Floor(ticks(g(float64(k)))))*100 + calls
			earliest := time.Duration(math.Ceil(ticks(g(float64(k-1)))-float64(k)))*100 + calls
			if k == 1 {
				earliest = calls
			}
			if r.Latest != latest || r.Earliest != earliest {
				t.Errorf("call %v, attempt %d starts in [%v, %v], want [%v, %v]", call, k+1, r.Earliest, r.Latest, earliest, latest)
			}
		}
		if s.Total.Min != 5674498900 || s.Total.Max != 11406198800 {
			t.Errorf("call %v: total [%v, %v], want [5.6744989s, 11.4061988s]", call, s.Total.Min, s.Total.Max)
		}
	}
}

// pollySumsQueries are where the totals' bounds are checked by brute force: no cap in reach;
// a cap that binds from retry 9 on (dapr-exponential's); one that binds from retry 2 on, with
// many retries; a cap and a base that are not whole ticks; calls between the attempts.
var pollySumsQueries = []string{
	"jitter=decorrelatedv2&base=2s&cap=168h&attempts=9",
	"jitter=decorrelatedv2&base=500ms&cap=1m&attempts=14",
	"jitter=decorrelatedv2&base=10ms&cap=15ms&attempts=30",
	"jitter=decorrelatedv2&base=150ns&cap=1234ns&attempts=12",
	"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12&call=30ms",
}

// TestPollyV2SumsBruteForce: no path's start falls outside its attempt's [Earliest, Latest],
// over random draws, draws at and next to the ends of each range, and every corner of the
// first 11 retries; the waits come from calc (Params.Wait) and, where base is whole ticks as
// Polly's Delay is, from the C# transcription. Both
// bounds are approached within a tick per retry: Earliest by the corners (a concave function's
// least is at one), Latest by the path that maximizes the total without truncation, found by
// a search over its own candidates (below), whose draws are then run through Params.Wait.
func TestPollyV2SumsBruteForce(t *testing.T) {
	const top = 1 - 1.0/(1<<53)
	for _, q := range pollySumsQueries {
		p := mustDecode(t, q+"&samples=500")
		checkInvariants(t, p)
		n := p.Attempts - 1
		s := p.Schedule()
		rows := s.Rows
		if s.Total.Min != rows[n].Earliest-time.Duration(n)*p.Call || s.Total.Max != rows[n].Latest-time.Duration(n)*p.Call {
			t.Errorf("%s: totals %+v, last row [%v, %v]", q, s.Total, rows[n].Earliest, rows[n].Latest)
		}
		least := make([]time.Duration, n+1) // the least start seen at the corners
		for k := range least {
			least[k] = math.MaxInt64
		}
		// run walks a path of draws us through calc and, when cs, the transcription, checking
		// every start; it returns calc's starts.
		run := func(us []float64, cs bool) []time.Duration {
			starts := make([]time.Duration, len(us)+1)
			state := p.FirstState()
			tr := pollyCS{delayTicks: int64(p.Base / 100), maxDelay: int64(p.Cap / 100)}
			var trStart time.Duration
			for i, u := range us {
				k := i + 1
				var w time.Duration
				w, state = p.Wait(k, u, state)
				starts[k] = starts[k-1] + p.Call + w
				if r := rows[k]; starts[k] < r.Earliest || starts[k] > r.Latest {
					t.Fatalf("%s: draws %v start attempt %d at %v, outside [%v, %v]", q, us[:k], k+1, starts[k], r.Earliest, r.Latest)
				}
				if !cs {
					continue
				}
				trw := time.Duration(tr.retryDelay(k-1, u)) * 100
				if trw > p.Cap {
					trw = p.Cap // Polly's MaxDelay in ticks, as the cap in nanoseconds
				}
				trStart += p.Call + trw
				if r := rows[k]; trStart < r.Earliest || trStart > r.Latest {
					t.Fatalf("%s: transcribed, draws %v start attempt %d at %v, outside [%v, %v]", q, us[:k], k+1, trStart, r.Earliest, r.Latest)
				}
			}
			return starts
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(q))))
		edges := []float64{0, top, 1e-12, 1 - 1e-12}
		us := make([]float64, n)
		for range 20000 {
			for i := range us {
				if rng.IntN(2) == 0 {
					us[i] = edges[rng.IntN(len(edges))]
				} else {
					us[i] = rng.Float64()
				}
			}
			run(us, p.Base%100 == 0) // Polly's Delay is whole ticks
		}
		corners := min(n, 11)
		for c := range 1 << corners {
			for i := range corners {
				us[i] = top * float64(c>>i&1)
			}
			for k, s := range run(us[:corners], false) {
				least[k] = min(least[k], s)
			}
		}
		for k := 1; k <= n; k++ {
			tick := time.Duration(k) * 100
			if k <= corners && least[k]-rows[k].Earliest > tick {
				t.Errorf("%s attempt %d: Earliest %v, the least corner %v: over a tick per retry apart", q, k+1, rows[k].Earliest, least[k])
			}
			most := run(pollyArgmax(p, k), false)[k]
			if rows[k].Latest-most > tick {
				t.Errorf("%s attempt %d: Latest %v, the best path %v: over a tick per retry apart", q, k+1, rows[k].Latest, most)
			}
		}
	}
}

// pollyArgmax returns the draws of a path whose first k waits, without the truncation to
// ticks, total the most: max Σ min(C, x_i - x_(i-1)) over x_i in [g(i-1), g(i)], a linear
// program in x and y_i <= min(C, x_i - x_(i-1)). At a vertex each y_i is C or x_i - x_(i-1),
// and every x_i is pinned by a bound or by a difference of exactly C from its neighbour, so
// x_i = g(j) + m·C for some j <= k and |m| <= k: a search over those candidates in each range,
// with g from math.Pow, finds it. Each x_i is then drawn as the u whose g(i-1+u) is nearest
// below it, by bisection.
func pollyArgmax(p calc.Params, k int) []float64 {
	g := func(t float64) float64 { return math.Pow(2, t) * math.Tanh(math.Sqrt(4*t)) }
	C := float64(p.Cap) / (float64(p.Base) / 1.4)
	cands := make([][]float64, k+1)
	cands[0] = []float64{0}
	for i := 1; i <= k; i++ {
		lo, hi := g(float64(i-1)), g(float64(i))
		if i == 1 {
			lo = 0
		}
		xs := []float64{lo, hi}
		for j := 0; j <= k; j++ {
			for m := -k; m <= k; m++ {
				if x := g(float64(j)) + float64(m)*C; x > lo && x < hi {
					xs = append(xs, x)
				}
			}
		}
		cands[i] = xs
	}
	best := [][]float64{{0}}
	from := make([][]int, k+1)
	for i := 1; i <= k; i++ {
		best = append(best, make([]float64, len(cands[i])))
		from[i] = make([]int, len(cands[i]))
		for a, x := range cands[i] {
			best[i][a] = math.Inf(-1)
			for b, y := range cands[i-1] {
				if v := best[i-1][b] + math.Min(C, x-y); v > best[i][a] {
					best[i][a], from[i][a] = v, b
				}
			}
		}
	}
	a := 0
	for b := range best[k] {
		if best[k][b] > best[k][a] {
			a = b
		}
	}
	us := make([]float64, k)
	for i := k; i >= 1; i-- {
		x := cands[i][a]
		lo, hi := 0.0, 1.0
		for range 80 {
			if mid := (lo + hi) / 2; policy.PollyG(float64(i-1)+mid) <= x {
				lo = mid
			} else {
				hi = mid
			}
		}
		us[i-1] = lo
		a = from[i][a]
	}
	return us
}
