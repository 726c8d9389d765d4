package importcfg

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc counts every allocation, freed
// or not): a property of the work, where a time would be of the machine.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Bytes a Read may allocate: maxAllocPerByte per byte of its text and maxAllocBase more. The
// largest text costs at most 64 KB × 2,000 + 4 MB, 135 MB, where issue 38's 44 KB text
// allocated 1.8 GB (and the page ran out of memory).
const (
	maxAllocPerByte = 2000
	maxAllocBase    = 4 << 20
)

// readCost reads text and fails t when it allocates more than its bound.
func readCost(t testing.TB, text string) (Result, error) {
	var res Result
	var err error
	n := allocated(func() { res, err = Read(text) })
	if bound := uint64(maxAllocPerByte*len(text) + maxAllocBase); n > bound {
		t.Errorf("Read of %d bytes allocated %d bytes, more than %d (%.60q)", len(text), n, bound, text)
	}
	return res, err
}

// deepAliases is issue 38's text: keys of 1 KB nested deep over 16 aliases of an anchor of
// 1,920 keys, under a top key ("b: %s") or resilience4j's instance ("… z: %s").
func deepAliases(depth int, where string) string {
	k := strings.Repeat("k", 1020)
	var m []string
	for i := range 16 {
		m = append(m, fmt.Sprintf("m%d: *a", i))
	}
	s := "{" + strings.Join(m, ", ") + "}"
	for i := range depth {
		s = fmt.Sprintf("{%s%d: %s}", k, i, s)
	}
	var x []string
	for i := range 1920 {
		x = append(x, fmt.Sprintf("x%d: 1", i))
	}
	return "a: &a {" + strings.Join(x, ", ") + "}\n" + fmt.Sprintf(where, s) + "\n"
}

// Issue 38's texts are refused or read within the limits, each allocating within its bound:
// 44 KB of deep keys over aliases allocated 1.8 GB, 3.7 GB under resilience4j.
func TestReadCostOfDeepAliases(t *testing.T) {
	for _, c := range []struct {
		name, text, err string
	}{
		{"deep keys over aliases", deepAliases(25, "b: %s"), "not a configuration this calculator reads"},
		{"7 KB of them", deepAliases(4, "b: %s"), "not a configuration this calculator reads"},
		{"under resilience4j", deepAliases(25, "resilience4j: {retry: {instances: {backend: {maxAttempts: 3, z: %s}}}}"), ""},
		{"under an Envoy route", deepAliases(25, "retry_policy: {num_retries: 2, z: %s}"), ""},
		{"under a gRPC method config", deepAliases(25, `methodConfig: [{name: [{}], retryPolicy: {maxAttempts: 2, initialBackoff: 1s, maxBackoff: 2s, backoffMultiplier: 2, retryableStatusCodes: [UNAVAILABLE], z: %s}}]`), ""},
		{"past the bytes of keys and values", "a: &a " + strings.Repeat("x", 20000) + "\nretry_policy: {num_retries: 2, z: [" + strings.Repeat("*a, ", 15) + "*a]}\n",
			"280026 bytes of keys and values with aliases (*name) expanded, past the limit of 262144 (line 2, retry_policy.z[12])"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := readCost(t, c.text)
			switch {
			case c.err == "" && err != nil:
				t.Errorf("%v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("error %v, want one with %q", err, c.err)
			}
			for _, l := range append(res.Read, res.Ignored...) {
				if len(l) > maxLine+len("…") {
					t.Errorf("a line of %d bytes", len(l))
				}
			}
		})
	}
}

// A list of what an import ignored costs its lines, not its keys' paths: 16,300 keys of an
// AWS profile, and an Envoy route of 9,000 unknown keys.
func TestReadCostOfManyKeys(t *testing.T) {
	aws, err := readCost(t, "[default]\nretry_mode = standard\n"+strings.Repeat("k=1\n", 16300))
	if err != nil || len(aws.Ignored) != 16300 {
		t.Errorf("AWS: %v, %d ignored", err, len(aws.Ignored))
	}
	var b strings.Builder
	b.WriteString("retry_policy: {num_retries: 2")
	for i := range 9000 {
		fmt.Fprintf(&b, ",%s: 1", strconv.FormatInt(int64(36*36+i), 36))
	}
	b.WriteString("}\n")
	envoy, err := readCost(t, b.String())
	if err != nil || len(envoy.Ignored) != 9000 {
		t.Errorf("Envoy: %v, %d ignored", err, len(envoy.Ignored))
	}
}

