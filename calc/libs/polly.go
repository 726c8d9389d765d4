package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var pollyPresets = []Preset{
	{
		Name: "polly-constant", Library: "Polly v8 retry strategy, constant backoff (the default)",
		Short:   "Polly, constant",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Constant, UseJitter = false, MaxDelay = none",
		Params: preset(func(p *calc.Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 2*sec, 1, 2*sec, 4, policy.None }),
		Notes:  []string{"With UseJitter, a constant or linear delay is multiplied by U[0.75, 1.25]: proportional jitter, ratio 0.25."},
	},
	{
		Name: "polly-linear", Library: "Polly v8 retry strategy, linear backoff",
		Short: "Polly, linear", Basis: "Polly's defaults with BackoffType = Linear",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Linear, UseJitter = false, MaxDelay = none",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Cap, p.Attempts, p.Jitter, p.Growth = 2*sec, policy.MaxCap, 4, policy.None, policy.Linear
		}),
		Notes: []string{"Retry k waits k × Delay: 2, 4, 6 s (growth: linear; factor is not used)."},
	},
	{
		Name: "polly-exponential", Library: "Polly v8 retry strategy, exponential backoff without jitter",
		Short: "Polly, exponential", Basis: "Polly's defaults with BackoffType = Exponential",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Exponential, UseJitter = false, MaxDelay = none",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 2*sec, 2, policy.MaxCap, 4, policy.None
		}),
		Notes: []string{
			"Retry k waits 2^(k−1) × Delay.",
			"With UseJitter, exponential backoff switches to DecorrelatedJitterBackoffV2: see polly-exponential-jitter.",
		},
	},
	{
		Name: "polly-exponential-jitter", Library: "Polly v8 retry strategy, exponential backoff with jitter",
		Short: "Polly, exp. + jitter", Basis: "Polly's defaults with BackoffType = Exponential and UseJitter = true",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: DecorrelatedJitterBackoffV2, GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Exponential, UseJitter = true, MaxDelay = none",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 2*sec, 2, policy.MaxCap, 4, policy.DecorrelatedV2
		}),
		Notes: []string{
			"Retry k draws t = k−1 + U and waits (g(t) − g(the previous retry's t)) × Delay / 1.4, truncated to whole 100 ns ticks, where g(t) = 2^t × tanh(√(4t)) (jitter: decorrelatedv2; factor is not used).",
			"So a wait depends on the previous draw, not on the previous wait: this is not the AWS decorrelated jitter. Retry 1 waits up to 2.75 s, retry 2 up to 5.67 s, retry 3 up to 8.65 s.",
			"MaxDelay, when set, clamps each wait after the draw (cap applies: after, whatever capat says); without it the preset uses the calculator's largest cap, 168 h.",
		},
	},
}

// timeSpan writes d as a .NET TimeSpan, which counts 100 ns ticks.
func timeSpan(d time.Duration) string {
	n, unit := wholeUnit(d, [6]string{"FromHours", "FromMinutes", "FromSeconds", "FromMilliseconds", "", ""})
	if unit == "" {
		return "TimeSpan.FromTicks(" + strconv.FormatInt(int64(d/100), 10) + ")"
	}
	return "TimeSpan." + unit + "(" + strconv.FormatInt(n, 10) + ")"
}

// wholeTicks rounds d to whole 100 ns ticks, at least one.
func wholeTicks(d time.Duration) time.Duration {
	return max(100, (d+50)/100*100)
}

// pollyLibrary is the Export panel's entry for the library; exportPolly fills in the rest.
var pollyLibrary = Library{Lib: "polly", Title: "Polly v8 (C#): RetryStrategyOptions", Presets: []string{"polly-constant", "polly-linear", "polly-exponential", "polly-exponential-jitter"}}

