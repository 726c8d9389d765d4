// go-zero does not build for js/wasm (core/logx uses fs.CloseOnExec): the comparisons run
// natively only.

//go:build !js

package breaker

import (
	"errors"
	"math/rand"
	"slices"
	"testing"
	"testing/synctest"
	"time"
	_ "unsafe" // go:linkname, to give go-zero's relative clock a start inside the bubble

	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	sony "github.com/sony/gobreaker/v2"
	zero "github.com/zeromicro/go-zero/core/breaker"
	"github.com/zeromicro/go-zero/core/logx"
)

// The real breakers read the wall clock (time.Now); synctest's bubble gives them a fake one that
// moves only when every goroutine of the test sleeps, so both sides see the same instants.

// zeroStart is go-zero v1.10.3's core/timex initTime: timex.Now is time.Since(initTime) and the
// breaker takes a last pass of 0 for "none yet". Set at package init from the real clock, it
// is years after the bubble's clock (2000-01-01), so the test moves it back into the bubble.
//
//go:linkname zeroStart github.com/zeromicro/go-zero/core/timex.initTime
var zeroStart time.Time

// realBreaker is a library's breaker behind one interface: allow asks for a call and returns
// how to record its result; state is its state (closed for go-zero, which has none).
type realBreaker interface {
	allow() (ok bool, done func(failed bool))
	state() State
}

var errFailed = errors.New("failed")

type realGobreaker struct {
	cb *sony.TwoStepCircuitBreaker[struct{}]
}

func (r realGobreaker) allow() (bool, func(bool)) {
	done, err := r.cb.Allow()
	if err != nil {
		return false, nil
	}
	return true, func(failed bool) {
		var err error
		if failed {
			err = errFailed
		}
		done(err)
	}
}

func (r realGobreaker) state() State {
	return [...]State{sony.StateClosed: Closed, sony.StateHalfOpen: HalfOpen, sony.StateOpen: Open}[r.cb.State()]
}

type realFailsafe struct {
	cb circuitbreaker.CircuitBreaker[any]
}

func (r realFailsafe) allow() (bool, func(bool)) {
	if !r.cb.TryAcquirePermit() {
		return false, nil
	}
	return true, func(failed bool) {
		if failed {
			r.cb.RecordFailure()
		} else {
			r.cb.RecordSuccess()
		}
	}
}

func (r realFailsafe) state() State {
	return [...]State{circuitbreaker.ClosedState: Closed, circuitbreaker.OpenState: Open, circuitbreaker.HalfOpenState: HalfOpen}[r.cb.State()]
}

type realZero struct{ b zero.Breaker }

func (r realZero) allow() (bool, func(bool)) {
	promise, err := r.b.Allow()
	if err != nil {
		return false, nil
	}
	return true, func(failed bool) {
		if failed {
			promise.Reject("failed")
		} else {
			promise.Accept()
		}
	}
}

func (realZero) state() State { return Closed }

// realScript is a stream of calls: gaps between arrivals drawn from [0, 2·gap), each call's
// time from [0, 2·took), and failures with a probability that switches between the phases'
// every phase long, so that the breakers trip, probe, recover and trip again.
type realScript struct {
	name       string
	calls      int
	gap, took  time.Duration
	phase      time.Duration
	failShares []float64
}

var realScripts = []realScript{
	{"gobreaker-like", 3000, 500 * time.Millisecond, 2 * time.Second, 150 * time.Second, []float64{0.2, 1, 0.9, 0, 0.7}},
	{"slow calls", 2000, 2 * time.Second, 40 * time.Second, 200 * time.Second, []float64{1, 0.5, 0, 0.95}},
	{"dense", 5000, 60 * time.Millisecond, 300 * time.Millisecond, 20 * time.Second, []float64{0, 1, 0.6, 0.1, 0.9, 0.3}},
	{"sparse", 500, 20 * time.Second, time.Second, 1000 * time.Second, []float64{1, 0.3, 0}},
	{"very slow", 2000, 5 * time.Second, 200 * time.Second, 300 * time.Second, []float64{0, 0.3, 1}},
	{"busy", 6000, 100 * time.Millisecond, 500 * time.Millisecond, 40 * time.Second, []float64{0, 0.15, 0.05, 1, 0.08, 0.5}},
}

