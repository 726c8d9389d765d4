//go:build !js

package main

// The keyboard walk: Tab through serve's page as a person without a mouse would, and check that
// every control and every scroll box is reached, in document order, visibly and with a name.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// keyboardHelpers defines, in the page, the functions the walk reads it with:
//   - stopKey names an element: its id, or the path of tags and positions from the nearest id.
//   - tabStops lists, in document order, what Tab must reach: every enabled, visible link,
//     button, input, select, textarea, details' summary and element with a tabindex of 0 or more, and every
//     visible box that scrolls and holds none of those (a box that holds one scrolls to it
//     when it gets focus).
//   - focusShown tells whether the focused element shows that it has focus: an outline or a
//     box shadow.
const keyboardHelpers = `(() => {
	window.stopKey = (e) => {
		const path = [];
		for (; e && e !== document.body; e = e.parentElement) {
			if (e.id) { path.unshift("#" + e.id); break; }
			const same = [...e.parentElement.children].filter((c) => c.tagName === e.tagName);
			path.unshift(e.tagName.toLowerCase() + (same.length > 1 ? ":nth-of-type(" + (same.indexOf(e) + 1) + ")" : ""));
		}
		return path.join(" > ");
	};
	// checkVisibility: the content of a closed details still has boxes, but is not rendered.
	const visible = (e) => e.checkVisibility({ visibilityProperty: true }) &&
		!e.closest("[inert], [hidden], [aria-hidden=true]");
	const focusable = "a[href], button, input:not([type=hidden]), select, textarea, details > summary:first-of-type, [tabindex]";
	window.tabStops = () => {
		const controls = [...document.querySelectorAll(focusable)].filter((e) => !e.disabled && e.tabIndex >= 0 && visible(e));
		const scrollers = [...document.body.querySelectorAll("*")].filter((e) => {
			const s = getComputedStyle(e);
			return /auto|scroll/.test(s.overflowX + " " + s.overflowY) && visible(e) &&
				(e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight) &&
				!controls.some((c) => e.contains(c));
		});
		const stops = [...new Set([...controls, ...scrollers])];
		stops.sort((a, b) => a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
		return stops.map(stopKey);
	};
	window.focusShown = (e) => {
		const s = getComputedStyle(e);
		return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
	};
	return true;
})()`

// focusStop is what the walk sees after a Tab.
type focusStop struct {
	Key   string `json:"key"`   // stopKey of document.activeElement; "" for the body
	Shown bool   `json:"shown"` // focusShown
}

// accessibleName returns the name Chromium's accessibility tree gives the focused element, as a
// screen reader would read it.
func (tb *tab) accessibleName() string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, timeout)
	defer cancel()
	name, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (string, error) {
		obj, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: "document.activeElement"})
		if err != nil {
			return "", err
		}
		defer cdp.Call(ctx, t, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj.Result.ObjectID})
		no := false
		tree, err := cdp.Call(ctx, t, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
			ObjectID: obj.Result.ObjectID, FetchRelatives: &no})
		if err != nil || len(tree.Nodes) == 0 || tree.Nodes[0].Name == nil {
			return "", err
		}
		return strings.Trim(string(tree.Nodes[0].Name.Value), `" `), nil
	})
	if err != nil {
		tb.t.Fatalf("reading the accessible name: %v", err)
	}
	return name
}

// TestKeyboardWalk presses Tab from the top of serve's page until focus leaves it, at both
// viewports, and checks that the stops are tabStops, in that order, each with a visible focus
// and an accessible name. Then it changes the preset with the arrow keys and presses a copy
// button with Enter.
func TestKeyboardWalk(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	for _, vp := range a11yViewports[:2] {
		tb.emulate(vp)
		tb.navigate(srv.URL + "/?" + sharedQuery)
		tb.waitWasm()
		// Every mode of the herd, whose chart's caption holds a link: the stops must not change
		// during the walk.
		tb.waitFor("the herd", wasmRunsIn)
		// The contention experiment, which starts when its section is seen: Tab scrolls to it,
		// and its table's scroll box, a stop on a phone, appeared mid-walk when it finished first.
		evalJS[bool](tb, `document.getElementById("contention-section").scrollIntoView(), true`)
		tb.waitFor("the contention experiment", `document.querySelectorAll("#contention-sweep tr[data-clients]").length > 0 && document.getElementById("contention-status").textContent === ""`)
		evalJS[bool](tb, `window.scrollTo(0, 0), true`)
		evalJS[bool](tb, keyboardHelpers)
		want := evalJS[[]string](tb, "tabStops()")
		if len(want) < 20 {
			t.Fatalf("%s: only %d tab stops in the page: %q", vp.name, len(want), want)
		}
		evalJS[bool](tb, `document.activeElement.blur(), true`)
		var got []string
		for range len(want) + 10 {
			tb.run(chromedp.KeyEvent(kb.Tab))
			s := evalJS[focusStop](tb, `(() => {
				const e = document.activeElement;
				return e === document.body || e === null ? { key: "", shown: false } : { key: stopKey(e), shown: focusShown(e) };
			})()`)
			if s.Key == "" || (len(got) > 0 && s.Key == got[0]) {
				break // focus left the page, or came round again
			}
			got = append(got, s.Key)
			if !s.Shown {
				t.Errorf("%s: %s shows no focus (no outline, no box shadow)", vp.name, s.Key)
			}
			if tb.accessibleName() == "" {
				t.Errorf("%s: %s has no accessible name", vp.name, s.Key)
			}
		}
		t.Logf("%s: %d tab stops: %q", vp.name, len(got), got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: Tab went through %d stops, the page has %d:%s", vp.name, len(got), len(want), stopsDiff(got, want))
		}
	}

	// The preset select, by keyboard: the arrow key picks the next preset, which the link shows.
	before := evalJS[string](tb, `(() => { const s = document.getElementById("in-preset"); s.focus(); return s.value; })()`)
	tb.run(chromedp.KeyEvent(kb.ArrowDown))
	tb.waitFor("another preset", fmt.Sprintf(`document.getElementById("in-preset").value !== %q`, before)+
		` && location.search.includes("preset=" + document.getElementById("in-preset").value)`)

	// A copy button, by keyboard.
	evalJS[bool](tb, `(document.getElementById("copy-md").focus(), document.activeElement.id === "copy-md")`)
	tb.run(chromedp.KeyEvent(kb.Enter))
	tb.waitFor("the copy status", `document.getElementById("copy-status").textContent.includes("Markdown")`)
	tb.requireNoConsoleProblems()
}

// stopsDiff lists the stops missing from got, the stops got has that want has not, and the
// first place where the orders part.
func stopsDiff(got, want []string) string {
	var b strings.Builder
	for _, k := range want {
		if !slices.Contains(got, k) {
			b.WriteString("\n\tnever reached: " + k)
		}
	}
	for _, k := range got {
		if !slices.Contains(want, k) {
			b.WriteString("\n\treached, not a stop: " + k)
		}
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			fmt.Fprintf(&b, "\n\tstop %d: reached %s, want %s", i+1, got[i], want[i])
			break
		}
	}
	return b.String()
}
