package importcfg

import "testing"

var stepFunctionsCases = []importCase{
	{name: "a state", format: "AWS Step Functions Retry (JSON)",
		text:    "{\n  \"Type\": \"Task\",\n  \"TimeoutSeconds\": 60,\n  \"Retry\": [\n    {\"ErrorEquals\": [\"States.ALL\"], \"IntervalSeconds\": 3, \"MaxAttempts\": 2, \"BackoffRate\": 1.5, \"MaxDelaySeconds\": 10, \"JitterStrategy\": \"FULL\", \"Comment\": \"c\"},\n    {\"ErrorEquals\": [\"States.Timeout\"], \"MaxAttempts\": 9}\n  ]\n}",
		want:    "base=3s&factor=1.5&cap=10s&attempts=3&jitter=full&capat=before",
		ignored: []string{"line 3: TimeoutSeconds 60", "line 6: Retry[1]", "line 5: Retry[0].ErrorEquals"}},
	{name: "defaults are the preset's", format: "AWS Step Functions Retry (JSON)",
		text: `[{"ErrorEquals": ["States.ALL"]}]`, want: "base=1s&factor=2&cap=168h&attempts=4&jitter=none", ignored: []string{"ErrorEquals"}},
	{name: "one retrier, never retried", format: "AWS Step Functions Retry (JSON)",
		text: `{"MaxAttempts": 0, "JitterStrategy": "NONE", "Extra": 1}`, want: "attempts=1&jitter=none", ignored: []string{"line 1: Extra: not a field"}},
	{name: "a state machine", format: "AWS Step Functions Retry (JSON)",
		text: "{\"StartAt\": \"A\", \"States\": {\n\"A\": {\"Type\": \"Pass\", \"Next\": \"B\"},\n\"B\": {\"Type\": \"Task\", \"Retry\": [{\"IntervalSeconds\": 2}]},\n\"C\": {\"Type\": \"Task\", \"Retry\": [{\"IntervalSeconds\": 5}]}}}",
		want: "base=2s&attempts=4", ignored: []string{"line 4: States.C: this state's Retry"}},
	{name: "max delay under the interval", format: "AWS Step Functions Retry (JSON)",
		text: `{"IntervalSeconds": 10, "MaxDelaySeconds": 4}`, want: "base=4s&cap=4s"},
}

func TestStepFunctions(t *testing.T) { checkImports(t, stepFunctionsCases) }

func TestStepFunctionsRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"interval 0", "{\"Retry\": [{\n\"IntervalSeconds\": 0}]}", []string{"line 2", "IntervalSeconds", `"0"`, "from 1"}},
		{"interval a fraction", `[{"IntervalSeconds": 1.5}]`, []string{"IntervalSeconds", `"1.5"`, "whole seconds"}},
		{"interval past the calculator", `[{"IntervalSeconds": 90000}]`, []string{"IntervalSeconds", `"90000"`, "24h"}},
		{"rate under 1", `[{"BackoffRate": 0.5}]`, []string{"BackoffRate", `"0.5"`, "1.0"}},
		{"attempts negative", `[{"ErrorEquals": ["States.ALL"], "MaxAttempts": -1}]`, []string{"MaxAttempts", `"-1"`}},
		{"attempts past the table", `[{"ErrorEquals": ["States.ALL"], "MaxAttempts": 1000}]`, []string{"MaxAttempts", `"1000"`, "at most 1000 attempts"}},
		{"max delay 0", `[{"MaxDelaySeconds": 0}]`, []string{"MaxDelaySeconds", `"0"`}},
		{"jitter", `[{"JitterStrategy": "HALF"}]`, []string{"JitterStrategy", `"HALF"`, "FULL or NONE"}},
		{"retry not an array", `{"Retry": {"IntervalSeconds": 1}, "Type": "Task"}`, []string{"line 1", "Retry must be an array"}},
		{"empty retry", `{"Retry": [], "Type": "Task"}`, []string{"line 1", "at least one"}},
		{"retrier not an object", `{"Retry": [1], "Type": "Task"}`, []string{"line 1", "must be an object"}},
		{"gRPC's MaxAttempts is not a retrier", `{"MaxAttempts": 4, "InitialBackoff": "0.1s"}`, []string{"import (gRPC service config (JSON)): maxBackoff is missing or 0: grpc-go refuses the whole service config (invalid retry policy) (line 1, the retry policy)"}},
		{"given twice", "[{\"IntervalSeconds\": 1,\n\"IntervalSeconds\": 2}]", []string{"line 2", "given twice (also line 1): give it once (line 2, [0].IntervalSeconds)"}},
		{"a trailing comma", "[{\"IntervalSeconds\": 1,\n\"BackoffRate\": 2,}]", []string{"remove the trailing comma before }; JSON has none, and Step Functions refuses the state machine (line 2)"}},
		{"broken", "[{\"IntervalSeconds\": 1,\n\"BackoffRate\": }]", []string{"line 2"}},
	})
}
