//go:build !js

package main

import (
	"fmt"
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
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=200ms&attempts=4")
	tb.waitWasm()
	const shown = `[...document.querySelectorAll("#export-code code[data-lib]")].map((c) => c.dataset.lib).join(" ")`
	// The engine's worker writes the panel, after the load's own work.
	tb.waitFor("gRPC's code alone", shown+` === "grpc"`)
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

// An edit of base shows the new policy's configuration in the panel, which the engine's worker
// writes: from the input event until its reply is in, the panel is marked as being updated and
// never shows the old policy's code as the current one's, in any state the browser could paint
// (a MutationObserver records the panel at the end of every task that changed it).
func TestExportFollowsAnEdit(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?base=200ms&attempts=4&export=polly")
	tb.waitWasm()
	code := func(base string) string {
		link, err := libs.DecodeLink("base=" + base + "&attempts=4&export=polly")
		if err != nil {
			t.Fatal(err)
		}
		e, _ := libs.ExportOf(link.Params, "polly")
		return e.Snippets[0].Code
	}
	old, edited := code("200ms"), code("300ms")
	if old == edited {
		t.Fatal("the test's two policies have the same code")
	}
	const panel = `(() => {
		const s = document.getElementById("snippets"), c = s && s.querySelector("code[data-lib]");
		return { pending: !s || s.hasAttribute("data-pending"), code: c ? c.textContent : "" };
	})()`
	tb.waitFor("the old policy's code", fmt.Sprintf(`(() => { const p = %s; return !p.pending && p.code === %q; })()`, panel, old))
	type state struct {
		Pending bool   `json:"pending"`
		Code    string `json:"code"`
	}
	first := evalJS[state](tb, fmt.Sprintf(`(() => {
		window.panelSeen = [];
		const read = () => %s;
		new MutationObserver(() => window.panelSeen.push(read())).observe(document.getElementById("export-section"),
			{ attributes: true, childList: true, subtree: true, characterData: true });
		const e = document.getElementById("in-base");
		e.value = "300ms";
		e.dispatchEvent(new Event("input", { bubbles: true }));
		e.dispatchEvent(new Event("change", { bubbles: true }));
		return read();
	})()`, panel))
	if !first.Pending {
		t.Errorf("right after the edit the panel is not marked as being updated: it shows %.60q", first.Code)
	}
	tb.waitFor("the new policy's code", fmt.Sprintf(`(() => { const p = %s; return !p.pending && p.code === %q; })()`, panel, edited))
	seen := evalJS[[]state](tb, "window.panelSeen")
	for i, s := range seen {
		if !s.Pending && s.Code != edited {
			t.Errorf("after the edit, state %d of %d shows as current: %.80q, want the new policy's code", i+1, len(seen), s.Code)
		}
	}
	link, _ := libs.DecodeLink("base=300ms&attempts=4&export=polly")
	tb.waitFor("the edit's link", `location.search === "?`+link.Encode()+`"`)
	tb.requireNoConsoleProblems()
}

// The panel writes the link's own limiter where the library has it: gRPC's retryThrottling for
// limiter=grpc, with no difference left; and an edit of the limiter, which the panel reads
// though it is the overload model's key, rewrites it: another library's limiter is named as
// not set.
func TestExportWritesTheLinksLimiter(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?attempts=4&limiter=grpc&maxtokens=7&tokenratio=0.3&export=grpc")
	tb.waitWasm()
	const code = `document.querySelector("#export-code code[data-lib=grpc]")?.textContent ?? ""`
	tb.waitFor("gRPC's retryThrottling", "("+code+")"+`.includes('"retryThrottling": {\n    "maxTokens": 7,\n    "tokenRatio": 0.3\n  }')`)
	p, _ := libs.DecodeLink("attempts=4&limiter=grpc&maxtokens=7&tokenratio=0.3")
	e, _ := libs.ExportOf(p.Params, "grpc")
	if got := evalJS[string](tb, code); got != e.Snippets[0].Code {
		t.Errorf("the panel's code:\n%s\nwant:\n%s", got, e.Snippets[0].Code)
	}
	tb.setInput("#in-limiter", "envoy")
	tb.waitFor("no retryThrottling for envoy's limiter", `!(`+code+`).includes("retryThrottling")`)
	tb.waitFor("envoy's limiter named as not set", `document.getElementById("export-section").textContent.includes("does not set the link's retry limiter (envoy)")`)
	tb.requireNoConsoleProblems()
}

// What a chosen preset set that its library does not say shows beside the picker on every first
// screen, where a short window hides the picker's hint: a 5 s budget must not go silently.
func TestPresetSaysWhatItSetOnScreen(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, vp := range firstScreens {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			tb := newTab(t)
			tb.emulate(vp)
			tb.navigate(srv.URL + "/?budget=5s")
			tb.waitWasm()
			tb.setInput("#in-preset", "aws-go-v2-2026")
			tb.waitFor("what the preset set", `(() => { const e = document.getElementById("preset-set");
				return e !== null && e.getClientRects().length > 0 && e.textContent.includes("budget=0 (was 5s)"); })()`)
			tb.requireNoConsoleProblems()
		})
	}
}
