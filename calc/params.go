package calc

import (
	"errors"
	"strconv"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// Limits of the models' inputs, shared by Validate and the query decoder; the policy's are
// calc/policy's.
const (
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
	policy.Params        // the policy, its calls and its samples: what calc/policy reads
	Preset        string // the preset (see Preset) these params are, if they still are; "" otherwise

	HerdInputs
	OverloadInputs
	contention.Inputs // the contention experiment's (calc/contention)
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

// Default returns the policy a blank form shows: 100ms doubling to 10s, 6 attempts, full jitter;
// for the herd, 100 clients all starting at 0 through a 1s outage, then 20 attempts per 100ms.
func Default() Params {
	return Params{
		Params: policy.Default(),
		HerdInputs: HerdInputs{
			Clients:  100,
			Outage:   time.Second,
			Window:   100 * time.Millisecond,
			Capacity: 20,
		},
		OverloadInputs: OverloadInputs{Processes: 1, Limits: limiter.Defaults(), BreakerParams: breaker.Defaults()},
		Inputs:         contention.Inputs{Contenders: contention.DefaultContenders, Runs: contention.DefaultRuns},
	}
}

// WithJitter returns p with another jitter mode.
func (p Params) WithJitter(j policy.Jitter) Params {
	p.Jitter = j
	return p
}

// Validate reports every field out of its range, with the words Decode uses for a link's value
// out of it, and clients whose herd would be over MaxHerdWork client-attempts, and a stream over
// the overload model's work limit (on rate), each as a *FieldError, joined with errors.Join;
// with none of those, the overload view's cost over MaxOverloadWork (on rate with a stream, on
// clients without) and sampling over MaxSampleWork path-steps (on samples).
func (p Params) Validate() error { return p.validate(true) }

// ValidateUnsampled is Validate without the sampling's work limit: what the models that sample
// none of the policy's paths ask (the herd, overload and fluid models), and compare's B, whose
// paths are never sampled (DecodeUnsampled).
func (p Params) ValidateUnsampled() error { return p.validate(false) }

func (p Params) validate(sampled bool) error {
	var errs []error
	for _, k := range keyTable() {
		if k.Check == nil {
			continue
		}
		if err := k.Check(&p); err != nil {
			errs = append(errs, &policy.FieldError{Key: k.Name, Value: k.Encode(&p), Err: err})
		}
	}
	if err := openClients(p); err != nil {
		errs = append(errs, &policy.FieldError{Key: "clients", Value: strconv.Itoa(p.Clients), Err: err})
	}
	if between(0, MaxRate)(&p, p.Rate) == nil && within(0, MaxRun, "")(&p, p.Run) == nil && int(p.Arrivals) < len(spacingNames) {
		if err := OverloadWork(p); err != nil {
			errs = append(errs, &policy.FieldError{Key: "rate", Value: policy.FormatFloat(p.Rate), Err: err})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if key, err := overloadCost(p); err != nil {
		v := policy.FormatFloat(p.Rate)
		if key == "clients" {
			v = strconv.Itoa(p.Clients)
		}
		errs = append(errs, &policy.FieldError{Key: key, Value: v, Err: err})
	}
	if err := p.SampleWork(); err != nil && sampled {
		errs = append(errs, &policy.FieldError{Key: "samples", Value: strconv.Itoa(p.Samples), Err: err})
	}
	return errors.Join(errs...)
}
