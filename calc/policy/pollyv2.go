package policy

import (
	"math"
	"sync"
	"time"

	"backoffcalc/calc/internal/mathx"
)

// DecorrelatedV2 is Polly v8's exponential backoff with UseJitter = true, which calls
// RetryHelper.DecorrelatedJitterBackoffV2 (Polly.Core/Retry/RetryHelper.cs). For the 0-based
// attempt a = k-1 of retry k it draws t = a + U and computes
//
//	next  = 2^t · tanh(√(4t))                       // g(t); PFactor = 4
//	ticks = (long)((next - prev) · (1/1.4) · Delay.Ticks)
//	prev  = next                                    // unclamped; 0 before retry 1
//
// and GetRetryDelay then clamps the delay to MaxDelay. Here Delay is base, MaxDelay is cap, and
// a tick is 100 ns. Polly's Delay is a whole number of ticks; a base that is not (150ns, say) is
// used as a fractional tick count (1.5), which Polly cannot express; for whole ticks the two are
// the same. The wait is truncated to whole ticks, as Polly's (long) does.
//
// Polly also guards against g = +Inf (t >= 1024) and against ticks past TimeSpan.MaxValue;
// neither matters here: t < 999 (at most 999 retries), and cap, at most 168h, is far below
// TimeSpan.MaxValue, so the product (which, with a base of 24h, can overflow to +Inf from retry
// 986 on) saturates at cap before any conversion.
//
// Retry k waits between 0 (t just after a, the previous t just before it) and
// (g(k) - g(k-2)) · base/1.4 (g(1) · base/1.4 for retry 1), clamped to cap: with base 2s,
// retry 1 waits up to trunc(2·tanh(2)/1.4 · 2e7) = 27543645 ticks, 2.7543645s. These ranges do
// not add up: one draw's t ends one wait and starts the next, so the total of the first k waits
// is far narrower than the sum of their ranges (see pollyV2.sums). Without the clamp it is
// s·g(t_k) less the truncations, s = base/1.4: with base 2s, 3 retries wait in total from
// s·g(2) = 5.67s to s·g(3) = 11.41s, not from 0 to the 17.08s their ranges add up to.

const (
	pollyPFactor = 4.0
	// pollyScaling is Polly's RpScalingFactor, 1 / 1.4d. Go's exact constant 5/7 rounds to the
	// same double as C#'s division of 1 by the double 1.4 (a test checks it).
	pollyScaling = 1 / 1.4
)

// pollyG is Polly's 2^t · tanh(√(PFactor·t)), with the pure-Go mathx.Exp2 and mathx.Tanh so that it
// has the same bits everywhere.
func pollyG(t float64) float64 {
	return mathx.Exp2(t) * mathx.Tanh(math.Sqrt(pollyPFactor*t))
}

// pollyWhole is pollyG(k) for a whole k in [0, MaxAttempts): the ends of the retries' ranges,
// which every schedule and every step of a fit's search reads, tabulated on first use.
func pollyWhole(k int) float64 {
	pollyWholeOnce.Do(func() {
		for i := range pollyWholeG {
			pollyWholeG[i] = pollyG(float64(i))
		}
	})
	return pollyWholeG[k]
}

var (
	pollyWholeOnce sync.Once
	pollyWholeG    [MaxAttempts]float64
)

// pollyV2 is what turning Polly's g into waits needs, worked out once.
type pollyV2 struct {
	ticks float64       // Delay in ticks: base/100, exact for any base up to MaxBase
	over  float64       // the least tick count whose wait is over cap: floor(cap/100) + 1
	cap   time.Duration // MaxDelay
}

func (p Params) pollyV2() pollyV2 { return newPollyV2(p.Base, p.Cap) }

func newPollyV2(base, cap time.Duration) pollyV2 {
	return pollyV2{ticks: float64(base) / 100, over: float64(cap/100 + 1), cap: cap}
}

// wait is the wait for a difference of g values, in Polly's order of operations:
// (diff · RpScalingFactor) · ticks, truncated to whole ticks, then clamped to cap. Saturating at
// cap before converting covers +Inf too.
func (v pollyV2) wait(diff float64) time.Duration {
	x := float64(diff*pollyScaling) * v.ticks
	if x >= v.over {
		return v.cap
	}
	return min(v.cap, time.Duration(x)*100) // truncating toward zero, like C#'s (long)
}

