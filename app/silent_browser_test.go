//go:build !js

package main

import (
	"strings"
	"testing"

	"backoffcalc/calc/libs"
)

// silentState is what the page says about a link's inputs, read in one evaluation.
type silentState struct {
	Alert   []string `json:"alert"`   // the alert's items
	Search  string   `json:"search"`  // location.search
	Jitter  string   `json:"jitter"`  // the text of the jitter select's selected option
	Invalid string   `json:"invalid"` // its aria-invalid
	Error   string   `json:"error"`   // the message beside it
	Note    string   `json:"note"`    // the note above the results ("" when there is none)
	Policy  string   `json:"policy"`  // the sentence that states the policy
}

const readSilent = `(() => {
	const j = document.getElementById("in-jitter");
	return {
		alert: [...document.querySelectorAll('[role="alert"] li')].map((li) => li.textContent),
		search: location.search,
		jitter: j.options[j.selectedIndex].textContent,
		invalid: j.getAttribute("aria-invalid"),
		error: document.getElementById("in-jitter-error").textContent,
		note: document.querySelector(".stale-note")?.textContent ?? "",
		policy: document.getElementById("policy").textContent,
	};
})()`

// In the browser: a link's unknown key is named and kept in the link, a select shows its bad
// value, the results say what they were computed with; an edit writes the canonical link and
// the messages go; a bare number typed in a duration is said to be milliseconds.
func TestSilentInputBrowser(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)

	tb.navigate(srv.URL + "/?attempt=8&bse=1s")
	tb.waitWasm()
	s := evalJS[silentState](tb, readSilent)
	if strings.Join(s.Alert, "\n") != "attempt \"8\": unknown key; did you mean attempts?\nbse \"1s\": unknown key; did you mean base?" {
		t.Errorf("the alert says %q", s.Alert)
	}
	if s.Search != "?attempt=8&bse=1s" {
		t.Errorf("the link with unknown keys was rewritten: %q", s.Search)
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, ""))
	// An edit leaves no error: the link is written whole, without the unknown keys.
	tb.setInput("#in-attempts", "8")
	want, _ := libs.DecodeLink("attempts=8")
	tb.waitFor("the canonical link", `location.search === "?`+want.Encode()+`"`)
	tb.waitFor("no alert", `document.querySelectorAll('[role="alert"] li').length === 0`)

	tb.navigate(srv.URL + "/?jitter=fulll&budget=5s")
	tb.waitWasm()
	s = evalJS[silentState](tb, readSilent)
	if s.Jitter != "fulll (not valid)" || s.Invalid != "true" || !strings.HasPrefix(s.Error, `jitter "fulll": must be one of`) {
		t.Errorf("the jitter field shows %q (aria-invalid %q, message %q)", s.Jitter, s.Invalid, s.Error)
	}
	if s.Note != "These results use jitter full in place of the marked values." || !strings.Contains(s.Policy, "(full jitter)") {
		t.Errorf("the results do not say they are full jitter's: note %q, policy %q", s.Note, s.Policy)
	}
	if s.Search != "?jitter=fulll&budget=5s" {
		t.Errorf("the bad link was rewritten: %q", s.Search)
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, "budget=5s"))
	// Choosing a mode takes the bad value's place and clears its message.
	tb.setInput("#in-jitter", "equal")
	want, _ = libs.DecodeLink("jitter=equal&budget=5s")
	tb.waitFor("the canonical link", `location.search === "?`+want.Encode()+`"`)
	tb.waitFor("the mode chosen, without a message", `(() => { const j = document.getElementById("in-jitter");
		return j.options.length === j.querySelectorAll("option:not([disabled])").length && j.value === "equal" &&
			document.getElementById("in-jitter-error").textContent === "" && document.querySelector(".stale-note") === null; })()`)

	// budget=20 is 20 ms: the field and the policy's sentence say so.
	tb.setInput("#in-budget", "20")
	tb.waitFor("the budget of 20 ms", `document.getElementById("policy").textContent.includes("starts before 20 ms")`)
	tb.waitFor("the budget's hint", `document.getElementById("in-budget-hint").textContent.startsWith("read as 20 ms: a bare number is milliseconds")`)
	tb.requireNoConsoleProblems()
}
