//go:build !js

package main

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/calc/libs"

	cdppage "github.com/chromedp/cdproto/page"
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
	t.Parallel()
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
	t.Parallel()
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

// An import while an input it does not set is invalid puts its inputs in the form, but the link
// and the numbers stay those from before it: its status says so, where it said that the link now
// had its inputs. Once the input is fixed, the link has the import with that edit.
func TestImportHeldByAnInvalidInput(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?budget=7s")
	tb.waitWasm()
	search := evalJS[string](tb, "location.search")
	evalJS[bool](tb, `(document.getElementById("more-inputs").open = true, true)`)
	tb.setInput("#in-clients", "abc")
	tb.waitFor("clients marked", `document.getElementById("in-clients").getAttribute("aria-invalid") === "true"`)
	const config = `{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.2s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`
	importInto(tb, config)
	const said = `document.getElementById("import-said").innerText`
	tb.waitFor("the import's status", said+`.includes("Read as")`)
	if got := evalJS[string](tb, said); !strings.Contains(got, "a marked input is not valid: the results and the link are still those from before it") ||
		strings.Contains(got, "The link now has its inputs") {
		t.Errorf("the import's status:\n%s", got)
	}
	if got := evalJS[string](tb, "location.search"); got != search {
		t.Errorf("the link became %s, want %s", got, search)
	}
	checkNumbers(tb, strings.TrimPrefix(search, "?"))

	tb.setInput("#in-clients", "100")
	tb.waitFor("the import's link", `location.search.includes("attempts=3") && location.search.includes("budget=0")`)
	if got := evalJS[string](tb, said); !strings.Contains(got, "The inputs have been edited since") {
		t.Errorf("the import's status once the input is fixed:\n%s", got)
	}
	checkNumbers(tb, strings.TrimPrefix(evalJS[string](tb, "location.search"), "?"))
	tb.requireNoConsoleProblems()
}