func exportPolly(s *subject) Export {
	p := s.p
	var e Export
	if p.Jitter == policy.Decorrelated {
		e.Diffs = []string{"Polly cannot express decorrelated jitter: with exponential backoff its UseJitter is DecorrelatedJitterBackoffV2 (jitter decorrelatedv2), " +
			"a different formula, whose waits grow with the retry's number and the previous retry's draw, not from the previous wait."}
		return e
	}
	lib := p
	lib.Base, lib.Cap, lib.CapAt, lib.FirstExact = wholeTicks(p.Base), wholeTicks(p.Cap), policy.CapAfter, false
	backoff := "Exponential"
	switch {
	case p.Jitter == policy.DecorrelatedV2: // Polly's own jitter: factor and growth do not apply
	case p.Growth == policy.Linear:
		backoff = "Linear"
	case p.Factor == 1:
		backoff = "Constant"
	default:
		lib.Factor = 2
	}
	jitter := p.Jitter != policy.None
	switch {
	case jitter && backoff == "Exponential": // UseJitter is then DecorrelatedJitterBackoffV2
		lib.Jitter = policy.DecorrelatedV2
	case jitter:
		lib.Jitter, lib.Ratio = policy.Proportional, 0.25
	}
	var diffs []string
	if lib.Base != p.Base {
		diffs = append(diffs, "Polly's TimeSpan counts 100 ns ticks: Delay is "+dur(lib.Base)+", not "+dur(p.Base)+".")
	}
	// MaxDelay clamps the drawn delay; it is set only where the cap changes a wait, and it can be
	// at most a day.
	var capped calc.Params
	var maxDelay bool
	if lib.Jitter == policy.DecorrelatedV2 {
		// Its longest wait grows with every retry: the cap changes a wait when the last retry's
		// longest is at it. calc's largest cap stands for none, where Polly's waits go on growing.
		rows := lib.Schedule().Rows
		capped, maxDelay = lib, rows[len(rows)-1].Max == lib.Cap
	} else {
		capped, maxDelay = pickCap(s, lib)
	}
	const pollyMaxDelay = 24 * time.Hour
	why := map[string]string{
		"base":   whySkip, // said with the ticks
		"factor": "(Polly's exponential backoff always doubles.)",
		"capat":  "(MaxDelay clamps the delay after the jitter.)",
		"first":  "(UseJitter applies to every retry.)",
		"jitter": "(UseJitter draws ±25% for constant and linear backoff.)",
	}
	if lib.Jitter == policy.DecorrelatedV2 {
		why["jitter"] = "(With exponential backoff, that is what UseJitter draws.)"
	}
	if maxDelay && p.Cap > pollyMaxDelay {
		maxDelay = false
		why["cap"] = whySkip
		diffs = append(diffs, "Polly's MaxDelay can be at most 1 day, so the delay is not capped at "+dur(p.Cap)+".")
	}
	if maxDelay {
		lib = capped
	} else {
		lib.Cap = capNone
		// Uncapped, Polly's waits can outgrow calc's largest cap, which then stands in for them.
		for _, r := range lib.Schedule().Rows[1:] {
			if r.Max == capNone {
				diffs = append(diffs, "From retry "+strconv.Itoa(r.Retry)+" on, Polly's waits can pass "+dur(capNone)+
					", the calculator's largest cap: the numbers here stop them there, so Polly can wait longer than they say.")
				break
			}
		}
	}
	const pollyMinTimeout = 10 * time.Millisecond
	budget := p.Budget > 0 && p.Budget >= pollyMinTimeout && p.Budget <= pollyMaxDelay
	c := PollyRetry{MaxRetryAttempts: p.Attempts - 1, Delay: lib.Base, BackoffType: backoff, UseJitter: jitter}
	if budget {
		c.Timeout = wholeTicks(p.Budget)
	}
	if maxDelay {
		c.MaxDelay = lib.Cap
	}
	e.Config = c
	e.Snippets = []Snippet{{"csharp", c.CSharp()}}

	diffs = append(diffs, compare(s, "Polly", lib, why)...)
	if budget {
		diffs = append(diffs, budgetDiffs(s, "Polly", budgetDeadline, "AddTimeout", lib)...)
	} else if p.Budget > 0 {
		diffs = append(diffs, "Polly's timeout must be between 10 ms and 1 day, so the snippet has none.")
		diffs = append(diffs, budgetDiffs(s, "Polly", budgetNone, "", lib)...)
	}
	e.Diffs = diffs
	e.Model = lib
	return e
}

