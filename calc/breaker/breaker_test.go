package breaker

import (
	"fmt"
	"testing"
	"time"
)

// step is one event of a hand-derived script: at at, either a call asks (ask) and the breaker
// must answer allow (and probe), or the result of the call asked at step call arrives (failed,
// took). state is the breaker's state after the step.
type step struct {
	at           time.Duration
	ask          bool
	allow, probe bool
	call         int // for a result: the index of the step that asked
	failed       bool
	took         time.Duration
	state        State
}

// runSteps plays steps on b and fails on the first answer or state not as the script says.
func runSteps(t *testing.T, b Breaker, steps []step) {
	t.Helper()
	permits := map[int]Permit{}
	for i, s := range steps {
		if s.ask {
			p := b.Allow(s.at)
			if p.Allowed != s.allow || p.Probe != s.probe {
				t.Fatalf("step %d at %v: allowed %v probe %v, want %v %v", i, s.at, p.Allowed, p.Probe, s.allow, s.probe)
			}
			permits[i] = p
		} else {
			p, ok := permits[s.call]
			if !ok || !p.Allowed {
				t.Fatalf("step %d: result of step %d, which was not let through", i, s.call)
			}
			b.Record(s.at, p, s.failed, s.took)
		}
		if got := b.State(); got != s.state {
			t.Fatalf("step %d at %v: state %v, want %v", i, s.at, got, s.state)
		}
	}
}

// calls appends n calls, one per tick from at, each asked and then answered at once with
// failed, all let through while the breaker stays in state.
func calls(steps []step, at, tick time.Duration, n int, failed bool, state State) []step {
	for range n {
		steps = append(steps,
			step{at: at, ask: true, allow: true, state: state},
			step{at: at, call: len(steps), failed: failed, state: state})
		at += tick
	}
	return steps
}

// last sets the state after the last step: the call that trips or closes.
func last(steps []step, s State) []step {
	steps[len(steps)-1].state = s
	return steps
}

const (
	bClosed = Closed
	bOpen   = Open
	bHalf   = HalfOpen
	sec     = time.Second
)

func TestGobreakerScript(t *testing.T) {
	// Five failures in a row keep it bClosed (ReadyToTrip is > 5); a success starts the count
	// again; the 6th failure in a row opens it at 12 s, until strictly after 72 s.
	s := calls(nil, 0, sec, 5, true, bClosed)
	s = calls(s, 5*sec, sec, 1, false, bClosed)
	s = last(calls(s, 6*sec, sec, 6, true, bClosed), bOpen)
	s = append(s,
		step{at: 71 * sec, ask: true, state: bOpen},
		// The first call after the bOpen period is the probe; MaxRequests is 1, so the next waits.
		step{at: 71*sec + 1, ask: true, allow: true, probe: true, state: bHalf},
		step{at: 71*sec + 2, ask: true, state: bHalf},
		// The probe fails: bOpen again for 60 s from its result.
		step{at: 73 * sec, call: len(s) + 1, failed: true, state: bOpen},
		step{at: 133 * sec, ask: true, state: bOpen},
		step{at: 134 * sec, ask: true, allow: true, probe: true, state: bHalf},
	)
	// Its success closes, and the counts start from nothing: six more failures to trip.
	s = append(s, step{at: 135 * sec, call: len(s) - 1, state: bClosed})
	s = last(calls(s, 136*sec, sec, 6, true, bClosed), bOpen)
	runSteps(t, newGobreaker(Defaults()), s)

	// A result of a call let through before a change of state is dropped: the slow call asked
	// at 0 succeeds while half-bOpen and neither closes nor counts.
	s = []step{{at: 0, ask: true, allow: true, state: bClosed}}
	s = last(calls(s, sec, 0, 6, true, bClosed), bOpen)
	s = append(s,
		step{at: 62 * sec, ask: true, allow: true, probe: true, state: bHalf},
		step{at: 63 * sec, call: 0, state: bHalf},
		step{at: 64 * sec, ask: true, state: bHalf},
	)
	runSteps(t, newGobreaker(Defaults()), s)
}

