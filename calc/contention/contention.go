// Package contention is the AWS post's contention experiment. It imports calc/policy for the
// policy whose waits its clients may draw, and nothing else of the project but calc's internal
// packages; calc, the link's front, reads its inputs and keys (inputs.go). calc/doc.go and
// docs/contention.md say what it models.
package contention

import (
	"fmt"
	"math"
	"time"

	"backoffcalc/calc/internal/mathx"
	"backoffcalc/calc/policy"
)

// The contention experiment is the one of the AWS Architecture Blog's "Exponential
// Backoff And Jitter" (2015), as its simulator (aws-samples/aws-arch-backoff-simulator,
// src/backoff_simulator.py) runs it: N clients, all starting at 0, each want one successful
// write to one row under optimistic concurrency. A client reads the row's version, then writes
// with the version it read; the write succeeds only if no other write landed in between, and
// then increments the version. Each one-way hop takes |Normal(Hop, HopSD)|
// and the server answers at once. After its n-th failed write a client waits its mode's wait for
// n, then reads again. Calls are the writes (reads are not counted); the completion time is when
// the last client's successful write is answered. The simulation is run.go; its normal draws
// are normal.go. Its limits (MaxContenders, MaxRuns) and its inputs' keys are inputs.go's.

// The experiment's network, the simulator's Net(10, 2): one-way hops of |Normal(10ms, 2ms)|.
const (
	Hop   = 10 * time.Millisecond
	HopSD = 2 * time.Millisecond
)

// Mode is how a client waits after a failed write: one of the simulator's five
// backoffs, on the policy's base and cap with the simulator's own formulas, or the policy's own
// waits with one jitter mode (Policy). n is the number of failed writes so far, from 1.
type Mode uint8

const (
	// None reads again at once (the simulator's NoBackoff, "None"): only the hops
	// separate a client's attempts.
	None Mode = iota
	// Exponential waits min(cap, base·2^n) (ExpoBackoff): retry 1 waits 2·base.
	Exponential
	// Full waits uniform in [0, min(cap, base·2^n)] (ExpoBackoffFullJitter).
	Full
	// Equal waits v/2 + uniform in [0, v/2] for v = min(cap, base·2^n)
	// (ExpoBackoffEqualJitter).
	Equal
	// Decorrelated waits sleep = min(cap, uniform(base, 3·sleep)), sleep starting at
	// base (ExpoBackoffDecorr): exactly this calculator's decorrelated jitter.
	Decorrelated

	policyModes // Policy(j) is policyModes + j
)

// Policy returns the mode that waits as the policy does with jitter j: after failure n
// it waits what policy.Params.Wait gives for retry n, with the policy's factor, cap placement, growth,
// first retry, ratio and add. Attempts and budget do not apply: as in the simulator, every
// client keeps trying until its write succeeds.
func Policy(j policy.Jitter) Mode { return policyModes + Mode(j) }

// Jitter returns the jitter mode of a Policy mode; ok is false for the simulator's
// five.
func (m Mode) Jitter() (j policy.Jitter, ok bool) {
	if m < policyModes {
		return 0, false
	}
	return policy.Jitter(m - policyModes), true
}

// exists reports whether m is one of the simulator's five or the policy's with a jitter mode.
func (m Mode) exists() bool { return int(m) < int(policyModes)+len(policy.AllJitters()) }

// The simulator's five, by their names in links and tables, and in a sentence of their own.
var (
	names  = [policyModes]string{"nobackoff", "exponential", "fulljitter", "equaljitter", "decorrelatedjitter"}
	titles = [policyModes]string{"No backoff", "Exponential backoff", "Full jitter", "Equal jitter", "Decorrelated jitter"}
)

// String names the mode: nobackoff, exponential, fulljitter, equaljitter, decorrelatedjitter,
// or "policy-" and the jitter mode's name (policy-full).
func (m Mode) String() string {
	switch j, ok := m.Jitter(); {
	case !m.exists():
		return fmt.Sprintf("ContentionMode(%d)", uint8(m))
	case ok:
		return "policy-" + j.String()
	}
	return names[m]
}

// Title names the mode in a sentence of its own: "Full jitter" for the simulator's, "This
// policy (Upward jitter)" for the policy's. m must exist.
func (m Mode) Title() string {
	if j, ok := m.Jitter(); ok {
		return "This policy: " + j.Title()
	}
	return titles[m]
}

// Modes lists the simulator's five modes, in the order the tables show them.
func Modes() []Mode {
	return []Mode{None, Exponential, Full, Equal, Decorrelated}
}

// ModesOf lists the modes the contention table of p runs: the simulator's five, then the policy's
// own waits with its jitter, whatever it is (a library's too).
func ModesOf(p policy.Params) []Mode {
	return append(Modes(), Policy(p.Jitter))
}

