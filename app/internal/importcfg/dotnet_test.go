package importcfg

import (
	"strings"
	"testing"
)

const standardHandler = `{
  "Logging": { "LogLevel": { "Default": "Information" } },
  "HttpClients": {
    "Catalog": {
      "Retry": {
        "MaxRetryAttempts": 5,
        "Delay": "00:00:00.500",
        "BackoffType": "exponential",
        "UseJitter": true,
        "MaxDelay": "00:00:10"
      },
      "AttemptTimeout": { "Timeout": "00:00:05" },
      "TotalRequestTimeout": { "Timeout": "00:01:00" },
      "CircuitBreaker": { "FailureRatio": 0.2, "MinimumThroughput": 50, "SamplingDuration": "00:00:20", "BreakDuration": "00:00:15" },
      "RateLimiter": { "DefaultRateLimiterOptions": { "PermitLimit": 1000 } }
    }
  }
}`

var dotnetCases = []readCase{
	{name: "standard handler", text: standardHandler,
		values:  "attempts=6&base=500ms&cap=10s&jitter=decorrelatedv2&capat=after&budget=1m&timeout=5s&breaker=polly&breakerat=attempt&pollyratio=0.2&pollythroughput=50&pollysampling=20s&pollyopen=15s",
		ignored: "HttpClients.Catalog.RateLimiter: the handler's rate limiter"},
	{name: "standard handler's defaults", text: `{"Resilience": {"AttemptTimeout": {"Timeout": "00:00:02"}}}`,
		values: "attempts=4&base=2s&jitter=decorrelatedv2&budget=30s&timeout=2s&pollysampling=30s&pollyratio=0.1"},
	{name: "retry options", text: `{"MaxRetryAttempts": 2, "Delay": "00:00:01", "BackoffType": "Linear", "UseJitter": true}`,
		values: "attempts=3&base=1s&growth=linear&jitter=proportional&ratio=0.25&cap=168h&budget=0"},
	{name: "retry options' defaults", text: `{"MyRetry": {"MaxRetryAttempts": 3}}`, values: "attempts=4&base=2s&factor=1&jitter=none"},
	{name: "keys in any case, enum by number", text: `{"maxretryattempts": "4", "backofftype": "2"}`, values: "attempts=5&factor=2&jitter=none"},
	{name: "d.hh:mm:ss and ticks", text: `{"MaxRetryAttempts": 1, "Delay": "0.00:00:00.0000015", "MaxDelay": "1.00:00:00"}`, values: "base=1500ns&cap=24h"},
	// .NET's configuration reads JSON with AllowTrailingCommas (JsonConfigurationFileParser).
	{name: "a trailing comma, as .NET takes it", text: "{\"MaxRetryAttempts\": 2,\n\"Delay\": \"00:00:01\",\n}", values: "attempts=3&base=1s"},
	// appsettings.json's comments, which .NET's reader skips (CommentHandling.Skip); a // in a
	// string is no comment.
	{name: "comments, as .NET takes them", text: "{\n  // the retries\n  \"Retry\": {\"MaxRetryAttempts\": 4, /* four */ \"Delay\": \"00:00:01\",},\n  \"Url\": \"http://x//y\"\n}",
		values: "attempts=5&base=1s", read: `line 3: Retry.MaxRetryAttempts "4"`},
	// A top-level Retry of Polly's keys is the standard handler's section, not a Step Functions
	// state's Retry (an array).
	{name: "the standard handler's Retry at the top", text: `{"Retry": {"MaxRetryAttempts": 2, "Delay": "00:00:01"}, "AttemptTimeout": {"Timeout": "00:00:02"}}`,
		values: "attempts=3&base=1s&timeout=2s"},
	{name: "the standard handler's Retry at the top, a trailing comma", text: `{"Retry": {"MaxRetryAttempts": 4,}}`, values: "attempts=5"},
	// Polly allows a MaxDelay under Delay and clamps every delay to it: without jitter each
	// retry waits MaxDelay, read as the base.
	{name: "MaxDelay under Delay", text: `{"MaxRetryAttempts": 3, "Delay": "00:00:02", "MaxDelay": "00:00:01", "BackoffType": "Linear"}`,
		values: "attempts=4&base=1s&factor=1&growth=exponential&cap=168h&jitter=none",
		read:   `line 1: MaxDelay "00:00:01" → base=1s`},
	{name: "MaxDelay under Delay with jitter", text: `{"Retry": {"Delay": "00:00:02", "MaxDelay": "00:00:01", "UseJitter": true}}`,
		err: `under Delay (2s) with UseJitter, Polly clamps each drawn delay to it, a law the calculator does not have; with MaxDelay at least Delay, or UseJitter false, it reads (line 1, Retry.MaxDelay "00:00:01")`},
	{name: "a zero Delay", text: `{"MaxRetryAttempts": 2, "Delay": "00:00:00"}`, values: "attempts=3&base=100ns",
		read: `line 1: Delay 0: Polly retries at once; one tick, 100ns, the least base the calculator takes, stands in`},
	{name: "d:hh:mm:ss", text: `{"MaxRetryAttempts": 1, "MaxDelay": "0:01:00:00", "Delay": "0:02"}`, values: "base=2m&cap=1h"},

	{name: "a bare number is days", text: `{"MaxRetryAttempts": 1, "Delay": 2}`, err: `must be at most 1.00:00:00 (a day): Polly refuses more (line 1, Delay "2")`},
	{name: "negative", text: `{"MaxRetryAttempts": 1, "Delay": "-00:00:01"}`, err: "must not be negative"},
	{name: "minutes over 59", text: `{"MaxRetryAttempts": 1, "Delay": "00:60:00"}`, err: "out of range"},
	{name: "eight digits", text: `{"MaxRetryAttempts": 1, "Delay": "00:00:00.12345678"}`, err: "not a TimeSpan"},
	{name: "a Go duration", text: `{"MaxRetryAttempts": 1, "Delay": "2s"}`, err: `not a TimeSpan: write hh:mm:ss, like "00:00:02" or "00:00:00.500" (line 1, Delay "2s")`},
	{name: "huge days", text: `{"MaxRetryAttempts": 1, "Delay": "` + strings.Repeat("9", 25) + `"}`, err: "at most 1.00:00:00"},
	{name: "zero retries", text: `{"MaxRetryAttempts": 0}`, err: "must be between 1 and"},
	{name: "unknown backoff", text: `{"BackoffType": "Fibonacci"}`, err: "must be Constant, Linear or Exponential"},
	{name: "attempt over total", text: `{"AttemptTimeout": {"Timeout": "00:00:40"}}`, err: "AttemptTimeout's Timeout (40s) is over TotalRequestTimeout's (30s)"},
	{name: "sampling under twice the attempt", text: `{"AttemptTimeout": {"Timeout": "00:00:20"}}`, err: "the default SamplingDuration (30s): the sampling duration (30s) is under twice the attempt timeout (20s)"},
	{name: "ratio over 1", text: `{"CircuitBreaker": {"FailureRatio": 2}}`, err: `must be between 0 and 1 (line 1, CircuitBreaker.FailureRatio "2" → pollyratio=2)`},
}

func TestReadDotnet(t *testing.T) { checkReads(t, dotnetFormat.name, dotnetCases) }

// A Step Functions Retry array is not the standard handler's Retry section.
func TestStepFunctionsRetryIsNotDotnet(t *testing.T) {
	r, err := Read(`{"Retry": [{"ErrorEquals": ["States.ALL"]}]}`)
	if err != nil || r.Format != stepFunctions.name {
		t.Errorf("read as %q (%v), want %q", r.Format, err, stepFunctions.name)
	}
}
