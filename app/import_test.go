//go:build !js

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"backoffcalc/calc/limiter"
)

// An import replaces the policy's inputs and leaves the preset; a refused one changes nothing
// but the message; the control says what was read.
func TestImportText(t *testing.T) {
	p, d := navPage(t, "preset=grpc-retry&clients=30")
	before := p.report.Params
	p.imp.importText(d.Context(), "@Retryable(maxAttempts = 0)")
	if p.imp.err == "" || p.report.Params != before || p.raw.Get("preset") != "grpc-retry" {
		t.Errorf("a refused import: err %q, preset %q, params changed %v", p.imp.err, p.raw.Get("preset"), p.report.Params != before)
	}
	good := "{\"initialInterval\": \"2s\",\n\"maximumAttempts\": 4}"
	p.imp.importText(d.Context(), good)
	settle(t, p, d)
	q := d.Context().Page().URL().RawQuery
	if p.imp.err != "" || p.report.Params.Attempts != 4 || strings.Contains(q, "preset=") || !strings.Contains(q, "clients=30") || !strings.Contains(q, "base=2s") {
		t.Errorf("after an import: err %q, attempts %d, link %s", p.imp.err, p.report.Params.Attempts, q)
	}
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	for _, w := range []string{"Read as Temporal RetryPolicy (JSON)", "line 2: maximumAttempts 4: read"} {
		if !strings.Contains(html, w) {
			t.Errorf("the control does not show %q", w)
		}
	}
}

// Once the inputs an import set are edited by hand, the control no longer says that the link has
// the import's inputs: it said so still, with attempts=7 typed after an AWS file's 5.
func TestImportStatusAfterAnEdit(t *testing.T) {
	p, d := navPage(t, "")
	status := func() string {
		p.Update()
		d.Consume()
		html := app.HTMLString(p)
		at := strings.Index(html, `id="import-said"`)
		if at < 0 {
			t.Fatal("no import-said")
		}
		return html[at : at+strings.Index(html[at:], "</p>")]
	}
	p.imp.importText(d.Context(), "[default]\nretry_mode = standard\nmax_attempts = 5\n")
	settle(t, p, d)
	if s := status(); !strings.Contains(s, "The link now has its inputs") {
		t.Fatalf("after the import: %q", s)
	}
	typeInto(p, d, "attempts", "7")
	settle(t, p, d)
	if s := status(); strings.Contains(s, "The link now has its inputs") || !strings.Contains(s, "edited since") {
		t.Errorf("after attempts=7 typed: %q", s)
	}
	p.imp.importText(d.Context(), "@Retryable(maxAttempts = 0)") // refused: the inputs stay
	if s := status(); strings.Contains(s, "still the last import's") || !strings.Contains(s, "edited since") {
		t.Errorf("after a refused import: %q", s)
	}
}

// formatTexts are one configuration of each format the import reads, those that set a model
// beyond the policy among them: the Envoy route's per-try timeout and retry budget, gRPC's
// throttling, the .NET standard handler's attempt timeout and breaker, resilience4j's breaker,
// the AWS SDK's quota.
var formatTexts = []string{
	`{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}], "retryThrottling": {"maxTokens": 20, "tokenRatio": 0.5}}`,
	`{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.2s", "maxBackoff": "2s", "backoffMultiplier": 1.5, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`,
	`{"initialInterval": "2s", "backoffCoefficient": 1.5, "maximumInterval": "1m", "maximumAttempts": 5}`,
	`[{"ErrorEquals": ["States.ALL"], "IntervalSeconds": 3, "MaxAttempts": 2, "BackoffRate": 1.5, "MaxDelaySeconds": 10, "JitterStrategy": "FULL"}]`,
	"route:\n  timeout: 3s\n  retry_policy:\n    num_retries: 3\n    per_try_timeout: 2s\n    retry_back_off: {base_interval: 0.05s}\n" +
		"retry_budget:\n  budget_percent: {value: 25}\n  min_retry_concurrency: 5\n",
	"[default]\nretry_mode = standard\nmax_attempts = 5\n",
	"resilience4j:\n  retry:\n    instances:\n      backend:\n        max-attempts: 4\n        wait-duration: 1s\n" +
		"  circuitbreaker:\n    instances:\n      backend:\n        failure-rate-threshold: 30\n        sliding-window-size: 20\n",
	"resilience4j.retry.instances.a.max-attempts=3\nresilience4j.retry.instances.a.wait-duration=200ms\n",
	`{"HttpClients": {"Catalog": {"Retry": {"MaxRetryAttempts": 5, "Delay": "00:00:00.500"}, "AttemptTimeout": {"Timeout": "00:00:05"},` +
		` "CircuitBreaker": {"FailureRatio": 0.2, "BreakDuration": "00:00:15"}}}}`,
	"b := &backoff.ExponentialBackOff{\n\tInitialInterval: 500 * time.Millisecond,\n\tRandomizationFactor: 0.5,\n\tMultiplier: 1.5,\n\tMaxInterval: time.Minute,\n}\n" +
		"backoff.Retry(ctx, op, backoff.WithBackOff(b), backoff.WithMaxTries(8))\n",
	"wait.Backoff{Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1, Steps: 4}\n",
	"retry := &temporal.RetryPolicy{\n\tInitialInterval: 500 * time.Millisecond,\n\tBackoffCoefficient: 3,\n\tMaximumAttempts: 7,\n}\n",
	"kind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 2, backoff: 100ms}\n    timeout: 2s\n",
	"@Retryable(maxAttempts = 4, backoff = @Backoff(delay = 500, maxDelay = 5000L, multiplier = 1.5, random = true))\n",
	"@retry(stop=stop_after_attempt(5), wait=wait_random_exponential(multiplier=1, max=60))\n",
	"new RetryStrategyOptions { MaxRetryAttempts = 4, Delay = TimeSpan.FromSeconds(1), BackoffType = DelayBackoffType.Exponential, UseJitter = true }\n",
	"RetryConfig.custom().maxAttempts(3).intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(100), 2.0)).build()\n",
}