func TestResilience4jScript(t *testing.T) {
	// 51 successes then 49 failures: at the 100th call 49% failed, below 50%; the 101st, a
	// failure, pushes the first success out: 50 of the last 100, and it opens.
	s := calls(nil, 0, sec, 51, false, bClosed)
	s = calls(s, 51*sec, sec, 49, true, bClosed)
	s = last(calls(s, 100*sec, sec, 1, true, bClosed), bOpen)
	// Open 60 s from 100 s, strictly: the call at 160 s is rejected, not counted.
	s = append(s, step{at: 160 * sec, ask: true, state: bOpen})
	// Ten permits; the 11th call is rejected. The 10 results decide: 5 failures is 50%, bOpen.
	first := len(s)
	for i := range 11 {
		s = append(s, step{at: 161 * sec, ask: true, allow: i < 10, probe: i < 10, state: bHalf})
	}
	for i := range 10 {
		s = append(s, step{at: 162 * sec, call: first + i, failed: i%2 == 0, state: bHalf})
	}
	s = last(s, bOpen)
	// Again after 60 s: 4 failures of 10 close it.
	first = len(s)
	for range 10 {
		s = append(s, step{at: 222*sec + 1, ask: true, allow: true, probe: true, state: bHalf})
	}
	for i := range 10 {
		s = append(s, step{at: 223 * sec, call: first + i, failed: i < 4, state: bHalf})
	}
	s = last(s, bClosed)
	// Closed again with an empty window: 99 failures are below the minimum of 100 calls.
	s = last(calls(s, 224*sec, sec, 100, true, bClosed), bOpen)
	runSteps(t, newResilience4j(Defaults()), s)

	// 100 successes slower than 60 s: 100% slow calls bOpen it on the 100th.
	s = nil
	for i := range 100 {
		s = append(s,
			step{at: time.Duration(i) * sec, ask: true, allow: true, state: bClosed},
			step{at: time.Duration(i) * sec, call: len(s), took: 61 * sec, state: bClosed})
	}
	runSteps(t, newResilience4j(Defaults()), last(s, bOpen))
}

func TestPollyScript(t *testing.T) {
	// 10 failures: 10 calls, below the throughput of 100. 90 successes make 100 calls with 10%
	// failed, but only a failure checks; the next failure (11 of 101) opens it.
	s := calls(nil, 0, 100*time.Millisecond, 10, true, bClosed)
	s = calls(s, sec, 100*time.Millisecond, 90, false, bClosed)
	s = last(calls(s, 10*sec, 0, 1, true, bClosed), bOpen)
	s = append(s,
		step{at: 15*sec - 1, ask: true, state: bOpen},
		// At 5 s exactly (≥) the call is the probe; every other call is rejected until it returns.
		step{at: 15 * sec, ask: true, allow: true, probe: true, state: bHalf},
		step{at: 30 * sec, ask: true, state: bHalf},
		// The probe fails: bOpen for 5 s from then.
		step{at: 31 * sec, call: len(s) + 1, failed: true, state: bOpen},
		step{at: 36*sec - 1, ask: true, state: bOpen},
		step{at: 36 * sec, ask: true, allow: true, probe: true, state: bHalf},
	)
	// Its success closes and clears the metrics: 99 failures then do not bOpen it (throughput).
	s = append(s, step{at: 37 * sec, call: len(s) - 1, state: bClosed})
	s = last(calls(s, 38*sec, 10*time.Millisecond, 100, true, bClosed), bOpen)
	runSteps(t, newPolly(Defaults()), s)

	// Failures older than the sampling duration drop out: 9 failures at 0 and 91 successes do
	// not reach 10%; at 30 s the window of 0 s is gone, and the check after a failure at 30 s
	// sees 92 calls, below the throughput.
	s = calls(nil, 0, 0, 9, true, bClosed)
	s = calls(s, sec, 0, 91, false, bClosed)
	s = calls(s, 30*sec, 0, 1, true, bClosed)
	runSteps(t, newPolly(Defaults()), s)
}

func TestFailsafeScript(t *testing.T) {
	s := calls(nil, 0, sec, 3, false, bClosed)
	s = last(calls(s, 3*sec, 0, 1, true, bClosed), bOpen)
	s = append(s,
		step{at: 63*sec - 1, ask: true, state: bOpen},
		// At 1 minute exactly (≥): one permit; the next call is rejected.
		step{at: 63 * sec, ask: true, allow: true, probe: true, state: bHalf},
		step{at: 63 * sec, ask: true, state: bHalf},
		step{at: 64 * sec, call: len(s) + 1, failed: true, state: bOpen},
		step{at: 124 * sec, ask: true, allow: true, probe: true, state: bHalf},
	)
	s = append(s, step{at: 125 * sec, call: len(s) - 1, state: bClosed})
	runSteps(t, newFailsafe(Defaults()), s)
}

