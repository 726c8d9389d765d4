//go:build !js

package main

import (
	"strings"
	"testing"

	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// presetChecks is the text of the list of the preset's start-up checks on the page, "" when
// there is none.
func presetChecks(p *page) string {
	html := app.HTMLString(p)
	i := strings.Index(html, `id="preset-checks"`)
	if i < 0 {
		return ""
	}
	return html[i : i+strings.Index(html[i:], "</ul>")]
}

// With the .NET handler's preset, the preset's panel says what .NET's start-up validation makes of
// the inputs shown, as libs.StartupChecks says it; an edit of the attempt timeout (an input
// outside the policy, which keeps the preset) changes it, and a preset without such rules has
// none.
func TestPresetStartupChecks(t *testing.T) {
	p, d := navPage(t, "preset=dotnet-standard")
	checks := presetChecks(p)
	if !strings.Contains(app.HTMLString(p), libs.StartupChecksIntro) ||
		!strings.Contains(checks, "10 s (.NET&#39;s default; timeout is 0, none) and 30 s (budget), which .NET accepts.") {
		t.Errorf("the defaults' checks:\n%s", checks)
	}
	typeInto(p, d, "timeout", "40s")
	checks = presetChecks(p)
	for _, want := range []string{
		"40 s (timeout) and 30 s (budget): the attempt timeout is longer, so .NET refuses to start",
		"Total Request Timeout: 30s, Attempt Timeout: 40s",
		"30 s (pollysampling) and 2 × 40 s (timeout) = 80 s: the sampling duration is shorter",
	} {
		if !strings.Contains(checks, want) {
			t.Errorf("after timeout=40s, no %q in\n%s", want, checks)
		}
	}
	if p, _ := navPage(t, "preset=polly-exponential-jitter&timeout=40s"); presetChecks(p) != "" {
		t.Errorf("Polly's preset has start-up checks:\n%s", presetChecks(p))
	}
}
