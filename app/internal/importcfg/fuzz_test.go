package importcfg

import (
	"fmt"
	"strings"
	"testing"

	"backoffcalc/calc/libs"
)

// mergeKeys are 5,000 keys of a mapping: merged 5 times, within the values' limit, each merge
// looks a key up once, not in every key before it (125 million comparisons).
var mergeKeys = func() string {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "k%d: 1, ", i)
	}
	return b.String()
}()

// hostile are texts built to hurt a reader (err: what its error says; "": it reads): nesting
// past the limit, aliases that multiply, merges of large mappings,
// an alias to itself, numbers past float64 and int64, NaN and Inf, negative durations.
var hostile = []struct{ name, text, err string }{
	{"nested lists", strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), "nested more than 32 deep"},
	{"nested objects", strings.Repeat(`{"methodConfig": `, MaxDepth+2) + "1" + strings.Repeat("}", MaxDepth+2), "nested more than 32 deep"},
	{"billion laughs", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n", "more than 16 aliases"},
	{"aliases within the count", "a: &a [" + strings.Repeat("x, ", 3000) + "x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b]\nretry_policy: {}\n", "more than 32768 values"},
	{"merges of a large mapping", "a: &a {" + mergeKeys + "}\nb:\n  <<: [*a, *a, *a, *a, *a]\nretry_policy: {}\n", ""},
	{"continued lines", "resilience4j.retry.instances.a.max-attempts=\\\n" + strings.Repeat("\\\n", 30000) + "3\n", ""},
	{"billion laughs in a later document", "kind: DestinationRule\n---\nkind: VirtualService\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n", "more than 16 aliases"},
	{"aliases counted over every document", strings.Repeat("kind: VirtualService\na: &a [x]\nb: [*a, *a]\n---\n", 9), "more than 16 aliases"},
	{"an alias to itself", "retry_policy: &a\n  x: *a\n", "nested more than 32 deep"},
	{"1e400", `{"retryThrottling": {"maxTokens": 1e400, "tokenRatio": 0.1}}`, "out of range"},
	{"a huge whole number", `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 99999999999999999999}}]}`, "must be between"},
	{"NaN", "retry_budget:\n  budget_percent: {value: .NaN}\n", "not a number"},
	{"Inf", "retry_budget:\n  budget_percent: {value: .inf}\n", "not a number"},
	{"negative duration", "retry_policy:\n  per_try_timeout: -1s\n", "must not be negative"},
	{"a key that is a list", "? [a, b]\n: 1\nretry_policy: {}\n", "a key must be a word"},
	{"oversize", strings.Repeat(" ", MaxSize) + "{}", "at most 65536"},
}

func TestReadRefusesHostileText(t *testing.T) {
	for _, h := range hostile {
		_, err := Read(h.text)
		if h.err == "" {
			if err != nil {
				t.Errorf("%s: %v", h.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), h.err) {
			t.Errorf("%s: error %v, want one with %q", h.name, err, h.err)
		}
		// A limit of the text is the text's, whatever its format: no format is named, where
		// the first one tried (gRPC's) was.
		if err != nil && strings.HasPrefix(err.Error(), "import (") && h.name != "1e400" && h.name != "a huge whole number" &&
			h.name != "NaN" && h.name != "Inf" && h.name != "negative duration" {
			t.Errorf("%s: %v names a format", h.name, err)
		}
	}
}

// FuzzRead holds that no text makes Read panic, that what it reads is a link calc decodes,
// that its messages stay short whatever the text, and that it allocates at most
// maxAllocPerByte per byte of the text (readCost): the bytes, not the count of values, are what
// a text costs.
func FuzzRead(f *testing.F) {
	for _, g := range readGoldens(f) {
		for _, code := range g.blocks {
			f.Add(code)
		}
	}
	for _, cases := range [][]readCase{grpcCases, envoyCases, awsCases, r4jCases, dotnetCases} {
		for _, c := range cases {
			f.Add(c.text)
		}
	}
	for _, cases := range [][]importCase{temporalCases, stepFunctionsCases, istioCases, springCases, goCodeCases, tenacityCases, pollyCodeCases, r4jCodeCases} {
		for _, c := range cases {
			f.Add(c.text)
		}
	}
	for _, h := range hostile {
		if len(h.text) < 4096 {
			f.Add(h.text)
		}
	}
	for _, text := range hostileCode {
		if len(text) < 4096 {
			f.Add(text)
		}
	}
	for _, text := range []string{deepAliases(4, "b: %s"), deepAliases(3, "resilience4j: {retry: {instances: {backend: {maxAttempts: 3, z: %s}}}}")} {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res, err := readCost(t, text)
		if err != nil {
			if len(err.Error()) > maxMessage+len("…") {
				t.Fatalf("a message of %d bytes", len(err.Error()))
			}
			return
		}
		if _, err := libs.DecodeValues(res.Values); err != nil {
			t.Fatalf("the import's values do not decode: %v\n%v", err, res.Values)
		}
		for _, line := range append(res.Read, res.Ignored...) {
			if len(line) > maxLine+len("…") {
				t.Fatalf("a line of %d bytes", len(line))
			}
		}
	})
}