// A valid 64 KB AWS file of 16,300 keys the import ignores lists 200 of them and how many more,
// where it rendered 16,305 list items and froze the page for 3.3 s; a key that would set the
// terminal's title is shown escaped.
func TestImportOfManyKeys(t *testing.T) {
	t.Parallel()
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

// pasteBeforeWasm opens the Import control of serve's page, held before the wasm runs, and pastes
// a Step Functions Retry into it; release lets the wasm load.
func pasteBeforeWasm(t *testing.T) (tb *tab, release func()) {
	srv, release := heldServe(t)
	tb = newTab(t, chromedp.WithNewBrowserContext())
	tb.navigate(srv.URL + "/?attempts=4")
	evalJS[bool](tb, `document.getElementById("import").open = true`)
	tb.setInput("#import-text", stepFunctionsState)
	return tb, release
}

const importedStepFunctions = `location.search.includes("jitter=full") && location.search.includes("base=3s")`

// TestImportPastedBeforeWasm pastes into serve's page before the wasm runs: the wasm's page,
// which replaces it, keeps the control open with the text, and the text imports.
func TestImportPastedBeforeWasm(t *testing.T) {
	t.Parallel()
	tb, release := pasteBeforeWasm(t)
	release()
	tb.waitWasm()
	got := evalJS[map[string]any](tb, `({open: document.getElementById("import").open, text: document.getElementById("import-text").value})`)
	if got["open"] != true || got["text"] != stepFunctionsState {
		t.Fatalf("after the wasm took over: %v", got)
	}
	tb.run(chromedp.Click(chromedp.CSS("#import-button")))
	tb.waitFor("the imported link", importedStepFunctions)
	tb.requireNoConsoleProblems()
}

// TestImportClickedBeforeWasm clicks Import in serve's page before the wasm runs: the page says
// that the import waits for the calculator, and the wasm imports the text once it has taken
// over, where the click was lost.
func TestImportClickedBeforeWasm(t *testing.T) {
	t.Parallel()
	tb, release := pasteBeforeWasm(t)
	evalJS[bool](tb, `document.getElementById("import-button").click(), true`)
	if said := evalJS[string](tb, `document.querySelector("#import-said p").textContent`); !strings.Contains(said, "imports the text as soon as") {
		t.Errorf("after the click, before the wasm, the import says %q", said)
	}
	release()
	tb.waitWasm()
	tb.waitFor("the imported link", importedStepFunctions)
	if said := evalJS[string](tb, `document.querySelector("#import-said p").textContent`); !strings.Contains(said, "Read as") {
		t.Errorf("after the wasm's import, it says %q", said)
	}
	tb.requireNoConsoleProblems()
}

// watchImport is a script for every document of the tab. At each of the import's marks but the
// last it posts a message of its own, and window.__import.order gets the marks and those
// messages' tasks in the order they ran: an import that hands the thread back between reading
// and showing lets the message posted at a mark run before the next mark; one that holds the
// thread runs them after. Ordering, not time: a loaded machine changes neither. It also counts
// the longest task since window.__import.from, for the log only.
const watchImport = `window.__import = {order: [], tasks: []};
(() => {
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) window.__import.tasks.push([e.startTime, e.duration]);
	}).observe({type: "longtask"});
	const mark = performance.mark.bind(performance);
	performance.mark = (name, ...rest) => {
		if (name.startsWith("backoffcalc:import-")) {
			window.__import.order.push(name);
			if (name !== "backoffcalc:import-shown") {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => { window.__import.order.push("a task after " + name); ch.port1.close(); };
				ch.port2.postMessage(null);
			}
		}
		return mark(name, ...rest);
	};
})();`

// watchValue is a script for the page: it counts what writes the textarea's value from now on.
const watchValue = `(() => {
	const e = document.getElementById("import-text");
	const d = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value");
	window.__valueSets = 0;
	window.__textarea = e;
	Object.defineProperty(e, "value", {
		get() { return d.get.call(this); },
		set(v) { window.__valueSets++; d.set.call(this, v); },
		configurable: true,
	});
	return true;
})()`

// An import of thousands of keys never holds the page's thread for its reading: the engine
// worker reads, and the page's thread has the click, then other tasks while the worker reads,
// then what it read shown (the engine sends at most imported.Shown lines of each list); and the
// textarea's 64 KB are not written back into it, which had Chromium lay them out again (a 60 KB
// import held the thread for 1,208 ms, 490 ms without it). How long the tasks took is only logged.
func TestImportHandsTheThreadBack(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: watchImport}); err != nil {
		t.Fatal(err)
	}
	tb.navigate(srv.URL + "/?clients=2&samples=100")
	tb.waitWasm()
	var envoy strings.Builder
	envoy.WriteString("retry_policy: {num_retries: 2")
	for i := range 9000 {
		fmt.Fprintf(&envoy, ",%s: 1", strconv.FormatInt(int64(36*36+i), 36))
	}
	envoy.WriteString("}\n")
	for _, c := range []struct{ name, text, shown string }{
		{"AWS, 16,300 keys", "[default]\nretry_mode = standard\n" + strings.Repeat("k=1\n", 16300), "… and 16100 more"},
		{"Envoy, 9,000 keys", envoy.String(), "… and 8800 more"},
	} {
		if !evalJS[bool](tb, `document.getElementById("import").open`) {
			tb.run(chromedp.Click(chromedp.CSS("#import > summary")))
		}
		evalJS[bool](tb, `window.__import.order = []; window.__import.tasks = []; true`)
		tb.setInput("#import-text", c.text)
		evalJS[bool](tb, watchValue)
		clicked := evalJS[float64](tb, `performance.now()`) // the paste's tasks are the browser's
		tb.run(chromedp.Click(chromedp.CSS("#import-button")))
		tb.waitFor("the import's account", `document.getElementById("import-said").innerText.includes(`+strconv.Quote(c.shown)+`)`)
		tb.waitWasm()
		order := evalJS[[]string](tb, `window.__import.order`)
		want := []string{"backoffcalc:import-start", "a task after backoffcalc:import-start", "backoffcalc:import-read", "backoffcalc:import-shown",
			"a task after backoffcalc:import-read"}
		if !slices.Equal(order, want) {
			t.Errorf("%s: the import's marks and the tasks posted at them ran in the order\n%q\nwant\n%q", c.name, order, want)
		}
		if n := evalJS[int](tb, `window.__textarea === document.getElementById("import-text") ? window.__valueSets : -1`); n != 0 {
			t.Errorf("%s: the textarea's value was written %d times after the paste (-1: the textarea was replaced)", c.name, n)
		}
		if got := evalJS[string](tb, `document.getElementById("import-text").value`); got != c.text {
			t.Errorf("%s: the textarea holds %.80q…, want what was pasted", c.name, got)
		}
		// Each long task by the mark that follows its start: the phase it belongs to.
		marks := evalJS[[]float64](tb, `["start", "read", "shown"].map((n) => performance.getEntriesByName("backoffcalc:import-" + n).at(-1).startTime)`)
		phases := []string{"the click", "the reading (the worker's)", "the decoding", "the showing", "after"}
		longest := make([]float64, len(phases))
		for _, task := range evalJS[[][2]float64](tb, `window.__import.tasks`) {
			if task[0] >= clicked {
				i, _ := slices.BinarySearch(marks, task[0])
				longest[i] = max(longest[i], task[1])
			}
		}
		t.Logf("%s: the longest task of %q: %.0f ms", c.name, phases, longest)
	}
	tb.requireNoConsoleProblems()
}

