package calc

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
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

// polynomial reports whether g reads factor as its power.
func (g Growth) polynomial() bool { return g == Polynomial || g == Polynomial0 }

func (g Growth) String() string {
	if int(g) < len(growthNames) {
		return growthNames[g]
	}
	return fmt.Sprintf("Growth(%d)", uint8(g))
}

// Limits of the inputs, shared by Validate and the query decoder.
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

	MaxClients  = 100000
	MaxOutage   = 24 * time.Hour
	MaxWindow   = time.Hour
	MaxCapacity = 1000000000
	MaxSpread   = 24 * time.Hour

	// MaxHerdClients is the most clients the herd takes, where MaxClients is the most it
	// simulates: a herd over MaxClients clients or MaxHerdWork client-attempts is counted by its
	// expected counts (calc/fluid), and an open system, simulated client by client, takes at
	// most MaxClients.
	MaxHerdClients = 1000000000

	// The contention experiment's (calc/contention). A client fails at most once per other
	// client's success, so a run makes at most n² writes: with these limits a run is at most
	// 250000 writes, and a client's time at most 499 of the longest waits (under 2^60 ns, so
	// times never overflow).
	MaxContenders     = 500
	MaxRuns           = 1000
	DefaultContenders = 100
	DefaultRuns       = 100

	MaxRate      = 100000
	MaxRun       = 24 * time.Hour
	MaxQueue     = 1000000
	MaxProcesses = 10000
)

// Params is a retry policy and what to compute about it: one struct of inputs per model, each
// embedded so that p.Base or p.Clients reads its field, and each model's code can take only the
// struct it reads. The zero value is not valid; start from Default. Every field is read from a
// query key of its own (Keys), but Preset, which is preset=NAME.
type Params struct {
	Policy
	CallInputs
	SampleInputs
	Preset string // the preset (see Preset) these params are, if they still are; "" otherwise

	HerdInputs
	OverloadInputs
	ContentionInputs
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

// HerdInputs are the herd's: many clients following the policy through an outage (see calc/sim's
// Herd).
type HerdInputs struct {
	Clients  int           // clients in the herd; 1..MaxHerdClients (simulated up to MaxClients and Clients*Attempts <= MaxHerdWork, see HerdSimulated); zero is invalid
	Outage   time.Duration // the server fails every attempt arriving before this time; 0..MaxOutage; zero means none
	Window   time.Duration // the server's capacity window, and the length of the peak's window; more than 0, at most MaxWindow; zero is invalid
	Capacity int           // attempts accepted per window once the outage is over; 0..MaxCapacity; zero means no limit
	Spread   time.Duration // first attempts spread evenly over [0, Spread); 0..MaxSpread; zero starts all at 0
}

// OverloadInputs are the overload model's: the herd as an open system with retry limiters
// (docs/overload-model.md has the exact rules). At their zero values, but Processes and Limits,
// Open is false and the herd is as without them.
type OverloadInputs struct {
	Rate      float64        // new requests per second while the stream runs; 0..MaxRate; zero means no stream
	Run       time.Duration  // how long the stream runs, from 0; 0..MaxRun; zero means no stream
	Arrivals  Spacing        // how the stream's requests are spaced; zero is Even
	Queue     int            // attempts that may wait for a slot at the server; 0..MaxQueue; zero means no queue
	Timeout   time.Duration  // a client stops waiting for an attempt after this; 0..MaxCall; zero means never
	Processes int            // client processes, each with its own limiter; 1..MaxProcesses; zero is invalid
	Limiter   limiter.Kind   // the retry limiter of each process; zero is limiter.None
	Limits    limiter.Params // the limiters' parameters; the zero value is invalid (limiter.Defaults)
	// FailRate is the share of attempts the server fails outside the outage, each on its own
	// seeded draw (docs/overload-model.md, "Errors"); 0 <= FailRate < 1; zero fails none.
	FailRate float64
	// Latency and Slope make an attempt's time in service grow with the load (docs/overload-model.md,
	// "Load-dependent latency"): an attempt the server starts when n attempts are in service,
	// itself counted, is answered Call + Latency + n × Slope later, fixed at its start. Both
	// 0..MaxCall; zero and zero is the model without them (an answer Call after the start).
	Latency, Slope time.Duration
	// Breaker is the circuit breaker each call asks (breaker.go), BreakerAt where it sits around
	// the retries and Breakers whose it is; zero values: none, at each attempt, per process.
	Breaker   breaker.Kind
	BreakerAt BreakerAt
	Breakers  BreakerScope
	// BreakerParams are the breakers' parameters; the zero value is invalid (breaker.Defaults).
	BreakerParams breaker.Params
}

// ContentionInputs are the AWS post's experiment's (calc/contention).
type ContentionInputs struct {
	Contenders int // clients racing to write one row; 1..MaxContenders; zero is invalid
	Runs       int // repetitions the means are over; 1..MaxRuns; zero is invalid
}

// Default returns the policy a blank form shows: 100ms doubling to 10s, 6 attempts, full jitter;
// for the herd, 100 clients all starting at 0 through a 1s outage, then 20 attempts per 100ms.
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
		HerdInputs: HerdInputs{
			Clients:  100,
			Outage:   time.Second,
			Window:   100 * time.Millisecond,
			Capacity: 20,
		},
		OverloadInputs:   OverloadInputs{Processes: 1, Limits: limiter.Defaults(), BreakerParams: breaker.Defaults()},
		ContentionInputs: ContentionInputs{Contenders: DefaultContenders, Runs: DefaultRuns},
	}
}