// hostileCode are texts made to hurt a reader of code or of the strict YAML readers: each is refused or read, without a panic.
// How quickly is make bench's (BenchmarkReadHostile, in its go phase): a bound on the time here
// would fail on a loaded machine, and a reader that never returns fails at go test's timeout.
var hostileCode = []string{
	strings.Repeat("[", 60000),
	strings.Repeat("- ", 30000) + "x",
	strings.Repeat(`{"Retry":`, 5000),
	"a: &a [1,2]\nb: *a\nIntervalSeconds: 1",
	`{"Retry": [{"IntervalSeconds": 1}], "Retry": []}`,
	"kind: VirtualService\nspec:\n  http:\n  - retries: &r {attempts: 1}\n  - retries: *r\n",
	strings.Repeat("---\nkind: VirtualService\n", 5000),
	"@Retryable(" + strings.Repeat("backoff = @Backoff(", 3000),
	"@Retryable(maxAttempts = 4, " + strings.Repeat("label = \"x\", ", 100) + ")",
	"@Retryable(value = {" + strings.Repeat("A.class, ", 2000),
	"@Retryable(/* " + strings.Repeat("x", 60000),
	"InitialInterval: " + strings.Repeat("9", 5000) + " * time.Second",
	"InitialInterval: 1e400 * time.Second",
	`{"initialInterval": "9223372036854775807s"}`,
	`{"IntervalSeconds": 1e308, "MaxAttempts": 1}`,
	`{"IntervalSeconds": 1, "BackoffRate": NaN}`,
	`{"IntervalSeconds": 1, "BackoffRate": .nan}`,
	"kind: VirtualService\nspec:\n  http:\n  - retries:\n      attempts: 99999999999999999999\n",
	"\xff\xfe@Retryable",
	"@Retryable(backoff = @Backoff(multiplier = 0x1p3))",
	"@Retryable(" + strings.Repeat("a = {", 10000),
	"@Retryable(maxAttempts = 2)\n" + strings.Repeat("class A { void f() { g(); } }\n", 2000),
	"RetryConfig.custom()" + strings.Repeat(".maxAttempts(", 5000),
	"RetryConfig.custom().intervalFunction(IntervalFunction.ofExponentialBackoff(" + strings.Repeat("(", 30000),
	"wait.Backoff{" + strings.Repeat("Steps: 1,\n", 6000),
	"@retry(stop=stop_after_attempt(3), wait=" + strings.Repeat("wait_fixed(1) + ", 4000) + ")",
	"new RetryStrategyOptions {" + strings.Repeat("A = (", 10000),
	strings.Repeat("InitialInterval: time.Second,\n", 2000),
}

func TestHostileInputs(t *testing.T) {
	for i, text := range hostileCode {
		r, err := Read(text)
		if err == nil && r.Values.Get("attempts") == "" {
			t.Errorf("hostile[%d]: no error and no attempts: %+v", i, r)
		}
	}
}
