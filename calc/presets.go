package calc

import (
	"strings"
	"time"
)

// Preset is what a retry library does with its defaults (or, where it has none, with the
// values its documentation shows), in this calculator's terms. Params holds the policy; the
// other fields say where it comes from and where the calculator or the library's own
// documentation differ from the library's code.
type Preset struct {
	Name    string   // the value of the preset query key
	Library string   // the library and the behaviour
	Version string   // the version or date the behaviour was read from
	Source  string   // the file in the library's code that computes the wait
	Theirs  string   // the library's own parameters, in its words
	Params  Params   // the policy; only its policy fields (see policy) matter
	Notes   []string // how the library's formula maps to ours, and what its docs get wrong
}

// policy is what a preset sets: the retry policy, without the herd, samples, seed or layers.
type policy struct {
	base, cap, budget, add time.Duration
	factor, ratio          float64
	attempts               int
	jitter                 Jitter
	capAt                  CapAt
	growth                 Growth
	firstExact             bool
}

func (p Params) policy() policy {
	return policy{p.Base, p.Cap, p.Budget, p.Add, p.Factor + 0, p.Ratio + 0, p.Attempts, p.Jitter, p.CapAt, p.Growth, p.FirstExact}
}

func (p *Params) setPolicy(q policy) {
	p.Base, p.Cap, p.Budget, p.Add = q.base, q.cap, q.budget, q.add
	p.Factor, p.Ratio, p.Attempts = q.factor, q.ratio, q.attempts
	p.Jitter, p.CapAt, p.Growth, p.FirstExact = q.jitter, q.capAt, q.growth, q.firstExact
}

// preset builds a preset's Params from the defaults.
func preset(set func(p *Params)) Params {
	p := Default()
	p.Ratio = 0
	set(&p)
	return p
}

const msec, sec = time.Millisecond, time.Second

// The AWS SDKs' retry quota, before and after 2026's retry behaviour: it can refuse a retry,
// which a schedule does not model.
const (
	awsQuota     = "Its retry quota (500 tokens shared by the client; a retry costs 5, 10 after a timeout) can refuse a retry: not modelled here."
	awsQuota2026 = "Its retry quota (500 tokens shared by the client; a retry costs 14, 5 after a throttling error) can refuse a retry: not modelled here."
)

