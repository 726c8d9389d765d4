package policy

import (
	"time"
)

// What the core's external tests (package policy_test, which read their policies from links
// with calc.Decode, the front) see of its internals.

const (
	JitterCount   = jitterCount
	MaxDraw       = maxDraw
	PollyScaling  = pollyScaling
	PollyCells    = pollyCells
	PollyTanhOne  = pollyTanhOne
	BracketSample = bracketSample
)

var (
	PollyG           = pollyG
	PollyMeans       = pollyMeans
	FloorDuration    = floorDuration
	FloorFactor      = floorFactor
	Need99           = need99
	QuantilesOf      = quantiles
	BracketQuantiles = bracketQuantiles
)

// HasStep reports whether j's waits are whole steps (its table entry's step).
func (j Jitter) HasStep() bool { return modes[j].step != nil }

func (p Params) RawNominal(k int) float64               { return p.rawNominal(k) }
func (p Params) Nominal(raw float64) time.Duration      { return p.nominal(raw) }
func (p Params) PathsMaking(giveUp int) ([]int, bool)   { return p.pathsMaking(giveUp, nil) }
func (p Params) PollyV2Wait(diff float64) time.Duration { return p.pollyV2().wait(diff) }
