package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var istioPresets = []Preset{
	{
		Name: "istio", Library: "Istio default HTTP retry policy (a route without retries set, on Envoy)",
		Short:   "Istio",
		Version: "Istio 1.10.0 (2021) and later (read in 1.30.3, 2026-07, the newest release)",
		Source:  "pilot/pkg/networking/core/route/retry/retry.go: DefaultPolicy; Envoy source/common/common/backoff_strategy.cc: JitteredExponentialBackOffStrategy::nextBackOffMs",
		Theirs:  "attempts = 2 (Envoy num_retries: 3 calls), retryOn = connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes; no backoff set, so Envoy's base_interval = 25 ms, max_interval = 250 ms",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 25*msec, 2, 250*msec, 3, policy.FullMs
		}),
		Notes: []string{
			"Istio writes num_retries = 2 into every outbound route without a retries field, and no retry_back_off: Envoy then draws retry k in 0 to min(2^(k−1) × 25, 250) − 1 whole milliseconds: retry 1 in 0..24 ms, retry 2 in 0..49 ms.",
			"It retries only connect-failure, refused-stream and gRPC's unavailable and cancelled (retriable-status-codes lists no code by default): a 503 from the application is not retried. The calculator retries every failure.",
			"A VirtualService's retries.backoff sets only base_interval; Envoy's max_interval is then 10 × it. Istio disables the route timeout by default (0s): no budget.",
			"Retry budget: a DestinationRule's trafficPolicy.retryBudget (Istio 1.27 and later) is Envoy's cluster retry budget: set the overload limiter to envoy, budgetpct = percent (default 20) and minconcurrency = minRetryConcurrency (default 3; 0 there means 3). Before 1.28.6, 1.29.2 and 1.30.0 the default percent was 0.2%, not 20%. Without it Istio sets Envoy's max_retries to 2^32 − 1: no limiter.",
			"The retry_previous_hosts predicate (another host on each retry, up to 5 tries to pick one) and the per-try timeout: not modelled.",
			"The Export panel has no exporter for Istio yet.",
		},
	},
}
