//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"

	"backoffcalc/calc/contention"
	"backoffcalc/calc/libs"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// copied presses a copy button and returns the copied text and the status it says, once the
// status has changed and is not "Copying…".
func copied(tb *tab, button string) (text, status string) {
	n := evalJS[int](tb, `(() => {
		if (window.copyChanges === undefined) {
			window.copyChanges = 0;
			new MutationObserver(() => { window.copyChanges++; }).observe(document.getElementById("copy-status"), { childList: true, characterData: true, subtree: true });
		}
		return window.copyChanges;
	})()`)
	tb.run(chromedp.Click(chromedp.CSS(button)))
	tb.waitFor("the copy's status", fmt.Sprintf(`window.copyChanges > %d && !document.getElementById("copy-status").textContent.startsWith("Copying") && document.getElementById("export-text")?.value.length > 0`, n))
	return evalJS[string](tb, `document.getElementById("export-text").value`), evalJS[string](tb, `document.getElementById("copy-status").textContent`)
}

// Once everything is computed, the page's copies are what table -contention writes for the
// same link, and the status says nothing is left out.
func TestCopyIsTable(t *testing.T) {
	t.Parallel()
	q := sharedQuery + "&contenders=20&runs=5&vs=preset%3Daws-go-v2%26contenders%3D20%26runs%3D5"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + q)
	tb.waitWasm()
	p, _ := libs.Decode(q)
	tb.waitFor("the herd", herdRowsAre(len(p.HerdModes())))
	tb.run(chromedp.Click(chromedp.CSS(`#toc a[href="#contention-section"]`)))
	tb.waitFor("the contention table", fmt.Sprintf(`document.querySelectorAll("#contention tr[data-mode]").length === %d`, len(contention.ModesOf(p.Params))))
	// A click of the element itself: the table of contents' link holds the contention section
	// in place (backoffcalcHold) while the sections above it fill in, and a click at the
	// button's coordinates, taken before such a move, can land beside it.
	evalJS[bool](tb, `(document.getElementById("compare-contention-run").click(), true)`)
	tb.waitFor("B's headlines", `document.querySelectorAll("#compare-contention td").length > 0 && document.querySelectorAll("#compare-herd td[data-col=status]").length === 0`)
	for _, c := range []struct{ button, format, what string }{{"#copy-csv", "csv", "CSV"}, {"#copy-md", "md", "Markdown"}} {
		want, errOut, code := runTableOut(t, "-format", c.format, "-contention", q)
		if code != 0 {
			t.Fatalf("table: %d %s", code, errOut)
		}
		got, status := copied(tb, c.button)
		// A textarea drops the text's last newline; the clipboard gets all of it.
		if got != strings.TrimSuffix(want, "\n") {
			t.Errorf("copied %s:\n%s\nwant (table -contention):\n%s", c.what, got, want)
		}
		if strings.Contains(status, "without") || !strings.Contains(status, c.what) {
			t.Errorf("status %q", status)
		}
	}
	tb.requireNoConsoleProblems()
}

// A copy pressed while the herd is computing says that the herd is not in it, and is not.
func TestCopyWhileHerdComputes(t *testing.T) {
	t.Parallel()
	const q = "clients=100000&attempts=20&outage=10s&capacity=0"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + q)
	tb.waitWasm()
	tb.waitFor("the herd's work", `document.getElementById("herd-status").textContent.startsWith("Computing the herd")`)
	text, status := copied(tb, "#copy-csv")
	if !strings.Contains(status, "without the herd (still being computed)") {
		t.Errorf("status %q: it should say the herd is left out", status)
	}
	if strings.Contains(text, "\nmode,attempts,accepted,") {
		t.Errorf("the CSV has a herd:\n%s", text)
	}
	p, _ := libs.Decode(q)
	tb.waitFor("the herd", herdRowsAre(len(p.HerdModes())))
	text, status = copied(tb, "#copy-csv")
	if strings.Contains(status, "the herd") || !strings.Contains(text, "\nmode,attempts,accepted,") {
		t.Errorf("after the herd: status %q, text:\n%s", status, text)
	}
	tb.requireNoConsoleProblems()
}

// The report's copy is written by the engine's worker after the click (work.Copy), so the page
// asks for the clipboard's write inside the click with the text to come (backoffcalcCopyLater):
// where the browser grants the clipboard, it holds the whole text, the one the box shows, and
// the status says it was copied; the link's copy, written at once, still lands there too.
func TestCopyWritesTheClipboard(t *testing.T) {
	srv := startServe(t)
	tb := newTab(t, chromedp.WithNewBrowserContext()) // the permission stays in this profile
	// Counts the engine workers' replies, each before the page's own handler sees it.
	if _, err := chromedp.Call(tb.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const W = Worker;
		window.workerReplies = 0;
		window.Worker = function (url, opts) {
			const w = new W(url, opts);
			w.addEventListener("message", () => { window.workerReplies++; });
			return w;
		};
	})()`}); err != nil {
		t.Fatal(err)
	}
	// Reading the clipboard back needs its permission; writing it, as a person's click does, not.
	if _, err := chromedp.Call(tb.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "clipboard-read"}, Setting: cdpbrowser.PermissionSettingGranted,
		Origin: srv.URL, BrowserContextID: chromedp.FromContext(tb.ctx).BrowserContextID,
	}); err != nil {
		t.Fatal(err)
	}
	// A headless tab has no focus, and the clipboard is only for a focused page.
	if _, err := chromedp.Call(tb.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	tb.navigate(srv.URL + "/?" + sharedQuery)
	tb.waitWasm()
	p, _ := libs.Decode(sharedQuery)
	tb.waitFor("the herd", herdRowsAre(len(p.HerdModes())))
	for _, c := range []struct{ button, what string }{{"#copy-csv", "CSV"}, {"#copy-md", "Markdown"}} {
		box, status := copied(tb, c.button)
		if !strings.HasPrefix(status, "Copied the "+c.what) {
			t.Errorf("%s: status %q", c.what, status)
		}
		// A textarea drops the text's last newline; the clipboard gets all of it.
		if got := evalJS[string](tb, `navigator.clipboard.readText()`); got != box+"\n" {
			t.Errorf("%s: the clipboard holds\n%q\nthe box shows\n%q", c.what, got, box)
		}
	}
	link, status := copied(tb, "#copy-link")
	if got := evalJS[string](tb, `navigator.clipboard.readText()`); status != "Copied the link." || got != link || !strings.HasPrefix(got, srv.URL+"/?") {
		t.Errorf("the link's copy: status %q, clipboard %q, box %q", status, got, link)
	}
	// A report's copy still being written when the link is copied reaches neither the clipboard
	// nor the status nor the box once its text comes: the last copy's stay.
	n := evalJS[int](tb, `(document.getElementById("copy-md").click(), document.getElementById("copy-link").click(), window.workerReplies)`)
	tb.waitFor("the Markdown's reply", fmt.Sprintf(`window.workerReplies > %d`, n))
	evalJS[bool](tb, `new Promise((done) => setTimeout(() => done(true), 300))`) // for the page to handle it
	if got, status, box := evalJS[string](tb, `navigator.clipboard.readText()`), evalJS[string](tb, `document.getElementById("copy-status").textContent`),
		evalJS[string](tb, `document.getElementById("export-text").value`); got != link || status != "Copied the link." || box != link {
		t.Errorf("after a link's copy that followed a Markdown's: clipboard %q, status %q, box %q", got, status, box)
	}
	tb.requireNoConsoleProblems()
}
