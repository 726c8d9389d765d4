package importcfg

import "testing"

var temporalCases = []importCase{
	{name: "json", format: "Temporal RetryPolicy (JSON)",
		text: `{"initialInterval": "2s", "backoffCoefficient": 1.5, "maximumInterval": "1m", "maximumAttempts": 5, "nonRetryableErrorTypes": ["Fatal"]}`,
		want: "base=2s&factor=1.5&cap=1m&attempts=5&jitter=none&budget=0", ignored: []string{"line 1: nonRetryableErrorTypes"}},
	{name: "defaults are the preset's", format: "Temporal RetryPolicy (JSON)",
		text: `{"maximumAttempts": 0}`, want: "base=1s&factor=2&cap=100s&attempts=10&jitter=none"},
	{name: "protobuf's names, inside activity options", format: "Temporal RetryPolicy (JSON)",
		text: "{\n  \"startToCloseTimeout\": \"10s\",\n  \"scheduleToCloseTimeout\": \"5m\",\n  \"retryPolicy\": {\"initial_interval\": \"0.5s\", \"maximum_interval\": \"0s\"}\n}",
		want: "base=500ms&cap=50s&attempts=10", ignored: []string{"line 2: startToCloseTimeout: not part", "line 3: scheduleToCloseTimeout: it ends the retries"}},
	{name: "a merge key", format: "Temporal RetryPolicy (JSON)",
		text: "defaults: &d {initialInterval: 2s, maximumAttempts: 9}\nretryPolicy:\n  <<: *d\n  maximumAttempts: 3\n",
		want: "base=2s&attempts=3", ignored: []string{"line 1: defaults: not part"}},
	{name: "an unknown key", format: "Temporal RetryPolicy (JSON)",
		text: `{"initialInterval": "1s", "jitter": 0.2}`, want: "base=1s", ignored: []string{"line 1: jitter: not a field"}},
	{name: "go struct", format: "Temporal RetryPolicy (Go)",
		text: "retry := &temporal.RetryPolicy{\n\tInitialInterval:    500 * time.Millisecond,\n\tBackoffCoefficient: 3,\n\tMaximumInterval:    time.Minute, // the cap\n\tMaximumAttempts:    7,\n\tNonRetryableErrorTypes: []string{\"Fatal\"},\n}",
		want: "base=500ms&factor=3&cap=1m&attempts=7&jitter=none", ignored: []string{"line 6: NonRetryableErrorTypes"}},
	{name: "go struct, other literals", format: "Temporal RetryPolicy (Go)",
		text: "InitialInterval: time.Second * 2, MaximumInterval: time.Duration(90) * time.Second",
		want: "base=2s&cap=90s&attempts=10"},
}

func TestTemporal(t *testing.T) { checkImports(t, temporalCases) }

func TestTemporalRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"bad duration", "{\n\"initialInterval\": \"1x\"}", []string{"line 2", "initialInterval", `"1x"`}},
		{"negative attempts", `{"maximumAttempts": -1}`, []string{"line 1", "maximumAttempts", `"-1"`, "0 (unlimited)"}},
		{"attempts over the table", `{"maximumAttempts": 1001}`, []string{"maximumAttempts", `"1001"`, "at most 1000"}},
		{"coefficient under 1", `{"backoffCoefficient": 0.5}`, []string{"backoffCoefficient", "0.5", "at least 1"}},
		{"coefficient a string", `{"backoffCoefficient": "two"}`, []string{"backoffCoefficient", `"two"`}},
		{"coefficient in hex", "backoffCoefficient: 0x1p3", []string{"backoffCoefficient", `"0x1p3"`}},
		{"coefficient infinite", "backoffCoefficient: Inf", []string{"backoffCoefficient", `"Inf"`}},
		{"go: coefficient in hex", "BackoffCoefficient: 0x1p3,\nMaximumAttempts: 3", []string{"BackoffCoefficient", `"0x1p3"`}},
		{"maximum under initial", `{"initialInterval": "10s", "maximumInterval": "1s"}`, []string{"maximumInterval", "1s", "at least initialInterval (10s)"}},
		{"given twice", "{\"initialInterval\": \"1s\",\n\"initialInterval\": \"2s\"}", []string{"line 2", "given twice (also line 1): give it once (line 2, initialInterval)"}},
		{"gRPC's retry policy is not Temporal's", `{"name": [{}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s"}}`, []string{"import (gRPC service config (JSON)): maxBackoff is missing or 0: grpc-go refuses the whole service config (invalid retry policy) (line 1, retryPolicy)"}},
		{"a trailing comma", "{\"initialInterval\": \"1s\",\n\"maximumAttempts\": 3,\n}", []string{"remove the trailing comma before }; JSON has none, and Temporal's JSON (protobuf's, protojson) refuses it (line 2)"}},
		{"broken json", "{\"initialInterval\": \"1s\",\n\"maximumAttempts\": 3", []string{"line 2"}},
		{"go: a variable", "InitialInterval: base,\nMaximumAttempts: 3", []string{"line 1", "InitialInterval", `"base"`, "literal"}},
		{"go: a fraction of a nanosecond", "InitialInterval: 1.5 * time.Nanosecond", []string{"InitialInterval", "whole nanoseconds"}},
		{"go: attempts a call", "MaximumAttempts: n()", []string{"MaximumAttempts", `"n()"`}},
		{"go: given twice", "InitialInterval: time.Second,\nInitialInterval: time.Minute", []string{"line 2", "given twice"}},
	})
}
