//go:build !js

package libs

import (
	"encoding/json"
	"flag"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"backoffcalc/calc"
)

var updateSnippets = flag.Bool("update-snippets", false, "rewrite testdata/snippets/*.golden")

// snippetCases are the policies whose exports are kept as golden files: the defaults, every
// preset, and the edges (one attempt, no jitter, the cap after the jitter, a budget, factor 1,
// decorrelated jitter, more attempts than gRPC allows, linear growth, sub-millisecond and odd
// millisecond values, an upward jitter whose cap stops client-go, the overflow row; Polly's
// jitter with a cap that binds, with one over Polly's day, and with values finer than its ticks;
// gRPC's and Envoy's limiters and Envoy's attempt timeout, which their exports write).
var snippetCases = func() []struct{ name, query string } {
	cases := []struct{ name, query string }{
		{"default", ""},
		{"attempts-1", "attempts=1"},
		{"attempts-4", "attempts=4&jitter=none"},
		{"attempts-8", "attempts=8&cap=1s&jitter=proportional&ratio=0.2"},
		{"jitter-none", "jitter=none&cap=1s&attempts=8"},
		{"jitter-equal", "jitter=equal&cap=1s&attempts=8"},
		{"capat-after", "jitter=proportional&ratio=0.5&cap=1s&capat=after&attempts=8"},
		{"budget", "budget=2s&attempts=10&cap=1s"},
		{"factor-1", "factor=1&jitter=equal&base=250ms&cap=250ms"},
		{"decorrelated", "jitter=decorrelated&cap=1s&attempts=8"},
		{"linear", "growth=linear&jitter=proportional&ratio=0.25&attempts=5&cap=168h"},
		{"odd-ms", "base=25ms&cap=51ms&jitter=fullms&attempts=6"},
		{"fraction-ms", "base=25.5ms&cap=100ms&jitter=fullms&attempts=4"},
		{"sub-ms", "base=150us&factor=3&cap=20ms&jitter=full&attempts=5"},
		{"r4j-truncation", "base=500ms&factor=1.5&cap=168h&attempts=7&jitter=proportional&ratio=0.5&capat=after"},
		{"upward-cap", "jitter=upward&ratio=0.1&base=10ms&factor=5&cap=1s&attempts=6"},
		{"additive", "jitter=additive&add=1s&base=1s&cap=30s&attempts=6"},
		{"overflow", "factor=100&attempts=1000&cap=168h&jitter=none"},
		{"v2-cap", "jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12&budget=5s"},
		{"v2-day", "jitter=decorrelatedv2&base=1s&cap=48h&attempts=30"},
		{"v2-ticks", "jitter=decorrelatedv2&base=150ns&cap=1234567ns&attempts=30"},
		{"limiter-grpc", "limiter=grpc&maxtokens=7.5&tokenratio=0.25&attempts=4"},
		{"limiter-envoy", "limiter=envoy&budgetpct=25.5&minconcurrency=5&timeout=1500ms&attempts=4"},
	}
	for _, pr := range Presets() {
		cases = append(cases, struct{ name, query string }{"preset-" + pr.Name, "preset=" + pr.Name})
	}
	return cases
}()

func snippetParams(t *testing.T, query string) calc.Params {
	t.Helper()
	p, err := Decode(query)
	if err != nil {
		t.Fatalf("%q: %v", query, err)
	}
	return p
}

// snippetGolden is what a golden file holds: every block, then the differences.
func snippetGolden(name, query string, e Export) string {
	var b strings.Builder
	b.WriteString("# " + e.Title + ", for " + name + ": " + query + "\n")
	for _, s := range e.Snippets {
		b.WriteString("== " + s.Lang + "\n" + s.Code)
	}
	b.WriteString("== differences\n")
	for _, d := range e.Diffs {
		b.WriteString("- " + d + "\n")
	}
	return b.String()
}

