package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// The .NET standard resilience handler (AddStandardResilienceHandler) of
// Microsoft.Extensions.Http.Resilience: Polly v8's retry, timeouts and circuit breaker with the
// options of HttpStandardResilienceOptions, which its validator checks when the host starts.

const (
	dotnetStandard = "dotnet-standard"
	// dotnetRead is where the handler's options and their validator were read.
	dotnetRead = "dotnet/extensions v10.8.0, src/Libraries/Microsoft.Extensions.Http.Resilience"

	// The defaults of HttpStandardResilienceOptions: AttemptTimeout's own 10 s, and Polly's
	// TimeoutStrategyOptions default (30 s) for TotalRequestTimeout.
	dotnetAttemptTimeout = 10 * time.Second
	dotnetTotalTimeout   = 30 * time.Second
	// dotnetSamplingTimes is the validator's CircuitBreakerTimeoutMultiplier.
	dotnetSamplingTimes = 2
	// Polly's [Range] of a timeout and of a breaker's SamplingDuration, which the handler's
	// generated validator ([ValidateObjectMembers]) also applies at start-up.
	pollyTimeoutMin, pollySamplingMin, pollyRangeMax = 10 * time.Millisecond, 500 * time.Millisecond, 24 * time.Hour
)

var dotnetPresets = []Preset{
	{
		Name: dotnetStandard, Library: ".NET Microsoft.Extensions.Http.Resilience standard handler (AddStandardResilienceHandler)",
		Short:   ".NET standard",
		Version: "Microsoft.Extensions.Http.Resilience 8.0.0 (2023-11) to 10.9.0 (2026-08), the newest (read in " + dotnetRead + ", the same in v10.9.0; its retry is Polly v8's, read in Polly 8.7.0)",
		Source:  "Polly/HttpRetryStrategyOptions.cs; Resilience/HttpStandardResilienceOptions.cs; Resilience/Internal/Validators/HttpStandardResilienceOptionsCustomValidator.cs; Polly's src/Polly.Core/Retry/RetryHelper.cs: DecorrelatedJitterBackoffV2",
		Theirs: "Retry: MaxRetryAttempts = 3 (retries: 4 calls), Delay = 2 sec, BackoffType = Exponential, UseJitter = true, ShouldRetryAfterHeader = true; " +
			"AttemptTimeout = 10 sec; TotalRequestTimeout = 30 sec; CircuitBreaker: FailureRatio = 0.1, MinimumThroughput = 100, SamplingDuration = 30 sec, BreakDuration = 5 sec",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Budget = 2*sec, 2, policy.MaxCap, 4, policy.DecorrelatedV2, dotnetTotalTimeout
		}),
		Notes: []string{
			"The pipeline is, outermost first: rate limiter, total request timeout (30 s), retry, circuit breaker, attempt timeout (10 s).",
			"The retry is Polly's exponential backoff with UseJitter (see polly-exponential-jitter): retry k draws t = k−1 + U and waits (g(t) − g(the previous retry's t)) × 2 s / 1.4, g(t) = 2^t × tanh(√(4t)); retry 1 waits up to 2.75 s, retry 2 up to 5.67 s, retry 3 up to 8.65 s.",
			"The total request timeout is the budget, 30 s; it is a deadline over the whole call, which also cancels an attempt still running at 30 s, where the budget only keeps attempts from starting at or after it.",
			"The attempt timeout (10 s) is not a policy input: set the overload model's timeout to 10s (a client stops waiting for an attempt then, and the retry handles the TimeoutRejectedException); in the schedule, a call of 10s is an attempt that runs into it.",
			"The circuit breaker is breaker polly, whose parameters' defaults are .NET's (a preset sets only the policy: choose the breaker in the overload inputs). It sits inside the retry, so it is asked at each attempt (breakerat attempt).",
			"Not modelled: a Retry-After header on the response, whose delay replaces the computed one (ShouldRetryAfterHeader = true), and which outcomes are retried (408, 429, 5xx, HttpRequestException, TimeoutRejectedException); the rate limiter, a concurrency limiter of 1000 calls at once without a queue.",
			"When the host starts, .NET refuses options that break two rules (HttpStandardResilienceOptionsCustomValidator): the attempt timeout no more than the total request timeout, and the breaker's sampling duration at least twice the attempt timeout; with this preset the page says what they give for the inputs.",
			"No released version checks the summed retry delays against the total request timeout: the previews of 8.0.0 up to 8.0.0-rc.1 did (ValidationHelper.GetAggregatedDelay summed the delay hints of a run with its randomizer fixed at 1.0), and dotnet/extensions#4340 removed the rule before 8.0.0.",
		},
	},
}

