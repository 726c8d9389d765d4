//go:build !js

package main

import (
	"strings"
	"testing"

	"backoffcalc/calc/libs"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The export panel in the browser: the keyboard moves the picker to the next library, a pick
// shows that library's code alone and puts export= in the address bar without a history entry,
// and a block's copy button copies exactly that block.
func TestExportPicker(t *testing.T) {
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=200ms&attempts=4")
	tb.waitWasm()
	const shown = `[...document.querySelectorAll("#export-code code[data-lib]")].map((c) => c.dataset.lib).join(" ")`
	if got := evalJS[string](tb, shown); got != "grpc" {
		t.Fatalf("the panel shows %q, want gRPC's alone", got)
	}
	history := evalJS[int](tb, "history.length")

	tb.run(chromedp.Focus(chromedp.CSS("#export-lib")), chromedp.KeyEvent(kb.ArrowDown))
	tb.waitFor("cenkalti's code, picked with the keyboard", shown+` === "cenkalti"`)

	tb.setInput("#export-lib", "polly")
	tb.waitFor("Polly's code", shown+` === "polly"`)
	want, _ := libs.DecodeLink("base=200ms&attempts=4&export=polly")
	tb.waitFor("export=polly in the address bar", `location.search === "?`+want.Encode()+`"`)
	if got := evalJS[int](tb, "history.length"); got != history {
		t.Errorf("history grew from %d to %d: a pick must replace the entry", history, got)
	}

	e, _ := libs.ExportOf(want.Params, "polly")
	tb.run(chromedp.Click(chromedp.CSS(`#export-code button[data-copy="0"]`)))
	tb.waitFor("the copied code", `document.getElementById("export-code-text")?.value.length > 0`)
	// A textarea drops the text's last newline; the clipboard gets all of it.
	if got := evalJS[string](tb, `document.getElementById("export-code-text").value`); got != strings.TrimSuffix(e.Snippets[0].Code, "\n") {
		t.Errorf("copied:\n%q\nwant Polly's code:\n%q", got, e.Snippets[0].Code)
	}
	if got := evalJS[string](tb, `document.getElementById("export-copy-status").textContent`); !strings.Contains(got, "Polly") {
		t.Errorf("the panel's copy status: %q", got)
	}
	tb.requireNoConsoleProblems()
}
