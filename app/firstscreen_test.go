//go:build !js

package main

// The first screen: what a person sees of a link without scrolling, once the calculator runs.
// The essential inputs and the answer are inside the window, nothing covers them, and the page
// never scrolls sideways: a wide table scrolls in its own box.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// essentialInputs are the inputs that must be in the first screen at every size.
var essentialInputs = []string{"#in-preset", "#in-base", "#in-factor", "#in-cap", "#in-attempts", "#in-jitter", "#in-budget"}

// offScreen returns, of the elements css selects, those not wholly inside the window or covered
// at their centre by something else, each with its box; and one entry when nothing matches.
// It does not scroll: the first screen is what the page shows at its top.
func offScreen(tb *tab, selectors []string) []string {
	tb.t.Helper()
	list, _ := json.Marshal(selectors)
	return evalJS[[]string](tb, fmt.Sprintf(`(() => {
		const bad = [];
		for (const css of %s) {
			const e = document.querySelector(css);
			if (!e) { bad.push(css + ": missing"); continue; }
			const r = e.getBoundingClientRect();
			const box = css + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
			if (r.width === 0 || r.height === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
				bad.push(box + ": not inside the " + innerWidth + "×" + innerHeight + " window"); continue;
			}
			// Inside a scroll box, it must also be inside the box's visible part.
			const clip = e.closest(".scroll");
			if (clip && clip !== e) {
				const c = clip.getBoundingClientRect();
				if (r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.left < c.left - 1 || r.right > c.right + 1) { // subpixel
					bad.push(box + ": scrolled out of its box at " + [c.left, c.top, c.right, c.bottom].map(Math.round).join(",")); continue;
				}
			}
			const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			if (!at || (at !== e && !e.contains(at))) {
				bad.push(box + ": covered by " + (at ? at.tagName + "#" + at.id + "." + at.className : "nothing")); continue;
			}
			const s = getComputedStyle(e);
			if (s.visibility !== "visible" || Number(s.opacity) < 1) bad.push(box + ": not visible");
		}
		return bad;
	})()`, list))
}

func TestFirstScreen(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	links := []struct{ query, note string }{
		{"", "the defaults"},
		{"base=250ms&attempts=8&jitter=equal", "a shared link"},
		{"base=1s&budget=20s&cap=5s&jitter=full", "a budget"},
		{"preset=grpc-connect", "a preset"},
		{sharedQuery, "a link that sets inputs one step away"},
	}
	for _, v := range firstScreens {
		t.Run(v.name, func(t *testing.T) {
			tb := newTab(t) // one tab a size: the loads after the first come from its cache
			tb.emulate(v)
			for _, l := range links {
				tb.navigate(srv.URL + "/?" + l.query)
				tb.waitWasm()
				want := append([]string{}, essentialInputs...)
				want = append(want, "#total-min", "#total-mean", "#total-max")
				if !v.mobile {
					for n := 1; n <= 6; n++ {
						want = append(want, fmt.Sprintf(`#schedule tr[data-attempt="%d"]`, n))
					}
				}
				if bad := offScreen(tb, want); len(bad) > 0 {
					t.Errorf("%s (%q): not in the first screen:\n%s", l.note, l.query, strings.Join(bad, "\n"))
				}
				// The page never scrolls sideways; the schedule may, in its own box.
				if w := evalJS[int](tb, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
					t.Errorf("%s: the page is %d px wider than the window", l.note, w)
				}
				if v.mobile && !evalJS[bool](tb, `(() => { const b = document.getElementById("schedule-box"); return b.scrollWidth > b.clientWidth && getComputedStyle(b).overflowX === "auto"; })()`) {
					t.Errorf("%s: on a phone the schedule does not scroll sideways in its box", l.note)
				}
			}
			tb.requireNoConsoleProblems()
		})
	}
}

// laptopWindows are laptop windows as their viewports: a browser's frame and toolbars take about
// 143 px of a window's height, so a 1280×720 window shows the page 1280×577 CSS px.
var laptopWindows = []viewport{
	{name: "1280x720 window", width: 1280, height: 577},
	{name: "1366x768 window", width: 1366, height: 625},
}