// PollyRetry is a Polly v8 pipeline in the library's own terms: an optional outer timeout and
// a RetryStrategyOptions. CSharp writes it as code.
type PollyRetry struct {
	Timeout          time.Duration // AddTimeout, outermost, in 100 ns ticks; 0: none
	MaxRetryAttempts int           // retries after the first call
	Delay            time.Duration // 100 ns ticks
	BackoffType      string        // DelayBackoffType: Constant, Linear or Exponential
	UseJitter        bool
	MaxDelay         time.Duration // 100 ns ticks, at most a day; 0: not set
}

// Policy is what Polly does with c, in calc's terms, as exportPolly's Model says: Delay in
// whole ticks; Constant, Linear or doubling; UseJitter ±25% for Constant and Linear and
// DecorrelatedJitterBackoffV2 for Exponential; MaxDelay clamping after the draw (none: calc's
// largest cap); the timeout as the budget.
func (c PollyRetry) Policy() policy.Policy {
	pol := policy.Policy{Base: wholeTicks(c.Delay), Factor: 2, Cap: capNone, Attempts: c.MaxRetryAttempts + 1, CapAt: policy.CapAfter, Budget: c.Timeout}
	switch c.BackoffType {
	case "Constant":
		pol.Factor = 1
	case "Linear":
		pol.Growth = policy.Linear
	}
	if c.MaxDelay > 0 {
		pol.Cap = wholeTicks(c.MaxDelay)
	}
	switch {
	case c.UseJitter && c.BackoffType == "Exponential":
		pol.Jitter = policy.DecorrelatedV2
	case c.UseJitter:
		pol.Jitter, pol.Ratio = policy.Proportional, 0.25
	}
	pol, _ = PollyMaxUnderDelay(pol)
	return pol
}

// PollyMaxUnderDelay is pol, a RetryStrategyOptions in calc's terms with MaxDelay as its cap,
// as Polly runs it when MaxDelay is under Delay, which Polly allows (each is checked against 0
// and a day only). Polly 8.7.0's RetryHelper.GetRetryDelay returns MaxDelay for any delay over
// it; without jitter every delay, Constant, Linear or Exponential, is at least Delay, so every
// retry waits MaxDelay: a constant wait of the cap. With jitter ok is false: each drawn delay
// clamped to MaxDelay is a law the calculator does not have, and pol comes back as it was.
func PollyMaxUnderDelay(pol policy.Policy) (_ policy.Policy, ok bool) {
	if pol.Cap >= pol.Base {
		return pol, true
	}
	if pol.Jitter != policy.None {
		return pol, false
	}
	pol.Base, pol.Factor, pol.Growth, pol.Cap = pol.Cap, 1, policy.Exponential, capNone
	return pol, true
}

// CSharp is c as a ResiliencePipelineBuilder, the timeout and MaxDelay only when set, and the
// retry only when it retries.
func (c PollyRetry) CSharp() string {
	var b strings.Builder
	b.WriteString("var pipeline = new ResiliencePipelineBuilder()\n")
	if c.Timeout > 0 {
		b.WriteString("    // Outermost, so that it is a deadline over every attempt.\n    .AddTimeout(" + timeSpan(c.Timeout) + ")\n")
	}
	if c.MaxRetryAttempts == 0 {
		// Polly refuses MaxRetryAttempts = 0 ([Range(1, int.MaxValue)]): one attempt is a
		// pipeline without a retry strategy.
		b.WriteString("    // One attempt: no retry strategy (RetryStrategyOptions' MaxRetryAttempts must be at least 1).\n    .Build();\n")
		return b.String()
	}
	b.WriteString("    .AddRetry(new RetryStrategyOptions\n    {\n")
	b.WriteString("        MaxRetryAttempts = " + strconv.Itoa(c.MaxRetryAttempts) + ", // retries after the first call: " + inAllText(c.MaxRetryAttempts+1) + "\n")
	b.WriteString("        Delay = " + timeSpan(c.Delay) + ",\n")
	b.WriteString("        BackoffType = DelayBackoffType." + c.BackoffType + ",\n")
	b.WriteString("        UseJitter = " + strconv.FormatBool(c.UseJitter) + ",\n")
	if c.MaxDelay > 0 {
		b.WriteString("        MaxDelay = " + timeSpan(c.MaxDelay) + ",\n")
	}
	b.WriteString("    })\n    .Build();\n")
	return b.String()
}