// Wait returns the wait of mode m after failure n (n >= 1) for the draw u in [0, 1),
// and the state to pass for failure n+1; state is what failure n-1 returned, or for n = 1 base in
// nanoseconds for Decorrelated (the simulator's sleep starts at base), FirstState of the
// policy for Policy, 0 otherwise. The simulator's modes use p's base and cap only;
// Policy(j) is p.WithJitter(j).Wait(n, u, state). With base 5ms and cap 2s, failure 1
// waits 10ms with Exponential, and 5ms with u = 0.5 under Full.
func Wait(p policy.Params, m Mode, n int, u, state float64) (time.Duration, float64) {
	// v is the simulator's expo(n) = min(cap, 2^n·base); Ldexp is exact, and past the cap it
	// only needs to be large.
	v := func() float64 { return min(float64(p.Cap), math.Ldexp(float64(p.Base), n)) }
	switch m {
	case None:
		return 0, state
	case Exponential:
		return mathx.RoundNs(v()), state
	case Full: // random.uniform(0, v)
		return mathx.RoundNs(float64(u * v())), state
	case Equal: // v/2 + random.uniform(0, v/2)
		h := v() / 2
		return mathx.RoundNs(h + float64(u*h)), state
	case Decorrelated: // sleep = min(cap, random.uniform(base, 3·sleep)): calc's decorrelated
		return p.WithJitter(policy.Decorrelated).Wait(n, u, state)
	}
	j, _ := m.Jitter()
	return p.WithJitter(j).Wait(n, u, state)
}

// first is the state Wait takes for failure 1 of m.
func first(p policy.Params, m Mode) float64 {
	if j, ok := m.Jitter(); ok {
		return p.WithJitter(j).FirstState()
	}
	if m == Decorrelated {
		return float64(p.Base)
	}
	return 0
}

// RunSpread is a measure over the runs of the experiment: its mean, its sample standard
// deviation (0 for one run), and its least, median (p50), p90 and greatest values, the
// percentiles by nearest rank.
type RunSpread struct {
	Mean, SD           float64
	Min, P50, P90, Max float64
}

// StdErr is the standard error of the mean: SD/√runs.
func (s RunSpread) StdErr(runs int) float64 { return s.SD / math.Sqrt(float64(runs)) }

// Result is what one mode gives at one number of clients over Runs runs: Calls counts
// the writes of a run, Time its completion time in nanoseconds.
type Result struct {
	Mode    Mode
	Clients int
	Runs    int
	Calls   RunSpread
	Time    RunSpread
}

// Run runs the experiment with n clients, runs times for each mode of modes, in order. Run
// r (from 0) gives client i (from 0) the random stream rand.NewPCG(p.Seed, r<<32|i) in every mode
// and at every n, so that the modes are compared on the same draws. The simulator's modes read
// p's base and cap; Policy reads the policy. p must be valid. It returns a *policy.FieldError
// for n (key contenders) or runs out of range, or an error for a mode that does not exist.
//
// With one client there is nothing to contend with: one read and one write, 4 hops, so 1 call
// and a time near 40ms in every mode.
func Run(p policy.Params, n, runs int, modes ...Mode) ([]Result, error) {
	out, _, err := RunPausing(p, n, runs, modes, nil)
	return out, err
}

// RunPausing is Run, calling pause after every PauseEvery writes; when pause
// returns false it stops at once, returning the modes finished so far and done false. A page
// calls it off the input path. Pausing does not change the result.
func RunPausing(p policy.Params, n, runs int, modes []Mode, pause func() bool) (out []Result, done bool, err error) {
	if err := checkContention(n, runs, modes); err != nil {
		return nil, false, err
	}
	e := newContention(p, postNet, pause)
	for _, m := range modes {
		r, ok := e.result(m, n, runs)
		if !ok {
			return out, false, nil
		}
		out = append(out, r)
	}
	return out, true, nil
}

// The sweep is over the post's numbers of clients: 10, 20, ..., 200.
const (
	SweepFrom = 10
	SweepTo   = 200
	SweepStep = 10
)

// Point is the sweep at one number of clients: one result per mode.
type Point struct {
	Clients int
	Results []Result
}

// Sweep runs Run at n = SweepFrom, SweepFrom+SweepStep, ..., SweepTo, runs times for each mode,
// as the post's figures do. pause, if not nil, is called as RunPausing calls
// it; when it returns false the sweep stops with the points finished so far and done false.
func Sweep(p policy.Params, runs int, modes []Mode, pause func() bool) (points []Point, done bool, err error) {
	if err := checkContention(SweepTo, runs, modes); err != nil {
		return nil, false, err
	}
	e := newContention(p, postNet, pause)
	for n := SweepFrom; n <= SweepTo; n += SweepStep {
		pt := Point{Clients: n}
		for _, m := range modes {
			r, ok := e.result(m, n, runs)
			if !ok {
				return points, false, nil
			}
			pt.Results = append(pt.Results, r)
		}
		points = append(points, pt)
	}
	return points, true, nil
}

// checkContention reports n or runs out of range, as the query decoder does, or a mode that does
// not exist.
func checkContention(n, runs int, modes []Mode) error {
	if n < 1 || n > MaxContenders {
		return &policy.FieldError{Key: "contenders", Value: fmt.Sprint(n), Err: fmt.Errorf("must be between 1 and %d", MaxContenders)}
	}
	if runs < 1 || runs > MaxRuns {
		return &policy.FieldError{Key: "runs", Value: fmt.Sprint(runs), Err: fmt.Errorf("must be between 1 and %d", MaxRuns)}
	}
	for _, m := range modes {
		if !m.exists() {
			return fmt.Errorf("calc: no contention mode %d", uint8(m))
		}
	}
	return nil
}
