//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"backoffcalc/calc/libs"
)

// readCompareCells reads every cell of the comparison's table: "attempt/col" to data-ms.
const readCompareCells = `(() => {
	const out = {};
	document.querySelectorAll("#compare-table tr[data-attempt] td[data-col]").forEach((td) =>
		out[td.closest("tr").dataset.attempt + "/" + td.dataset.col] = td.dataset.ms);
	return out;
})()`

// In Chromium, a link with A and B shows A's schedule and both side by side, cell for cell
// calc's; "compare with a copy of this policy" puts A's canonical query in B (no difference left)
// and in the link, and that link, opened in a new tab, shows the same tables.
func TestCompareInBrowser(t *testing.T) {
	t.Parallel()
	l, err := libs.DecodeLink(compareLink)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + compareLink)
	tb.waitWasm()
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, compareLink))
	compareNumbers(t, evalJS[map[string]string](tb, readCompareCells), wantCompareCells(l.Params, l.B))

	tb.setInput("#vs-with", vsCopy)
	copied := l
	copied.Vs = l.Params.Encode()
	want := "?" + copied.Encode()
	tb.waitFor("the link with A copied to B", fmt.Sprintf("location.search === %q", want))
	if got := evalJS[string](tb, `document.getElementById("in-vs").value`); got != copied.Vs {
		t.Errorf("B's input holds %q, want A's query %q", got, copied.Vs)
	}
	same := wantCompareCells(l.Params, l.Params)
	compareNumbers(t, evalJS[map[string]string](tb, readCompareCells), same)

	tb2 := newTab(t)
	tb2.navigate(evalJS[string](tb, "location.href"))
	tb2.waitWasm()
	compareNumbers(t, evalJS[map[string]string](tb2, readNumbers), wantNumbers(t, compareLink))
	compareNumbers(t, evalJS[map[string]string](tb2, readCompareCells), same)
	tb.requireNoConsoleProblems()
	tb2.requireNoConsoleProblems()
}

// "Remove B" takes B away and the herd of the edit it makes is shown. The button goes with B, and
// go-app drops what its event's context dispatches once it is gone: the herd's runs were never
// shown, the status stuck at "Computing the herd: 0 of 6 modes done…" until the next edit.
func TestRemoveBShowsTheHerd(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?budget=2s&vs=preset%3Dcelery")
	tb.waitWasm()
	const herdDone = `document.getElementById("herd-status").textContent === "" &&
		!document.getElementById("herd-results").hasAttribute("data-pending") &&
		document.querySelectorAll("#herd tr[data-mode]").length > 0`
	tb.waitFor("the herd", herdDone)
	// By the keyboard: the focus, on the button that goes with B, moves to the select that adds one.
	evalJS[bool](tb, `(document.getElementById("vs-remove").focus(), true)`)
	tb.run(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the link without B", `!location.search.includes("vs=") && !document.getElementById("vs-remove")`)
	tb.waitFor("the herd after B is removed", herdDone)
	if got := evalJS[string](tb, `document.activeElement.id || document.activeElement.tagName`); got != "vs-with" {
		t.Errorf("after Remove B the focus is on %q, want the select that adds a B", got)
	}
	tb.requireNoConsoleProblems()
}

// vsState is what the page says about B's query, read in one evaluation.
type vsState struct {
	Alert   []string `json:"alert"`   // the alert's items
	Error   string   `json:"error"`   // the message beside B's input
	Invalid string   `json:"invalid"` // B's input's aria-invalid
	Search  string   `json:"search"`  // location.search
}

const readVs = `(() => ({
	alert: [...document.querySelectorAll('[role="alert"] li')].map((li) => li.textContent),
	error: document.getElementById("in-vs-error").textContent,
	invalid: document.getElementById("in-vs").getAttribute("aria-invalid"),
	search: location.search,
}))()`

// In Chromium, B's keys that are none of a policy's are named each once, as B's, in the alert
// and beside B's input, while B's query holds them: after edits of A too; fixing B takes them
// away and writes the link.
func TestUnknownKeysOfBInBrowser(t *testing.T) {
	t.Parallel()
	const q = "?base=300ms&vs=bse%3D1s%26atempts%3D3%26preset%3Denvoy"
	msgs := []string{`vs.bse "1s": unknown key; did you mean base?`, `vs.atempts "3": unknown key; did you mean attempts?`}
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/" + q)
	tb.waitWasm()
	check := func(when string) {
		t.Helper()
		s := evalJS[vsState](tb, readVs)
		if strings.Join(s.Alert, "\n") != strings.Join(msgs, "\n") || s.Error != strings.Join(msgs, "; ") || s.Invalid != "true" {
			t.Errorf("%s: the alert says %q, B's input %q (aria-invalid %q)", when, s.Alert, s.Error, s.Invalid)
		}
		if s.Search != q {
			t.Errorf("%s: the link with B's bad keys was rewritten: %q", when, s.Search)
		}
	}
	check("the link")
	// A bad value of A's, then a good one: each edit is seen to be handled.
	tb.setInput("#in-factor", "x")
	tb.waitFor("factor named", `document.querySelector('[role="alert"] li[data-key="factor"]') !== null`)
	tb.setInput("#in-factor", "3")
	tb.waitFor("factor no longer named", `document.querySelector('[role="alert"] li[data-key="factor"]') === null`)
	check("after edits of A")
	tb.setInput("#in-vs", "preset=envoy")
	want, _ := libs.DecodeLink("base=300ms&factor=3&vs=preset%3Denvoy")
	tb.waitFor("the canonical link", fmt.Sprintf("location.search === %q", "?"+want.Encode()))
	if s := evalJS[vsState](tb, readVs); len(s.Alert) != 0 || s.Error != "" || s.Invalid != "false" {
		t.Errorf("after fixing B the alert says %q, B's input %q (aria-invalid %q)", s.Alert, s.Error, s.Invalid)
	}
	tb.requireNoConsoleProblems()
}

// The Compare section's controls and table pass axe-core's WCAG 2.1 A and AA rules, as the rest
// of the page does (TestAxe).
func TestCompareAxe(t *testing.T) {
	t.Parallel()
	source := axeSource(t)
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + compareLink)
	tb.waitWasm()
	reportViolations(t, "a link with B", tb.axeRun(source))
}

// B's query is read once its typing pauses, as the other text fields' edits are committed
// then: without Enter or leaving the field, B stayed Sidekiq's beside a field that held base=1s.
func TestBQueryReadOnPause(t *testing.T) {
	t.Parallel()
	const query = "budget=5s&vs=preset%3Dsidekiq"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + query + "#compare-section")
	tb.waitWasm()
	evalJS[bool](tb, `(() => {
		const e = document.getElementById("in-vs");
		e.focus();
		for (const v of ["b", "base", "base=", "base=1", "base=1s"]) {
			e.value = v;
			e.dispatchEvent(new Event("input", { bubbles: true }));
		}
		return true;
	})()`)
	l, err := libs.DecodeLink("budget=5s&vs=base%3D1s")
	if err != nil {
		t.Fatal(err)
	}
	tb.waitFor("B's query in the link", fmt.Sprintf("location.search === %q", "?"+l.Encode()))
	compareNumbers(t, evalJS[map[string]string](tb, readCompareCells), wantCompareCells(l.Params, l.B))
	if got := evalJS[string](tb, `document.activeElement.id`); got != "in-vs" {
		t.Errorf("the focus moved to %q", got)
	}
	tb.requireNoConsoleProblems()
}
