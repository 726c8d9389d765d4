package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var retryableHTTPPresets = []Preset{
	{
		Name: "retryablehttp-default", Library: "hashicorp/go-retryablehttp Client with DefaultBackoff",
		Short:   "go-retryablehttp",
		Version: "github.com/hashicorp/go-retryablehttp v0.7.8 (2025-06), the newest (read)", Source: "client.go: NewClient, DefaultBackoff, Client.Do",
		Theirs: "RetryWaitMin = 1 s, RetryWaitMax = 30 s, RetryMax = 4 (retries, the first call not counted), Backoff = DefaultBackoff",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 30*sec, 5, policy.None
		}),
		Notes: []string{
			"Retry k waits min(RetryWaitMin × 2^(k−1), RetryWaitMax), without jitter: 1, 2, 4, 8 s, 15 s of waiting over 5 attempts.",
			"On a 429 or 503 response with a Retry-After header, DefaultBackoff waits what the header says, without RetryWaitMax's cap: not modelled.",
			"LinearJitterBackoff (not the default) waits k × a uniform draw between RetryWaitMin and RetryWaitMax before retry k, without a cap.",
			"The Export panel has no exporter for go-retryablehttp yet.",
		},
	},
}
