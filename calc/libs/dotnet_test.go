package libs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/policy"
)

// TestDotnetTranscribed transcribes what AddStandardResilienceHandler does (dotnet/extensions
// v10.8.0, src/Libraries/Microsoft.Extensions.Http.Resilience: HttpRetryStrategyOptions sets
// BackoffType = Exponential and UseJitter = true on Polly's RetryStrategyOptions, whose defaults
// are MaxRetryAttempts = 3 and Delay = 2 s; HttpStandardResilienceOptions sets AttemptTimeout to
// 10 s and leaves TotalRequestTimeout at Polly's 30 s; the breaker keeps Polly's defaults) and
// the retry's delay, Polly 8.7.0 src/Polly.Core/Retry/RetryHelper.cs DecorrelatedJitterBackoffV2:
//
//	double t = attempt + randomizer();
//	double next = Math.Pow(2, t) * Math.Tanh(Math.Sqrt(4.0 * t));
//	double formulaIntrinsicValue = next - prev; prev = next;
//	long ticks = (long)Math.Min(formulaIntrinsicValue * (1 / 1.4d) * baseDelay.Ticks, MaxTimeSpanTicks);
//
// run on random draws, each path's prev carried from retry to retry as Polly's ref prev is.
func TestDotnetTranscribed(t *testing.T) {
	const (
		maxRetryAttempts = 3
		delayTicks       = 2 * 10_000_000 // TimeSpan.FromSeconds(2)
		attemptTimeout   = 10 * time.Second
		totalTimeout     = 30 * time.Second
	)
	p := mustPreset(dotnetStandard)
	if p.Attempts != maxRetryAttempts+1 || p.Base != delayTicks*100 || p.Jitter != policy.DecorrelatedV2 || p.Cap != policy.MaxCap || p.Budget != totalTimeout {
		t.Errorf("preset %+v is not the handler's retry inside a 30 s total timeout", p.Policy)
	}
	if dotnetAttemptTimeout != attemptTimeout || dotnetTotalTimeout != totalTimeout {
		t.Errorf("the defaults: attempt %v, total %v", dotnetAttemptTimeout, dotnetTotalTimeout)
	}
	// CircuitBreakerConstants (Polly 8.4.2, the handler's): FailureRatio 0.1, MinimumThroughput
	// 100, SamplingDuration 30 s, BreakDuration 5 s: the notes say calc's polly breaker's
	// defaults are these.
	if b := breaker.Defaults(); b.PollyRatio != 0.1 || b.PollyThroughput != 100 || b.PollySampling != 30*time.Second || b.PollyBreak != 5*time.Second {
		t.Errorf("calc's Polly breaker defaults are not the handler's: %+v", b)
	}

	rng := rand.New(rand.NewPCG(29, 8))
	for path := 0; path < 2000; path++ {
		prev, state := 0.0, p.FirstState()
		for attempt := 0; attempt < maxRetryAttempts; attempt++ {
			u := rng.Float64()
			tt := float64(attempt) + u
			next := math.Pow(2, tt) * math.Tanh(math.Sqrt(4.0*tt))
			ticks := int64((next - prev) * (1 / 1.4) * delayTicks)
			prev = next
			want := time.Duration(ticks) * 100
			var got time.Duration
			got, state = p.Wait(attempt+1, u, state)
			// calc's g uses its own exp2 and tanh, which may differ from C#'s Math in the last
			// bit: the truncation to ticks can then fall a tick either way.
			if d := got - want; d < -100 || d > 100 {
				t.Fatalf("path %d retry %d, u=%v: calc %v, Polly %v", path, attempt+1, u, got, want)
			}
		}
	}
}