// draw returns the wait before retry k for the draw u, and g(t) for the next retry; prev is g of
// the previous retry's t (0 for retry 1). The wait is kept within top, the retry's maximum, in
// case g's last bit is not monotonic somewhere: a draw can then differ from the exact formula by
// a tick, never from the bounds.
func (v pollyV2) draw(k int, u, prev float64, top time.Duration) (time.Duration, float64) {
	next := pollyG(float64(k-1) + u)
	return min(top, v.wait(next-prev)), next
}

// max is the longest wait before retry k: g(k) - g(k-2) (t at the top of its range, the previous
// t at the bottom of its), or g(1) for retry 1. Both ends are reached: k-1 + (1-2^-53) rounds to
// k for k >= 2. Only retry 1's bound, g(1), is a supremum that no draw reaches.
func (v pollyV2) max(k int) time.Duration {
	prev := 0.0
	if k >= 2 {
		prev = pollyWhole(k - 2)
	}
	return v.wait(pollyWhole(k) - prev)
}

// sums returns lo[k] and hi[k], the least and the most total wait of retries 1..k, for k in
// 0..n. Write x_i = g(t_i), in [g(i-1), g(i)] (g(-1) = g(0) = 0) and x_0 = 0, C = cap/s in units
// of g, and S_k = Σ_(i<=k) min(C, x_i - x_(i-1)), the total wait in units of g before Polly
// truncates each wait to ticks. Every difference is at least 0: the boxes of the x_i only touch.
//
// The most. S_k is concave in x, and its largest value over the box comes from
// V_i(x) = max over x' in box i-1 of V_(i-1)(x') + h(x - x'), h(d) = min(C, d), V_1 = h on
// [0, g(1)]: the max-plus convolution of two concave functions, whose hypograph is the sum of
// theirs, so its pieces are theirs sorted by slope. h has slopes 1 (on [0, C]) and 0; if V_(i-1)
// has only slopes 1 then 0 on its box [a, b] (V_1 does), the convolution starts at V_(i-1)(a)
// with slope 1 for V_(i-1)'s stretch plus h's, then is flat at V_(i-1)(b) + C:
// V_i(x) = min(V_(i-1)(a) + x - a, V_(i-1)(b) + C), again slopes 1 then 0, which box i keeps.
// So two numbers per retry carry it, u_i = V_i(g(i-1)) and m_i = V_i(g(i)), the largest:
//
//	u_i = min(u_(i-1) + g(i-1) - g(i-2), m_(i-1) + C)
//	m_i = min(u_(i-1) + g(i)   - g(i-2), m_(i-1) + C),   u_0 = m_0 = 0.
//
// Without the clamp m_k = g(k). Truncating each wait to ticks only shortens it, so s·m_k bounds
// every reachable total; each step is rounded up to the nanosecond (line), and hi[k] is also
// kept within hi[k-1] plus retry k's longest wait, which no draw passes (draw keeps to it).
// g(k) is pollyV2.max's convention: the top of the last range counts as reached.
//
// The least. A concave function's least value over a box is at a corner: each x_i at g(i-1)
// or g(i). Two states per retry, l_i and h_i, the least S_i with x_i at either end:
//
//	l_i = min(l_(i-1) + min(C, g(i-1) - g(i-2)), h_(i-1))              // x_(i-1) = x_i = g(i-1): waits 0
//	h_i = min(l_(i-1) + min(C, g(i) - g(i-2)), h_(i-1) + min(C, g(i) - g(i-1)))
//
// and the least S_k is min(l_k, h_k): s·g(k-1) without the clamp. Once the clamp binds, waits
// alternate between 0 and cap along it. The truncation takes less than a tick off each wait
// (trunc(y) > y - 1, and clamped to cap the loss is no larger), and draws near the corners use
// it: two waits that share a t can each lose almost a tick. So lo[k] is the continuous least,
// each step rounded down (below), less one tick per retry: never above a reachable total, and
// within k ticks of the least one. It never falls from one retry to the next (a total only
// grows), nor below 0. When cap is whole ticks, so is every wait and every total: hi is then
// rounded down to whole ticks and lo up.
//
// With base 2s and no clamp in reach (cap 168h), 3 retries: hi = s·g(3) = 114061988.4 ticks,
// 11.4061988s, and lo = s·g(2) less 3 ticks, 56744988.2 ticks up to 5.6744989s.
func (v pollyV2) sums(n int) (lo, hi []time.Duration) {
	lo, hi = make([]time.Duration, n+1), make([]time.Duration, n+1)
	var g2, g1 float64           // g(k-2), g(k-1)
	var u, m, l, h time.Duration // u_k, m_k, l_k and h_k in nanoseconds
	for k := 1; k <= n; k++ {
		g0 := pollyWhole(k)
		u, m = v.line(u, g1-g2, m+v.cap), v.line(u, g0-g2, m+v.cap)
		l, h = min(l+v.below(g1-g2), h), min(l+v.below(g0-g2), h+v.below(g0-g1))
		// v.wait(g0-g2) is v.max(k), retry k's longest wait.
		hk, lk := min(m, hi[k-1]+v.wait(g0-g2)), max(lo[k-1], min(l, h)-time.Duration(k)*100)
		if v.cap%100 == 0 { // every wait is whole ticks, and so is every total
			hk -= hk % 100
			lk += (100 - lk%100) % 100
		}
		hi[k], lo[k] = hk, lk
		g2, g1 = g1, g0
	}
	return lo, hi
}

