package policy

import (
	"fmt"
	"time"
)

// CapAt says where the cap applies.
type CapAt uint8

const (
	// CapBefore caps the nominal delay before jitter: full and equal never exceed cap, but
	// proportional jitter can reach cap*(1+ratio).
	CapBefore CapAt = iota
	// CapAfter clamps the drawn wait, as resilience4j, Polly's MaxDelay and tenacity's
	// wait_exponential_jitter do: no wait exceeds cap.
	CapAfter
	// CapFixed waits exactly cap, with no jitter, once the nominal delay is over it, as
	// aws-sdk-go-v2 does; below it the jitter applies to the nominal delay.
	CapFixed
)

var capAtNames = [...]string{"before", "after", "fixed"}

// CapAtNames are the cap placements' names, by CapAt: the capat key's values.
func CapAtNames() []string { return capAtNames[:] }

func (c CapAt) String() string {
	if int(c) < len(capAtNames) {
		return capAtNames[c]
	}
	return fmt.Sprintf("CapAt(%d)", uint8(c))
}

// Growth is how the nominal delay grows from one retry to the next.
type Growth uint8

const (
	Exponential Growth = iota // base*factor^(k-1)
	Linear                    // base*k: Polly's DelayBackoffType.Linear; factor is not used
	// Polynomial is base*k^factor: ActiveJob's executions^4. factor is the power, a whole number
	// (a whole power is repeated squaring, the same bits natively and in wasm).
	Polynomial
	// Polynomial0 is base*(k-1)^factor, counting retries from 0 as Sidekiq's count^4 does: the
	// first retry's delay is 0.
	Polynomial0
)

var growthNames = [...]string{"exponential", "linear", "polynomial", "polynomial0"}

// GrowthNames are the growths' names, by Growth: the growth key's values.
func GrowthNames() []string { return growthNames[:] }

// IsPolynomial reports whether g reads factor as its power.
func (g Growth) IsPolynomial() bool { return g == Polynomial || g == Polynomial0 }

func (g Growth) String() string {
	if int(g) < len(growthNames) {
		return growthNames[g]
	}
	return fmt.Sprintf("Growth(%d)", uint8(g))
}

// Limits of the policy's inputs, shared by calc's Validate and its query decoder.
const (
	MaxBase     = 24 * time.Hour
	MaxCap      = 168 * time.Hour
	MaxCall     = 24 * time.Hour
	MaxAdd      = 24 * time.Hour
	MaxOffset   = 24 * time.Hour
	MaxBudget   = 720 * time.Hour
	MaxFactor   = 100
	MaxAttempts = 1000
	MaxLayers   = 10
	MinSamples  = 100
	MaxSamples  = 200000
	DefaultCap  = 10 * time.Second
)

// Params is what the policy core reads: a retry policy, the calls it retries and the simulated
// paths of the percentiles, each embedded so that p.Base or p.Samples reads its field. calc.Params
// embeds it, so that its methods (Schedule, Sample, …) are a link's too. The zero value is not
// valid.
type Params struct {
	Policy
	CallInputs
	SampleInputs
}

// Policy is a retry policy as a library configures it: what a preset sets and the Export panel
// writes. With Base 100ms, Factor 2, Cap 1s and Attempts 6, the nominal waits before attempts
// 2..6 are 100, 200, 400, 800 and 1000 ms. Its zero value is not valid (Base, Factor, Cap and
// Attempts must be set).
type Policy struct {
	Base     time.Duration // nominal delay of the first retry; more than 0, at most MaxBase; zero is invalid
	Factor   float64       // growth per retry, or the power of polynomial growth (a whole number); 1..MaxFactor, zero is invalid; Linear growth does not read it
	Cap      time.Duration // ceiling of the nominal delay (CapBefore) or of the wait (CapAfter, CapFixed); Base..MaxCap; zero is invalid
	Attempts int           // calls in total, the first included; 1..MaxAttempts; zero is invalid
	Jitter   Jitter        // how waits are drawn; zero is None, the nominal delay exactly
	Ratio    float64       // ±fraction of Proportional and Upward; 0..1; zero draws no jitter
	CapAt    CapAt         // where Cap applies; zero is CapBefore

	// What some libraries do that the above does not say (see Preset).
	Growth     Growth        // how the nominal delay grows; zero is Exponential
	FirstExact bool          // the first retry waits exactly base, unjittered (gRPC's connection backoff); false jitters it
	Add        time.Duration // the jitter of Additive: waits in [d, d+Add]; 0..MaxAdd; zero adds none
	Budget     time.Duration // total time from the first attempt's start; 0..MaxBudget; zero means none
	// Offset is added to every wait after the draw and the cap (Sidekiq's 15 s, ActiveJob's
	// 2 s); 0..MaxOffset; zero adds none. The modes whose wait depends on the previous one do
	// not read it.
	Offset time.Duration
}

// CallInputs are the calls the policy retries.
type CallInputs struct {
	Call   time.Duration // how long a failing attempt takes before its error is known; 0..MaxCall; zero fails at once
	Layers int           // stacked layers each retrying with the policy; 1..MaxLayers; zero is invalid
}

// SampleInputs are the simulated paths of the percentiles.
type SampleInputs struct {
	Samples int    // simulated paths; MinSamples..MaxSamples; zero is invalid
	Seed    uint64 // seed of the paths, and of the herd's clients, the stream and the contention runs; any value, zero included
}

// Default returns the policy a blank form shows, with its calls and samples: 100ms doubling to
// 10s, 6 attempts, full jitter; one layer, 10000 samples, seed 1. calc.Default is it with every
// other model's defaults.
func Default() Params {
	return Params{
		Policy: Policy{
			Base:     100 * time.Millisecond,
			Factor:   2,
			Cap:      DefaultCap,
			Attempts: 6,
			Jitter:   Full,
			Ratio:    0.2,
			CapAt:    CapBefore,
		},
		CallInputs:   CallInputs{Layers: 1},
		SampleInputs: SampleInputs{Samples: 10000, Seed: 1},
	}
}

// WithJitter returns p with another jitter mode.
func (p Params) WithJitter(j Jitter) Params {
	p.Jitter = j
	return p
}
