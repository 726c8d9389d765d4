package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var failsafePresets = []Preset{
	{
		Name: "failsafe-backoff", Library: "failsafe-go RetryPolicy with WithBackoff",
		Short: "failsafe-go", Basis: "the builder call of failsafe-go's documentation (WithBackoff(time.Second, 30*time.Second).WithMaxRetries(3)), not its defaults: by default a RetryPolicy retries at once, without delay",
		Version: "github.com/failsafe-go/failsafe-go v0.9.8 (2026-09) (read)",
		Source:  "retrypolicy/retry.go: NewBuilder, WithBackoff; retrypolicy/retryexecutor.go: getDelay, getFixedOrRandomDelay",
		Theirs:  "WithBackoff(delay = 1 s, maxDelay = 30 s), delayFactor 2; WithMaxRetries(3) (retries, the first call not counted); no jitter unless WithJitter or WithJitterFactor",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 30*sec, 4, policy.None
		}),
		Notes: []string{
			"failsafe-go's defaults (NewWithDefaults, NewBuilder) make 3 attempts (MaxRetries 2) with no delay between them: the calculator needs a delay above 0, so the preset is the backoff that failsafe-go's documentation shows (HTTP Integration: WithBackoff(time.Second, 30*time.Second).WithMaxRetries(3)).",
			"Retry k waits min(delay × 2^(k−1), maxDelay), each wait the last one times delayFactor: 1, 2, 4 s, 7 s of waiting over 4 attempts.",
			"WithJitter(d) adds a uniform draw in [−d, d] to each wait, WithJitterFactor(f) multiplies it by a uniform draw in [1−f, 1+f] (Proportional), after the cap; WithMaxDuration shortens the last waits so that the run ends by it: not in this preset.",
			"failsafehttp's RetryPolicyBuilder also waits what a Retry-After header says: not modelled.",
			"The Export panel has no exporter for failsafe-go yet.",
		},
	},
}
