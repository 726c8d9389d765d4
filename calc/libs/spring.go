package libs

import (
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// Spring's two retry libraries, both Java: Spring Retry's @Retryable and @Backoff, whose
// BackOffPolicyBuilder picks a policy from the annotation's values, and Spring Framework 7's
// core retry, whose RetryPolicy.builder() makes an ExponentialBackOff.

const (
	springRetryVersion  = "spring-retry 2.0.0 (2022-11) to 2.0.12 (2025-05), the newest (read in 2.0.12)"
	springRetrySource   = "src/main/java/org/springframework/retry/backoff/BackOffPolicyBuilder.java: build; "
	springRetryNotShown = "Not modelled: the …Expression attributes (read at each retry), stateful retry, and which exceptions are retried (include, exclude)."

	// springMaxInterval is ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL: the cap of an
	// exponential @Backoff whose maxDelay is not above its delay (the default maxDelay, 0,
	// included).
	springMaxInterval = 30 * time.Second
)

// springRetryBackoff is Spring Retry's @Retryable(maxAttempts) with @Backoff(delay, maxDelay,
// multiplier, random), all in milliseconds as the annotation has them, as the policy that
// BackOffPolicyBuilder.build makes of them, in calc's terms:
//   - a multiplier above 0 is ExponentialBackOffPolicy (ExponentialRandomBackOffPolicy with
//     random): the interval starts at delay and is multiplied by max(multiplier, 1) after each
//     retry, at most maxDelay when that is above delay, else at most 30 s (a delay over that
//     waits 30 s every time); random multiplies
//     the capped interval by 1 + U × (multiplier − 1), at most the cap again: upward jitter
//     with ratio multiplier − 1 and the cap after it;
//   - else a maxDelay above delay is UniformRandomBackOffPolicy: delay + nextInt(maxDelay −
//     delay) whole ms, which is additive jitter with add = maxDelay − delay − 1 ms on a fixed
//     delay (the same least, longest and mean wait, drawn continuously);
//   - else FixedBackOffPolicy: exactly delay.
//
// Spring truncates each interval and each random wait to whole milliseconds, which the
// calculator does not (see the presets' notes).
func springRetryBackoff(maxAttempts int, delay, maxDelay int64, multiplier float64, random bool) calc.Params {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	return preset(func(p *calc.Params) {
		p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = ms(delay), 1, policy.MaxCap, maxAttempts, policy.None
		switch {
		case multiplier > 0:
			p.Factor, p.Cap = max(multiplier, 1), springMaxInterval
			if maxDelay > delay {
				p.Cap = ms(maxDelay)
			}
			p.Base = min(p.Base, p.Cap) // an interval over the cap waits the cap, and stays
			if random && p.Factor > 1 {
				p.Jitter, p.Ratio, p.CapAt = policy.Upward, p.Factor-1, policy.CapAfter
			}
		case maxDelay > delay:
			p.Jitter, p.Add = policy.Additive, ms(maxDelay-delay-1)
		}
	})
}

// springCoreRetry is Spring Framework 7's RetryPolicy.builder() with maxRetries, delay,
// multiplier and maxDelay (ms), without jitter: the ExponentialBackOff it builds waits delay,
// then each interval the last times multiplier (truncated to whole ms), at most maxDelay.
func springCoreRetry(maxRetries int, delay int64, multiplier float64, maxDelay time.Duration) calc.Params {
	return preset(func(p *calc.Params) {
		p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = time.Duration(delay)*time.Millisecond, multiplier, maxDelay, maxRetries+1, policy.None
	})
}

var springPresets = []Preset{
	{
		Name: "spring-retry-exponential", Library: "Spring Retry @Retryable with an exponential @Backoff (ExponentialBackOffPolicy)",
		Short: "Spring Retry, exp.", Basis: "@Retryable's defaults (maxAttempts = 3) with @Backoff(delay = 1000, multiplier = 2): maxDelay left at 0, so the hidden 30 s cap",
		Version: springRetryVersion,
		Source:  springRetrySource + "ExponentialBackOffPolicy.java: ExponentialBackOffContext.getSleepAndIncrement, DEFAULT_MAX_INTERVAL",
		Theirs:  "maxAttempts = 3 (calls, the first included), delay = 1000 ms, multiplier = 2, maxDelay = 0 (not above delay, so ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL = 30000 ms), random = false",
		Params:  springRetryBackoff(3, 1000, 0, 2, false),
		Notes: []string{
			"Retry k waits delay × multiplier^(k−1), each interval the last times multiplier truncated to whole ms, at most the cap: 1, 2 s over 3 attempts.",
			"The hidden cap: BackOffPolicyBuilder ignores a maxDelay that is not above delay (the default, 0, included) and caps at ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL, 30 s. With maxAttempts = 8 the waits are 1, 2, 4, 8, 16, 30, 30 s; a delay above 30 s with a multiplier waits 30 s.",
			"A multiplier above 0 but not above 1 is 1 (setMultiplier): a fixed delay, still at most the cap (30 s unless maxDelay is above delay).",
			"random = true (ExponentialRandomBackOffPolicy) multiplies each capped interval by 1 + U × (multiplier − 1), U a Java float, truncated to whole ms and at most the cap again: upward jitter with ratio multiplier − 1 and the cap applied after; each wait here is up to 1 ms longer than Spring's truncated one. A multiplier above 2 is a ratio above 1, which the calculator does not take.",
			springRetryNotShown,
		},
	},
	{
		Name: "spring-retry-uniform", Library: "Spring Retry @Retryable with @Backoff(delay, maxDelay) and no multiplier (UniformRandomBackOffPolicy)",
		Short: "Spring Retry, unif.", Basis: "@Retryable's defaults (maxAttempts = 3) with @Backoff(delay = 1000, maxDelay = 3000)",
		Version: springRetryVersion,
		Source:  springRetrySource + "UniformRandomBackOffPolicy.java: doBackOff",
		Theirs:  "maxAttempts = 3 (calls, the first included), delay = 1000 ms (minBackOffPeriod), maxDelay = 3000 ms (maxBackOffPeriod), multiplier = 0 (none)",
		Params:  springRetryBackoff(3, 1000, 3000, 0, false),
		Notes: []string{
			"Each retry waits delay + Random.nextInt(maxDelay − delay) ms: a whole number of ms from 1000 to 2999, each as likely, the same at every retry.",
			"The preset is additive jitter with add = maxDelay − delay − 1 ms = 1999 ms on a fixed 1 s (factor 1): the same least (1 s), longest (2.999 s) and mean (1.9995 s) wait, drawn continuously where Spring draws whole ms.",
			"Without a multiplier and with a maxDelay not above delay (a bare @Retryable included), Spring waits exactly delay, 1 s by default (FixedBackOffPolicy): factor 1, no jitter.",
			springRetryNotShown,
		},
	},
	{
		Name: "spring-core-retry", Library: "Spring Framework 7 core retry: RetryTemplate with RetryPolicy.builder() (and org.springframework.resilience's @Retryable)",
		Short:   "Spring 7 retry",
		Version: "Spring Framework 7.0.0 (2025-11) to 7.0.9 (2026-08) (read in 7.0.9)",
		Source:  "spring-core src/main/java/org/springframework/core/retry/RetryPolicy.java: Builder.build; org/springframework/util/backoff/ExponentialBackOff.java: computeNextInterval, applyJitter",
		Theirs:  "maxRetries = 3 (retries: 4 calls), delay = 1000 ms, multiplier = 1.0, jitter = 0, maxDelay = Long.MAX_VALUE ms (none), timeout = 0 (none)",
		Params:  springCoreRetry(3, 1000, 1, policy.MaxCap),
		Notes: []string{
			"The builder makes an ExponentialBackOff: retry k waits delay, then each interval the last times multiplier truncated to whole ms, at most maxDelay: 1, 1, 1 s with the defaults (the calculator's largest cap, 168 h, stands for none).",
			"jitter(j) draws each wait in whole ms from [max(d − J, delay), min(d + J, maxDelay)), d the retry's interval and J = j × ⌊d / delay⌋ (integer division). With the default multiplier 1 that is [delay, delay + j): additive jitter with add = j − 1 ms, the least, longest and mean wait exact, drawn continuously where Spring draws whole ms.",
			"With a multiplier above 1, no jitter mode matches jitter(j): J grows with the whole part of d / delay, and no wait is under delay, so retry 1 draws only above its interval while later ones draw on both sides (multiplier 2 and j ≤ delay / 2: [delay, delay + j), then proportional jitter with ratio j / delay).",
			"timeout (7.0.2 and later; 0, none, by default) ends the retries before a sleep that would reach it: the budget, which keeps attempts from starting at or after it.",
			"Not modelled: which exceptions are retried (includes, excludes, predicate), and a custom BackOff.",
		},
	},
}
