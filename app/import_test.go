//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// An import replaces the policy's inputs and leaves the preset; a refused one changes nothing
// but the message; the control says what was read.
func TestImportText(t *testing.T) {
	p, d := navPage(t, "preset=grpc-retry&clients=30")
	before := p.report.Params
	p.importText(d.Context(), "@Retryable(maxAttempts = 0)")
	if p.imp.err == "" || p.report.Params != before || p.raw.Get("preset") != "grpc-retry" {
		t.Errorf("a refused import: err %q, preset %q, params changed %v", p.imp.err, p.raw.Get("preset"), p.report.Params != before)
	}
	good := "{\"initialInterval\": \"2s\",\n\"maximumAttempts\": 4}"
	p.importText(d.Context(), good)
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
