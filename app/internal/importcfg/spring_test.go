package importcfg

import "testing"

const springFormat = "Spring Retry @Retryable"

var springCases = []importCase{
	{name: "exponential random", format: springFormat,
		text:    "@Retryable(retryFor = {IOException.class, TimeoutException.class},\n    maxAttempts = 4,\n    backoff = @Backoff(delay = 500, maxDelay = 5000L, multiplier = 1.5, random = true))\npublic String call() { return \"\"; }",
		want:    "base=500ms&factor=1.5&cap=5s&attempts=4&jitter=upward&ratio=0.5&capat=after",
		ignored: []string{"line 1: retryFor", "line 4: what follows"}},
	{name: "exponential, the hidden 30 s cap", format: springFormat,
		text: "@Retryable(backoff = @Backoff(delay = 1000, maxDelay = 1000, multiplier = 2))", want: "base=1s&factor=2&cap=30s&attempts=3&jitter=none&capat=before"},
	{name: "exponential, a multiplier under 1 is 1", format: springFormat,
		text: "@Retryable(backoff = @Backoff(value = 200, multiplier = 0.5))", want: "base=200ms&factor=1&cap=30s"},
	{name: "exponential past 30 s", format: springFormat,
		text: "@Retryable(backoff = @Backoff(delay = 60000, multiplier = 2))", want: "base=30s&cap=30s"},
	{name: "uniform", format: springFormat,
		text: "@Retryable(maxAttempts = 5, backoff = @Backoff(delay = 100, maxDelay = 500, random = true))",
		want: "base=100ms&factor=1&cap=100ms&add=400ms&jitter=additive&attempts=5", ignored: []string{"random: Spring reads it only with a multiplier"}},
	{name: "fixed, every default", format: springFormat, text: "@Retryable", want: "base=1s&factor=1&cap=1s&attempts=3&jitter=none"},
	{name: "fixed, delay 0 is 1 ms", format: springFormat, text: "@Retryable(backoff = @Backoff(0))", want: "base=1ms&cap=1ms"},
	{name: "kotlin, the package, the value", format: springFormat,
		text:    "@org.springframework.retry.annotation.Retryable(IOException::class, label = \"x\", stateful = true, recover = \"r\", listeners = {\"l\"}, exclude = X.class, noRetryFor = Y.class, notRecoverable = Z.class, include = W.class, interceptor = \"i\", backoff = Backoff(delay = 2_000))",
		want:    "base=2s&attempts=3",
		ignored: []string{"value: which exceptions", "label", "stateful", "recover", "listeners", "exclude", "noRetryFor", "notRecoverable", "include", "interceptor"}},
}

func TestSpring(t *testing.T) { checkImports(t, springCases) }

func TestSpringRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"attempts 0", "@Retryable(maxAttempts = 0)", []string{"line 1", "maxAttempts", `"0"`}},
		{"attempts past the table", "@Retryable(\nmaxAttempts = 1001)", []string{"line 2", "maxAttempts", `"1001"`, "at most 1000"}},
		{"attempts a constant", "@Retryable(maxAttempts = MAX)", []string{"maxAttempts", `"MAX"`}},
		{"attempts an expression", "@Retryable(maxAttempts = 2 * 3)", []string{"maxAttempts", `"2"`, "literal"}},
		{"delay negative", "@Retryable(backoff = @Backoff(delay = -1))", []string{"delay"}},
		{"delay past the calculator", "@Retryable(backoff = @Backoff(delay = 90000000))", []string{"delay", `"90000000"`, "24h"}},
		{"multiplier a word", "@Retryable(backoff = @Backoff(multiplier = two))", []string{"multiplier", `"two"`}},
		{"multiplier hex", "@Retryable(backoff = @Backoff(multiplier = 0x1p3))", []string{"multiplier"}},
		{"random past what upward draws", "@Retryable(backoff = @Backoff(multiplier = 3, random = true))", []string{"multiplier 3", "random = true", "2 ×"}},
		{"random a word", "@Retryable(backoff = @Backoff(multiplier = 2, random = yes))", []string{"random", `"yes"`}},
		{"an expression", "@Retryable(maxAttemptsExpression = \"#{3}\")", []string{"maxAttemptsExpression", "expression"}},
		{"a backoff expression", "@Retryable(backoff = @Backoff(delayExpression = \"#{1}\"))", []string{"delayExpression", "expression"}},
		{"spring framework 7", "@Retryable(maxRetries = 3, delay = 100)", []string{"maxRetries", "Spring Framework 7"}},
		{"not a backoff attribute", "@Retryable(backoff = @Backoff(jitter = 10))", []string{"jitter", "not an attribute of @Backoff"}},
		{"backoff not an annotation", "@Retryable(backoff = 5)", []string{"backoff", `"5"`, "@Backoff"}},
		{"given twice", "@Retryable(maxAttempts = 2,\nmaxAttempts = 3)", []string{"line 2", "given twice: give it once (line 2, maxAttempts)"}},
		{"unclosed", "@Retryable(maxAttempts = 2", []string{"line 1"}},
		{"unclosed array", "@Retryable(value = {A.class", []string{"value", "no }"}},
	})
}