func TestSnippetGolden(t *testing.T) {
	dir := filepath.Join("testdata", "snippets")
	if *updateSnippets {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range snippetCases {
		for _, e := range Exports(snippetParams(t, c.query)) {
			file := filepath.Join(dir, c.name+"."+e.Lib+".golden")
			got := snippetGolden(c.name, c.query, e)
			if *updateSnippets {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./calc/libs -run Snippet -update-snippets)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the export:\n%s", file, got)
			}
		}
	}
}

// Every snippet must be well formed in its language, as far as the standard library can tell:
// JSON parses, and Go parses and is already gofmt-formatted.
func TestSnippetSyntax(t *testing.T) {
	for _, c := range snippetCases {
		for _, e := range Exports(snippetParams(t, c.query)) {
			for _, s := range e.Snippets {
				switch s.Lang {
				case "json":
					if !json.Valid([]byte(s.Code)) {
						t.Errorf("%s %s: invalid JSON:\n%s", c.name, e.Lib, s.Code)
					}
				case "go":
					src := "package p\n\nfunc _() {\n" + indentLines(s.Code) + "}\n"
					out, err := format.Source([]byte(src))
					if err != nil {
						t.Errorf("%s %s: %v\n%s", c.name, e.Lib, err, src)
					} else if string(out) != src {
						t.Errorf("%s %s: not gofmt-formatted:\n%s\nwant\n%s", c.name, e.Lib, src, out)
					}
				}
			}
		}
	}
}

func indentLines(code string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(code, "\n") {
		if strings.TrimSpace(line) != "" {
			b.WriteString("\t")
		}
		b.WriteString(line)
	}
	return b.String()
}

// A preset exported to its own library does exactly what the preset says.
func TestSnippetPresetsRoundTrip(t *testing.T) {
	claimed := map[string]bool{}
	for _, e := range Exports(calc.Default()) {
		for _, name := range e.Presets {
			pr, ok := PresetByName(name)
			if !ok {
				t.Errorf("%s claims preset %q, which calc does not have", e.Lib, name)
				continue
			}
			claimed[name] = true
			for _, got := range Exports(calc.Default().WithPreset(pr.Named())) {
				if got.Lib != e.Lib {
					continue
				}
				if len(got.Snippets) == 0 || len(got.Diffs) > 0 {
					t.Errorf("preset %s in %s: %d snippets, differences %q", name, e.Lib, len(got.Snippets), got.Diffs)
				}
			}
		}
	}
	// The presets without an exporter of their own, and why: a new preset must say which.
	unexported := map[string]string{
		"grpc-connect":             "gRPC's connection backoff is set in code, not in a service config",
		"google-api-core":          "google-api-core has no exporter yet",
		"retryablehttp-default":    "go-retryablehttp has no exporter yet",
		"failsafe-backoff":         "failsafe-go has no exporter yet",
		"backon":                   "backon has no exporter yet",
		"dotnet-standard":          "the .NET handler has no exporter yet (polly's writes its retry and a total timeout)",
		"spring-retry-exponential": "Spring Retry has no exporter yet",
		"spring-retry-uniform":     "Spring Retry has no exporter yet",
		"spring-core-retry":        "Spring Framework's retry has no exporter yet",
		"istio":                    "Istio has no exporter yet",
		"gateway-api":              "the Gateway API has no exporter yet",
		"linkerd":                  "Linkerd has no exporter yet",
		"dapr-constant":            "Dapr has no exporter yet",
		"dapr-exponential":         "Dapr has no exporter yet",
		"sidekiq":                  "the job queues have no exporter",
		"sidekiq7":                 "the job queues have no exporter",
		"activejob-polynomial":     "the job queues have no exporter",
		"activejob-default":        "the job queues have no exporter",
		"celery":                   "the job queues have no exporter",
		"bullmq":                   "the job queues have no exporter",
	}
	for _, pr := range Presets() {
		if _, listed := unexported[pr.Name]; claimed[pr.Name] == listed {
			t.Errorf("preset %s: claimed by an exporter %v, listed without one %v", pr.Name, claimed[pr.Name], listed)
		}
	}
}