// Importing B on the page gives the link of importing B on a fresh page, and of table -import
// B, whatever was imported before it: for every pair of formats. Before, an Envoy route's
// per-try timeout (timeout=2s) stayed through a gRPC service config that has none, and the
// .NET handler's breaker through every import after it. (The page's own keys, few clients and
// samples, keep the work after each import short; they stay through every import.)
func TestImportAfterImport(t *testing.T) {
	const start = "clients=2&samples=100"
	want := make([]string, len(formatTexts))
	formats := map[string]bool{}
	for i, text := range formatTexts {
		p, d := navPage(t, start)
		p.imp.importText(d.Context(), text)
		settle(t, p, d)
		if p.imp.err != "" {
			t.Fatalf("%.40q: %s", text, p.imp.err)
		}
		formats[p.imp.result.Format] = true
		want[i] = p.queryText()
		file := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if q, ok := importQuery(file, start, io.Discard); !ok || q != want[i] {
			t.Errorf("%s: table -import's link\n%s\nthe page's\n%s", p.imp.result.Format, q, want[i])
		}
	}
	if len(formats) != 16 {
		t.Errorf("%d formats, want 16: %v", len(formats), formats)
	}
	p, d := navPage(t, start)
	for _, a := range formatTexts {
		for j, b := range formatTexts {
			p.imp.importText(d.Context(), a)
			before := p.imp.result.Format
			p.imp.importText(d.Context(), b)
			settle(t, p, d)
			if p.queryText() != want[j] {
				t.Errorf("%s after %s:\n got %s\nwant %s", p.imp.result.Format, before, p.queryText(), want[j])
			}
		}
	}
}

// The control lists the defaults an import applied that changed an input, with what the input
// was: after the Envoy route, a gRPC service config's no attempt timeout and no limiter.
func TestImportShowsTheDefaultsItApplied(t *testing.T) {
	p, d := navPage(t, "clients=30")
	p.imp.importText(d.Context(), formatTexts[4]) // Envoy: timeout 2s, limiter envoy
	settle(t, p, d)
	p.imp.importText(d.Context(), formatTexts[1]) // gRPC: neither
	settle(t, p, d)
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	for _, w := range []string{
		"What it set that the configuration does not say, changing the inputs the page had:",
		"timeout=0 (was 2s): the configuration sets no attempt timeout",
		"limiter=none (was envoy): the configuration sets no retry limiter",
	} {
		if !strings.Contains(html, w) {
			t.Errorf("the control does not show %q", w)
		}
	}
	if p.report.Params.Timeout != 0 || p.report.Params.Limiter != limiter.None || p.report.Params.Clients != 30 {
		t.Errorf("after the gRPC import: timeout %v, limiter %v, clients %d", p.report.Params.Timeout, p.report.Params.Limiter, p.report.Params.Clients)
	}
}

// A valid 64 KB AWS file of 16,300 keys the import ignores shows 200 of them and how many
// more: each was a list item, 16,305 of them, and the page froze for seconds. The engine sends
// the page no more than it shows.
func TestImportListsAreCapped(t *testing.T) {
	p, d := navPage(t, "clients=2&samples=100")
	p.imp.importText(d.Context(), "[default]\nretry_mode = standard\n"+strings.Repeat("k=1\n", 16300))
	settle(t, p, d)
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	if p.imp.err != "" || len(p.imp.result.Ignored) != 200 || p.imp.result.MoreIgnored != 16100 {
		t.Fatalf("err %q, %d ignored and %d more", p.imp.err, len(p.imp.result.Ignored), p.imp.result.MoreIgnored)
	}
	if n := strings.Count(html, "not about retries"); n != 200 {
		t.Errorf("%d ignored keys shown, want 200", n)
	}
	if want := "… and 16100 more (table -import lists them all)"; !strings.Contains(html, want) {
		t.Errorf("the control does not show %q", want)
	}
}
