//go:build !js

package main

import (
	"net/url"
	"strings"
	"testing"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/calc/libs"

	"github.com/chromedp/chromedp"
)

const stepFunctionsState = `{
  "Type": "Task",
  "Retry": [
    {"ErrorEquals": ["States.ALL"], "IntervalSeconds": 3, "MaxAttempts": 2, "BackoffRate": 1.5, "MaxDelaySeconds": 10, "JitterStrategy": "FULL"},
    {"ErrorEquals": ["States.Timeout"], "MaxAttempts": 9}
  ]
}`

// importInto opens the Import control, pastes text and imports it.
func importInto(tb *tab, text string) {
	tb.t.Helper()
	if !evalJS[bool](tb, `document.getElementById("import").open`) {
		tb.run(chromedp.Click(chromedp.CSS("#import > summary")))
	}
	tb.setInput("#import-text", text)
	tb.run(chromedp.Click(chromedp.CSS("#import-button")))
}

// checkNumbers fails unless the page shows calc's numbers for query, exactly.
func checkNumbers(tb *tab, query string) {
	tb.t.Helper()
	tb.waitWasm() // the sampled numbers are in
	got, want := evalJS[map[string]string](tb, readNumbers), wantNumbers(tb.t, query)
	for k, v := range want {
		if got[k] != v {
			tb.t.Errorf("%s: the page shows %q, calc says %q (query %s)", k, got[k], v, query)
		}
	}
}

// An import sets the inputs through the link: the link has the imported policy and keeps the
// keys the import does not set, the table is calc's for that link, and the page says what it
// read and ignored.
func TestImportSetsTheLink(t *testing.T) {
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?clients=50&attempts=9")
	tb.waitWasm()
	importInto(tb, stepFunctionsState)

	r, err := importcfg.Read(stepFunctionsState)
	if err != nil {
		t.Fatal(err)
	}
	link, err := libs.DecodeLinkValues(r.Link(url.Values{"clients": {"50"}, "attempts": {"9"}}))
	if err != nil {
		t.Fatal(err)
	}
	want := link.Encode()
	tb.waitFor("the imported link", `location.search === "?`+want+`"`)
	if !strings.Contains(want, "clients=50") || !strings.Contains(want, "attempts=3") || !strings.Contains(want, "jitter=full") {
		t.Errorf("the link %s does not keep clients=50 and take the import's attempts and jitter", want)
	}
	checkNumbers(tb, want)

	said := evalJS[string](tb, `document.getElementById("import-said").innerText`)
	for _, w := range []string{"AWS Step Functions Retry", "IntervalSeconds 3", "Retry[1]", "ErrorEquals"} {
		if !strings.Contains(said, w) {
			t.Errorf("the page's account of the import has no %q:\n%s", w, said)
		}
	}
	if got := evalJS[string](tb, `document.getElementById("import-text").value`); got != stepFunctionsState {
		t.Errorf("the textarea holds %q, want what was pasted", got)
	}
	tb.requireNoConsoleProblems()
}

// A configuration that is refused names its line, key and value; the inputs, the link and the
// numbers stay the last valid ones, and the textarea keeps what was pasted. On a phone: a tap
// opens the control.
func TestImportRefusedKeepsTheResult(t *testing.T) {
	srv := startServe(t)
	tb := newTab(t)
	tb.emulate(firstScreens[2])
	const query = "attempts=4&base=200ms"
	tb.navigate(srv.URL + "/?" + query)
	tb.waitWasm()
	search := evalJS[string](tb, "location.search")
	const bad = "@Retryable(retryFor = IOException.class,\n    maxAttempts = 0)"
	importInto(tb, bad)
	tb.waitFor("the import's message", `document.getElementById("import-error").textContent !== ""`)
	msg := evalJS[string](tb, `document.getElementById("import-error").textContent`)
	for _, w := range []string{"line 2", "maxAttempts", `"0"`} {
		if !strings.Contains(msg, w) {
			t.Errorf("the message %q does not name %s", msg, w)
		}
	}
	if got := evalJS[string](tb, "location.search"); got != search {
		t.Errorf("the link became %s, want %s", got, search)
	}
	checkNumbers(tb, strings.TrimPrefix(search, "?"))
	if got := evalJS[string](tb, `document.getElementById("import-text").value`); got != bad {
		t.Errorf("the textarea holds %q, want what was pasted", got)
	}

	// Mended, it imports, and the message goes.
	importInto(tb, strings.Replace(bad, "maxAttempts = 0", "maxAttempts = 5", 1))
	tb.waitFor("the mended import's link", `location.search.includes("attempts=5")`)
	if got := evalJS[string](tb, `document.getElementById("import-error").textContent`); got != "" {
		t.Errorf("the message stays: %q", got)
	}
	checkNumbers(tb, strings.TrimPrefix(evalJS[string](tb, "location.search"), "?"))
	tb.requireNoConsoleProblems()
}

// A valid 64 KB AWS file of 16,300 keys the import ignores lists 200 of them and how many more,
// where it rendered 16,305 list items and froze the page for 3.3 s; a key that would set the
// terminal's title is shown escaped.
func TestImportOfManyKeys(t *testing.T) {
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?clients=2&samples=100")
	tb.waitWasm()
	importInto(tb, "[default]\nretry_mode = standard\n\u202ekey = 1\n"+strings.Repeat("k=1\n", 16299))
	tb.waitFor("the import's account", `document.getElementById("import-said").innerText.includes("… and 16100 more")`)
	said := evalJS[string](tb, `document.getElementById("import-said").innerText`)
	if n := evalJS[int](tb, `document.querySelectorAll("#import-said li").length`); n > 220 {
		t.Errorf("%d list items", n)
	}
	if !strings.Contains(said, `line 3: "\u202ekey": not about retries`) || strings.ContainsRune(said, 0x202e) {
		t.Errorf("the key is not escaped:\n%.600s", said)
	}
	tb.requireNoConsoleProblems()
}

// TestImportAxe runs axe-core's WCAG rules with the control open, after an import and after a
// refused one.
func TestImportAxe(t *testing.T) {
	t.Parallel()
	source := axeSource(t)
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/")
	tb.waitWasm()
	importInto(tb, stepFunctionsState)
	tb.waitFor("the import's account", `document.getElementById("import-said").textContent.includes("Retry[1]")`)
	tb.waitWasm()
	reportViolations(t, "after an import", tb.axeRun(source))
	importInto(tb, "@Retryable(maxAttempts = x)")
	tb.waitFor("the import's message", `document.getElementById("import-error").textContent !== ""`)
	reportViolations(t, "after a refused import", tb.axeRun(source))
	tb.requireNoConsoleProblems()
}

// TestImportPastedBeforeWasm pastes into serve's page before the wasm runs: the wasm's page,
// which replaces it, keeps the control open with the text, and the text imports.
func TestImportPastedBeforeWasm(t *testing.T) {
	srv, release := heldServe(t)
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.navigate(srv.URL + "/?attempts=4")
	evalJS[bool](tb, `document.getElementById("import").open = true`)
	tb.setInput("#import-text", stepFunctionsState)
	release()
	tb.waitWasm()
	got := evalJS[map[string]any](tb, `({open: document.getElementById("import").open, text: document.getElementById("import-text").value})`)
	if got["open"] != true || got["text"] != stepFunctionsState {
		t.Fatalf("after the wasm took over: %v", got)
	}
	tb.run(chromedp.Click(chromedp.CSS("#import-button")))
	tb.waitFor("the imported link", `location.search.includes("jitter=full") && location.search.includes("base=3s")`)
	tb.requireNoConsoleProblems()
}
