package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// temporalAttempts is how many attempts the temporal preset shows: Temporal retries without
// limit by default, and a table needs an end.
const temporalAttempts = 10

var temporalPresets = []Preset{
	{
		Name: "temporal", Library: "Temporal RetryPolicy (activities and local activities)",
		Short: "Temporal", Basis: "the library's defaults, with the first 10 attempts: Temporal never gives up by default (MaximumAttempts = 0, unlimited)",
		Version: "go.temporal.io/sdk v1.51.0 (2026-11), the newest (read); the Temporal server applies the same defaults to activities",
		Source:  "go.temporal.io/sdk internal/internal_task_handlers.go: getRetryBackoffWithNowTime; internal/workflow.go: applyRetryPolicyDefaultsForLocalActivity",
		Theirs:  "InitialInterval = 1 s, BackoffCoefficient = 2.0, MaximumInterval = 100 × InitialInterval = 100 s, MaximumAttempts = 0 (unlimited)",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 100*sec, temporalAttempts, policy.None
		}),
		Notes: []string{
			"Temporal never gives up by default: MaximumAttempts = 0 retries without limit, every 100 s once the interval reaches MaximumInterval. The table shows the first 10 attempts only.",
			"Retry k waits min(InitialInterval × BackoffCoefficient^(k−1), MaximumInterval), without jitter: 1, 2, 4, 8, 16, 32, 64, 100, 100 s.",
			"The Temporal server computes an activity's retries and can have other defaults in its dynamic config; the SDK computes a local activity's itself: not modelled.",
			"An ApplicationError's NextRetryDelay replaces the computed wait, and a ScheduleToCloseTimeout ends the retries whose start would pass it: not modelled.",
		},
	},
}

// temporalLibrary is the Export panel's entry for the library; exportTemporal fills in the rest.
var temporalLibrary = Library{Lib: "temporal", Title: "Temporal RetryPolicy (Go SDK, JSON)", Presets: []string{"temporal"}}

func exportTemporal(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "Temporal", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	// Temporal waits min(InitialInterval × BackoffCoefficient^(k−1), MaximumInterval), exactly.
	// MaximumInterval is always written: unset, it is 100 × InitialInterval.
	c := TemporalRetryPolicy{InitialInterval: p.Base, BackoffCoefficient: p.Factor, MaximumInterval: p.Cap, MaximumAttempts: int32(p.Attempts)}
	lib := p
	lib.Jitter, lib.Ratio, lib.Add, lib.CapAt, lib.FirstExact = policy.None, 0, 0, policy.CapBefore, false
	e.Config = c
	e.Snippets = []Snippet{{"go", c.Go()}, {"json", c.JSON()}}
	e.Diffs = compare(s, "Temporal", lib, map[string]string{
		"jitter": "(Temporal draws no jitter.)",
		"capat":  "(MaximumInterval caps the interval.)",
	})
	if d := budgetDiffs(s, "Temporal", budgetNone, "", lib); len(d) > 0 {
		e.Diffs = append(e.Diffs, d[0]+" (An activity's ScheduleToCloseTimeout, outside the RetryPolicy, ends the retries whose start would pass it, and also an attempt still running then.)")
	}
	e.Model = lib
	return e
}

// TemporalRetryPolicy is a Temporal RetryPolicy in the SDK's own terms. Go writes it as the Go
// SDK's struct, JSON as the API's JSON.
type TemporalRetryPolicy struct {
	InitialInterval    time.Duration
	BackoffCoefficient float64
	MaximumInterval    time.Duration // 0: 100 × InitialInterval
	MaximumAttempts    int32         // attempts, the first included; 0 retries without limit
}

// Policy is what Temporal does with c, in calc's terms, as exportTemporal's Model says: no
// jitter, no time limit; MaximumAttempts 0 (unlimited) shows the temporal preset's 10 attempts.
func (c TemporalRetryPolicy) Policy() policy.Policy {
	pol := policy.Policy{Base: c.InitialInterval, Factor: c.BackoffCoefficient, Cap: c.MaximumInterval, Attempts: int(c.MaximumAttempts), Jitter: policy.None}
	if pol.Cap == 0 {
		pol.Cap = min(100*pol.Base, policy.MaxCap)
	}
	if pol.Attempts == 0 {
		pol.Attempts = temporalAttempts
	}
	return pol
}

// Go is c as the Go SDK's RetryPolicy, for an activity's or a local activity's options.
func (c TemporalRetryPolicy) Go() string {
	var b strings.Builder
	b.WriteString("// MaximumAttempts counts the first attempt; 0 would retry without limit.\nretryPolicy := &temporal.RetryPolicy{\n")
	goStruct(&b, "\t", [][2]string{
		{"InitialInterval", goDurationExpr(c.InitialInterval, false)},
		{"BackoffCoefficient", strconv.FormatFloat(c.BackoffCoefficient, 'f', -1, 64)},
		{"MaximumInterval", goDurationExpr(c.MaximumInterval, false)},
		{"MaximumAttempts", strconv.Itoa(int(c.MaximumAttempts))},
	})
	b.WriteString("}\n")
	return b.String()
}

// JSON is c as the API's JSON (an activity's retryPolicy).
func (c TemporalRetryPolicy) JSON() string {
	return "{\n  \"initialInterval\": \"" + protoDuration(c.InitialInterval) + "\",\n" +
		"  \"backoffCoefficient\": " + strconv.FormatFloat(c.BackoffCoefficient, 'f', -1, 64) + ",\n" +
		"  \"maximumInterval\": \"" + protoDuration(c.MaximumInterval) + "\",\n" +
		"  \"maximumAttempts\": " + strconv.Itoa(int(c.MaximumAttempts)) + "\n}\n"
}
