//go:build !js

package main

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// selectOptions are the visible texts of the options of the select with id in the page's HTML.
func selectOptions(t *testing.T, page, id string) []string {
	t.Helper()
	start := strings.Index(page, `id="`+id+`"`)
	if start < 0 {
		t.Fatalf("no select #%s", id)
	}
	page = page[start:]
	page = page[:strings.Index(page, "</select>")]
	var out []string
	for _, m := range regexp.MustCompile(`<option[^>]*>([^<]*)</option>`).FindAllStringSubmatch(page, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// Every preset's option, in the preset picker and in the compare section's, tells it apart from
// every other option by its visible text.
func TestPresetOptionsDistinct(t *testing.T) {
	p, _ := navPage(t, "")
	page := app.HTMLString(p)
	for _, id := range []string{"in-preset", "vs-with"} {
		texts := selectOptions(t, page, id)
		if len(texts) < len(libs.Presets()) {
			t.Fatalf("#%s: %d options, want one a preset at least (%d)", id, len(texts), len(libs.Presets()))
		}
		seen := map[string]bool{}
		for _, text := range texts {
			if strings.TrimSpace(text) == "" || seen[text] {
				t.Errorf("#%s: option %q is empty or not the only one with its text", id, text)
			}
			seen[text] = true
		}
	}
}

// The hint under the preset picker says what the chosen preset sets, truly for each: gRPC's
// retry preset is an example policy, not defaults the library has.
func TestPresetHintTrue(t *testing.T) {
	hint := func(p *page) string {
		for _, m := range regexp.MustCompile(`<span[^>]*id="preset-hint"[^>]*>([^<]*)</span>`).FindAllStringSubmatch(app.HTMLString(p), -1) {
			return html.UnescapeString(m[1])
		}
		t.Fatal("no #preset-hint")
		return ""
	}
	p, d := navPage(t, "")
	if h := hint(p); strings.Contains(h, "defaults") {
		t.Errorf("with no preset, the hint %q claims defaults some presets do not have", h)
	}
	for _, pr := range libs.Presets() {
		p.choosePreset(d.Context(), pr.Name)
		p.Update()
		d.Consume()
		if h := hint(p); !strings.Contains(h, pr.BasisWords()) {
			t.Errorf("%s: hint %q does not say %q", pr.Name, h, pr.BasisWords())
		}
	}
	grpc, _ := libs.PresetByName("grpc-retry")
	if b := grpc.BasisWords(); strings.Contains(b, "library's defaults") || !strings.Contains(b, "example") {
		t.Errorf("gRPC's retry preset is said to be %q", b)
	}
}
