//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// readIslands writes the report's islands' DOM, each element's attributes in order of name (the
// page's markup has them in a map's order): a patched DOM and a parsed one read the same.
const readIslands = `(() => {
	const canon = (n) => n.nodeType === 3 ? JSON.stringify(n.data) : n.nodeType !== 1 ? "" :
		"<" + n.nodeName + [...n.attributes].map((a) => " " + a.name + "=" + JSON.stringify(a.value)).sort().join("") + ">" +
		[...n.childNodes].map(canon).join("") + "</>";
	return ["summary", "tables", "chart-numbers", "modes-numbers", "layers-numbers"].map((id) =>
		id + ": " + [...document.getElementById(id).childNodes].map(canon).join("")).join("\n");
})()`

// settled: the sampling of every mode is done and nothing waits for the paint.
const settled = `document.querySelector('#tables [data-sampling], #modes-numbers[data-pending], #modes-numbers [data-pending]') === null`

// openSettled opens url in a new tab of a laptop's window, once every mode is sampled.
func openSettled(t *testing.T, url string) *tab {
	t.Helper()
	tb := newTab(t)
	tb.run(chromedp.EmulateViewport(1366, 768))
	tb.navigate(url)
	tb.waitWasm()
	tb.waitFor("every mode sampled", settled)
	return tb
}

// An edit keeps the islands' elements and sets what changed (island.patch): the schedule's table
// and the chart's drawing are the same elements after an edit of base, and after each edit,
// those that change the elements too (another jitter mode's columns, more attempts, a budget),
// the islands read exactly as a fresh load of the same link draws them.
func TestIslandsPatchedAsParsedBrowser(t *testing.T) {
	t.Parallel()
	tb := openSettled(t, startServe(t).URL+"/?base=100ms")
	evalJS[bool](tb, `(document.getElementById("schedule").__kept = document.querySelector("#chart-numbers svg").__kept = true)`)
	for _, edit := range [][2]string{{"#in-base", "101ms"}, {"#in-jitter", "equal"}, {"#in-attempts", "9"}, {"#in-budget", "2s"}, {"#in-base", "102ms"}} {
		tb.setInput(edit[0], edit[1])
		tb.waitFor("the edit's link", `location.search.includes("`+strings.TrimPrefix(edit[0], "#in-")+"="+edit[1]+`")`)
		tb.waitFor("every mode sampled", settled)
		if edit == [2]string{"#in-base", "101ms"} {
			if !evalJS[bool](tb, `document.getElementById("schedule").__kept === true && document.querySelector("#chart-numbers svg").__kept === true`) {
				t.Errorf("an edit of base replaced the schedule's table or the chart: not patched")
			}
		}
		patched := evalJS[string](tb, readIslands)
		link := evalJS[string](tb, `location.href`)
		fresh := openSettled(t, link)
		if parsed := evalJS[string](fresh, readIslands); patched != parsed {
			a, b := strings.Split(patched, "\n"), strings.Split(parsed, "\n")
			for i := range a {
				if i < len(b) && a[i] != b[i] {
					t.Errorf("after %s=%s, the patched island differs from a fresh load of %s:\npatched %.600s\nparsed  %.600s", edit[0], edit[1], link, a[i], b[i])
				}
			}
		}
	}
	tb.requireNoConsoleProblems()
}

// A keystroke's task writes the islands on the screen; the jitter modes' table, below the window,
// waits for the paint, hidden meanwhile, and is written right after it. Scrolled into view, it
// is written in the keystroke's task too. So is the chart, under the schedule, in a window too
// small to show it.
func TestOffScreenWaitsForThePaintBrowser(t *testing.T) {
	t.Parallel()
	tb := openSettled(t, startServe(t).URL+"/?base=100ms")
	// One keystroke, read back in the same task: what it wrote at once.
	type state struct {
		Max, Modes, Hidden string
		Waits, ChartWaits  bool
	}
	const keystroke = `(() => {
		const modes = document.getElementById("modes-numbers");
		const before = window.__modesBefore = modes.textContent;
		const e = document.getElementById("in-base");
		e.value = %q;
		e.dispatchEvent(new Event("input", { bubbles: true }));
		return {
			max: document.querySelector('#schedule tr[data-attempt="2"] td[data-col="max"]').dataset.ms,
			modes: modes.textContent === before ? "as before" : "new",
			waits: modes.hasAttribute("data-pending"),
			chartWaits: document.getElementById("chart-numbers").hasAttribute("data-pending"),
			hidden: getComputedStyle(modes.firstElementChild).visibility,
		};
	})()`
	below := evalJS[state](tb, strings.Replace(keystroke, "%q", `"201ms"`, 1))
	if below.Max != "201" || below.Modes != "as before" || !below.Waits || below.ChartWaits {
		t.Errorf("below the window: the keystroke's task wrote %+v; want the schedule's numbers and the chart, whose top is in the window, and the modes' table as before, waiting", below)
	}
	// Read in the keystroke's task: a later read can come after the paint, once it is written.
	if below.Waits && below.Hidden != "hidden" {
		t.Errorf("the modes' table waits for the paint but shows the old numbers: visibility %q", below.Hidden)
	}
	tb.waitFor("the modes' table written after the paint", `!document.getElementById("modes-numbers").hasAttribute("data-pending") && document.getElementById("modes-numbers").textContent !== window.__modesBefore`)
	// In view: written at once.
	evalJS[bool](tb, `(document.getElementById("modes-numbers").scrollIntoView(), true)`)
	evalJS[bool](tb, `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
	seen := evalJS[state](tb, strings.Replace(keystroke, "%q", `"203ms"`, 1))
	if seen.Max != "203" || seen.Modes != "new" || seen.Waits {
		t.Errorf("in view: the keystroke's task wrote %+v; want the modes' table new, not waiting", seen)
	}
	// In a smaller window the chart, under the schedule, is below it: it waits too.
	tb.run(chromedp.EmulateViewport(800, 600))
	evalJS[bool](tb, `(scrollTo(0, 0), true)`)
	evalJS[bool](tb, `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
	small := evalJS[state](tb, strings.Replace(keystroke, "%q", `"205ms"`, 1))
	if small.Max != "205" || !small.ChartWaits {
		t.Errorf("in an 800×600 window: the keystroke's task wrote %+v; want the schedule's numbers, the chart waiting", small)
	}
	tb.waitFor("the chart written after the paint", `!document.getElementById("chart-numbers").hasAttribute("data-pending")`)
	tb.requireNoConsoleProblems()
}