// netValidate transcribes dotnet/extensions v10.8.0
// Resilience/Internal/Validators/HttpStandardResilienceOptionsCustomValidator.cs: the errors it
// adds for an attempt timeout, a total request timeout and a breaker's sampling duration, in
// whole milliseconds (TimeSpan.FromMilliseconds of twice the attempt's TotalMilliseconds is then
// exact), with C#'s TotalSeconds as double.ToString() writes it (netSeconds, TestNetSeconds).
func netValidate(attempt, total, sampling time.Duration) []string {
	s := netSeconds
	var errs []string
	if attempt > total {
		errs = append(errs, "Total request timeout resilience strategy must have a greater timeout than the attempt resilience strategy. "+
			"Total Request Timeout: "+s(total)+"s, "+"Attempt Timeout: "+s(attempt)+"s")
	}
	if sampling < 2*attempt {
		errs = append(errs, "The sampling duration of circuit breaker strategy needs to be at least double of "+
			"an attempt timeout strategy’s timeout interval, in order to be effective. "+
			"Sampling Duration: "+s(sampling)+"s,"+"Attempt Timeout: "+s(attempt)+"s")
	}
	return errs
}

// TestStartupChecks holds that the page's lines about .NET's start-up validation say what the
// transcribed validator does: each rule accepted or refused as it does, its message quoted
// whole when it refuses, with the inputs' names and values.
func TestStartupChecks(t *testing.T) {
	for _, c := range []struct {
		query                    string
		attempt, total, sampling time.Duration
		lines                    []string // what each line starts with, beyond the validator's messages
	}{
		{"preset=dotnet-standard", 10 * sec, 30 * sec, 30 * sec, []string{
			"Attempt timeout at most the total request timeout: 10 s (.NET's default; timeout is 0, none) and 30 s (budget), which .NET accepts.",
			"The breaker's sampling duration at least twice the attempt timeout: 30 s (pollysampling) and 2 × 10 s (.NET's default; timeout is 0, none) = 20 s, which .NET accepts.",
		}},
		{"preset=dotnet-standard&timeout=40s", 40 * sec, 30 * sec, 30 * sec, []string{
			"Attempt timeout at most the total request timeout: 40 s (timeout) and 30 s (budget): the attempt timeout is longer, so .NET refuses to start: “",
			"The breaker's sampling duration at least twice the attempt timeout: 30 s (pollysampling) and 2 × 40 s (timeout) = 80 s: the sampling duration is shorter, so .NET refuses to start: “",
		}},
		// Equal is allowed by both rules.
		{"preset=dotnet-standard&timeout=30s&breaker=polly&pollysampling=1m", 30 * sec, 30 * sec, time.Minute, nil},
		{"preset=dotnet-standard&timeout=15s", 15 * sec, 30 * sec, 30 * sec, nil},
		{"preset=dotnet-standard&timeout=1500ms&breaker=polly&pollysampling=2999ms", 1500 * msec, 30 * sec, 2999 * msec, []string{
			"Attempt timeout at most the total request timeout: 1.5 s (timeout) and 30 s (budget), which .NET accepts.",
			"The breaker's sampling duration at least twice the attempt timeout: 2.999 s (pollysampling) and 2 × 1.5 s (timeout) = 3 s: the sampling duration is shorter",
		}},
		// Below Polly's range of a timeout: refused before the rules, which still apply.
		{"preset=dotnet-standard&timeout=5ms", 5 * msec, 30 * sec, 30 * sec, []string{
			"AttemptTimeout.Timeout must be between 10 ms and 1 day (Polly's TimeoutStrategyOptions): .NET refuses 5 ms (timeout) at start-up.",
		}},
	} {
		p := mustDecode(t, c.query)
		got := StartupChecks(p)
		all := strings.Join(got, "\n")
		for _, want := range c.lines {
			if !strings.Contains(all, want) {
				t.Errorf("%s: no line says %q in\n%s", c.query, want, all)
			}
		}
		errs := netValidate(c.attempt, c.total, c.sampling)
		refusals := strings.Count(all, "so .NET refuses to start: “")
		if refusals != len(errs) {
			t.Errorf("%s: %d refusals, the validator %d: %q\n%s", c.query, refusals, len(errs), errs, all)
		}
		for _, e := range errs {
			if !strings.Contains(all, "“"+e+"”") {
				t.Errorf("%s: the validator's message is not quoted whole: %q\n%s", c.query, e, all)
			}
		}
		if last := got[len(got)-1]; !strings.HasPrefix(last, "The summed retry delays against the total request timeout: no released version checks them") {
			t.Errorf("%s: the last line is %q", c.query, last)
		}
	}
	// Only for the handler's preset.
	for _, q := range []string{"", "preset=polly-exponential-jitter&timeout=40s", "base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0&budget=30s"} {
		if got := StartupChecks(mustDecode(t, q)); got != nil {
			t.Errorf("%q: %q", q, got)
		}
	}
}

func TestNetSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * sec: "30", 1500 * msec: "1.5", 10 * msec: "0.01", 100 * time.Microsecond: "0.0001",
		10 * time.Microsecond: "1E-05", 24 * time.Hour: "86400", 2999 * msec: "2.999",
	} {
		if got := netSeconds(d); got != want {
			t.Errorf("%v: %s, .NET writes %s", d, got, want)
		}
	}
}

// With the .NET handler's preset and an attempt timeout of 20 s, .NET's start-up validation
// accepts the timeouts and refuses the breaker's 30 s sampling duration.
func ExampleStartupChecks() {
	p, _ := Decode("preset=dotnet-standard&timeout=20s")
	fmt.Println(StartupChecksIntro)
	for _, line := range StartupChecks(p) {
		fmt.Println("-", line)
	}
	// Output:
	// What .NET checks of these options when the host starts (HttpStandardResilienceOptionsCustomValidator), for the inputs:
	// - Attempt timeout at most the total request timeout: 20 s (timeout) and 30 s (budget), which .NET accepts.
	// - The breaker's sampling duration at least twice the attempt timeout: 30 s (pollysampling) and 2 × 20 s (timeout) = 40 s: the sampling duration is shorter, so .NET refuses to start: “The sampling duration of circuit breaker strategy needs to be at least double of an attempt timeout strategy’s timeout interval, in order to be effective. Sampling Duration: 30s,Attempt Timeout: 20s”.
	// - The summed retry delays against the total request timeout: no released version checks them (only the previews before 8.0.0 did).
}

// TestPollyMaxUnderDelay transcribes Polly 8.7.0's RetryHelper.GetRetryDelay without jitter,
// where Polly allows a MaxDelay under Delay (each is checked against 0 and a day only):
//
//	Constant => baseDelay, Linear => (attempt + 1) * baseDelay, Exponential => Math.Pow(2, attempt) * baseDelay
//	if (maxDelay is TimeSpan maxDelayValue && delay > maxDelayValue) return maxDelay.Value;
//
// Every retry's wait, as calc schedules PollyRetry.Policy, is that delay exactly.
func TestPollyMaxUnderDelay(t *testing.T) {
	for _, backoff := range []string{"Constant", "Linear", "Exponential"} {
		c := PollyRetry{MaxRetryAttempts: 4, Delay: 3 * time.Second, MaxDelay: 2 * time.Second, BackoffType: backoff}
		p := calc.Default()
		p.Policy = c.Policy()
		if err := p.Validate(); err != nil { // calc refuses a cap under the base
			t.Fatalf("%s: %v", backoff, err)
		}
		rows := p.Schedule().Rows
		for attempt := 0; attempt < c.MaxRetryAttempts; attempt++ {
			delay := map[string]time.Duration{"Constant": c.Delay, "Linear": time.Duration(attempt+1) * c.Delay, "Exponential": c.Delay << attempt}[backoff]
			if delay > c.MaxDelay {
				delay = c.MaxDelay
			}
			if r := rows[attempt+1]; r.Min != delay || r.Max != delay {
				t.Errorf("%s, retry %d: waits %v to %v, Polly %v", backoff, attempt+1, r.Min, r.Max, delay)
			}
		}
	}
	// With jitter each drawn delay is clamped: a law calc does not have.
	jittered := PollyRetry{MaxRetryAttempts: 2, Delay: 3 * time.Second, MaxDelay: 2 * time.Second, BackoffType: "Linear", UseJitter: true}.Policy()
	if _, ok := PollyMaxUnderDelay(jittered); ok || jittered.Cap >= jittered.Base {
		t.Errorf("with jitter: %+v, ok %v; want the clamp left to the caller to refuse", jittered, ok)
	}
}
