package libs

import "backoffcalc/calc"

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
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, calc.MaxCap, 4, calc.None
		}),
		Notes: []string{
			"Step Functions is a service: the preset transcribes its documentation, it is not run.",
			"Retry k waits IntervalSeconds × BackoffRate^(k−1), without jitter: 1, 2, 4 s, 7 s of waiting over 4 attempts.",
			"MaxDelaySeconds, unset by default, caps that interval: set the cap to it (the preset's cap is the calculator's largest, 168 h, as there is none).",
			"JitterStrategy FULL waits a uniform draw between 0 and the capped interval: the calculator's full jitter, with the cap before it.",
			"IntervalSeconds and MaxDelaySeconds are whole seconds. A state's several retriers, each matching its own errors (ErrorEquals) with its own count, and the state's TimeoutSeconds: not modelled.",
			"The Export panel has no exporter for Step Functions yet.",
		},
	},
}