// An engine worker that does not start (its script not found: a site copied without it) makes
// an import say so, naming the engine, and leaves the link and the numbers as they were; the
// herd and the Export panel say so too.
func TestImportWithoutEngine(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument,
		cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
			const W = Worker;
			window.Worker = function (url) { return new W(url + "-missing"); };
		})()`}); err != nil {
		t.Fatal(err)
	}
	tb.navigate(srv.URL + "/?attempts=4")
	tb.waitWasm()
	p, _ := libs.DecodeLink("attempts=4")
	before := "?" + p.Encode()
	tb.waitFor("the canonical link", fmt.Sprintf("location.search === %q", before))
	importInto(tb, stepFunctionsState)
	tb.waitFor("the import's error", `document.getElementById("import-error").textContent !== ""`)
	if msg := evalJS[string](tb, `document.getElementById("import-error").textContent`); !strings.Contains(msg, "engine") || !strings.Contains(msg, "did not load") {
		t.Errorf("the import says %q", msg)
	}
	if after := evalJS[string](tb, `location.search`); after != before {
		t.Errorf("the link went from %s to %s", before, after)
	}
	checkNumbers(tb, before[1:])
	// The herd, which the engine simulates, says so in its place.
	tb.waitFor("the herd's error", `document.getElementById("herd-status").textContent.includes("engine")`)
	// So does the Export panel, which the engine writes.
	tb.waitFor("the export panel's error", `(() => { const s = document.getElementById("snippets");
		return !s.hasAttribute("data-pending") && s.textContent.includes("engine") && s.querySelector("code") === null; })()`)
	// And a copy of the report, which the engine writes: the status names it, and no box shows.
	tb.run(chromedp.Click(chromedp.CSS("#copy-csv")))
	tb.waitFor("the copy's error", `document.getElementById("copy-status").textContent.startsWith("The CSV")`)
	if msg := evalJS[string](tb, `document.getElementById("copy-status").textContent`); !strings.Contains(msg, "could not be written") || !strings.Contains(msg, "engine") {
		t.Errorf("the copy says %q", msg)
	}
	if evalJS[bool](tb, `document.getElementById("export-text") !== null`) {
		t.Error("a copy the engine did not write shows a box")
	}
}
