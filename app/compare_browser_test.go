//go:build !js

package main

import (
	"fmt"
	"testing"

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

// The Compare section's controls and table pass axe-core's WCAG 2.1 A and AA rules, as the rest
// of the page does (TestAxe).
func TestCompareAxe(t *testing.T) {
	source := axeSource(t)
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + compareLink)
	tb.waitWasm()
	reportViolations(t, "a link with B", tb.axeRun(source))
}