// scriptsBut are the scripts but those named: the ones where a breaker never rejects a call
// (too few calls in its window to trip).
func scriptsBut(names ...string) []realScript {
	var ss []realScript
	for _, s := range realScripts {
		if !slices.Contains(names, s.name) {
			ss = append(ss, s)
		}
	}
	return ss
}

// compareReal drives the real breaker and ours through script with seed, at the same fake
// instants, and fails on the first decision or state that differs.
func compareReal(t *testing.T, s realScript, seed int64, newReal func() realBreaker, ours func() Breaker) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		real, mine := newReal(), ours()
		rng := rand.New(rand.NewSource(seed))
		type done struct {
			at     time.Duration
			failed bool
			took   time.Duration
			permit Permit
			record func(bool)
		}
		var pending []done // by at
		rejected, probes := 0, 0
		now, next := time.Duration(0), time.Duration(0)
		advance := func(to time.Duration) {
			time.Sleep(to - now)
			now = to
			if got := time.Since(start); got != now {
				t.Fatalf("fake clock at %v, want %v", got, now)
			}
		}
		for call := 0; call < s.calls || len(pending) > 0; {
			if len(pending) > 0 && (call >= s.calls || pending[0].at <= next) {
				d := pending[0]
				pending = pending[1:]
				advance(d.at)
				d.record(d.failed)
				mine.Record(now, d.permit, d.failed, d.took)
				if rs, ms := real.state(), mine.State(); rs != ms {
					t.Fatalf("seed %d at %v: result (failed %v): library %v, ours %v", seed, now, d.failed, rs, ms)
				}
				continue
			}
			advance(next)
			call++
			ok, record := real.allow()
			p := mine.Allow(now)
			if p.Allowed != ok {
				t.Fatalf("seed %d call %d at %v: library allows %v, ours %v", seed, call, now, ok, p.Allowed)
			}
			if rs, ms := real.state(), mine.State(); rs != ms {
				t.Fatalf("seed %d call %d at %v: library %v, ours %v", seed, call, now, rs, ms)
			}
			if !ok {
				rejected++
			}
			if p.Probe {
				probes++
			}
			if ok {
				took := time.Duration(rng.Int63n(int64(2 * s.took)))
				share := s.failShares[int(now/s.phase)%len(s.failShares)]
				d := done{at: now + took, failed: rng.Float64() < share, took: took, permit: p, record: record}
				i, _ := slices.BinarySearchFunc(pending, d.at, func(e done, at time.Duration) int {
					if e.at <= at {
						return -1
					}
					return 1
				})
				pending = slices.Insert(pending, i, d)
			}
			next = now + time.Duration(rng.Int63n(int64(2*s.gap)))
		}
		if rejected == 0 {
			t.Errorf("%s, seed %d: no call rejected: the script tests nothing", s.name, seed)
		}
		t.Logf("%s, seed %d: %d calls, %d rejected, %d probes", s.name, seed, s.calls, rejected, probes)
	})
}

func TestGobreakerAgainstLibrary(t *testing.T) {
	for _, s := range realScripts {
		for seed := range int64(4) {
			compareReal(t, s, seed,
				func() realBreaker {
					return realGobreaker{sony.NewTwoStepCircuitBreaker[struct{}](sony.Settings{})}
				},
				func() Breaker { return New(Gobreaker, Defaults(), nil) })
		}
	}
}

func TestFailsafeAgainstLibrary(t *testing.T) {
	for _, s := range realScripts {
		for seed := range int64(4) {
			compareReal(t, s, seed,
				func() realBreaker { return realFailsafe{circuitbreaker.NewWithDefaults[any]()} },
				func() Breaker { return New(Failsafe, Defaults(), nil) })
		}
	}
}

