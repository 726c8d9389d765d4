package importcfg

import (
	"strings"
	"testing"
	"time"
)

// importCase is a configuration that imports: want is the keys it must set, as a query, and
// ignored the words each of which must start or be in one line of Ignored.
type importCase struct {
	name, text, format, want string
	ignored                  []string
}

// badCase is a configuration refused with a message that has each of want: the line, the key
// and the value.
type badCase struct {
	name, text string
	want       []string
}

func checkImports(t *testing.T, cases []importCase) {
	t.Helper()
	for _, c := range cases {
		r, err := Read(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if r.Format != c.format {
			t.Errorf("%s: read as %q, want %q", c.name, r.Format, c.format)
		}
		for _, kv := range strings.Split(c.want, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if got := r.Values.Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q (all: %s)", c.name, k, got, v, r.Values.Encode())
			}
		}
		for _, k := range policyKeys {
			if _, ok := r.Values[k]; !ok {
				t.Errorf("%s: sets no %s: an import sets every key of the policy", c.name, k)
			}
		}
		all := strings.Join(r.Ignored, "\n")
		for _, w := range c.ignored {
			if !strings.Contains(all, w) {
				t.Errorf("%s: Ignored has no %q:\n%s", c.name, w, all)
			}
		}
		if len(r.Ignored) != len(c.ignored) {
			t.Errorf("%s: Ignored has %d lines, want %d:\n%s", c.name, len(r.Ignored), len(c.ignored), all)
		}
		if len(r.Read) == 0 {
			t.Errorf("%s: Read says nothing", c.name)
		}
	}
}

func checkRefuses(t *testing.T, cases []badCase) {
	t.Helper()
	for _, c := range cases {
		r, err := Read(c.text)
		if err == nil {
			t.Errorf("%s: no error; read %s as %s", c.name, r.Values.Encode(), r.Format)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}

// hostile are texts made to hurt a reader: each is refused or read, quickly, without a panic.
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
		start := time.Now()
		r, err := Read(text)
		if d := time.Since(start); d > time.Second {
			t.Errorf("hostile[%d]: %v", i, d)
		}
		if err == nil && r.Values.Get("attempts") == "" {
			t.Errorf("hostile[%d]: no error and no attempts: %+v", i, r)
		}
	}
}
