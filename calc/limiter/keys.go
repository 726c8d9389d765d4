package limiter

import "time"

// Key is one query key of the limiters' parameters as calc's key table reads it: its name, the
// field of Params it sets and its range, which calc words as it words every key's. calc draws
// its rows from Keys, in their order, after its limiter key, so that a new limiter's keys are
// its package's and it touches no calc file.
type Key struct {
	Name string
	// The field the key sets: one of Float, Int and Duration.
	Float    func(*Params) *float64
	Int      func(*Params) *int
	Duration func(*Params) *time.Duration
	Range    Range
	// Unused says a link leaves the key out at its default even with a stream (a key added
	// after links were shared, so that those stay the same); otherwise, as every key of the
	// overload model, a link writes it with a stream.
	Unused bool
}

// Range is a key's range. A decimal or a whole number is in [Lo, Hi], or (Lo, Hi] when Above
// (Lo is then 0); a duration is in [Least, Most], where LeastText says how the lower bound reads
// ("at least 1s"), and a whole number of Unit when Unit is not 0, UnitText saying so otherwise.
type Range struct {
	Lo, Hi      float64
	Above       bool
	Least, Most time.Duration
	LeastText   string
	Unit        time.Duration
	UnitText    string
}

// Keys returns the limiters' keys, in the form's order.
func Keys() []Key {
	return []Key{
		{Name: "maxtokens", Float: func(p *Params) *float64 { return &p.GRPCMaxTokens }, Range: Range{Hi: MaxGRPCTokens, Above: true}},
		{Name: "tokenratio", Float: func(p *Params) *float64 { return &p.GRPCTokenRatio }, Range: Range{Hi: MaxGRPCTokens, Above: true}},
		{Name: "ttl", Duration: func(p *Params) *time.Duration { return &p.FinagleTTL }, Range: Range{Least: time.Second, Most: MaxFinagleTTL,
			LeastText: "at least 1s", Unit: time.Second, UnitText: "must be whole seconds, as Finagle's ttl is"}},
		{Name: "minretries", Int: func(p *Params) *int { return &p.FinagleMinRetries }, Range: Range{Hi: MaxCount}},
		{Name: "retrypct", Float: func(p *Params) *float64 { return &p.FinaglePercent }, Range: Range{Hi: MaxFinaglePercent}},
		{Name: "budgetpct", Float: func(p *Params) *float64 { return &p.EnvoyPercent }, Range: Range{Hi: 100}},
		{Name: "minconcurrency", Int: func(p *Params) *int { return &p.EnvoyMinConcurrency }, Range: Range{Hi: MaxCount}},
		// failsafe-go's budget: its own keys, as its rate is of requests and retries in flight,
		// not Envoy's percent of attempts; left out at their defaults even with a stream, so
		// that the links written before them stay the same.
		{Name: "fsmaxrate", Float: func(p *Params) *float64 { return &p.FailsafeMaxRate }, Range: Range{Hi: 1}, Unused: true},
		{Name: "fsminconcurrency", Int: func(p *Params) *int { return &p.FailsafeMinConcurrency }, Range: Range{Hi: MaxCount}, Unused: true},
	}
}