// TestFirstScreenLaptopWindow: in a laptop's browser window, a link with a budget shows every
// total, each with its label, and the schedule through attempt 6 without scrolling. (Before the
// totals put their labels and numbers on one line, attempt 6 ended at 663 px of the 577.)
func TestFirstScreenLaptopWindow(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	const query = "base=250ms&attempts=8&jitter=equal&budget=20s"
	for _, v := range laptopWindows {
		t.Run(v.name, func(t *testing.T) {
			tb := newTab(t)
			tb.emulate(v)
			tb.navigate(srv.URL + "/?" + query)
			tb.waitWasm()
			// The totals the page shows for a budget: the policy's three, the six within the budget.
			ids := evalJS[[]string](tb, `[...document.querySelectorAll("#totals dd[id]")].map((e) => e.id)`)
			if len(ids) != 9 {
				t.Fatalf("totals %q; want the policy's 3 and the budget's 6", ids)
			}
			want := []string{}
			for i, id := range ids {
				if !strings.HasPrefix(id, "total-") && !strings.HasPrefix(id, "budget-") {
					t.Errorf("total %q is neither the policy's nor the budget's", id)
				}
				want = append(want, "#"+id, fmt.Sprintf("#totals > div:nth-child(%d)", i+1))
			}
			for n := 1; n <= 6; n++ {
				want = append(want, fmt.Sprintf(`#schedule tr[data-attempt="%d"]`, n))
			}
			// And the inputs they answer, as at every size: the budget too, which the long hints
			// of the preset and the jitter pushed below a 577 px window.
			want = append(want, essentialInputs...)
			if bad := offScreen(tb, want); len(bad) > 0 {
				t.Errorf("%q: not in the first screen:\n%s", query, strings.Join(bad, "\n"))
			}
			if w := evalJS[int](tb, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
				t.Errorf("the page is %d px wider than the window", w)
			}
			tb.requireNoConsoleProblems()
		})
	}
}

// TestZoom200: at 200% zoom a 1366×768 window is 683×384 CSS pixels. The page stays usable: it
// never scrolls sideways, and every input can be reached and read.
func TestZoom200(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.emulate(viewport{name: "1366x768 at 200%", width: 683, height: 384})
	tb.navigate(srv.URL + "/?" + sharedQuery)
	tb.waitWasm()
	if w := evalJS[int](tb, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
		t.Errorf("the page is %d px wider than the window", w)
	}
	for _, css := range essentialInputs {
		if !evalJS[bool](tb, readableAt(css)) {
			t.Errorf("%s cannot be read at 200%%", css)
		}
	}
}

// TestSectionsOneStepAway: every section has a heading that the table of contents links to, and
// a link with a section's fragment opens at that section.
func TestSectionsOneStepAway(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.emulate(firstScreens[0])
	tb.navigate(srv.URL + "/?attempts=12")
	tb.waitWasm()
	toc := evalJS[[]string](tb, `[...document.querySelectorAll("#toc a")].map(a => a.getAttribute("href"))`)
	var want []string
	for _, s := range sections {
		want = append(want, "#"+s.id)
	}
	if strings.Join(toc, " ") != strings.Join(want, " ") {
		t.Fatalf("table of contents links %v, want %v", toc, want)
	}
	for _, s := range sections {
		if h := evalJS[string](tb, `document.querySelector("#`+s.id+` > h2")?.textContent ?? ""`); h != s.heading {
			t.Errorf("section %s: heading %q, want %q", s.id, h, s.heading)
		}
	}

	// Following a link of the table of contents scrolls to the section and moves the focus there,
	// so that the next Tab continues from it.
	tb.run(chromedp.Click(chromedp.CSS(`#toc a[href="#herd-section"]`)))
	tb.waitFor("the herd's heading at the top", `Math.abs(document.getElementById("herd-section").getBoundingClientRect().top) < 40`)
	if id := evalJS[string](tb, `document.activeElement.id`); id != "herd-section-h" {
		t.Errorf("after the table of contents' link the focus is on %q, want the herd's heading", id)
	}

	// A shared link with a fragment opens at that section, once the calculator runs, and stays
	// there once the sections far from it are skipped: each keeps the height it was laid out at.
	for _, s := range sections[1:] {
		tb.navigate(srv.URL + "/?attempts=12#" + s.id)
		tb.waitWasm()
		rectTop := `document.getElementById("` + s.id + `").getBoundingClientRect().top`
		top := `Math.abs(` + rectTop + `) < 40`
		tb.waitFor(s.id+" at the top", top)
		tb.waitFor("the far sections skipped", `document.documentElement.classList.contains("skip-far")`)
		if cv := evalJS[string](tb, `getComputedStyle(document.getElementById("`+s.id+`")).contentVisibility`); cv != "auto" {
			t.Errorf("%s: content-visibility %q once the far sections are skipped, want auto", s.id, cv)
		}
		if !evalJS[bool](tb, top) {
			t.Errorf("%s moved from the top once the far sections were skipped: top %v", s.id, evalJS[float64](tb, rectTop))
		}
	}
	// The page is at the last section: the layers' is skipped, and finding text still reaches it.
	// The browser skips it at a frame after the scroll, which a busy machine delays: the full
	// suite, with calc's tests beside it, once found it not skipped yet.
	tb.waitFor("the layers' section skipped at the last section",
		`!document.querySelector("#layers-section > h2").checkVisibility({contentVisibilityAuto: true})`)
	if !evalJS[bool](tb, `window.find("Retries across layers") && !!getSelection().anchorNode.parentElement.closest("#layers-section")`) {
		t.Error("finding the layers' heading in the page, with the layers' section far from the viewport, failed")
	}
}