// draws returns the draws in order and fails the test when asked for more.
func draws(t *testing.T, d ...float64) func() float64 {
	return func() float64 {
		if len(d) == 0 {
			t.Fatal("a draw no one expected")
		}
		x := d[0]
		d = d[1:]
		return x
	}
}

func TestSREScript(t *testing.T) {
	// 10 failures in the first bucket. The 7th to 10th calls already see a drop ratio, (6 − 5)/7
	// to (9 − 5)/10, and draw 0.99: through. Then w = 1.5 − 0.4/40 = 1.49, no successes, so the
	// ratio is (10 − 5)/(10 + 1) = 0.4545: a draw of 0.45 rejects. The rejection counts as a
	// request: (11 − 5)/12 = 0.5, and a draw of 0.5 lets through.
	s := calls(nil, 0, 10*time.Millisecond, 10, true, bClosed)
	s = append(s,
		step{at: 200 * time.Millisecond, ask: true, state: bClosed},
		step{at: 300 * time.Millisecond, ask: true, allow: true, state: bClosed},
		// More than a second after that pass, a call always goes through (no draw).
		step{at: 1300*time.Millisecond + 1, ask: true, allow: true, state: bClosed},
		// 10 s later the window is empty: nothing to drop.
		step{at: 12 * sec, ask: true, allow: true, state: bClosed},
	)
	runSteps(t, newSRE(draws(t, 0.99, 0.99, 0.99, 0.99, 0.45, 0.5)), s)

	// Five requests of protection: 5 failures drop nothing.
	runSteps(t, newSRE(draws(t)), calls(nil, 0, 0, 6, true, bClosed))
}

// TestBreakersComplete fails for a Kind constant without a complete entry in the table of
// breakers. What the overload model says of each is checked with its table (calc's
// TestBreakerSayingsComplete).
func TestBreakersComplete(t *testing.T) {
	seen := map[string]bool{}
	names := Names()
	for k := range Count {
		b := breakers[k]
		if b.name == "" || b.source == "" {
			t.Fatalf("BreakerKind(%d): no name or source", k)
		}
		if seen[b.name] {
			t.Errorf("BreakerKind(%d): name %q twice", k, b.name)
		}
		seen[b.name] = true
		if (b.fresh == nil) != (k == None) {
			t.Errorf("%s: only none makes no breaker", b.name)
		}
		if got := k.String(); got != b.name || names[k] != b.name || k.Source() != b.source {
			t.Errorf("BreakerKind(%d).String() = %q, want %q", k, got, b.name)
		}
		if k != None && New(k, Defaults(), func() float64 { return 0.5 }).State() != Closed {
			t.Errorf("%s: a new breaker is not closed", b.name)
		}
	}
	if got := Count.String(); got != fmt.Sprintf("BreakerKind(%d)", Count) {
		t.Errorf("Count.String() = %q", got)
	}
	if got := Kinds(); len(got) != int(Count) || got[0] != None {
		t.Errorf("Kinds() = %v", got)
	}
}

// gbfailures=2 trips gobreaker on the 3rd failure in a row, for 10 s with gbopen=10s, and
// gbhalfopen=2 then lets 2 calls through, which both must succeed to close.
func TestGobreakerParams(t *testing.T) {
	p := Defaults()
	p.GobreakerFailures, p.GobreakerTimeout, p.GobreakerMaxRequests = 2, 10*time.Second, 2
	s := calls(nil, 0, time.Second, 3, true, Closed)
	s = last(s, Open)
	s = append(s,
		step{at: 12 * time.Second, ask: true, state: Open}, // open until strictly after 12 s
		step{at: 12*time.Second + 1, ask: true, allow: true, probe: true, state: HalfOpen},
		step{at: 12*time.Second + 2, ask: true, allow: true, probe: true, state: HalfOpen},
		step{at: 12*time.Second + 3, ask: true, state: HalfOpen},
		step{at: 13 * time.Second, call: len(s) + 1, state: HalfOpen},
		step{at: 13 * time.Second, call: len(s) + 2, state: Closed})
	runSteps(t, New(Gobreaker, p, nil), s)
}
