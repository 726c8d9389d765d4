package libs

import "backoffcalc/calc"

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
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 100*sec, temporalAttempts, calc.None
		}),
		Notes: []string{
			"Temporal never gives up by default: MaximumAttempts = 0 retries without limit, every 100 s once the interval reaches MaximumInterval. The table shows the first 10 attempts only.",
			"Retry k waits min(InitialInterval × BackoffCoefficient^(k−1), MaximumInterval), without jitter: 1, 2, 4, 8, 16, 32, 64, 100, 100 s.",
			"The Temporal server computes an activity's retries and can have other defaults in its dynamic config; the SDK computes a local activity's itself: not modelled.",
			"An ApplicationError's NextRetryDelay replaces the computed wait, and a ScheduleToCloseTimeout ends the retries whose start would pass it: not modelled.",
			"The Export panel has no exporter for Temporal yet.",
		},
	},
}
