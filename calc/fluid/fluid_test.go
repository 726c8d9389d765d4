package fluid

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// simulated is the per-client simulation's mean over seeds: per window, and in total.
type simulated struct {
	arrivals, se, sd                             []float64 // mean, its standard error, the runs' deviation
	attempts, accepted, gaveUp, peakBack, lastAt []float64 // per seed
}

func simulate(t *testing.T, p calc.Params, m calc.HerdMode, seeds int) simulated {
	t.Helper()
	var s simulated
	var sum, sq []float64
	for i := range seeds {
		q := p
		q.Seed = uint64(1000 + i)
		h, done, err := sim.HerdModePausing(q, m, nil)
		if err != nil || !done {
			t.Fatalf("%s: %v", m, err)
		}
		for len(sum) < len(h.Arrivals) {
			sum, sq = append(sum, 0), append(sq, 0)
		}
		for w, n := range h.Arrivals {
			sum[w] += float64(n)
			sq[w] += float64(n) * float64(n)
		}
		s.attempts = append(s.attempts, float64(h.Attempts))
		s.accepted = append(s.accepted, float64(h.Accepted))
		s.gaveUp = append(s.gaveUp, float64(h.GaveUp))
		s.peakBack = append(s.peakBack, float64(h.PeakBack))
		s.lastAt = append(s.lastAt, float64(h.LastAccepted))
	}
	n := float64(seeds)
	for w := range sum {
		mean := sum[w] / n
		v := max(0, (sq[w]-n*mean*mean)/(n-1))
		s.arrivals = append(s.arrivals, mean)
		s.sd = append(s.sd, math.Sqrt(v))
		s.se = append(s.se, math.Sqrt(v/n))
	}
	return s
}

func meanSE(x []float64) (float64, float64) {
	n := float64(len(x))
	m, v := 0.0, 0.0
	for _, a := range x {
		m += a / n
	}
	for _, a := range x {
		v += (a - m) * (a - m) / (n - 1)
	}
	return m, math.Sqrt(v / n)
}

func allModes() []calc.HerdMode {
	modes := []calc.HerdMode{calc.Immediate}
	for _, j := range policy.AllJitters() {
		modes = append(modes, calc.Backoff(j))
	}
	return modes
}

// Without capacity the model is the expectation: every window's expected count is within 4.5
// standard errors of the simulation's mean over 48 seeds, plus a grid error of 0.5% of the
// clients, for every mode, with and without a spread, a call and a budget. Each window's
// deviation (SD) is within 0.6 to 1.6 times the simulation's over the seeds (measured: 0.79 to
// 1.38), where that is 3 or more.
func TestNoCapacityMatchesSimulation(t *testing.T) {
	base := calc.Default()
	base.Clients, base.Capacity = 1000, 0
	spread := base
	spread.Spread, spread.Call, spread.Budget, spread.Outage = 300*time.Millisecond, 20*time.Millisecond, 2500*time.Millisecond, 1500*time.Millisecond
	lo, hi := math.Inf(1), 0.0
	defer func() { t.Logf("deviation per window, model / simulation: %.2f to %.2f", lo, hi) }()
	for _, c := range []struct {
		name string
		p    calc.Params
	}{{"defaults", base}, {"spread, call and budget", spread}} {
		for _, m := range allModes() {
			if m == calc.Backoff(policy.Sidekiq) || m == calc.Backoff(policy.Sidekiq7) || m == calc.Backoff(policy.FullSec) {
				c.p.Window = time.Second // whole seconds: the default window gives 1,500 windows
			} else {
				c.p.Window = 100 * time.Millisecond
			}
			r, err := Mode(c.p, m)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, m, err)
			}
			s := simulate(t, c.p, m, 48)
			grid := 0.005 * float64(c.p.Clients)
			worst := 0.0
			for w := range max(len(s.arrivals), len(r.Arrivals)) {
				var got, want, se float64
				if w < len(r.Arrivals) {
					got = r.Arrivals[w]
				}
				if w < len(s.arrivals) {
					want, se = s.arrivals[w], s.se[w]
				}
				if d := math.Abs(got - want); d > 4.5*se+grid {
					t.Errorf("%s %s window %d: model %.2f, simulation %.2f ± %.2f", c.name, m, w, got, want, se)
				} else if se > 0 {
					worst = max(worst, d/se)
				}
			}
			for _, tot := range []struct {
				name string
				got  float64
				sim  []float64
			}{{"attempts", r.Attempts, s.attempts}, {"accepted", r.Accepted, s.accepted}, {"gave up", r.GaveUp, s.gaveUp}} {
				want, se := meanSE(tot.sim)
				if d := math.Abs(tot.got - want); d > 4.5*se+grid {
					t.Errorf("%s %s %s: model %.2f, simulation %.2f ± %.2f", c.name, m, tot.name, tot.got, want, se)
				}
			}
			for w := range min(len(s.sd), len(r.SD)) {
				if s.sd[w] >= 3 {
					ratio := r.SD[w] / s.sd[w]
					lo, hi = min(lo, ratio), max(hi, ratio)
					if ratio > 1.6 || ratio < 0.6 {
						t.Errorf("%s %s window %d: deviation %.1f, the simulation's over seeds %.1f", c.name, m, w, r.SD[w], s.sd[w])
					}
				}
			}
			t.Logf("%s %-14s worst window %.1f standard errors, work %d", c.name, m, worst, r.Work)
		}
	}
}

