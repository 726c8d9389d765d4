package breaker

import "time"

// polly is Polly v8's circuit breaker (Polly.Core, CircuitBreaker/Controller/
// CircuitStateController.cs with AdvancedCircuitBehavior.cs and Health/RollingHealthMetrics.cs,
// at commit 008b952) with CircuitBreakerStrategyOptions' defaults: FailureRatio 0.1,
// MinimumThroughput 100, SamplingDuration 30 s, BreakDuration 5 s.
//
// The ratio is checked only when a call fails while closed: it opens when the calls of the
// sampling duration number at least MinimumThroughput and failures/calls ≥ FailureRatio. The
// health metrics keep windows of a tenth of the sampling duration, each started by the first
// result after the last one ended, and drop a window once its start is SamplingDuration old;
// successes count in every state, failures in all but half-open, and only closing clears them.
// OnActionPreExecute moves an open breaker to half-open when a call comes at or after
// _blockedUntil and lets that call alone through; the others are rejected until a result comes:
// any success while half-open closes, any failure opens again, whichever call it came from.
type polly struct {
	p                   Params
	state               State
	blockedUntil        time.Duration
	windows             []pollyWindow
	successes, failures int
}

type pollyWindow struct {
	start               time.Duration
	successes, failures int
}

func newPolly(p Params) *polly { return &polly{p: p} }

func (b *polly) State() State { return b.state }

// window is UpdateCurrentWindow: the current window, a new one when the last is a window's
// duration old, after dropping those that started a sampling duration ago.
func (b *polly) window(now time.Duration) *pollyWindow {
	// TimeSpan.FromTicks(samplingDuration.Ticks / 10): ticks of 100 ns.
	length := b.p.PollySampling / 100 / 10 * 100
	if n := len(b.windows); n == 0 || now-b.windows[n-1].start >= length {
		b.windows = append(b.windows, pollyWindow{start: now})
	}
	drop := 0
	for now-b.windows[drop].start >= b.p.PollySampling {
		b.successes -= b.windows[drop].successes
		b.failures -= b.windows[drop].failures
		drop++
	}
	b.windows = b.windows[:copy(b.windows, b.windows[drop:])]
	return &b.windows[len(b.windows)-1]
}

func (b *polly) Allow(now time.Duration) Permit {
	if b.state == Open && now >= b.blockedUntil {
		b.blockedUntil = satAdd(now, b.p.PollyBreak)
		b.state = HalfOpen
		return Permit{Allowed: true, Probe: true}
	}
	return Permit{Allowed: b.state == Closed}
}

func (b *polly) Record(now time.Duration, _ Permit, failed bool, _ time.Duration) {
	if !failed {
		b.successes++
		b.window(now).successes++
		if b.state == HalfOpen {
			b.state = Closed
			b.successes, b.failures, b.windows = 0, 0, b.windows[:0]
		}
		return
	}
	switch b.state {
	case HalfOpen:
		b.open(now)
	case Open:
		b.failures++
		b.window(now).failures++
	default:
		b.failures++
		b.window(now).failures++
		total := b.successes + b.failures
		if total >= b.p.PollyThroughput && float64(b.failures)/float64(total) >= b.p.PollyRatio {
			b.open(now)
		}
	}
}

func (b *polly) open(now time.Duration) {
	b.state = Open
	b.blockedUntil = satAdd(now, b.p.PollyBreak)
}
