//go:build !js

package main

import (
	"strconv"
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// readFit collects every answer of the fit to the budget as fitWant writes them (factors as
// written; fitGotBrowser reads them as numbers).
const readFit = `(() => {
	const out = {};
	document.querySelectorAll("#fit details[data-solve]").forEach((d) =>
		d.querySelectorAll("tr[data-mode] td[data-col]").forEach((td) => {
			const k = d.dataset.solve + "/" + td.closest("tr").dataset.mode + "/" + td.dataset.col;
			out[k] = td.dataset.pending ? "pending" : td.dataset.kind + " " + td.dataset.value + " " + td.dataset.largest;
		}));
	return out;
})()`

// fitGotBrowser is readFit's map with each factor written as fitWant writes it.
func fitGotBrowser(t *testing.T, tb *tab) map[string]string {
	t.Helper()
	got := evalJS[map[string]string](tb, readFit)
	for k, v := range got {
		if f := strings.Fields(v); strings.HasPrefix(k, "factor/") && len(f) == 3 {
			x, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				t.Errorf("%s: %q is no number", k, f[1])
			}
			got[k] = f[0] + " " + strconv.FormatFloat(x, 'g', -1, 64) + " " + f[2]
		}
	}
	return got
}

const fitSettled = `document.querySelector("#fit td[data-col]") !== null && document.querySelector("#fit [data-pending]") === null`

// A link with a budget shows calc's answers, its solve key opens the groups it names, and
// applying the largest base sets the input, the table and the link, which reproduces them.
func TestFitApplyOnPage(t *testing.T) {
	t.Parallel()
	q := fitQuery + "&solve=factor,base"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + q)
	tb.waitWasm()
	tb.waitFor("the sampled answers", fitSettled)
	compareMaps(t, "answer", fitGotBrowser(t, tb), fitWant(solvedReport(t, q)))
	open := evalJS[string](tb, `[...document.querySelectorAll("#fit details")].map((d) => d.dataset.solve + (d.open ? ":open" : ":closed") +
		(d.querySelector("table").checkVisibility() ? ":shown" : ":hidden")).join(" ")`)
	if want := "attempts:closed:hidden base:open:shown factor:open:shown cap:closed:hidden"; open != want {
		t.Errorf("groups %q, want %q", open, want)
	}

	tb.run(chromedp.Click(chromedp.CSS("#fit-apply-base-worst")))
	tb.waitFor("the applied base in its input", `document.getElementById("in-base").value === "157ms"`)
	tb.waitFor("the new schedule", `document.querySelector('#schedule tr[data-attempt="2"] td[data-col="max"]').dataset.ms === "157"`)
	tb.waitWasm()
	tb.waitFor("the new link", `location.search.includes("base=157ms")`)
	tb.waitFor("the new sampled answers", fitSettled)
	search := strings.TrimPrefix(evalJS[string](tb, "location.search"), "?")
	link, err := libs.DecodeLink(search)
	if err != nil {
		t.Fatalf("the new link %q: %v", search, err)
	}
	p := link.Params
	if last := p.Schedule().Rows[p.Attempts-1]; last.Latest >= p.Budget {
		t.Errorf("the new link %q: the last attempt's latest start %v is not before the budget %v", search, last.Latest, p.Budget)
	}
	if open, _ := calc.DecodeSolve(search); open.String() != "base,factor" {
		t.Errorf("the new link %q lost the open groups: solve=%q", search, open)
	}
	if got := evalJS[string](tb, `document.activeElement.id`); got != "fit-apply-base-worst" {
		t.Errorf("after applying, the focus is on %q, not the answer's button", got)
	}
	want := wantNumbers(t, search)
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), want)
	compareMaps(t, "answer after applying", fitGotBrowser(t, tb), fitWant(solvedReport(t, search)))

	// A sampled answer's button is "computing…" while the applied policy's samples are drawn:
	// the focus waits on its table and comes back to the button once it is written again.
	value := evalJS[string](tb, `document.getElementById("fit-apply-base-p99").dataset.value`)
	evalJS[bool](tb, `(document.getElementById("fit-apply-base-p99").focus(), true)`)
	tb.run(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the applied sampled base in the link", `location.search.includes("base=`+value+`")`)
	tb.waitFor("the applied policy's sampled answers", fitSettled)
	if got := evalJS[string](tb, `document.activeElement.id || document.activeElement.tagName`); got != "fit-apply-base-p99" {
		t.Errorf("after applying a sampled answer, the focus is on %q, not the answer's button", got)
	}
	tb.requireNoConsoleProblems()

	// The new link, opened afresh, shows the same table.
	tb2 := newTab(t)
	tb2.navigate(evalJS[string](tb, "location.href"))
	tb2.waitWasm()
	compareNumbers(t, evalJS[map[string]string](tb2, readNumbers), want)
	if got := evalJS[string](tb2, `document.getElementById("in-base").value`); got != "157ms" {
		t.Errorf("the new link's base input shows %q", got)
	}
	tb2.requireNoConsoleProblems()
}