// line is min(top, a + s·diff) in nanoseconds, the product as wait computes it but neither
// clamped to cap nor truncated to ticks: rounded up to the nanosecond, never below wait's.
func (v pollyV2) line(a time.Duration, diff float64, top time.Duration) time.Duration {
	x := float64(diff*pollyScaling) * v.ticks * 100
	if x >= float64(top-a) {
		return top
	}
	return min(top, a+time.Duration(math.Ceil(x)))
}

// below is the wait for a difference of g values, as wait computes it, clamped to cap but not
// truncated to ticks: rounded down to the nanosecond.
func (v pollyV2) below(diff float64) time.Duration {
	x := float64(diff*pollyScaling) * v.ticks
	if x >= v.over {
		return v.cap
	}
	return min(v.cap, time.Duration(math.Floor(x*100)))
}

// pollyChain is decorrelatedv2's entry in the table of modes (see DecorrelatedV2, above).
type pollyChain struct{}

// first is 0: retry 1 has no previous g.
func (pollyChain) first(p Params) float64 { return 0 }

func (pollyChain) top(p Params, k int) time.Duration { return p.pollyV2().max(k) }

// least is 0: t just past a whole number and the previous t just below it.
func (pollyChain) least(p Params, k int) time.Duration { return 0 }

func (pollyChain) rows(p Params, rows []Row) {
	means, atCap := pollyMeans(float64(p.Base), float64(p.Cap), len(rows)-1, pollyCells)
	v := p.pollyV2()
	for k := 1; k < len(rows); k++ {
		r := &rows[k]
		r.Max = v.max(k)
		// The quadrature's mean can stray past the bounds in the last bits, or by the
		// under-a-tick truncation when base is tiny and every wait is 0.
		r.Mean = max(0, min(float64(r.Max), means[k-1]))
		if r.Max == p.Cap {
			r.AtCap = atCap[k-1]
		}
	}
}

// draws is always true, as in Polly: the next wait depends on this draw's t even when this wait
// can only be 0 (a base of a few ns).
func (pollyChain) sums(p Params, n int) (lo, hi []time.Duration) { return p.pollyV2().sums(n) }

func (pollyChain) draws(p Params, k int) bool { return true }

func (pollyChain) wait(base, cap time.Duration, k int, u, state float64, top time.Duration) (time.Duration, float64) {
	return newPollyV2(base, cap).draw(k, u, state, top)
}

// within is no bounds: Polly truncates a difference of floats to ticks, whose reachable sums
// have no simple form, so the bounds within a budget come from the samples.
func (pollyChain) within(p Params) WithinBudget { return WithinBudget{} }

// The mean of retry k is E[min(c, s·(g(T2) - g(T1)))] for s = base/1.4 (ns per unit of g), c =
// cap, T2 uniform on [a, a+1) and T1, the previous retry's t, uniform on [a-1, a) and
// independent of it (for retry 1, g(T1) = 0). Without the clamp it telescopes to
// s·(∫_a^(a+1) g - ∫_(a-1)^a g); with it, for each T1 = x the clamp starts where g(T2) reaches
// g(x) + c/s, and
//
//	E[min(c, s·(g(T2) - g(x)))] = s·∫_a^y (g - g(x)) + c·(a+1 - y),  y = g⁻¹(g(x) + c/s) in [a, a+1].
//
// The quadrature tabulates g and its cumulative trapezoid integral on pollyCells cells per unit
// of t (on [0, 1] the nodes are squared, (j/n)², because g ~ 2√t there has no bounded
// derivative), finds y by walking the cells as x grows and interpolating linearly (an error in
// y costs only to second order: the integrand's derivative in y is zero there), and integrates
// over x with the trapezoid rule on the previous unit's nodes. Sampling would miss the far tail;
// this is within about 1e-5 of a brute-force integration (pollyv2_test.go asks for 1e-4), and
// takes about 0.5 ms for 999 retries.
//
// Products are rounded explicitly (float64(x*y)) where a sum follows, so that no compiler fuses
// them into an FMA (amd64 does with GOAMD64=v3) and the means keep the same bits everywhere.
//
// The means are of the exact real-valued wait, before Polly truncates it to whole ticks: the
// truncated wait's mean is lower by less than 100 ns (about 50 ns where a wait spans many ticks).
const pollyCells = 128

