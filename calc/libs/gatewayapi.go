package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var gatewayAPIPresets = []Preset{
	{
		Name: "gateway-api", Library: "Gateway API HTTPRoute retry (GEP-1731)",
		Short: "Gateway API", Basis: "the example of GEP-1731 (attempts: 2, backoff: 100ms), waiting the least the spec allows: the spec has no defaults and leaves growth, cap and jitter to the implementation",
		Version: "Gateway API v1.6.1 (2026-07), HTTPRoute retry at Extended support in the Experimental channel (read)",
		Source:  "apis/v1/httproute_types.go: HTTPRouteRetry; geps/gep-1731/index.md",
		Theirs:  "retry: attempts = 2 (retries after the first request), backoff = 100ms (the minimum wait before a retry), codes = 500, 502, 503, 504",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 100*msec, 1, 100*msec, 3, policy.None
		}),
		Notes: []string{
			"The spec fixes only how many retries (attempts) and that none starts before backoff: the preset waits exactly 100 ms before each retry, the least it allows.",
			"An implementation MAY grow the wait (exponentially or otherwise), MAY cap it above backoff and MAY add jitter: the waits are the implementation's choice, and without attempts or backoff so are the count and the wait.",
			"Istio 1.30.3 (pilot/pkg/config/kube/gateway/conversion.go) passes backoff to Envoy's base_interval, whose full jitter draws retry 1 in 0..99 ms, before the spec's minimum: preset envoy with base 100 ms, cap 1 s and 3 attempts shows it.",
			"A rule's request timeout (timeouts.request) bounds the first request and every retry: set the budget to it. The backendRequest timeout of each attempt: not modelled.",
			"The Export panel has no exporter for the Gateway API yet.",
		},
	},
}