// Every refusal names its line, where the parser named none or another; a message about a key
// nested deep under long keys keeps its reason, its path cut.
func TestRefusalsNameTheirLine(t *testing.T) {
	long := strings.Repeat("k", 200)
	nested := "retry_policy: {num_retries: x}\n"
	for i := range 15 {
		nested = long + fmt.Sprint(i) + ":\n  " + strings.ReplaceAll(strings.TrimSuffix(nested, "\n"), "\n", "\n  ") + "\n"
	}
	for _, c := range []struct{ name, text, err string }{
		{"not UTF-8 in a JSON value", "{\"methodConfig\": [{\"name\": [{}],\n \"retryPolicy\": {\"maxAttempts\": \"\xff\"}}]}",
			"invalid leading UTF-8 octet (byte 0xff): YAML and JSON are UTF-8 text (line 2, maxAttempts)"},
		{"a NUL in a YAML value", "retry_policy:\n  num_retries: 3\x00\n", "control characters are not allowed (U+0000) (line 2, num_retries)"},
		{"a syntax error on line 1", `{"methodConfig": [{"name": [}]}`, "import: not YAML or JSON: did not find expected node content (line 1)"},
		{"an unknown anchor", "a: 1\nb: *nope\n", "alias *nope: no anchor &nope before it (line 2, b)"},
		{"an unknown anchor named as a prefix before", "a: *no\n", "alias *no: no anchor &no before it (line 1, a)"},
		{"a base_interval past the largest duration", "retry_policy:\n  retry_back_off:\n    base_interval: 99999999999999999999s\n    max_interval: 1s\n",
			`past the largest duration the calculator holds (2562047h47m16.854775807s) (line 3, retry_policy.retry_back_off.base_interval "99999999999999999999s")`},
		{"tenacity after comments", "@retry(\n    # a comment that is longer than the rest\n    # and another one\n    stop=stop_after_attempt(-1))\n",
			`must be a whole number from 1 to 1000: the calculator shows at most 1000 attempts (line 4, stop_after_attempt "-1")`},
		{"Temporal's coefficient", "{\n  \"initialInterval\": \"1s\",\n  \"backoffCoefficient\": 0.5\n}", `must be at least 1 (Temporal refuses less) (line 3, backoffCoefficient "0.5")`},
		{"Temporal's maximum", "{\n  \"initialInterval\": \"10s\",\n  \"maximumInterval\": \"1s\"\n}", `must be at least initialInterval (10s), as Temporal requires (line 3, maximumInterval "1s")`},
		{"cenkalti's MaxInterval", "b := &backoff.ExponentialBackOff{\n\tInitialInterval: time.Minute,\n\tMaxInterval: time.Second,\n}\n", "must be at least InitialInterval (1m) (line 3, MaxInterval 1s)"},
		{"cenkalti without MaxInterval", "\nb := &backoff.ExponentialBackOff{\n\tInitialInterval: time.Minute,\n}\n", "give InitialInterval and MaxInterval (a struct literal leaves them 0) (line 2, backoff.ExponentialBackOff)"},
		{"client-go's Jitter", "wait.Backoff{\n  Duration: 20 * time.Hour,\n  Steps: 3,\n  Jitter: 5,\n}\n", "its middle wait is past the calculator's largest base, 24h (line 4, Duration 20h with Jitter 5)"},
		{"Polly's MaxDelay", "new RetryStrategyOptions {\n  Delay = TimeSpan.FromSeconds(2),\n  UseJitter = true,\n  MaxDelay = TimeSpan.FromSeconds(1)\n}", "under Delay (2s) with UseJitter, Polly clamps each drawn delay to it, a law the calculator does not have; with MaxDelay at least Delay, or UseJitter false, it reads (line 4, MaxDelay 1s)"},
		{"Spring's multiplier", "@Retryable(maxAttempts = 3,\n  backoff = @Backoff(delay = 100,\n    multiplier = 3, random = true))", "Spring waits up to 3 × the interval, and the calculator's upward jitter reaches 2 × at most (line 3, multiplier 3 with random = true)"},
		{"tenacity's max", "# a comment\n@retry(stop=stop_after_attempt(3),\n  wait=wait_exponential(multiplier=2, max=1))\n", "must be at least the first wait, 2s (line 3, max 1s)"},
		{"tenacity's wait_chain", "@retry(stop=stop_after_attempt(3),\n  wait=wait_chain(wait_fixed(2), wait_fixed(1)))\n", "the calculator's exact first retry waits the base, 1s (line 2, wait_chain(wait_fixed(2s), …))"},
		{"AWS's legacy default", "[profile a]\nmax_attempts = 3\n", "no retry_mode: aws-botocore's default is legacy: the legacy mode's waits are not modelled here: set retry_mode = standard (line 1, [profile a])"},
		{"a key nested deep under long keys", nested, `not a whole number (line 16, ` + long[:maxKey] + `….(13 more).` + long[:maxKey] + `…​.retry_policy.num_retries "x")`},
	} {
		_, err := readCost(t, c.text)
		if err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(c.err, "\u200b", "")) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
		}
	}
}

// A key, a profile name or a value reaches a message quoted or escaped, never as it is: no
// control or format character is written to a terminal or the page.
func TestMessagesEscapeTheText(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"an AWS key", "[default]\nretry_mode = standard\n\033]0;PWNED\007\033[2Jkey = 1\n", `line 3: "\x1b]0;PWNED\a\x1b[2Jkey": not about retries`},
		{"an AWS profile", "[profile \033[2Jx]\nretry_mode = standard\n", `line 1: ["profile \x1b[2Jx"]: the profile read`},
		{"a YAML key", "retry_policy:\n  num_retries: 2\n  \"a\\u202eb\": 1\n", `line 3: retry_policy."a\u202eb": `},
		{"a properties key", "resilience4j.retry.instances.a.max-attempts=3\nresilience4j.retry.instances.a.x\x1b=1\n", `line 2: "resilience4j.retry.instances.a.x\x1b": `},
	} {
		res, err := readCost(t, c.text)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		all := strings.Join(append(res.Read, res.Ignored...), "\n")
		if !strings.Contains(all, c.want) || strings.ContainsFunc(all, func(r rune) bool { return r == 0x1b || r == 0x07 || r == 0x202e }) {
			t.Errorf("%s: want %q in\n%s", c.name, c.want, all)
		}
	}
	_, err := Read("retry_policy:\n  num_retries: \"\\e[2J\"\n")
	if err == nil || strings.ContainsRune(err.Error(), 0x1b) || !strings.Contains(err.Error(), `"\x1b[2J"`) {
		t.Errorf("a value: %v", err)
	}
}
