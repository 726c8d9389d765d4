package importcfg

import "testing"

const pollyFormat = "Polly RetryStrategyOptions (C#)"

var pollyCodeCases = []importCase{
	{name: "exponential with jitter and a deadline", format: pollyFormat,
		text:    "var pipeline = new ResiliencePipelineBuilder()\n    .AddTimeout(TimeSpan.FromSeconds(5))\n    .AddRetry(new RetryStrategyOptions\n    {\n        ShouldHandle = new PredicateBuilder().Handle<HttpRequestException>(),\n        MaxRetryAttempts = 5, // retries\n        Delay = TimeSpan.FromMilliseconds(100),\n        BackoffType = DelayBackoffType.Exponential,\n        UseJitter = true,\n        MaxDelay = TimeSpan.FromSeconds(1),\n    })\n    .AddTimeout(TimeSpan.FromSeconds(1))\n    .Build();",
		want:    "base=100ms&factor=2&cap=1s&attempts=6&jitter=decorrelatedv2&capat=after&budget=5s",
		ignored: []string{"line 5: ShouldHandle", "line 12: AddTimeout"}},
	{name: "Polly's defaults", format: pollyFormat,
		text: "new RetryStrategyOptions { }", want: "base=2s&factor=1&cap=168h&attempts=4&jitter=none&budget=0"},
	// Polly clamps every delay to a MaxDelay under Delay (RetryHelper.GetRetryDelay: a delay
	// over maxDelay is maxDelay), and without jitter each is at least Delay: 1 s every time.
	{name: "MaxDelay under Delay", format: pollyFormat,
		text: "new RetryStrategyOptions { Delay = TimeSpan.FromSeconds(2), MaxDelay = TimeSpan.FromSeconds(1), BackoffType = DelayBackoffType.Exponential }",
		want: "base=1s&factor=1&cap=168h&growth=exponential&jitter=none"},
	// Polly retries at once: one tick stands in, as in the JSON reader.
	{name: "a zero Delay", format: pollyFormat,
		text: "new RetryStrategyOptions { Delay = TimeSpan.FromSeconds(0), MaxRetryAttempts = 2 }", want: "base=100ns&attempts=3"},
	{name: "linear with jitter", format: pollyFormat,
		text: "new RetryStrategyOptions { BackoffType = DelayBackoffType.Linear, UseJitter = true, Delay = TimeSpan.FromTicks(2500) }",
		want: "base=250us&growth=linear&jitter=proportional&ratio=0.25"},
}

func TestPollyCode(t *testing.T) { checkImports(t, pollyCodeCases) }

func TestPollyCodeRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"a variable", "new RetryStrategyOptions\n{\n    Delay = delay,\n}", []string{"line 3", "Delay", `"delay"`}},
		{"a fraction", "new RetryStrategyOptions { Delay = TimeSpan.FromMilliseconds(0.5) }", []string{"Delay", "TimeSpan.FromMilliseconds(0.5)"}},
		{"backoff", "new RetryStrategyOptions { BackoffType = DelayBackoffType.Fibonacci }", []string{"BackoffType", "Fibonacci"}},
		{"jitter", "new RetryStrategyOptions { UseJitter = yes }", []string{"UseJitter", `"yes"`}},
		{"negative", "new RetryStrategyOptions { MaxRetryAttempts = -1 }", []string{"MaxRetryAttempts", `"-1"`}},
		{"max delay over a day", "new RetryStrategyOptions { MaxDelay = TimeSpan.FromDays(2) }", []string{"MaxDelay", "24h"}},
		{"max under delay with jitter", "new RetryStrategyOptions { Delay = TimeSpan.FromSeconds(2), MaxDelay = TimeSpan.FromSeconds(1), UseJitter = true }", []string{"MaxDelay 1s", "under Delay (2s) with UseJitter"}},
		{"given twice", "new RetryStrategyOptions {\nDelay = TimeSpan.FromSeconds(2),\nDelay = TimeSpan.FromSeconds(1) }", []string{"line 3", "given twice"}},
		{"unclosed", "new RetryStrategyOptions { Delay = TimeSpan.FromSeconds(2),", []string{"line 1", "no closing }"}},
		{"no initializer", "new RetryStrategyOptions()", []string{"no { … }"}},
		{"not an assignment", "new RetryStrategyOptions {\n  Delay TimeSpan.FromSeconds(2) }", []string{"line 2", "expected Name = value"}},
	})
}