// Attempts count the first call in gRPC, cenkalti (WithMaxTries), client-go (Steps), tenacity,
// resilience4j and the AWS config; Polly and Envoy count retries.
func TestSnippetAttempts(t *testing.T) {
	code := func(p calc.Params) map[string]string {
		out := map[string]string{}
		for _, e := range Exports(p) {
			for _, s := range e.Snippets {
				out[e.Lib] += s.Code
			}
		}
		return out
	}
	four := code(snippetParams(t, "attempts=4"))
	for lib, want := range map[string]string{
		"grpc":              `"maxAttempts": 4,`,
		"cenkalti":          `backoff.WithMaxTries(4)`,
		"client-go":         `Steps:    4,`,
		"polly":             `MaxRetryAttempts = 3,`,
		"tenacity":          `stop_after_attempt(4)`,
		"resilience4j":      `.maxAttempts(4)`,
		"envoy":             `num_retries: 3 `,
		"aws-botocore":      `max_attempts = 4`,
		"aws-go-v2":         `max_attempts = 4`,
		"aws-botocore-2026": `max_attempts = 4`,
		"aws-go-v2-2026":    `max_attempts = 4`,
		"temporal":          `MaximumAttempts:    4,`,
		"stepfunctions":     `"MaxAttempts": 3,`,
	} {
		if !strings.Contains(four[lib], want) {
			t.Errorf("attempts=4: %s has no %q:\n%s", lib, want, four[lib])
		}
	}
	if !strings.Contains(four["resilience4j"], "max-attempts=4\n") {
		t.Errorf("attempts=4: the Spring properties lack max-attempts=4:\n%s", four["resilience4j"])
	}

	p := snippetParams(t, "attempts=8")
	for _, e := range Exports(p) {
		if e.Lib != "grpc" {
			continue
		}
		if !strings.Contains(e.Snippets[0].Code, `"maxAttempts": 5,`) {
			t.Errorf("attempts=8: gRPC should say maxAttempts 5:\n%s", e.Snippets[0].Code)
		}
		if len(e.Diffs) == 0 || !strings.Contains(e.Diffs[0], "5 attempts (4 retries) instead of 8 attempts (7 retries)") {
			t.Errorf("attempts=8: gRPC's first difference should state the cap: %q", e.Diffs)
		}
	}
}

// With one attempt gRPC has nothing to configure, and no library that can express the policy
// reports a difference in waits, as there are none.
func TestSnippetOneAttempt(t *testing.T) {
	for _, e := range Exports(snippetParams(t, "attempts=1")) {
		switch {
		case e.Lib == "grpc":
			if len(e.Snippets) != 0 || len(e.Diffs) != 1 {
				t.Errorf("gRPC with 1 attempt: %d snippets, %q", len(e.Snippets), e.Diffs)
			}
		case len(e.Diffs) != 0:
			t.Errorf("%s with 1 attempt: %q", e.Lib, e.Diffs)
		}
	}
}

// Decorrelated jitter has no exporter but the AWS config, which states what differs.
func TestSnippetImpossible(t *testing.T) {
	for _, e := range Exports(snippetParams(t, "jitter=decorrelated")) {
		aws := strings.HasPrefix(e.Lib, "aws-")
		if aws != (len(e.Snippets) > 0) || len(e.Diffs) == 0 {
			t.Errorf("decorrelated, %s: %d snippets, %q", e.Lib, len(e.Snippets), e.Diffs)
		}
	}
}

