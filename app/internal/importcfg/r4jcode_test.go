package importcfg

import "testing"

const r4jFormat = "resilience4j RetryConfig (Java)"

var r4jCodeCases = []importCase{
	{name: "random with a max", format: r4jFormat,
		text: "RetryConfig config = RetryConfig.custom()\n    .maxAttempts(6)\n    .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(\n        Duration.ofMillis(50), 2.0, 1.0, Duration.ofSeconds(5)))\n    .build();",
		want: "base=50ms&factor=2&cap=5s&attempts=6&jitter=proportional&ratio=1&capat=after"},
	{name: "exponential", format: r4jFormat,
		text: "RetryConfig.custom().maxAttempts(4).intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofSeconds(1), 1.5d)).build();",
		want: "base=1s&factor=1.5&cap=168h&attempts=4&jitter=none"},
	{name: "a fixed wait, resilience4j's defaults", format: r4jFormat,
		text: "RetryConfig.custom().waitDuration(Duration.ofMillis(200)).build();", want: "base=200ms&factor=1&cap=200ms&attempts=3"},
}

func TestR4jCode(t *testing.T) { checkImports(t, r4jCodeCases) }

func TestR4jCodeRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"attempts 0", "RetryConfig.custom()\n.maxAttempts(0)", []string{"line 2", "maxAttempts", `"0"`}},
		{"attempts a constant", "RetryConfig.custom().maxAttempts(MAX)", []string{"maxAttempts", `"MAX"`}},
		{"a duration variable", "RetryConfig.custom().intervalFunction(IntervalFunction.ofExponentialBackoff(initial, 2.0))", []string{"initialInterval", `"initial"`}},
		{"randomization over 1", "RetryConfig.custom().intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(5), 2.0, 1.5))", []string{"randomizationFactor", `"1.5"`}},
		{"too many arguments", "RetryConfig.custom().intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(5), 2.0, 1.0, Duration.ofSeconds(1)))", []string{"takes 2 or 3 arguments"}},
		{"another interval function", "RetryConfig.custom().intervalFunction(IntervalFunction.of(Duration.ofMillis(5)))", []string{"intervalFunction", "ofExponentialBackoff"}},
		{"max under initial", "RetryConfig.custom().intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofSeconds(5), 2.0, Duration.ofSeconds(1)))", []string{"maxInterval 1s", "at least the initial interval, 5s"}},
		{"unclosed", "RetryConfig.custom().maxAttempts(3", []string{"maxAttempts( has no )"}},
	})
}