// WithJitter returns p with another jitter mode.
func (p Params) WithJitter(j Jitter) Params {
	p.Jitter = j
	return p
}

// FieldError reports one bad input. Key is the query key, Value what was given.
type FieldError struct {
	Key   string
	Value string
	Err   error
}

// maxQuoted bounds how much of a value an error repeats: a pasted 100 KB value must not become a
// 100 KB message.
const maxQuoted = 40

func (e *FieldError) Error() string {
	key := e.Key
	if !plainKey().MatchString(key) {
		key = quoteShort(key) // an unknown key, as given (UnknownKeys)
	}
	return fmt.Sprintf("calc: %s %s: %v", key, quoteShort(e.Value), e.Err)
}

// quoteShort quotes s, or its first maxQuoted bytes and its length.
func quoteShort(s string) string {
	if len(s) > maxQuoted {
		return fmt.Sprintf("%s (%d bytes)", quote(s[:maxQuoted]+"…"), len(s))
	}
	return quote(s)
}

func (e *FieldError) Unwrap() error { return e.Err }

// FieldErrors returns the FieldErrors inside err (as returned by Validate or Decode), in order.
func FieldErrors(err error) []*FieldError {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*FieldError
		for _, e := range j.Unwrap() {
			out = append(out, FieldErrors(e)...)
		}
		return out
	}
	// A loop of Unwrap rather than errors.As: As brings reflection into the wasm (11 KB gzip).
	for ; err != nil; err = errors.Unwrap(err) {
		if fe, ok := err.(*FieldError); ok {
			return []*FieldError{fe}
		}
	}
	return nil
}

// Validate reports every field out of its range, with the words Decode uses for a link's value
// out of it, and clients whose herd would be over MaxHerdWork client-attempts, and a stream over
// the overload model's work limit (on rate), each as a *FieldError, joined with errors.Join;
// with none of those, the overload view's cost over MaxOverloadWork (on rate with a stream, on
// clients without) and sampling over MaxSampleWork path-steps (on samples).
func (p Params) Validate() error {
	var errs []error
	for _, k := range keyTable() {
		if k.check == nil {
			continue
		}
		if err := k.check(&p); err != nil {
			errs = append(errs, &FieldError{Key: k.name, Value: k.encode(&p), Err: err})
		}
	}
	if err := openClients(p); err != nil {
		errs = append(errs, &FieldError{Key: "clients", Value: strconv.Itoa(p.Clients), Err: err})
	}
	if between(0, MaxRate)(&p, p.Rate) == nil && within(0, MaxRun, "")(&p, p.Run) == nil && int(p.Arrivals) < len(spacingNames) {
		if err := OverloadWork(p); err != nil {
			errs = append(errs, &FieldError{Key: "rate", Value: formatFloat(p.Rate), Err: err})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if key, err := overloadCost(p); err != nil {
		v := formatFloat(p.Rate)
		if key == "clients" {
			v = strconv.Itoa(p.Clients)
		}
		errs = append(errs, &FieldError{Key: key, Value: v, Err: err})
	}
	if err := sampleWork(p); err != nil {
		errs = append(errs, &FieldError{Key: "samples", Value: strconv.Itoa(p.Samples), Err: err})
	}
	return errors.Join(errs...)
}
