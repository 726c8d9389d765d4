package libs

import (
	"math"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// stepFunctionsPage is where the preset's formula and defaults are read: Step Functions is a
// service, not a library, so the preset transcribes its documentation.
const stepFunctionsPage = `Amazon States Language, "Retrying after an error" (AWS Step Functions Developer Guide)`

var stepFunctionsPresets = []Preset{
	{
		Name: "stepfunctions", Library: "AWS Step Functions Retry (a Task, Parallel or Map state's retrier)",
		Short:   "Step Functions",
		Version: "the Step Functions service (MaxDelaySeconds and JitterStrategy since 2023-09), as documented in 2026-12 (read through aws-cdk-lib v2.275.0's RetryProps and JitterType); transcribed, not run",
		Source:  stepFunctionsPage,
		Theirs:  "IntervalSeconds = 1, BackoffRate = 2.0, MaxAttempts = 3 (retries, the first attempt not counted), MaxDelaySeconds unset (no cap), JitterStrategy = NONE",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, policy.MaxCap, 4, policy.None
		}),
		Notes: []string{
			"Step Functions is a service: the preset transcribes its documentation, it is not run.",
			"Retry k waits IntervalSeconds × BackoffRate^(k−1), without jitter: 1, 2, 4 s, 7 s of waiting over 4 attempts.",
			"MaxDelaySeconds, unset by default, caps that interval: set the cap to it (the preset's cap is the calculator's largest, 168 h, as there is none).",
			"JitterStrategy FULL waits a uniform draw between 0 and the capped interval: the calculator's full jitter, with the cap before it.",
			"IntervalSeconds and MaxDelaySeconds are whole seconds. A state's several retriers, each matching its own errors (ErrorEquals) with its own count, and the state's TimeoutSeconds: not modelled.",
		},
	},
}

// stepFunctionsLibrary is the Export panel's entry for the service; exportStepFunctions fills in
// the rest.
var stepFunctionsLibrary = Library{Lib: "stepfunctions", Title: "AWS Step Functions: a Retry field (JSON)", Presets: []string{"stepfunctions"}}

func exportStepFunctions(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "Step Functions", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	// IntervalSeconds × BackoffRate^(k−1), capped at MaxDelaySeconds, then JitterStrategy FULL
	// draws uniformly below it; both intervals are whole seconds, at least 1 s.
	lib := p
	lib.Base, lib.Cap = sfnSeconds(p.Base), sfnSeconds(p.Cap)
	lib.Ratio, lib.Add, lib.CapAt, lib.FirstExact = 0, 0, policy.CapBefore, false
	jitter := "NONE"
	switch p.Jitter {
	case policy.Full, policy.FullMs: // FullMs: the nearest, not in whole milliseconds
		lib.Jitter, jitter = policy.Full, "FULL"
	default:
		lib.Jitter = policy.None
	}
	lib, capped := pickCap(s, lib)
	c := StepFunctionsRetrier{IntervalSeconds: int64(lib.Base / time.Second), BackoffRate: p.Factor, MaxAttempts: p.Attempts - 1, JitterStrategy: jitter}
	if capped {
		c.MaxDelaySeconds = int64(lib.Cap / time.Second)
	}
	e.Config = c
	e.Snippets = []Snippet{{"json", c.JSON()}}
	why := map[string]string{
		"base":   "(IntervalSeconds is whole seconds, at least 1.)",
		"jitter": "(JitterStrategy is FULL, uniform in [0, d], or NONE.)",
		"capat":  "(MaxDelaySeconds caps the interval before the jitter.)",
		"first":  "(JitterStrategy FULL draws every retry.)",
	}
	if capped {
		why["cap"] = "(MaxDelaySeconds is whole seconds, at least 1.)"
	}
	e.Diffs = compare(s, "Step Functions", lib, why)
	e.Diffs = append(e.Diffs, budgetDiffs(s, "Step Functions", budgetNone, "", lib)...)
	e.Model = lib
	return e
}

// sfnSeconds is d in whole seconds, rounded to the nearest, at least 1 s.
func sfnSeconds(d time.Duration) time.Duration {
	return max(time.Second, time.Duration(math.Round(d.Seconds()))*time.Second)
}

// StepFunctionsRetrier is one retrier of a Step Functions state's Retry, in the Amazon States
// Language's own terms. JSON writes it as a state's Retry field.
type StepFunctionsRetrier struct {
	IntervalSeconds int64 // at least 1
	BackoffRate     float64
	MaxAttempts     int    // retries, the first attempt not counted
	MaxDelaySeconds int64  // 0: not written, no cap
	JitterStrategy  string // FULL or NONE
}

// Policy is what Step Functions does with c, in calc's terms, as exportStepFunctions's Model
// says: whole seconds, the cap before the jitter, no time limit.
func (c StepFunctionsRetrier) Policy() policy.Policy {
	pol := policy.Policy{Base: time.Duration(c.IntervalSeconds) * time.Second, Factor: c.BackoffRate, Cap: policy.MaxCap, Attempts: c.MaxAttempts + 1}
	if c.MaxDelaySeconds > 0 {
		pol.Cap = time.Duration(c.MaxDelaySeconds) * time.Second
	}
	if c.JitterStrategy == "FULL" {
		pol.Jitter = policy.Full
	}
	return pol
}

// JSON is c as a state's Retry field, retrying every error.
func (c StepFunctionsRetrier) JSON() string {
	var b strings.Builder
	b.WriteString("{\n  \"Retry\": [\n    {\n      \"ErrorEquals\": [\"States.ALL\"],\n")
	b.WriteString("      \"IntervalSeconds\": " + strconv.FormatInt(c.IntervalSeconds, 10) + ",\n")
	b.WriteString("      \"BackoffRate\": " + strconv.FormatFloat(c.BackoffRate, 'f', -1, 64) + ",\n")
	b.WriteString("      \"MaxAttempts\": " + strconv.Itoa(c.MaxAttempts) + ",\n")
	if c.MaxDelaySeconds > 0 {
		b.WriteString("      \"MaxDelaySeconds\": " + strconv.FormatInt(c.MaxDelaySeconds, 10) + ",\n")
	}
	b.WriteString("      \"JitterStrategy\": \"" + c.JitterStrategy + "\"\n    }\n  ]\n}\n")
	return b.String()
}