// StartupChecksIntro heads the lines of StartupChecks.
const StartupChecksIntro = "What .NET checks of these options when the host starts (HttpStandardResilienceOptionsCustomValidator), for the inputs:"

// StartupChecks says what .NET's standard resilience handler checks of its options when the host
// starts (HttpStandardResilienceOptionsCustomValidator, with Polly's ranges of the values it
// reads), for p's inputs: one line per rule, naming the inputs and their values and saying
// whether .NET accepts them or refuses to start, quoting its message. Nil unless p is the preset
// dotnet-standard. The attempt timeout is the overload model's timeout, or .NET's default 10 s
// when that is 0 (none), which .NET cannot express; the total request timeout is the budget; the
// sampling duration is Polly's breaker's pollysampling. With the defaults: "Attempt timeout at
// most the total request timeout: 10 s (.NET's default; timeout is 0, none) and 30 s (budget),
// which .NET accepts."
func StartupChecks(p calc.Params) []string {
	if p.Preset != dotnetStandard {
		return nil
	}
	attempt, attemptIs := p.Timeout, dur(p.Timeout)+" (timeout)"
	if attempt == 0 {
		attempt, attemptIs = dotnetAttemptTimeout, dur(dotnetAttemptTimeout)+" (.NET's default; timeout is 0, none)"
	}
	total, totalIs := p.Budget, dur(p.Budget)+" (budget)"
	if total == 0 {
		total, totalIs = dotnetTotalTimeout, dur(dotnetTotalTimeout)+" (.NET's default; budget is 0, none)"
	}
	sampling := p.BreakerParams.PollySampling
	samplingIs := dur(sampling) + " (pollysampling)"

	var out []string
	for _, r := range []struct {
		name     string
		d, lo    time.Duration
		is, what string
	}{
		{"AttemptTimeout.Timeout", attempt, pollyTimeoutMin, attemptIs, "TimeoutStrategyOptions"},
		{"TotalRequestTimeout.Timeout", total, pollyTimeoutMin, totalIs, "TimeoutStrategyOptions"},
		{"CircuitBreaker.SamplingDuration", sampling, pollySamplingMin, samplingIs, "CircuitBreakerStrategyOptions"},
	} {
		if r.d < r.lo || r.d > pollyRangeMax {
			out = append(out, r.name+" must be between "+dur(r.lo)+" and 1 day (Polly's "+r.what+"): .NET refuses "+r.is+" at start-up.")
		}
	}

	rule := "Attempt timeout at most the total request timeout: " + attemptIs + " and " + totalIs
	if attempt > total {
		out = append(out, rule+": the attempt timeout is longer, so .NET refuses to start: “Total request timeout resilience strategy must have a greater timeout than the attempt resilience strategy. "+
			"Total Request Timeout: "+netSeconds(total)+"s, Attempt Timeout: "+netSeconds(attempt)+"s”.")
	} else {
		out = append(out, rule+", which .NET accepts.")
	}

	least := dotnetSamplingTimes * attempt
	rule = "The breaker's sampling duration at least twice the attempt timeout: " + samplingIs + " and 2 × " + attemptIs + " = " + dur(least)
	if sampling < least {
		// The message's missing space after the comma is .NET's.
		out = append(out, rule+": the sampling duration is shorter, so .NET refuses to start: “The sampling duration of circuit breaker strategy needs to be at least double of "+
			"an attempt timeout strategy’s timeout interval, in order to be effective. Sampling Duration: "+netSeconds(sampling)+"s,Attempt Timeout: "+netSeconds(attempt)+"s”.")
	} else {
		out = append(out, rule+", which .NET accepts.")
	}

	out = append(out, "The summed retry delays against the total request timeout: no released version checks them (only the previews before 8.0.0 did).")
	return out
}

// netSeconds writes d's TotalSeconds as .NET's double.ToString() does: the shortest form that
// reads back, in exponent form (1E-05) below 0.0001. The inputs are at most a day, 86400 s,
// below where either form writes large numbers with an exponent.
func netSeconds(d time.Duration) string {
	return strings.ToUpper(strconv.FormatFloat(d.Seconds(), 'g', -1, 64))
}
