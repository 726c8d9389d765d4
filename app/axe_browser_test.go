//go:build !js

package main

// axe-core, run inside the page: the WCAG 2.1 A and AA rules on serve's page, loaded and after
// an edit, on a laptop's screen and a phone's. axe-core comes from the npm registry, pinned by
// scripts/npm/package-lock.json; make test installs it (npm ci) before go test.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeScript is axe-core as npm installs it for make test.
var axeScript = filepath.Join("..", "scripts", "npm", "node_modules", "axe-core", "axe.min.js")

// axeSource returns axe.min.js. Without it the test is skipped, except under CI=true, where an
// accessibility check that did not run must not pass as green.
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(axeScript)
	if err != nil {
		msg := fmt.Sprintf("no axe-core (run npm ci in scripts/npm, as make test does): %v", err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return string(b)
}

// a11yViewports are a laptop's screen and a phone's, and the laptop's in dark mode, whose
// colours are other variables of web/app.css.
var a11yViewports = []viewport{
	{name: "1366x768", width: 1366, height: 768},
	{name: "390x844", width: 390, height: 844, mobile: true},
	{name: "1366x768 dark", width: 1366, height: 768, dark: true},
}

// wcag21AA are axe-core's tags for the rules of WCAG 2.0 and 2.1, levels A and AA, and 2.2's AA
// (its target size).
const wcag21AA = `["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]`

// axeViolation is one failed rule, with every element that fails it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"` // selectors; a list of them for an element in a shadow tree
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// axeRun injects axe-core into the page, unless it is there already, and returns the violations
// of the WCAG 2.1 A and AA rules. DevTools' evaluation is exempt from the page's CSP.
func (tb *tab) axeRun(source string) []axeViolation {
	tb.t.Helper()
	if !evalJS[bool](tb, `typeof axe === "object"`) {
		evalJS[bool](tb, source+"\n;true")
	}
	return evalJS[[]axeViolation](tb, `axe.run(document, {
		runOnly: { type: "tag", values: `+wcag21AA+` },
		resultTypes: ["violations"],
	}).then((r) => r.violations)`)
}

// reportViolations fails the test once for every violated rule, with every element that fails
// it and why.
func reportViolations(t *testing.T, where string, vs []axeViolation) {
	t.Helper()
	for _, v := range vs {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s (%s, %s), %d elements:", where, v.ID, v.Impact, v.Help, len(v.Nodes))
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n\t%v: %s", n.Target, strings.Join(strings.Fields(n.Summary), " "))
		}
		t.Error(b.String())
	}
}

// typeInto focuses the field that css selects, selects its text and types text with key events,
// as a person replacing the value would; Tab then leaves the field, which fires change.
func (tb *tab) typeInto(css, text string) {
	tb.t.Helper()
	if !evalJS[bool](tb, fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return false;
		e.focus();
		e.select();
		return document.activeElement === e;
	})()`, css)) {
		tb.t.Fatalf("cannot focus %s", css)
	}
	tb.run(chromedp.KeyEvent(text), chromedp.KeyEvent("\t"))
}

// TestAxe runs axe-core's WCAG 2.1 A and AA rules on serve's page at both viewports (and in dark
// mode): once the
// wasm is in charge, and after typing a valid and an invalid value (so that an error shows).
func TestAxe(t *testing.T) {
	t.Parallel()
	source := axeSource(t)
	srv := startServe(t)
	tb := newTab(t)
	for _, vp := range a11yViewports {
		tb.emulate(vp)
		tb.navigate(srv.URL + "/?" + sharedQuery)
		tb.waitWasm()
		reportViolations(t, vp.name+" loaded", tb.axeRun(source))

		tb.typeInto("#in-attempts", "9")
		tb.waitFor("nine attempts", `document.querySelectorAll("#schedule tr[data-attempt]").length === 9`)
		tb.typeInto("#in-cap", "5ms")
		tb.waitFor("the cap error", `document.getElementById("in-cap-error").textContent.includes("must be at least base")`)
		tb.waitWasm()
		reportViolations(t, vp.name+" after an edit with an error", tb.axeRun(source))
	}
	// On a phone, links whose table of contents wraps into more rows (the overload section) and
	// whose preset has its details: WCAG 2.2's target size of 24 px.
	tb.emulate(a11yViewports[1])
	for _, q := range []string{"rate=100&run=10s&queue=100&timeout=1s&breaker=resilience4j", "preset=grpc-retry"} {
		tb.navigate(srv.URL + "/?" + q)
		tb.waitWasm()
		reportViolations(t, a11yViewports[1].name+" "+q, tb.axeRun(source))
	}
	tb.requireNoConsoleProblems()
}

// TestControlEdgesContrast: the edge of every text field, select, text area and button has a
// contrast of at least 3:1 with the field's fill and with what is around it, light and dark
// (WCAG 1.4.11, non-text contrast), which axe-core does not check. The edges were the table
// rules' colour, 1.31:1 on a panel.
func TestControlEdgesContrast(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, dark := range []bool{false, true} {
		tb := newTab(t)
		tb.emulate(viewport{name: "1366x768", width: 1366, height: 768, dark: dark})
		tb.navigate(srv.URL + "/?budget=2s&vs=preset%3Daws-go-v2")
		tb.waitWasm()
		low := evalJS[[]string](tb, `(() => {
			const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
			const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
				.reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
			const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
			const fill = (el) => { // the first background that is not transparent, from el up
				for (; el; el = el.parentElement) {
					const c = rgb(getComputedStyle(el).backgroundColor);
					if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
				}
				return [255, 255, 255];
			};
			const low = [];
			for (const el of document.querySelectorAll("input:not([type=checkbox]):not([type=radio]), select, textarea, button")) {
				if (!el.checkVisibility()) continue;
				const edge = rgb(getComputedStyle(el).borderTopColor).slice(0, 3);
				for (const [what, c] of [["its fill", fill(el)], ["around it", fill(el.parentElement)]]) {
					const r = ratio(edge, c);
					if (r < 3) low.push((el.id || el.tagName) + ": " + r.toFixed(2) + ":1 with " + what);
				}
			}
			return low;
		})()`)
		if n := evalJS[int](tb, `document.querySelectorAll("input, select, button").length`); n < 10 {
			t.Fatalf("dark %v: only %d controls on the page", dark, n)
		}
		for _, l := range low {
			t.Errorf("dark %v: %s", dark, l)
		}
	}
}