// TestFailsafeVariantsAgainstLibrary is the builder's other thresholds: a failure ratio over the
// last calls, a success ratio while half-open, failures in a period and a failure rate in a
// period. The periods' buckets are whole seconds, so that the library's buckets, aligned to the
// Unix epoch, start where ours do at the bubble's start (2000-01-01).
func TestFailsafeVariantsAgainstLibrary(t *testing.T) {
	type builder = circuitbreaker.Builder[any]
	for _, c := range []struct {
		name  string
		build func(builder) builder
		set   func(*Params)
	}{
		{"ratio 3 of 5", func(b builder) builder { return b.WithFailureThresholdRatio(3, 5) },
			func(p *Params) { p.FailsafeFailures, p.FailsafeOf = 3, 5 }},
		{"ratio 2 of 4, successes 2 of 3", func(b builder) builder {
			return b.WithFailureThresholdRatio(2, 4).WithSuccessThresholdRatio(2, 3)
		}, func(p *Params) {
			p.FailsafeFailures, p.FailsafeOf, p.FailsafeSuccesses, p.FailsafeSuccessOf = 2, 4, 2, 3
		}},
		{"5 of 10, successes 3", func(b builder) builder { return b.WithFailureThresholdRatio(5, 10).WithSuccessThreshold(3) },
			func(p *Params) {
				p.FailsafeFailures, p.FailsafeOf, p.FailsafeSuccesses, p.FailsafeSuccessOf = 5, 10, 3, 3
			}},
		{"3 in 10 s", func(b builder) builder { return b.WithFailureThresholdPeriod(3, 10*time.Second) },
			func(p *Params) {
				p.FailsafeFailures, p.FailsafeOf, p.FailsafeExecutions, p.FailsafePeriod = 3, 3, 3, 10*time.Second
			}},
		{"rate 0.5 of 20 in 60 s", func(b builder) builder { return b.WithFailureRateThreshold(0.5, 20, time.Minute) },
			func(p *Params) { p.FailsafeRate, p.FailsafeExecutions, p.FailsafePeriod = 0.5, 20, time.Minute }},
		{"rate 0.3 of 5 in 30 s, successes 2 of 4", func(b builder) builder {
			return b.WithFailureRateThreshold(0.3, 5, 30*time.Second).WithSuccessThresholdRatio(2, 4)
		}, func(p *Params) {
			p.FailsafeRate, p.FailsafeExecutions, p.FailsafePeriod = 0.3, 5, 30*time.Second
			p.FailsafeSuccesses, p.FailsafeSuccessOf = 2, 4
		}},
	} {
		p := Defaults()
		c.set(&p)
		p.FailsafeDelay = 10 * time.Second
		t.Run(c.name, func(t *testing.T) {
			for _, s := range scriptsBut("sparse") {
				for seed := range int64(2) {
					compareReal(t, s, seed,
						func() realBreaker {
							return realFailsafe{c.build(circuitbreaker.NewBuilder[any]().WithDelay(10 * time.Second)).Build()}
						},
						func() Breaker { return New(Failsafe, p, nil) })
				}
			}
		})
	}
}

func TestSREAgainstGoZero(t *testing.T) {
	logx.Disable()                                        // its alerts on every rejection
	for _, s := range scriptsBut("sparse", "very slow") { // calls 5 s apart or more: a window of 10 s never holds enough
		for seed := range int64(4) {
			compareReal(t, s, seed,
				func() realBreaker {
					saved := zeroStart
					t.Cleanup(func() { zeroStart = saved })
					zeroStart = time.Now().AddDate(-1, -1, -1)
					return realZero{zero.NewBreaker()}
				},
				func() Breaker {
					// mathx.NewProba seeds from time.Now().UnixNano(): the bubble's fixed start.
					draws := rand.New(rand.NewSource(time.Now().UnixNano()))
					return New(SRE, Defaults(), draws.Float64)
				})
		}
	}
}