// Polly's own jitter exports to Polly exactly, whatever the factor, growth, cap placement and
// first retry say (decorrelatedv2 uses none of them), with MaxDelay exactly where the cap changes
// a wait; of the others only the AWS config has a snippet, and says what differs.
func TestSnippetDecorrelatedV2(t *testing.T) {
	for _, q := range []string{
		"preset=polly-exponential-jitter",
		"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12",
		"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=4",
		"jitter=decorrelatedv2&factor=1&growth=linear&capat=fixed&first=exact&cap=30s&attempts=8",
	} {
		p := snippetParams(t, q)
		rows := p.Schedule().Rows
		binds := rows[len(rows)-1].Max == p.Cap
		for _, e := range Exports(p) {
			switch {
			case e.Lib == "polly":
				code := e.Snippets[0].Code
				if len(e.Diffs) > 0 || !strings.Contains(code, "BackoffType = DelayBackoffType.Exponential,") ||
					!strings.Contains(code, "UseJitter = true,") || strings.Contains(code, "MaxDelay = ") != binds {
					t.Errorf("%s: Polly (cap binds: %v):\n%s%q", q, binds, code, e.Diffs)
				}
			case strings.HasPrefix(e.Lib, "aws-"):
				if len(e.Snippets) == 0 || len(e.Diffs) == 0 {
					t.Errorf("%s, %s: %d snippets, %q", q, e.Lib, len(e.Snippets), e.Diffs)
				}
			case len(e.Snippets) > 0 || len(e.Diffs) != 1 || !strings.Contains(e.Diffs[0], "cannot express Polly's DecorrelatedJitterBackoffV2"):
				t.Errorf("%s, %s: %d snippets, %q", q, e.Lib, len(e.Snippets), e.Diffs)
			}
		}
	}
}

// Every library of the panel has its exporter (exporterOf, kept apart from the list so that
// the page's wasm links none). Without one, the export says so in its differences instead of
// panicking, so that the package's other tests fail too but this one names the library.
func TestEveryLibraryHasAnExporter(t *testing.T) {
	for _, l := range Libraries() {
		if exporterOf(l.Lib) == nil {
			t.Errorf("%s (%s): no exporter: its case in exporterOf (export.go) is missing", l.Lib, l.Title)
		}
	}
	if exporterOf("nope") != nil {
		t.Error("an exporter for a name that is no library's")
	}
}

// An export says which of the link's client settings beyond the policy (the retry limiter, the
// attempt timeout, the circuit breaker) its configuration does not set, and writes those it can:
// gRPC's retryThrottling, Envoy's retry_budget and per_try_timeout, and the AWS SDKs' quota,
// which is their own. A link without them hears nothing of them.
func TestExportSaysWhatItDoesNotWrite(t *testing.T) {
	for _, c := range []struct{ query, lib, says, writes string }{
		{"limiter=envoy", "grpc", "does not set the link's retry limiter (envoy): the overload view's numbers are for a client with it.", ""},
		{"limiter=envoy", "envoy", "", "retry_budget"},
		{"limiter=grpc", "grpc", "", "retryThrottling"},
		{"limiter=grpc", "cenkalti", "retry limiter (grpc)", ""},
		{"timeout=2s", "envoy", "", "per_try_timeout: 2s"},
		{"timeout=2s", "grpc", "does not set the link's attempt timeout (2 s):", ""},
		{"breaker=polly&timeout=2s&limiter=finagle", "polly", "retry limiter (finagle), attempt timeout (2 s) or circuit breaker (polly): the overload view's numbers are for a client with them.", ""},
		{"limiter=envoy&timeout=2s&breaker=resilience4j", "envoy", "does not set the link's circuit breaker (resilience4j):", "retry_budget"},
		{"", "aws-go-v2", "", ""},
		{"limiter=aws", "aws-botocore", "", ""},
		{"limiter=aws2026", "aws-go-v2", "retry limiter (aws2026)", ""},
	} {
		e, ok := ExportOf(snippetParams(t, c.query), c.lib)
		if !ok {
			t.Fatalf("no library %s", c.lib)
		}
		said := ""
		for _, d := range e.Diffs {
			if strings.Contains(d, "the overload view") {
				said += d
			}
		}
		if c.says == "" && said != "" || !strings.Contains(said, c.says) {
			t.Errorf("%s, %s: the panel says %q, want %q", c.query, c.lib, said, c.says)
		}
		if c.writes != "" && !strings.Contains(e.Snippets[0].Code, c.writes) {
			t.Errorf("%s, %s: the export has no %s:\n%s", c.query, c.lib, c.writes, e.Snippets[0].Code)
		}
	}
}
