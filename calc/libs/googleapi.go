package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var googleAPIPresets = []Preset{
	{
		Name: "google-api-core", Library: "google-api-core (Python) Retry",
		Short: "google-api-core", Basis: "the library's defaults, with 20 attempts and its 120 s timeout as the budget: it has no limit on attempts",
		Version: "google-api-core 2.11.0 (2022-12) and later (read in 2.29.0, 2026-01; its code has since moved to googleapis/google-cloud-python, packages/google-api-core)",
		Source:  "google/api_core/retry/retry_base.py: exponential_sleep_generator (google/api_core/retry.py before 2.16.0)",
		Theirs:  "initial = 1 sec, maximum = 60 sec, multiplier = 2, timeout = 120 sec, no limit on attempts",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Budget = sec, 2, 60*sec, 20, policy.Full, 120*sec
		}),
		Notes: []string{
			"Retry k waits uniform(0, min(1 × 2^(k−1), 60)) s: full jitter.",
			"It retries until the 120 s timeout: the preset shows 20 attempts with a 120 s budget.",
		},
	},
}
