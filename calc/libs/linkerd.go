package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var linkerdPresets = []Preset{
	{
		Name: "linkerd", Library: "Linkerd retry annotations (retry.linkerd.io/http on a Service or HTTPRoute)",
		Short: "Linkerd", Basis: "the annotations' defaults (retry.linkerd.io/limit = 1) with the backoff Linkerd's policy controller sends; the proxy only retries when retry.linkerd.io/http (or /grpc, /limit, /timeout) is set",
		Version: "Linkerd 2.16 (2024-08, proxy v2.246.0) and later (read in the version-2.20 tag of linkerd2, 2026-06, with its proxy v2.359.0); transcribed, not run",
		Source:  "linkerd2 policy-controller/grpc/src/outbound/http.rs: convert_retry; linkerd2-proxy linkerd/exp-backoff/src/lib.rs: ExponentialBackoff::base, jitter; linkerd/http/retry/src/lib.rs",
		Theirs:  "retry.linkerd.io/limit = 1 (retries: 2 calls); backoff min_backoff = 25 ms, max_backoff = 250 ms, jitter_ratio = 1.0",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.CapAt = 25*msec, 2, 250*msec, 2, policy.Upward, 1, policy.CapAfter
		}),
		Notes: []string{
			"Linkerd is a Rust proxy and a Rust controller: the preset transcribes their source, it is not run.",
			"The annotations set no wait: the policy controller sends every HTTP retry the same backoff, 25 ms to 250 ms with jitter 1.0. The proxy waits base + U × base before retry k, base = min(25 ms × 2^(k−1), 250 ms), at most 250 ms: the calculator's upward jitter with ratio 1 and the cap after it. Retry 1 waits 25 to 50 ms.",
			"With a higher retry.linkerd.io/limit, retry 2 waits 50 to 100 ms, retry 3 100 to 200 ms, retry 4 200 to 250 ms and every later one exactly 250 ms.",
			"It retries only the statuses retry.linkerd.io/http lists (5xx, gateway-error, codes or ranges), and never a request whose body is over 64 KiB; the calculator retries every failure.",
			"retry.linkerd.io/timeout is each attempt's timeout: not modelled. Annotation retries have no retry budget. A Service with a ServiceProfile retries as the profile says instead, under its retryBudget (tower's TpsBudget): not modelled.",
			"The Export panel has no exporter for Linkerd yet.",
		},
	},
}
