//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"

	"backoffcalc/calc/contention"
	"backoffcalc/calc/libs"

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
	q := sharedQuery + "&contenders=20&runs=5&vs=preset%3Daws-go-v2%26contenders%3D20%26runs%3D5"
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?" + q)
	tb.waitWasm()
	p, _ := libs.Decode(q)
	tb.waitFor("the herd", herdRowsAre(len(p.HerdModes())))
	tb.run(chromedp.Click(chromedp.CSS(`#toc a[href="#contention-section"]`)))
	tb.waitFor("the contention table", fmt.Sprintf(`document.querySelectorAll("#contention tr[data-mode]").length === %d`, len(contention.ModesOf(p.Params))))
	tb.run(chromedp.Click(chromedp.CSS(`#compare-contention-run`)))
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
