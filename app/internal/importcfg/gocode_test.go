package importcfg

import "testing"

var goCodeCases = []importCase{
	{name: "cenkalti", format: "cenkalti/backoff v5 (Go)",
		text: "b := &backoff.ExponentialBackOff{\n\tInitialInterval:     500 * time.Millisecond,\n\tRandomizationFactor: 0.5,\n\tMultiplier:          1.5,\n\tMaxInterval:         time.Minute,\n\tClock: clock,\n}\nresult, err := backoff.Retry(ctx, op,\n\tbackoff.WithBackOff(b),\n\tbackoff.WithMaxTries(8),\n\tbackoff.WithMaxElapsedTime(2*time.Minute),\n)",
		want: "base=500ms&factor=1.5&cap=1m&attempts=8&jitter=proportional&ratio=0.5&budget=2m", ignored: []string{"line 6: Clock: not read"}},
	{name: "cenkalti, Retry's defaults", format: "cenkalti/backoff v5 (Go)",
		text: "&backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: 10 * time.Second}",
		want: "base=1s&factor=2&cap=10s&attempts=30&jitter=none&budget=15m"},
	{name: "client-go", format: "Kubernetes client-go wait.Backoff (Go)",
		text: "backoff := wait.Backoff{\n\tDuration: 10 * time.Millisecond,\n\tFactor:   5,\n\tJitter:   0.1,\n\tSteps:    6,\n\tCap:      time.Second,\n}",
		want: "base=10ms&factor=5&attempts=3&jitter=upward&ratio=0.1&cap=168h&budget=0"},
	{name: "client-go, a jitter over 1", format: "Kubernetes client-go wait.Backoff (Go)",
		text: "wait.Backoff{Duration: 100 * time.Millisecond, Factor: 0, Jitter: 2, Steps: 3}",
		want: "base=200ms&factor=1&jitter=proportional&ratio=0.5&attempts=3"},
}

func TestGoCode(t *testing.T) { checkImports(t, goCodeCases) }

func TestGoCodeRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"cenkalti: a variable", "backoff.ExponentialBackOff{\n\tInitialInterval: base,\n\tMaxInterval: time.Minute,\n}", []string{"line 2", "InitialInterval", `"base"`}},
		{"cenkalti: no max interval", "backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2}", []string{"MaxInterval"}},
		{"cenkalti: randomization over 1", "backoff.ExponentialBackOff{InitialInterval: time.Second, MaxInterval: time.Minute, RandomizationFactor: 1.5}", []string{"RandomizationFactor", `"1.5"`}},
		{"cenkalti: multiplier under 1", "backoff.ExponentialBackOff{InitialInterval: time.Second, MaxInterval: time.Minute, Multiplier: 0.5}", []string{"Multiplier", `"0.5"`}},
		{"cenkalti: max under initial", "backoff.ExponentialBackOff{InitialInterval: time.Minute, MaxInterval: time.Second, Multiplier: 2}", []string{"MaxInterval 1s", "at least InitialInterval (1m)"}},
		{"cenkalti: tries 0", "backoff.ExponentialBackOff{InitialInterval: time.Second, MaxInterval: time.Minute}\nbackoff.WithMaxTries(0)", []string{"line 2", "backoff.WithMaxTries", `"0"`}},
		{"cenkalti: unclosed", "backoff.ExponentialBackOff{InitialInterval: time.Second,", []string{"line 1", "no closing }"}},
		{"cenkalti: given twice", "backoff.ExponentialBackOff{\nInitialInterval: time.Second,\nInitialInterval: time.Second}", []string{"line 3", "given twice"}},
		{"client-go: steps 0", "wait.Backoff{Duration: time.Second, Steps: 0}", []string{"Steps", `"0"`}},
		{"client-go: no duration", "wait.Backoff{Steps: 4}", []string{"Duration"}},
		{"client-go: hex factor", "wait.Backoff{Duration: time.Second, Factor: 0x2, Steps: 4}", []string{"Factor", `"0x2"`}},
		{"client-go: not a field", "wait.Backoff{\n\tDuration time.Second,\n}", []string{"line 2", "expected Field: value"}},
	})
}