// pollyTable is g on one unit of t: nodes t, values g, and cum[j], the trapezoid integral of g
// from t[0] to t[j].
type pollyTable struct{ t, g, cum []float64 }

// fill tabulates g on [a, a+1]. pow2[j] is 2^(j/n): g(a + j/n) = 2^a · pow2[j] · tanh(√(4t)),
// where the tanh rounds to 1 for t > 91, and the rest is a cheap exact scaling.
func (tb *pollyTable) fill(a int, pow2 []float64) {
	n := len(tb.t) - 1
	for j := range tb.t {
		f := float64(j) / float64(n)
		switch {
		case a == 0:
			tb.t[j] = f * f
			tb.g[j] = pollyG(tb.t[j])
		case a > pollyTanhOne:
			tb.t[j] = float64(a) + f
			tb.g[j] = math.Ldexp(pow2[j], a)
		default:
			tb.t[j] = float64(a) + f
			tb.g[j] = math.Ldexp(pow2[j], a) * mathx.Tanh(math.Sqrt(pollyPFactor*tb.t[j]))
		}
		if j > 0 {
			tb.cum[j] = tb.cum[j-1] + float64((tb.t[j]-tb.t[j-1])*(tb.g[j-1]/2+tb.g[j]/2))
		}
	}
}

// pollyTanhOne is where tanh(√(4t)) rounds to 1 in float64: 2/(e^(2√(4t))+1) is under 2^-54 for
// √(4t) > 19.06, that is t > 90.8.
const pollyTanhOne = 91

// pollyMeans returns the mean wait (ns) and the share of waits at cap for retries 1..n, with
// cells cells per unit of t (see pollyCells).
func pollyMeans(base, cap float64, n, cells int) (means, atCap []float64) {
	means, atCap = make([]float64, n), make([]float64, n)
	if n == 0 {
		return means, atCap // one attempt: no retry
	}
	s := base * pollyScaling
	cs := cap / s // the cap in units of g
	pow2 := make([]float64, cells+1)
	for j := range pow2 {
		pow2[j] = mathx.Exp2(float64(j) / float64(cells))
	}
	newTable := func() *pollyTable {
		return &pollyTable{make([]float64, cells+1), make([]float64, cells+1), make([]float64, cells+1)}
	}
	prev, cur := newTable(), newTable()
	cur.fill(0, pow2)
	// inner is E[min(c, s·(g(T2) - gx))] over T2 on cur, and P(at cap); j is where the walk
	// through cur's cells is, for gx no smaller than the last one's.
	j := 0
	inner := func(gx float64) (float64, float64) {
		v := gx + cs // g(T2) at which the clamp starts
		switch {
		case v >= cur.g[cells]:
			return s * (cur.cum[cells] - float64(gx*(cur.t[cells]-cur.t[0]))), 0
		case v < cur.g[0]:
			return cap, 1
		}
		for j+1 < cells && cur.g[j+1] <= v {
			j++
		}
		y := cur.t[j] + float64((v-cur.g[j])/(cur.g[j+1]-cur.g[j])*(cur.t[j+1]-cur.t[j]))
		area := cur.cum[j] + float64((y-cur.t[j])*(cur.g[j]/2+v/2)) - float64(gx*(y-cur.t[0]))
		share := cur.t[cells] - y
		return float64(s*area) + float64(cap*share), share
	}
	means[0], atCap[0] = inner(0)
	for k := 1; k < n; k++ { // retry k+1: T1 on [k-1, k], T2 on [k, k+1]
		prev, cur = cur, prev
		cur.fill(k, pow2)
		j = 0
		var mean, share float64
		settled := true // every T1 meets the clamp for every T2
		for i, gx := range prev.g {
			w := (prev.t[min(i+1, cells)] - prev.t[max(i-1, 0)]) / 2
			m, sh := inner(gx)
			mean += float64(w * m)
			share += float64(w * sh)
			settled = settled && sh == 1
		}
		means[k], atCap[k] = mean, share
		// Once every wait is the cap, every later one is too (g only grows further past c/s).
		if settled {
			for r := k; r < n; r++ {
				means[r], atCap[r] = cap, 1
			}
			break
		}
	}
	return means, atCap
}
