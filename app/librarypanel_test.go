//go:build !js

package main

import (
	"regexp"
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The panel is one section with, per library, its code in text nodes and its differences.
func TestSnippetRender(t *testing.T) {
	html := app.HTMLString(renderSnippets(calc.Default()))
	if !strings.Contains(html, `<section id="export-code">`) {
		t.Fatalf("no export-code section:\n%s", html)
	}
	for _, e := range libs.Exports(calc.Default()) {
		if len(e.Snippets) > 0 && !regexp.MustCompile(`<code[^>]* data-lib="`+e.Lib+`"`).MatchString(html) {
			t.Errorf("no code block for %s", e.Lib)
		}
		if !strings.Contains(html, `<ul data-lib-diff="`+e.Lib+`">`) {
			t.Errorf("no differences list for %s", e.Lib)
		}
	}
	if !strings.Contains(html, "&#34;maxAttempts&#34;") && !strings.Contains(html, "&quot;maxAttempts&quot;") {
		t.Errorf("the gRPC JSON is not escaped text:\n%s", html)
	}
}
