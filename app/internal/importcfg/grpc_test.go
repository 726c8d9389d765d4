package importcfg

import (
	"strings"
	"testing"
)

// readCase is one text to import: the link's values it must set (a query's pairs, each
// checked), or the words its error must hold, and words a read or ignored line must hold.
type readCase struct {
	name, text string
	values     string // "attempts=5&limiter=grpc": each pair must be in Values
	err        string // the error must contain it
	read       string // a Read line must contain it
	ignored    string // an Ignored line must contain it
}

func checkReads(t *testing.T, format string, cases []readCase) {
	t.Helper()
	for _, c := range cases {
		res, err := Read(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if res.Format != format {
			t.Errorf("%s: read as %q", c.name, res.Format)
		}
		for pair := range strings.SplitSeq(c.values, "&") {
			k, v, _ := strings.Cut(pair, "=")
			if got := res.Values.Get(k); got != v {
				t.Errorf("%s: %s=%s, want %s", c.name, k, got, v)
			}
		}
		for _, w := range []struct {
			lines []string
			want  string
		}{{res.Read, c.read}, {res.Ignored, c.ignored}} {
			if w.want != "" && !strings.Contains(strings.Join(w.lines, "\n"), w.want) {
				t.Errorf("%s: no line with %q in\n%s", c.name, w.want, strings.Join(w.lines, "\n"))
			}
		}
	}
}

func grpcConfig(retryPolicy string) string {
	return `{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": ` + retryPolicy + `}]}`
}

const grpcPolicy = `{"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}`

var grpcCases = []readCase{
	{name: "policy", text: grpcConfig(grpcPolicy),
		values: "attempts=4&base=100ms&cap=1s&factor=2&jitter=proportional&ratio=0.2&capat=before&budget=0"},
	{name: "keys in any case, as encoding/json", text: grpcConfig(strings.NewReplacer("maxAttempts", "MaxAttempts", "initialBackoff", "INITIALBACKOFF").Replace(grpcPolicy)),
		values: "attempts=4&base=100ms"},
	{name: "the last of a key given twice", text: grpcConfig(strings.Replace(grpcPolicy, `"maxAttempts": 4,`, `"maxAttempts": 4, "MaxAttempts": 3,`, 1)),
		values: "attempts=3"},
	{name: "more than 5 attempts", text: grpcConfig(strings.Replace(grpcPolicy, `4`, `8`, 1)),
		values: "attempts=5", read: "maxAttempts 8 is 5"},
	{name: "fractions of a second", text: grpcConfig(strings.Replace(grpcPolicy, `"0.1s"`, `".000001s"`, 1)),
		values: "base=1us"},
	{name: "the second method config", text: `{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": ` + grpcPolicy + `}, {"name": [{"service": "c.D"}]}]}`,
		values: "attempts=4", ignored: "methodConfig[1]: only the first method config with a name is read"},
	{name: "a method config without a name", text: `{"methodConfig": [{"retryPolicy": {}}, {"name": [{}], "retryPolicy": ` + grpcPolicy + `}]}`,
		values: "attempts=4", ignored: "methodConfig[0]: it has no name: grpc-go skips it"},
	{name: "no retry policy", text: `{"methodConfig": [{"name": [{}], "timeout": "3s"}]}`, values: "attempts=1&budget=3s"},
	{name: "throttling", text: `{"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`,
		values: "limiter=grpc&maxtokens=10&tokenratio=0.1&attempts=1"},
	{name: "hedging", text: `{"methodConfig": [{"name": [{}], "hedgingPolicy": {}}]}`, ignored: "hedgingPolicy: hedging"},
	{name: "unknown key", text: `{"methodConfig": [], "retryPolicy": 1}`, ignored: "line 1: retryPolicy: not a key grpc-go reads"},
	{name: "a retry policy on its own", text: "{\"retryPolicy\": " + grpcPolicy + ",\n\"timeout\": \"2s\", \"waitForReady\": true}",
		values:  "attempts=4&base=100ms&cap=1s&factor=2&jitter=proportional&ratio=0.2&budget=2s",
		read:    `line 1: a method config on its own: read as the first of methodConfig; grpc-go reads one only inside the list, with a name: {"methodConfig": [{"name": [{}], "retryPolicy": …}]}`,
		ignored: "line 2: waitForReady: waiting for the channel"},
	{name: "a retry policy's fields alone", text: grpcPolicy, values: "attempts=4&base=100ms&cap=1s&factor=2&budget=0",
		read: "line 1: a retry policy on its own: read as a method config's"},
	{name: "a JSON trailing comma", text: "{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": " + grpcPolicy + "},\n]}",
		err: "import (gRPC service config (JSON)): remove the trailing comma before ]; JSON has none, and grpc-go refuses the whole service config (line 1)"},
	{name: "a YAML flow mapping", text: "{methodConfig: [{name: [{}], retryPolicy: {maxAttempts: 2}}]}",
		err: "not JSON (invalid character 'm' looking for beginning of object key string), and grpc-go refuses the whole service config (line 1)"},

	{name: "one attempt", text: grpcConfig(strings.Replace(grpcPolicy, `4`, `1`, 1)), err: "maxAttempts 1 is under 2: grpc-go refuses the whole service config"},
	{name: "no codes", text: grpcConfig(strings.Replace(grpcPolicy, `"UNAVAILABLE"`, ``, 1)), err: "retryableStatusCodes is missing or empty"},
	{name: "a string for a number", text: grpcConfig(strings.Replace(grpcPolicy, `4`, `"4"`, 1)), err: `must be a number, not a string (line 1, methodConfig[0].retryPolicy.maxAttempts "4")`},
	{name: "a fraction of an attempt", text: grpcConfig(strings.Replace(grpcPolicy, `4`, `4.5`, 1)), err: "not a whole number"},
	{name: "no unit", text: grpcConfig(strings.Replace(grpcPolicy, `"0.1s"`, `"100ms"`, 1)), err: `not a duration: write seconds with an s, like "0.1s" (line 1, methodConfig[0].retryPolicy.initialBackoff "100ms")`},
	{name: "negative", text: grpcConfig(strings.Replace(grpcPolicy, `"0.1s"`, `"-0.1s"`, 1)), err: "must not be negative"},
	{name: "ten digits", text: grpcConfig(strings.Replace(grpcPolicy, `"0.1s"`, `"0.1000000000s"`, 1)), err: "not a duration"},
	{name: "huge", text: grpcConfig(strings.Replace(grpcPolicy, `"1s"`, `"99999999999999999999s"`, 1)), err: `(line 1, methodConfig[0].retryPolicy.maxBackoff "99999999999999999999s" → cap=`},
	{name: "1e400", text: grpcConfig(strings.Replace(grpcPolicy, `2,`, `1e400,`, 1)), err: "out of range"},
	{name: "a factor under 1", text: grpcConfig(strings.Replace(grpcPolicy, `2,`, `0.5,`, 1)), err: `must be between 1 and 100 (line 1, methodConfig[0].retryPolicy.backoffMultiplier "0.5" → factor=0.5)`},
	{name: "cap under base", text: grpcConfig(strings.Replace(grpcPolicy, `"1s"`, `"0.01s"`, 1)), err: `must be at least base (100ms) and at most 168h (line 1, methodConfig[0].retryPolicy.maxBackoff "0.01s" → cap=10ms)`},
	{name: "too many tokens", text: `{"retryThrottling": {"maxTokens": 1001, "tokenRatio": 0.1}}`, err: "must be more than 0 and at most 1000 (line 1, retryThrottling.maxTokens \"1001\" → maxtokens=1001)"},
	{name: "no ratio", text: `{"retryThrottling": {"maxTokens": 10}}`, err: "no tokenRatio: grpc-go refuses the whole service config (line 1, retryThrottling)"},
	{name: "not a list", text: `{"methodConfig": {}}`, err: "must be a list"},
	{name: "broken JSON", text: "{\"methodConfig\": [\n{\"name\": }\n", err: "(line 2)"},
	// grpc-go reads the service config with encoding/json, which has no comments.
	{name: "a comment", text: "{\n\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": " + grpcPolicy + "}] // ours\n}",
		err: "import (gRPC service config (JSON)): remove the comment; JSON has none, and grpc-go refuses the whole service config (line 2)"},
}

func TestReadGRPC(t *testing.T) { checkReads(t, grpcFormat.name, grpcCases) }
