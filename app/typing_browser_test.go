//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"backoffcalc/calc/libs"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// typedState is what the page shows of the schedule and the link, read in one evaluation.
type typedState struct {
	Tables string   `json:"tables"` // the schedule's and totals' text
	Policy string   `json:"policy"`
	Search string   `json:"search"`
	URLs   []string `json:"urls"`  // every URL history.replaceState and pushState were given since recordURLs
	Error  string   `json:"error"` // the message beside Attempts
	Value  string   `json:"value"` // what Attempts holds
	Busy   bool     `json:"busy"`  // the results are marked as changing: the typing has not paused
}

const readTyped = `({
	tables: document.getElementById("tables").innerText,
	policy: document.getElementById("policy").textContent,
	search: location.search,
	urls: window.__urls || [],
	error: document.getElementById("in-attempts-error").textContent,
	value: document.getElementById("in-attempts").value,
	busy: document.getElementById("results").getAttribute("aria-busy") === "true",
})`

// recordURLs records every URL the page puts in the address bar from here on.
const recordURLs = `(() => {
	window.__urls = [];
	for (const name of ["replaceState", "pushState"]) {
		const f = history[name];
		history[name] = function (state, title, url) {
			window.__urls.push(String(url));
			return f.apply(this, arguments);
		};
	}
	return true;
})()`

// Typing 5000 into Attempts with key events, after clearing it: 5, 50 and 500 are valid on the
// way, and none of them may reach the link; once the typing pauses, the refusal leaves the
// page as it was before the edit, attempts=6's numbers and link, with a message naming 5000.
func TestTypingRefusedKeepsThePreEditResultBrowser(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=100ms&cap=1s&attempts=6")
	tb.waitWasm()
	tb.waitFor("the canonical link", `location.search.includes("jitter=")`)
	tb.waitFor("the herd", `document.querySelector("#herd tbody tr") !== null && !document.getElementById("herd-status").textContent.startsWith("Computing")`)
	before := evalJS[typedState](tb, readTyped)
	if !strings.Contains(before.Search, "attempts=6") || !strings.Contains(before.Policy, "6 attempts") {
		t.Fatalf("before the edit: link %q, policy %q", before.Search, before.Policy)
	}
	evalJS[bool](tb, recordURLs)
	evalJS[bool](tb, `(() => { const e = document.getElementById("in-attempts"); e.focus(); e.select(); return true; })()`)
	tb.run(chromedp.KeyEvent(kb.Backspace), chromedp.KeyEvent("5000"))
	tb.waitFor("the refusal of 5000", `document.getElementById("in-attempts-error").textContent.includes('"5000"')`)
	tb.waitFor("the typing's pause", `document.getElementById("results").getAttribute("aria-busy") !== "true"`)
	after := evalJS[typedState](tb, readTyped)
	for _, u := range after.URLs {
		if strings.Contains(u, "attempts=500") || strings.Contains(u, "attempts=50&") || strings.Contains(u, "attempts=5&") {
			t.Errorf("the link became %s while 5000 was being typed", u)
		}
	}
	if after.Value != "5000" || !strings.HasPrefix(after.Error, `attempts "5000": must be between 1 and 1000`) {
		t.Errorf("Attempts holds %q with the message %q", after.Value, after.Error)
	}
	if after.Search != before.Search {
		t.Errorf("after the refusal the link is %q, want the pre-edit %q", after.Search, before.Search)
	}
	if after.Tables != before.Tables || after.Policy != before.Policy {
		t.Errorf("after the refusal the page shows\n%s\n%s\nwant the pre-edit\n%s\n%s", after.Policy, after.Tables, before.Policy, before.Tables)
	}

	// A valid value typed then: Enter commits it (the change event), and the link follows.
	evalJS[bool](tb, `(() => { const e = document.getElementById("in-attempts"); e.focus(); e.select(); return true; })()`)
	tb.run(chromedp.KeyEvent("9"), chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the link of 9", `location.search.includes("attempts=9")`)
	tb.waitFor("the policy of 9", `document.getElementById("policy").textContent.includes("9 attempts")`)
	tb.requireNoConsoleProblems()
}

// A value typed less than the typing pause before the page is left is kept for this tab, and
// Back or Forward to that page loads it: the page wrote a keystroke's link only once the typing
// paused, and Forward loaded the link from before the edit. Back itself crashes this headless
// Chromium now and then (trace/breakpoint trap), so the test leaves by a link, which fires the
// same pagehide, and loads the page again as a traversal would be seen by guard.js: the
// navigation's type is faked as back_forward; and a load that is not one keeps the link it has.
func TestTypedThenBackKeepsTheEdit(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	const query = "base=250ms&attempts=8&jitter=equal&budget=20s"
	tb.navigate(srv.URL + "/?" + query)
	tb.waitWasm()
	left := evalJS[string](tb, "location.search")
	evalJS[bool](tb, `(() => {
		const e = document.getElementById("in-attempts");
		e.focus();
		e.value = "4";
		e.dispatchEvent(new Event("input", { bubbles: true }));
		return true;
	})()`)
	tb.navigate(srv.URL + "/?attempts=2") // well within the typing pause: pagehide
	tb.waitWasm()
	typed, err := libs.DecodeLink(strings.Replace(query, "attempts=8", "attempts=4", 1))
	if err != nil {
		t.Fatal(err)
	}
	var kept struct{ Path, From, To string }
	if err := json.Unmarshal([]byte(evalJS[string](tb, `sessionStorage.getItem("backoffcalc-typed") ?? ""`)), &kept); err != nil ||
		kept.Path != "/" || kept.From != left || kept.To != "?"+typed.Encode() {
		t.Fatalf("kept %+v (%v), want the typed link for %s", kept, err, left)
	}

	// Loaded again by a plain navigation, the page keeps its link.
	tb.navigate(srv.URL + "/" + left)
	tb.waitWasm()
	if got := evalJS[string](tb, "location.search"); got != left {
		t.Errorf("a plain load of %s became %s", left, got)
	}
	// Loaded as Back or Forward would, it has the typed link.
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const entries = performance.getEntriesByType.bind(performance);
		performance.getEntriesByType = (type) => type === "navigation" ? [{ type: "back_forward" }] : entries(type);
	})()`}); err != nil {
		t.Fatal(err)
	}
	tb.navigate(srv.URL + "/" + left)
	tb.waitWasm()
	if got := evalJS[string](tb, "location.search"); got != "?"+typed.Encode() {
		t.Errorf("Forward loaded %s, want the typed edit's ?%s", got, typed.Encode())
	}
	if got := evalJS[string](tb, `document.getElementById("in-attempts").value`); got != "4" {
		t.Errorf("Attempts shows %q, want the typed 4", got)
	}
	checkNumbers(tb, typed.Encode())
	if got := evalJS[string](tb, `sessionStorage.getItem("backoffcalc-typed") ?? ""`); got != "" {
		t.Errorf("still kept: %s", got)
	}
	tb.requireNoConsoleProblems()
}
