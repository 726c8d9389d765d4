package policy

import (
	"math"
	"math/big"
	"time"

	"backoffcalc/calc/internal/mathx"
)

// BudgetStatus says whether an attempt starts strictly before the budget runs out.
type BudgetStatus uint8

const (
	NoBudget  BudgetStatus = iota // no budget is set
	Always                        // even the latest start is before the budget
	Sometimes                     // the earliest start is before the budget, the latest is not
	Never                         // even the earliest start is at or past the budget
)

func (b BudgetStatus) String() string {
	return [...]string{"none", "always", "sometimes", "never"}[b]
}

// Row is one attempt of a schedule. Attempt 1 is the first call: it has no wait and starts at 0.
type Row struct {
	Attempt int // 1-based
	Retry   int // Attempt-1: the retry this attempt is; 0 for the first call
	// Nominal is min(cap, base*factor^(Retry-1)) (or as growth says) plus offset, for reference;
	// 0 for attempt 1, and in a mode whose wait follows the previous one (decorrelated,
	// decorrelatedv2, Jitter.FromPrevious), which has none: it reads neither factor nor offset.
	Nominal  time.Duration
	Min, Max time.Duration // bounds of the wait before this attempt
	Mean     float64       // expected wait before this attempt, in nanoseconds
	AtCap    float64       // share of waits exactly at cap: decorrelated and decorrelatedv2 pile mass there; 0 otherwise
	// Earliest and Latest bound this attempt's start: the calls before it plus the least and the
	// most total wait before it. That total is the sum of the waits' Min and of their Max in
	// every mode but decorrelatedv2, whose waits share draws, so that no path takes every
	// retry's extremes (see pollyV2.sums).
	Earliest, Latest time.Duration
	Budget           BudgetStatus
}

// Totals are the best-case (Min), expected (Mean, in nanoseconds) and worst-case (Max) total wait
// of a whole policy, ignoring any budget: the last row's Earliest and Latest less its calls.
type Totals struct {
	Min, Max time.Duration
	Mean     float64
}

// Schedule is what a policy does when every attempt fails.
type Schedule struct {
	Rows       []Row
	Total      Totals
	ExceedsCap bool // some wait can be longer than cap (proportional jitter with the cap before it)
	// Always and AtMost count the attempts that always, and at most, start within the budget;
	// without a budget both are Attempts.
	Always, AtMost int
}

