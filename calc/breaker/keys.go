package breaker

import "time"

// Key is one query key of the breakers' parameters as calc's key table reads it: its name, the
// field of Params it sets and its range, which calc words as it words every key's. calc draws
// its rows from Keys, in their order, after its breaker keys, so that a new breaker's keys are
// its package's and it touches no calc file. A link leaves each out at its default.
type Key struct {
	Name string
	// The field the key sets: one of Float, Int and Duration.
	Float    func(*Params) *float64
	Int      func(*Params) *int
	Duration func(*Params) *time.Duration
	Range    Range
}

// Range is a key's range. A decimal or a whole number is in [Lo, Hi], or (Lo, Hi] when Above
// (Lo is then 0); a whole number with Of is in [Lo, the value of the key named Of, OfField]; a
// duration is in [Least, Most], where LeastText says how the lower bound reads ("at least
// 500ms"), and a whole number of Unit when Unit is not 0, UnitText saying so otherwise; with
// ZeroText, a duration may also be 0, which ZeroText says the meaning of.
type Range struct {
	Lo, Hi      float64
	Above       bool
	Of          string
	OfField     func(*Params) *int
	Least, Most time.Duration
	LeastText   string
	Unit        time.Duration
	UnitText    string
	ZeroText    string
}

// Keys returns the breakers' keys, in the form's order, each in the range its library accepts
// (Defaults has the defaults); go-zero's SRE throttling has none that can be set.
func Keys() []Key {
	// breakerTime is the range of an open period and a slow-call threshold; pollyTime of
	// Polly's SamplingDuration and BreakDuration: its options' Range attributes, in .NET's
	// ticks of 100ns.
	breakerTime := Range{Least: time.Nanosecond, Most: MaxTime, LeastText: "more than 0"}
	pollyTime := Range{Least: 500 * time.Millisecond, Most: MaxTime, LeastText: "at least 500ms",
		Unit: 100, UnitText: "must be whole multiples of 100ns, .NET's tick"}
	return []Key{
		{Name: "gbfailures", Int: func(p *Params) *int { return &p.GobreakerFailures }, Range: Range{Hi: MaxCount}},
		{Name: "gbhalfopen", Int: func(p *Params) *int { return &p.GobreakerMaxRequests }, Range: Range{Lo: 1, Hi: MaxCount}},
		{Name: "gbopen", Duration: func(p *Params) *time.Duration { return &p.GobreakerTimeout }, Range: breakerTime},
		{Name: "r4jrate", Float: func(p *Params) *float64 { return &p.R4jFailurePercent }, Range: Range{Hi: 100, Above: true}},
		{Name: "r4jslowrate", Float: func(p *Params) *float64 { return &p.R4jSlowPercent }, Range: Range{Hi: 100, Above: true}},
		{Name: "r4jslowafter", Duration: func(p *Params) *time.Duration { return &p.R4jSlowAfter }, Range: breakerTime},
		{Name: "r4jwindow", Int: func(p *Params) *int { return &p.R4jWindow }, Range: Range{Lo: 1, Hi: MaxCount}},
		{Name: "r4jmincalls", Int: func(p *Params) *int { return &p.R4jMinCalls }, Range: Range{Lo: 1, Hi: MaxCount}},
		{Name: "r4jopen", Duration: func(p *Params) *time.Duration { return &p.R4jWait }, Range: Range{Least: time.Millisecond, Most: MaxTime,
			LeastText: "at least 1ms", Unit: time.Millisecond, UnitText: "must be whole milliseconds, as resilience4j keeps it"}},
		{Name: "r4jhalfopen", Int: func(p *Params) *int { return &p.R4jHalfOpen }, Range: Range{Lo: 1, Hi: MaxCount}},
		{Name: "pollyratio", Float: func(p *Params) *float64 { return &p.PollyRatio }, Range: Range{Hi: 1}},
		{Name: "pollythroughput", Int: func(p *Params) *int { return &p.PollyThroughput }, Range: Range{Lo: 2, Hi: MaxCount}},
		{Name: "pollysampling", Duration: func(p *Params) *time.Duration { return &p.PollySampling }, Range: pollyTime},
		{Name: "pollyopen", Duration: func(p *Params) *time.Duration { return &p.PollyBreak }, Range: pollyTime},
		// failsafe's thresholds are counts out of a capacity, which its half-open state subtracts
		// in unsigned numbers: each capacity comes first, and its threshold is at most it.
		{Name: "fsof", Int: func(p *Params) *int { return &p.FailsafeOf }, Range: Range{Lo: 1, Hi: MaxCount}},
		{Name: "fsfailures", Int: func(p *Params) *int { return &p.FailsafeFailures }, Range: Range{Lo: 1, Of: "fsof",
			OfField: func(p *Params) *int { return &p.FailsafeOf }}},
		{Name: "fssuccessof", Int: func(p *Params) *int { return &p.FailsafeSuccessOf }, Range: Range{Hi: MaxCount}},
		{Name: "fssuccesses", Int: func(p *Params) *int { return &p.FailsafeSuccesses }, Range: Range{Of: "fssuccessof",
			OfField: func(p *Params) *int { return &p.FailsafeSuccessOf }}},
		{Name: "fsopen", Duration: func(p *Params) *time.Duration { return &p.FailsafeDelay }, Range: breakerTime},
		{Name: "fsperiod", Duration: func(p *Params) *time.Duration { return &p.FailsafePeriod }, Range: Range{Least: time.Millisecond, Most: MaxTime,
			ZeroText: "count-based: the last results"}},
		{Name: "fsexecutions", Int: func(p *Params) *int { return &p.FailsafeExecutions }, Range: Range{Hi: MaxCount}},
		{Name: "fsrate", Float: func(p *Params) *float64 { return &p.FailsafeRate }, Range: Range{Hi: 1}},
	}
}