var presets = []Preset{
	{
		Name: "aws-botocore", Library: "AWS SDK for Python (botocore), standard retry mode, without AWS_NEW_RETRIES_2026",
		Version: "botocore 1.15.0 (2020) and later without AWS_NEW_RETRIES_2026=true (read in 1.43.67, 2026)",
		Source:  "botocore/retries/standard.py: ExponentialBackoff.delay_amount, the branch without NEW_RETRIES_ENABLED",
		Theirs:  "max_attempts = 3 (counts the first call), base = 1 sec, growth factor 2, MAX_BACKOFF = 20 s",
		Params:  preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 20*sec, 3, Full }),
		Notes: []string{
			"Retry k waits random() × min(1 s × 2^(k−1), 20 s): full jitter, capped before it.",
			awsQuota,
			"With AWS_NEW_RETRIES_2026=true (botocore 1.43.3 and later) it waits as aws-botocore-2026.",
		},
	},
	{
		Name: "aws-botocore-2026", Library: "AWS SDK for Python (botocore), standard retry mode with AWS_NEW_RETRIES_2026=true",
		Version: "botocore 1.43.3 (2026-05) and later with AWS_NEW_RETRIES_2026=true (read in 1.43.67, 2026)",
		Source:  "botocore/retries/standard.py: ExponentialBackoff.delay_amount; botocore/configprovider.py: _resolve_new_retries",
		Theirs:  "max_attempts = 3 (counts the first call; 4 for DynamoDB), base = 50 ms (1 s for throttling errors, 25 ms for DynamoDB), growth factor 2, MAX_BACKOFF = 20 s",
		Params:  preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 50*msec, 2, 20*sec, 3, Full }),
		Notes: []string{
			"Retry k waits random() × min(0.05 s × 2^(k−1), 20 s): full jitter, capped before it. After a throttling error the base is 1 s, and an x-amz-retry-after header raises the wait to at most 5 s more.",
			awsQuota2026,
			"The switch also makes standard the default retry mode (legacy without it).",
		},
	},
	{
		Name: "aws-go-v2", Library: "AWS SDK for Go v2, standard retryer before Retry Behavior 2.1",
		Version: "aws-sdk-go-v2 v1.0.0 to v1.47.x without AWS_NEW_RETRIES_2026=true (read in v1.47.8; v1.48.0 keeps it in NewExponentialJitterBackoff)",
		Source:  "aws/retry/jitter_backoff.go: ExponentialJitterBackoff.backoffDelayLegacy",
		Theirs:  "MaxAttempts = 3 (counts the first call), MaxBackoff = 20 s",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.CapAt = 2*sec, 2, 20*sec, 3, Full, CapFixed
		}),
		Notes: []string{
			"Retry k waits random() × 2^k s while 2^k s is at most 20 s (k ≤ 4), then exactly 20 s with no jitter (cap applies: fixed).",
			"So its first retry waits up to 2 sec, where botocore's waits up to 1 s.",
			awsQuota,
			"From v1.48.0 on, NewStandard waits as aws-go-v2-2026: this preset keeps its old meaning, so links to it show the same numbers.",
		},
	},
	{
		Name: "aws-go-v2-2026", Library: "AWS SDK for Go v2, standard retryer with Retry Behavior 2.1 (the default from v1.48.0)",
		Version: "aws-sdk-go-v2 v1.48.0 (2026-11-10) and later (read in v1.48.0)",
		Source:  "aws/retry/jitter_backoff.go: ExponentialJitterBackoff.backoffDelay2026; aws/retry/standard.go: NewStandard",
		Theirs:  "MaxAttempts = 3 (counts the first call; 4 for DynamoDB), BaseDelay = 50 ms (1 s for throttling errors, 25 ms for DynamoDB), MaxBackoff = 20 s",
		Params:  preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 50*msec, 2, 20*sec, 3, Full }),
		Notes: []string{
			"Retry k waits random() × min(50 ms × 2^(k−1), 20 s): full jitter, capped before it. After a throttling error the base is 1 s, and an x-amz-retry-after header can lengthen the wait.",
			awsQuota2026,
			"v1.42.0 to v1.47.x had it as a preview behind AWS_NEW_RETRIES_2026=true, but drew from min(50 ms × 2^k, 20 s), twice as long (read in v1.47.8): not this preset.",
		},
	},
	{
		Name: "grpc-retry", Library: "gRPC retry policy (gRFC A6): grpc-go, grpc-java, grpc-node",
		Version: "the ±20% jitter of the 2024 revision of gRFC A6: grpc-go (read in v1.85.0), @grpc/grpc-js 1.14.0 (2025-09) and later",
		Source:  "grpc-go stream.go: shouldRetry; grpc-node packages/grpc-js/src/retrying-call.ts: getNextRetryJitter",
		Theirs:  "retryPolicy: maxAttempts = 5 (counts the first call; more than 5 is treated as 5), initialBackoff = 0.1s, maxBackoff = 1s, backoffMultiplier = 2",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio = 100*msec, 2, sec, 5, Proportional, 0.2
		}),
		Notes: []string{
			"gRPC has no default retry policy: these are example values.",
			"Retry k waits min(initialBackoff × multiplier^(k−1), maxBackoff) × U[0.8, 1.2]: the cap comes before the jitter, so a wait can reach 1.2 × maxBackoff.",
			"Before the 2024 revision, and in @grpc/grpc-js up to 1.13.x, the wait was U[0, 1] × the same: full jitter.",
			"grpc-go rejects a whole service config whose retryPolicy has maxAttempts under 2 (NewClient fails: invalid retry policy).",
		},
	},
	{
		Name: "grpc-connect", Library: "gRPC connection backoff (reconnecting a channel)",
		Version: "grpc-go (read in v1.85.0)", Source: "grpc-go internal/backoff/backoff.go: Exponential.Backoff; doc/connection-backoff.md",
		Theirs: "BaseDelay = 1 sec, Multiplier = 1.6, Jitter = 0.2, MaxDelay = 120 s; reconnects without limit",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.FirstExact = sec, 1.6, 120*sec, 10, Proportional, 0.2, true
		}),
		Notes: []string{
			"The first reconnect waits exactly 1 s; reconnect k waits min(1.6^(k−1) sec, 120 s) × U[0.8, 1.2].",
			"gRPC reconnects without limit: the preset shows 10 attempts.",
		},
	},
	{
		Name: "cenkalti-v5", Library: "cenkalti/backoff v5: ExponentialBackOff with Retry's defaults",
		Version: "cenkalti/backoff v5.0.3 (2025), the newest v5 (read)", Source: "exponential.go: NextBackOff, getRandomValueFromInterval; retry.go: Retry",
		Theirs: "InitialInterval = 500 ms, RandomizationFactor = 0.5, Multiplier = 1.5, MaxInterval = 60 s; MaxElapsedTime = 15 min, no limit on tries",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.Budget = 500*msec, 1.5, 60*sec, 30, Proportional, 0.5, 15*time.Minute
		}),
		Notes: []string{
			"MaxInterval caps the interval before the randomization, so a wait can reach 90 s.",
			"It retries until 15 minutes have passed (a retry is made if it would start at or before 15 min; here, strictly before): the preset shows 30 attempts with a 15 min budget.",
			"It truncates the interval to whole nanoseconds at every step, so from retry 10 on its interval can be a few nanoseconds shorter than 500 ms × 1.5^(k−1).",
		},
	},
	{
		Name: "k8s-default-retry", Library: "Kubernetes client-go retry.DefaultRetry (with wait.Backoff)",
		Version: "k8s.io/apimachinery and client-go v0.37.2 (2026, read)", Source: "apimachinery pkg/util/wait/backoff.go: Backoff.Step, delay, Jitter, ExponentialBackoff; client-go util/retry/util.go",
		Theirs: "Steps = 5 (counts the first call), Duration = 10 ms, Factor = 1.0, Jitter = 0.1",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio = 10*msec, 1, 10*msec, 5, Upward, 0.1
		}),
		Notes: []string{"wait.Jitter only adds: retry k waits d + random() × 0.1 × d, in [d, 1.1 d] (jitter: upward)."},
	},
	{
		Name: "k8s-default-backoff", Library: "Kubernetes client-go retry.DefaultBackoff (with wait.Backoff)",
		Version: "k8s.io/apimachinery and client-go v0.37.2 (2026, read)", Source: "apimachinery pkg/util/wait/backoff.go: Backoff.Step, delay, Jitter, ExponentialBackoff; client-go util/retry/util.go",
		Theirs: "Steps = 4 (counts the first call), Duration = 10 ms, Factor = 5.0, Jitter = 0.1, no Cap",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Attempts, p.Jitter, p.Ratio = 10*msec, 5, 4, Upward, 0.1
		}),
		Notes: []string{
			"Retry k waits 10 ms × 5^(k−1) + random() × 0.1 × that: 10, 50, 250 ms, each up to 10% more.",
			"With a Cap, wait.Backoff stops after the step whose next delay would pass it (Steps becomes 0), so a delay reaches Cap only if it equals it exactly; " +
				"retry.OnError still sleeps that step's wait, then gives up. With Cap = 5 s and Steps = 10 it makes 4 attempts (delays 10, 50, 250 ms between them), " +
				"then sleeps 1.25 s and gives up, as the next delay, 6.25 s, would pass 5 s: " +
				"not modelled by this preset, which has no Cap; the client-go export says how many attempts a Cap leaves.",
		},
	},
	{
		Name: "polly-constant", Library: "Polly v8 retry strategy, constant backoff (the default)",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Constant, UseJitter = false, MaxDelay = none",
		Params: preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 2*sec, 1, 2*sec, 4, None }),
		Notes:  []string{"With UseJitter, a constant or linear delay is multiplied by U[0.75, 1.25]: proportional jitter, ratio 0.25."},
	},
	{
		Name: "polly-linear", Library: "Polly v8 retry strategy, linear backoff",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Linear, UseJitter = false, MaxDelay = none",
		Params: preset(func(p *Params) { p.Base, p.Cap, p.Attempts, p.Jitter, p.Growth = 2*sec, MaxCap, 4, None, Linear }),
		Notes:  []string{"Retry k waits k × Delay: 2, 4, 6 s (growth: linear; factor is not used)."},
	},
	{
		Name: "polly-exponential", Library: "Polly v8 retry strategy, exponential backoff without jitter",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Exponential, UseJitter = false, MaxDelay = none",
		Params: preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 2*sec, 2, MaxCap, 4, None }),
		Notes: []string{
			"Retry k waits 2^(k−1) × Delay.",
			"With UseJitter, exponential backoff switches to DecorrelatedJitterBackoffV2: see polly-exponential-jitter.",
		},
	},
	{
		Name: "polly-exponential-jitter", Library: "Polly v8 retry strategy, exponential backoff with jitter",
		Version: "Polly 8.0.0 (2023-09) to 8.7.0 (2026-06), the newest (read in 8.7.0)", Source: "src/Polly.Core/Retry/RetryHelper.cs: DecorrelatedJitterBackoffV2, GetRetryDelay; RetryConstants.cs: the defaults",
		Theirs: "MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Exponential, UseJitter = true, MaxDelay = none",
		Params: preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 2*sec, 2, MaxCap, 4, DecorrelatedV2 }),
		Notes: []string{
			"Retry k draws t = k−1 + U and waits (g(t) − g(the previous retry's t)) × Delay / 1.4, truncated to whole 100 ns ticks, where g(t) = 2^t × tanh(√(4t)) (jitter: decorrelatedv2; factor is not used).",
			"So a wait depends on the previous draw, not on the previous wait: this is not the AWS decorrelated jitter. Retry 1 waits up to 2.75 s, retry 2 up to 5.67 s, retry 3 up to 8.65 s.",
			"MaxDelay, when set, clamps each wait after the draw (cap applies: after, whatever capat says); without it the preset uses the calculator's largest cap, 168 h.",
		},
	},
	{
		Name: "tenacity-random-exponential", Library: "tenacity (Python): wait_random_exponential(multiplier=1, max=60)",
		Version: "tenacity 9.0 to 9.1.4 and main (read at 2026-07-15)", Source: "tenacity/wait.py: wait_random_exponential",
		Theirs: "wait_random_exponential(multiplier=1, max=60), stop_after_attempt(5) (counts the first call)",
		Params: preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 60*sec, 5, Full }),
		Notes: []string{
			"Retry k waits uniform(0, min(60, 1 × 2^(k−1))) s: full jitter.",
			"tenacity retries forever by default (stop_never): the preset stops after 5 attempts.",
		},
	},
	{
		Name: "tenacity-exponential-jitter", Library: "tenacity (Python): wait_exponential_jitter()",
		Version: "tenacity 9.0 to 9.1.4 and main (read at 2026-07-15)", Source: "tenacity/wait.py: wait_exponential_jitter",
		Theirs: "wait_exponential_jitter(multiplier=1, max=MAX_WAIT, exp_base=2, jitter=1), stop_after_attempt(5)",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Add, p.CapAt = sec, 2, MaxCap, 5, Additive, sec, CapAfter
		}),
		Notes: []string{
			"Retry k waits min(max, 1 × 2^(k−1) + uniform(0, 1)) s: the jitter adds up to 1 s (jitter: additive), and max clamps after it.",
			"max defaults to a huge number: the preset uses the calculator's largest cap, 168 h.",
			"tenacity after 9.1.4 (main since 2026-03-11) names the first delay multiplier= and deprecates initial=; 9.1.4 and earlier know only initial=.",
		},
	},
	{
		Name: "envoy", Library: "Envoy router retry_policy",
		Version: "Envoy 1.14.0 (2020) and later, whose interval doubles while under max_interval / 2 (envoyproxy/envoy#10417; read on main, 2026)", Source: "source/common/common/backoff_strategy.cc: JitteredExponentialBackOffStrategy::nextBackOffMs",
		Theirs: "num_retries = 1 (retries: 2 calls), retry_back_off: base_interval = 25 ms, max_interval = 10 × base_interval",
		Params: preset(func(p *Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 25*msec, 2, 250*msec, 2, FullMs }),
		Notes: []string{
			"The code waits random() % min(2^(k−1) × 25, 250) whole milliseconds: retry 1 in 0..24 ms, retry 2 in 0..49 ms (jitter: fullms).",
			"Envoy's documentation gives [0, (2^k − 1) × base_interval): 0..74 ms for retry 2. The code, not the documentation, is what runs.",
		},
	},
	{
		Name: "resilience4j", Library: "resilience4j Retry with IntervalFunction.ofExponentialRandomBackoff",
		Version: "resilience4j 2.3.0 (2025) and later (read in 2.4.0)", Source: "resilience4j-core IntervalFunction.java: ofExponentialRandomBackoff, randomize",
		Theirs: "maxAttempts = 3 (counts the first call), initialInterval = 500 ms, multiplier = 1.5, randomizationFactor = 0.5, no maxInterval",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.CapAt = 500*msec, 1.5, MaxCap, 3, Proportional, 0.5, CapAfter
		}),
		Notes: []string{
			"Retry k waits 500 ms × 1.5^(k−1) × U[0.5, 1.5]; a maxInterval, when set, clamps after the randomization (cap applies: after).",
			"It counts whole milliseconds: it truncates the interval at every step and waits (long) max(1, I(1 − f) + U × (2fI + 1)) ms, so at least 1 ms (since 2.3.0; before it, no floor, and randomizationFactor had to be under 1).",
		},
	},
	{
		Name: "google-api-core", Library: "google-api-core (Python) Retry",
		Version: "google-api-core 2.11.0 (2022-12) and later (read in 2.29.0, 2026-01; its code has since moved to googleapis/google-cloud-python, packages/google-api-core)",
		Source:  "google/api_core/retry/retry_base.py: exponential_sleep_generator (google/api_core/retry.py before 2.16.0)",
		Theirs:  "initial = 1 sec, maximum = 60 sec, multiplier = 2, timeout = 120 sec, no limit on attempts",
		Params: preset(func(p *Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Budget = sec, 2, 60*sec, 20, Full, 120*sec
		}),
		Notes: []string{
			"Retry k waits uniform(0, min(1 × 2^(k−1), 60)) s: full jitter.",
			"It retries until the 120 s timeout: the preset shows 20 attempts with a 120 s budget.",
		},
	},
}

// Presets lists the library presets in the picker's order.
func Presets() []Preset { return presets }

// PresetByName returns the preset whose Name is name.
func PresetByName(name string) (Preset, bool) {
	for _, pr := range presets {
		if pr.Name == name {
			return pr, true
		}
	}
	return Preset{}, false
}

func presetList() string {
	names := make([]string, len(presets))
	for i, pr := range presets {
		names[i] = pr.Name
	}
	return strings.Join(names, ", ")
}

// WithPreset returns p with the preset's policy, keeping p's samples, seed, layers and herd.
func (p Params) WithPreset(pr Preset) Params {
	p.setPolicy(pr.Params.policy())
	p.Preset = pr.Name
	return p
}