// Schedule computes the bounds and means of every attempt. p must be valid (see Validate). The
// sums cannot overflow: at most 999 waits of at most 2*MaxCap plus MaxAdd, MaxOffset and
// Sidekiq's 9990 s, plus calls of at most MaxCall.
func (p Params) Schedule() Schedule {
	rows := make([]Row, p.Attempts)
	chain, byRetry := modes[p.Jitter].chain, modes[p.Jitter].byRetry
	var lo, hi []time.Duration // the totals' bounds, where they are not sums of the rows'
	if chain != nil {
		chain.rows(p, rows)
		lo, hi = chain.sums(p, p.Attempts-1)
	}
	raws := p.raws()
	s := Schedule{Always: p.Attempts, AtMost: p.Attempts}
	for k := range rows {
		r := &rows[k]
		r.Attempt, r.Retry = k+1, k
		if k > 0 {
			raw := raws[k]
			if chain == nil {
				r.Nominal = p.nominal(raw) + p.Offset
			}
			switch {
			case chain != nil: // its rows are set
			case k > 1 && raw == raws[k-1] && !byRetry && !(p.FirstExact && k == 2):
				// Past the cap every retry has the same law: most rows of a long schedule. Not
				// after an exact first retry, whose law is its own (law), whatever its raw delay.
				prev := &rows[k-1]
				r.Min, r.Max, r.Mean = prev.Min, prev.Max, prev.Mean
			default:
				l := p.law(k, raw)
				r.Min, r.Max = l.min, l.max
				r.Mean = l.mean()
			}
			least, most := r.Min, r.Max // what this retry adds to the least and the most total
			if lo != nil {
				least, most = lo[k]-lo[k-1], hi[k]-hi[k-1]
			}
			r.Earliest = rows[k-1].Earliest + p.Call + least
			r.Latest = rows[k-1].Latest + p.Call + most
			s.Total.Min += least
			s.Total.Max += most
			s.Total.Mean += r.Mean
			s.ExceedsCap = s.ExceedsCap || r.Max > p.Cap
		}
		if p.Budget > 0 {
			switch {
			case r.Latest < p.Budget:
				r.Budget = Always
			case r.Earliest < p.Budget:
				r.Budget = Sometimes
			default:
				r.Budget = Never
			}
		}
	}
	if p.Budget > 0 {
		s.Always, s.AtMost = 0, 0
		for _, r := range rows {
			s.Always += b2i(r.Budget == Always)
			s.AtMost += b2i(r.Budget != Never)
		}
	}
	s.Rows = rows
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// WorstCaseAttempts is the number of attempts the innermost service sees for one outer request
// when each of p.Layers stacked layers makes p.Attempts attempts and all fail: 3 layers of 3
// attempts make 27. It is exact however large (1000^10 has 31 digits).
func (p Params) WorstCaseAttempts() *big.Int {
	return new(big.Int).Exp(big.NewInt(int64(p.Attempts)), big.NewInt(int64(p.Layers)), nil)
}

// Wait returns the wait before retry k (k >= 1) for the draw u in [0, 1), and the state to pass
// for retry k+1. state is what the wait before retry k-1 returned, or FirstState for k = 1: two
// modes remember something from one retry to the next, decorrelated jitter the previous wait in
// nanoseconds, decorrelatedv2 Polly's g of the previous draw; the others return state unchanged.
// With base 100ms, cap 1s, full jitter and u = 0.5, retries 1 and 2 wait 50ms and 100ms.
func (p Params) Wait(k int, u, state float64) (time.Duration, float64) {
	if c := modes[p.Jitter].chain; c != nil {
		return c.wait(p.Base, p.Cap, k, u, state, c.top(p, k))
	}
	return p.law(k, p.rawNominal(k)).at(u), state
}

// FirstState is the state Wait takes for retry 1: base, in nanoseconds, for decorrelated jitter
// (it grows from base), and 0 for the other modes (decorrelatedv2 has no previous g yet).
func (p Params) FirstState() float64 {
	if c := modes[p.Jitter].chain; c != nil {
		return c.first(p)
	}
	return 0
}

// MaxWait is the longest wait before retry k.
func (p Params) MaxWait(k int) time.Duration {
	if c := modes[p.Jitter].chain; c != nil {
		return c.top(p, k)
	}
	return p.law(k, p.rawNominal(k)).max
}

// Uncapped is the delay of retry k before any cap, in nanoseconds: base × factor^(k−1), or
// base × k for linear growth, base × k^factor and base × (k−1)^factor for the polynomial ones,
// kept finite (at most 1e300); without the offset. A library that applies no cap waits
// it where the calculator stops at MaxCap.
func (p Params) Uncapped(k int) float64 { return p.rawNominal(k) }

// rawNominal is base*factor^(k-1) (base*k for linear growth, base*k^factor and
// base*(k-1)^factor for the polynomial ones) in nanoseconds, unclamped but kept finite: factor
// 100 over 999 retries overflows float64, and 1e300 is far beyond any cap while still safe to
// multiply by u.
func (p Params) rawNominal(k int) float64 {
	// math.Pow with a whole exponent is repeated squaring: the same bits on every platform
	// (Validate keeps a polynomial's power whole).
	switch p.Growth {
	case Linear:
		return float64(p.Base) * float64(k)
	case Polynomial:
		return min(1e300, float64(p.Base)*math.Pow(float64(k), p.Factor))
	case Polynomial0:
		return min(1e300, float64(p.Base)*math.Pow(float64(k-1), p.Factor))
	}
	return min(1e300, float64(p.Base)*math.Pow(p.Factor, float64(k-1)))
}

// raws returns rawNominal(k) for k in 1..Attempts-1 (raws[0] is unused). Once the nominal delay
// reaches the cap it stays there, so unless the cap clamps after the jitter (which needs the
// real raw delay) the rest are set to 1e300 without computing a power each.
func (p Params) raws() []float64 {
	raws := make([]float64, p.Attempts)
	capped := false
	for k := 1; k < p.Attempts; k++ {
		if capped {
			raws[k] = 1e300
			continue
		}
		raws[k] = p.rawNominal(k)
		// Past the cap, CapBefore waits on the cap; CapFixed needs raw strictly over it.
		capped = p.CapAt == CapBefore && raws[k] >= float64(p.Cap) || p.CapAt == CapFixed && raws[k] > float64(p.Cap)
	}
	return raws
}

// nominal is min(cap, raw) rounded to the nanosecond, for raw = rawNominal(k); it never
// converts an overflowed float to a Duration.
func (p Params) nominal(raw float64) time.Duration {
	if raw >= float64(p.Cap) {
		return p.Cap
	}
	return min(p.Cap, mathx.RoundNs(raw))
}

// law is the wait of one retry of a mode without a chain (see jitterMode): min(clamp, lo +
// u*(hi-lo)) for u uniform in [0, 1), rounded to the nanosecond, plus off, with its bounds.
// With a step, the wait is lo plus floor(u*n) steps for n = hi/step instead (hi is then the
// width: Envoy's whole milliseconds, Sidekiq's and Celery's whole seconds), plus off.
type law struct {
	lo, hi, clamp float64
	step          float64
	off           time.Duration // the offset, added after the draw and the clamp
	min, max      time.Duration // with off
}

// law returns the law of retry k, whose raw nominal delay is raw = rawNominal(k) (passed in: it
// is the one costly step).
func (p Params) law(k int, raw float64) law {
	m := &modes[p.Jitter]
	nominal := p.nominal(raw)
	d, clamp, off := float64(nominal), math.Inf(1), p.Offset
	switch {
	case p.FirstExact && k == 1:
		// Exactly base, which is the nominal delay of retry 1 but for polynomial0's 0.
		nominal, d = p.Base, float64(p.Base)
		fallthrough
	case p.CapAt == CapFixed && raw > float64(p.Cap):
		return law{lo: d, hi: d, clamp: clamp, off: off, min: nominal + off, max: nominal + off}
	case p.CapAt == CapAfter && m.step == nil:
		d, clamp = raw, float64(p.Cap)
	}
	l := law{clamp: clamp, off: off}
	lo, hi := m.bounds(p, k, d)
	if m.step != nil {
		l.lo, l.step = lo, float64(m.step(k))
		l.hi = math.Floor((hi-lo)/l.step) * l.step
		l.min, l.max = mathx.RoundNs(lo)+off, mathx.RoundNs(lo+max(0, l.hi-l.step))+off
		return l
	}
	l.lo, l.hi = lo, hi
	l.min, l.max = mathx.RoundNs(min(clamp, l.lo))+off, mathx.RoundNs(min(clamp, l.hi))+off
	return l
}

// at is the wait for draw u; it stays within [min, max] even where rounding the sum could step
// half a nanosecond past a bound.
func (l law) at(u float64) time.Duration {
	if l.step > 0 {
		// u*hi rounds up to hi for the largest draws of a long range: that is the last step.
		i := min(math.Floor(float64(u*l.hi)/l.step), max(0, l.hi/l.step-1))
		return mathx.RoundNs(l.lo+float64(i*l.step)) + l.off
	}
	return l.linear(u)
}

// linear is at for a law without a step: the herd calls it for every draw, and the sampling
// writes it again inline (retryWaits.fill), where its call cost a fifth of the time in wasm.
func (l law) linear(u float64) time.Duration {
	// Not min(l.clamp, v): in WebAssembly a float's min is a call into the runtime, once for
	// every draw. clamp is never NaN, and the sign of a zero is lost in the rounding.
	v := l.lo + float64(u*(l.hi-l.lo))
	if v > l.clamp {
		v = l.clamp
	}
	w := mathx.RoundNs(v) + l.off
	return max(l.min, min(l.max, w))
}

// mean is E[min(clamp, X)] for X uniform on [lo, hi], plus off: with lo < c < hi it is
// c - (c-lo)^2 / (2(hi-lo)), a form that does not overflow when hi is huge. With a step, the
// wait is lo plus 0, 1, ..., n-1 steps, each as likely: the mean is lo plus (n-1)/2 steps, the
// middle of min and max.
func (l law) mean() float64 {
	if l.step > 0 {
		return float64(l.min) + float64(l.max-l.min)/2
	}
	lo, hi, c := l.lo, l.hi, l.clamp
	var m float64
	switch {
	case c >= hi:
		m = lo/2 + hi/2
	case c <= lo:
		m = c
	default:
		m = c - (c-lo)*(c-lo)/(2*(hi-lo))
	}
	// Rounding the bounds can move them past the exact mean by under half a nanosecond.
	return max(float64(l.min), min(float64(l.max), m+float64(l.off)))
}
