package libs

import (
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// daprConstantAttempts is how many attempts the dapr-constant preset shows: a Dapr retry policy
// retries without limit by default (maxRetries = -1), and a table needs an end.
const daprConstantAttempts = 10

// daprExponentialAttempts is every attempt dapr-exponential can make: its 15 min end the retries
// after 20 to 40 attempts, 40 when every wait is drawn at its least.
const daprExponentialAttempts = 40

const daprVersion = "dapr/dapr v1.18.3 (2026-08) with github.com/dapr/kit v0.18.3 and cenkalti/backoff v4.3.0, the newest (read)"

var daprPresets = []Preset{
	{
		Name: "dapr-constant", Library: "Dapr resiliency retry policy, constant (the default policy)",
		Short: "Dapr, constant", Basis: "the library's defaults, with the first 10 attempts: a Dapr retry policy retries without limit by default (maxRetries = -1)",
		Version: daprVersion,
		Source:  "dapr/kit retry/retry.go: DefaultConfig, Config.NewBackOff; dapr/dapr pkg/resiliency/resiliency.go: decodePolicies",
		Theirs:  "policy = constant, duration = 5s, maxRetries = -1 (no limit)",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 5*sec, 1, 5*sec, daprConstantAttempts, policy.None
		}),
		Notes: []string{
			"A retry policy of a Resiliency spec that sets nothing but its name retries without end (maxRetries = -1), every 5 s (cenkalti/backoff v4's ConstantBackOff): the table shows the first 10 attempts only.",
			"Set maxRetries to the retries after the first call: attempts = maxRetries + 1.",
			"Where no Resiliency policy targets the app, service invocation uses the built-in DaprBuiltInServiceRetries (pkg/messaging/direct_messaging.go: invokeWithRetry): 3 retries every 1 s, this preset with duration 1s and maxRetries 3.",
			"matching.httpStatusCodes and gRPCStatusCodes choose which failures are retried, a policy's timeout bounds each attempt and a circuit breaker can stop the retries: not modelled.",
			"The Export panel has no exporter for Dapr yet.",
		},
	},
	{
		Name: "dapr-exponential", Library: "Dapr resiliency retry policy, exponential",
		Short: "Dapr, exponential", Basis: "the library's defaults with policy = exponential, with 40 attempts and its 15 min as the budget: it has no limit on retries by default (maxRetries = -1)",
		Version: daprVersion,
		Source:  "dapr/kit retry/retry.go: DefaultConfig, Config.NewBackOff; cenkalti/backoff/v4 exponential.go: NextBackOff, getRandomValueFromInterval",
		Theirs:  "policy = exponential, maxInterval = 60s, maxRetries = -1 (no limit); fixed by Dapr: initialInterval = 500 ms, randomizationFactor = 0.5, multiplier = 1.5, maxElapsedTime = 15 min",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.Budget = 500*msec, 1.5, 60*sec, daprExponentialAttempts, policy.Proportional, 0.5, 15*time.Minute
		}),
		Notes: []string{
			"A Resiliency spec sets only policy, duration (constant only), maxInterval and maxRetries: the other values are cenkalti/backoff v4's defaults, through dapr/kit's DefaultConfig.",
			"Retry k waits a uniform draw in interval × (1 ± 0.5), interval = min(500 ms × 1.5^(k−1), 60 s) (maxInterval caps the interval before the draw, so a wait can reach 90 s): cenkalti-v5's waits.",
			"By default it retries until 15 minutes have passed (cenkalti/backoff v4's MaxElapsedTime: a retry is made if it would start at or before 15 min; here, strictly before): 20 attempts always start, 40 at most, so the preset shows 40 with a 15 min budget. With maxRetries set, attempts = maxRetries + 1 and the 15 min still apply.",
			"dapr/kit keeps randomizationFactor and multiplier as float32, exact for 0.5 and 1.5; cenkalti truncates the interval to whole nanoseconds at every step.",
			"The Export panel has no exporter for Dapr yet.",
		},
	},
}