// The model's limits are refused on the key that lowers them, with the value given.
func TestLimits(t *testing.T) {
	big := calc.Default()
	big.Clients = MaxClients + 1
	long := calc.Default()
	long.Clients, long.Attempts, long.Cap, long.Jitter = 1000000000, 40, 48*time.Hour, policy.Decorrelated
	for _, c := range []struct {
		name, key string
		p         calc.Params
		m         calc.HerdMode
	}{
		{"clients over 10^9", "clients", big, calc.Backoff(policy.Full)},
		{"a 2-day cap", "window", long, calc.Backoff(policy.Decorrelated)},
	} {
		_, err := Mode(c.p, c.m)
		var fe *policy.FieldError
		if !errors.As(err, &fe) || fe.Key != c.key {
			t.Errorf("%s: %v, want an error on %s", c.name, err, c.key)
			continue
		}
		t.Logf("%s: %v", c.name, err)
	}
	ok := calc.Default()
	ok.Clients = MaxClients
	if _, err := Mode(ok, calc.Backoff(policy.Full)); err != nil {
		t.Errorf("10^9 clients: %v", err)
	}
}

// ModePausing asks its pause as it sweeps and stops when told, with no error; told to go on,
// it is Mode.
func TestModePausing(t *testing.T) {
	p := calc.Default()
	p.Clients, p.Attempts = 1_000_000_000, 12
	want, err := Mode(p, calc.Backoff(policy.Full))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	got, done, err := ModePausing(p, calc.Backoff(policy.Full), func() bool { calls++; return true })
	if err != nil || !done || calls == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("going on: done %v, %v, %d pauses, same run %v", done, err, calls, reflect.DeepEqual(got, want))
	}
	calls = 0
	_, done, err = ModePausing(p, calc.Backoff(policy.Full), func() bool { calls++; return false })
	if err != nil || done || calls != 1 {
		t.Errorf("stopped: done %v, %v after %d pauses", done, err, calls)
	}
}

// No count is below 0 and no deviation is NaN, whatever the mode: a window's mass is a
// difference of running sums, and at 12 attempts of full jitter one came out −1.2e-8 of the
// clients, its deviation NaN, which the engine's JSON could not carry to the page.
func TestCountsAreCounts(t *testing.T) {
	for _, attempts := range []int{6, 12, 20} {
		p := calc.Default()
		p.Clients, p.Attempts = 1_000_000_000, attempts
		runs, err := Herd(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			for w := range r.Arrivals {
				if !(r.Arrivals[w] >= 0) || !(r.SD[w] >= 0) {
					t.Errorf("attempts=%d %s: window %d: %v ± %v", attempts, r.Mode, w, r.Arrivals[w], r.SD[w])
					break
				}
			}
		}
	}
}
