package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var cenkaltiPresets = []Preset{
	{
		Name: "cenkalti-v5", Library: "cenkalti/backoff v5: ExponentialBackOff with Retry's defaults",
		Short: "cenkalti/backoff v5", Basis: "the library's defaults, with 30 attempts and its 15 min as the budget: it has no limit on tries",
		Version: "cenkalti/backoff v5.0.3 (2025), the newest v5 (read)", Source: "exponential.go: NextBackOff, getRandomValueFromInterval; retry.go: Retry",
		Theirs: "InitialInterval = 500 ms, RandomizationFactor = 0.5, Multiplier = 1.5, MaxInterval = 60 s; MaxElapsedTime = 15 min, no limit on tries",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.Budget = 500*msec, 1.5, 60*sec, 30, policy.Proportional, 0.5, 15*time.Minute
		}),
		Notes: []string{
			"MaxInterval caps the interval before the randomization, so a wait can reach 90 s.",
			"It retries until 15 minutes have passed (a retry is made if it would start at or before 15 min; here, strictly before): the preset shows 30 attempts with a 15 min budget.",
			"It truncates the interval to whole nanoseconds at every step, so from retry 10 on its interval can be a few nanoseconds shorter than 500 ms × 1.5^(k−1).",
		},
	},
}

// cenkaltiLibrary is the Export panel's entry for the library; exportCenkalti fills in the rest.
var cenkaltiLibrary = Library{Lib: "cenkalti", Title: "cenkalti/backoff v5 (Go)", Presets: []string{"cenkalti-v5"}}

func exportCenkalti(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "cenkalti/backoff", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	lib := p
	lib.CapAt, lib.FirstExact = policy.CapBefore, false
	scale, ratio, ok := asProportional(p.Jitter, p.Ratio)
	comment := ""
	switch {
	case ok && p.Jitter == policy.Full:
		comment = "// Full jitter: an interval of half the delay, randomized by ±100%,\n// waits uniformly between 0 and the delay.\n"
	case ok && p.Jitter == policy.Equal:
		comment = "// Equal jitter: an interval of 3/4 of the delay, randomized by ±1/3,\n// waits uniformly between half the delay and the delay.\n"
	case ok && p.Jitter == policy.Upward:
		comment = "// Upward jitter: an interval of (1 + r/2) × the delay, randomized by\n// ±r/(2 + r), waits uniformly between the delay and (1 + r) × it.\n"
	case p.Jitter == policy.FullMs: // the nearest: full jitter, not in whole milliseconds
		scale, ratio, ok = 0.5, 1, true
		lib.Jitter = policy.Full
		comment = "// Full jitter: an interval of half the delay, randomized by ±100%.\n"
	case p.Jitter == policy.Additive: // the nearest: no jitter
		scale, ratio, ok = 1, 0, true
		lib.Jitter = policy.None
	}
	if !ok {
		e.Diffs = []string{"cenkalti/backoff cannot express jitter " + p.Jitter.String() + "."}
		return e
	}
	c := CenkaltiConfig{
		InitialInterval: scaled(p.Base, scale), RandomizationFactor: ratio, Multiplier: p.Factor,
		MaxInterval: scaled(p.Cap, scale), MaxTries: p.Attempts, MaxElapsedTime: p.Budget,
	}
	e.Config = c
	e.Snippets = []Snippet{{"go", comment + c.Go()}}
	e.Diffs = compare(s, "cenkalti/backoff", lib, map[string]string{
		"capat":  "(MaxInterval caps the interval before the randomization.)",
		"first":  "(Every interval is randomized.)",
		"jitter": "(Its randomization is in proportion to the interval.)",
	})
	e.Model = lib
	return e
}

// CenkaltiConfig is a cenkalti/backoff v5 configuration in the library's own terms: an
// ExponentialBackOff's fields and Retry's limits. Go writes it as code.
type CenkaltiConfig struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxTries            int           // WithMaxTries: attempts, the first call included
	MaxElapsedTime      time.Duration // WithMaxElapsedTime; 0 is no time limit
}

// Go is c as Go code: the ExponentialBackOff and the call to Retry with c's options.
func (c CenkaltiConfig) Go() string {
	var b strings.Builder
	b.WriteString("b := &backoff.ExponentialBackOff{\n")
	goStruct(&b, "\t", [][2]string{
		{"InitialInterval", goDurationExpr(c.InitialInterval, false)},
		{"RandomizationFactor", strconv.FormatFloat(c.RandomizationFactor, 'g', -1, 64)},
		{"Multiplier", strconv.FormatFloat(c.Multiplier, 'g', -1, 64)},
		{"MaxInterval", goDurationExpr(c.MaxInterval, false)},
	})
	b.WriteString("}\nresult, err := backoff.Retry(ctx, operation,\n\tbackoff.WithBackOff(b),\n")
	b.WriteString("\t// Attempts, the first call included.\n\tbackoff.WithMaxTries(" + strconv.Itoa(c.MaxTries) + "),\n")
	if c.MaxElapsedTime > 0 {
		b.WriteString("\t// No retry that would start after this time from the first call.\n\tbackoff.WithMaxElapsedTime(" + goDurationExpr(c.MaxElapsedTime, true) + "),\n)\n")
	} else {
		b.WriteString("\t// No time limit: without this option Retry stops after 15 minutes.\n\tbackoff.WithMaxElapsedTime(0),\n)\n")
	}
	return b.String()
}
