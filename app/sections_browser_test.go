//go:build !js

package main

// Layout of the sections at the two sizes people use most: what a section shows first fits the
// width, is read at the page's text size, and what is one step away stays closed.

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/sim"
)

// overloadWideLink has the overload table's widest cells: the longest mode's name, and runs
// that recover or not.
const overloadWideLink = "rate=100&run=5s&timeout=500ms&queue=20&limiter=grpc&clients=100&outage=2s&seed=5&capacity=5&jitter=decorrelatedv2"

// layoutScreens are the sizes the layout tests check: a laptop and a phone.
var layoutScreens = []viewport{firstScreens[0], firstScreens[2]}

// fitsJS reports, for the element css selects, why it does not fit its width ("" when it
// does): its content wider than its box, or its box outside the window.
func fitsJS(css string) string {
	return `(() => {
		const e = document.querySelector(` + jsString(css) + `);
		if (!e) return "missing";
		const r = e.getBoundingClientRect();
		if (e.scrollWidth > e.clientWidth + 1) return "content " + e.scrollWidth + " px wide in a box of " + e.clientWidth;
		if (r.left < 0 || r.right > innerWidth + 1) return "box from " + Math.round(r.left) + " to " + Math.round(r.right) + " in a window " + innerWidth + " wide";
		return "";
	})()`
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return "`" + strings.NewReplacer("`", "\\`", "\\", "\\\\", "$", "\\$").Replace(s) + "`"
}

// fontPx is the computed font size of the element css selects, in CSS pixels.
func fontPx(tb *tab, css string) float64 {
	return evalJS[float64](tb, `parseFloat(getComputedStyle(document.querySelector(`+jsString(css)+`)).fontSize)`)
}

// An open system has a section of its own, named in the table of contents; its headline comes
// first, at the page's text size, and fits the width; at 1366×768 the runs side by side fit
// without scrolling (no cell cut at the box's edge); the limiters' rules are one step away.
func TestOverloadSectionLayout(t *testing.T) {
	t.Parallel()
	p, err := libs.Decode(overloadBrowserLink)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServe(t)
	for _, vp := range layoutScreens {
		t.Run(vp.name, func(t *testing.T) {
			tb := newTab(t)
			tb.emulate(vp)
			tb.navigate(srv.URL + "/?" + overloadBrowserLink + "#overload-section")
			tb.waitWasm()
			tb.waitFor("the overload runs", `!document.getElementById("herd-results").hasAttribute("data-pending") &&
				!document.getElementById("herd-results").closest("[inert]") && document.getElementById("herd-status").textContent === ""`)
			// The link's fragment opens at the section, and it stays there once the far
			// sections are skipped (TestSectionsOneStepAway does the same for the others).
			tb.waitFor("the section at the top", `Math.abs(document.getElementById("overload-section").getBoundingClientRect().top) < 40`)
			tb.waitFor("the far sections skipped", `document.documentElement.classList.contains("skip-far")`)
			toc := evalJS[string](tb, `[...document.querySelectorAll("#toc a")].map(a => a.getAttribute("href") + "=" + a.textContent).join(" ")`)
			if !strings.Contains(toc, "#overload-section=Overload") || strings.Contains(toc, "#herd-section") {
				t.Errorf("table of contents %q: want the overload section in the herd's place", toc)
			}
			if h := evalJS[string](tb, `document.querySelector("#overload-section > h2")?.textContent ?? ""`); h != overloadSection.heading {
				t.Errorf("heading %q, want %q", h, overloadSection.heading)
			}
			run, err := sim.Overload(p, p.OwnCase())
			if err != nil {
				t.Fatal(err)
			}
			head := evalJS[string](tb, `document.getElementById("overload-headline").textContent`)
			if !strings.HasSuffix(head, run.HeadlineWords(p.StreamEnd())) {
				t.Errorf("headline %q, want calc's %q", head, run.HeadlineWords(p.StreamEnd()))
			}
			// First in the section: above the runs, the model and the rules.
			if !evalJS[bool](tb, `(() => {
				const top = (id) => document.getElementById(id).getBoundingClientRect().top;
				return top("overload-headline") < top("overload-box") && top("overload-box") < top("overload-rules");
			})()`) {
				t.Error("the headline is not above the runs, or the rules not below them")
			}
			if why := evalJS[string](tb, fitsJS("#overload-headline")); why != "" {
				t.Errorf("the headline does not fit: %s", why)
			}
			if body, got := fontPx(tb, "#results"), fontPx(tb, "#overload-headline"); got < body {
				t.Errorf("the headline's font is %v px, under the results' %v px", got, body)
			}
			if !vp.mobile {
				if why := evalJS[string](tb, fitsJS("#overload-box")); why != "" {
					t.Errorf("the runs side by side do not fit: %s", why)
				}
			}
			if w := evalJS[int](tb, `document.documentElement.scrollWidth - innerWidth`); w > 0 {
				t.Errorf("the page is %d px wider than the window", w)
			}
			for _, cut := range evalJS[[]string](tb, captionsCutJS) {
				t.Errorf("a caption is cut: %s", cut)
			}
			if evalJS[bool](tb, `document.getElementById("overload-rules").open`) ||
				evalJS[bool](tb, `document.getElementById("overload-limiters").checkVisibility()`) {
				t.Error("the limiters' rules are shown, not one step away")
			}
			if vp.mobile {
				return
			}
			// The widest cells: the longest mode's name, and runs that do not recover.
			tb.navigate(srv.URL + "/?" + overloadWideLink + "#overload-section")
			tb.waitWasm()
			tb.waitFor("the overload runs", `document.querySelectorAll("#overload td[data-col=recovered]:not([data-value=''])").length > 0 &&
				[...document.querySelectorAll("#overload td[data-col=recovered]")].some(td => td.dataset.value === "") &&
				document.getElementById("herd-status").textContent === ""`)
			if why := evalJS[string](tb, fitsJS("#overload-box")); why != "" {
				t.Errorf("%s: the runs side by side do not fit: %s", overloadWideLink, why)
			}
		})
	}
}

// visibleOptionsJS lists, for the select css selects, each option whose text is cut by the
// closed select (wider than its box less its padding and the arrow) or shared with another.
func visibleOptionsJS(css string) string {
	return `(() => {
		const s = document.querySelector(` + jsString(css) + `);
		if (!s) return ["missing"];
		const cs = getComputedStyle(s);
		const c = document.createElement("canvas").getContext("2d");
		c.font = cs.font;
		const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
		const bad = [], seen = new Set();
		for (const o of s.options) {
			const w = c.measureText(o.text).width;
			if (w > room) bad.push(o.text + ": " + Math.round(w) + " px in " + Math.round(room));
			if (seen.has(o.text)) bad.push(o.text + ": twice");
			seen.add(o.text);
		}
		return bad;
	})()`
}

// The preset picker and the compare section's picker show each option's text whole, and no two
// alike: a closed select shows only as much of the chosen one as fits.
func TestPresetSelectShowsWhole(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, vp := range layoutScreens {
		t.Run(vp.name, func(t *testing.T) {
			tb := newTab(t)
			tb.emulate(vp)
			tb.navigate(srv.URL + "/?preset=aws-go-v2")
			tb.waitWasm()
			tb.waitFor("the compare section", `!!document.getElementById("vs-with")`)
			for _, css := range []string{"#in-preset", "#vs-with"} {
				for _, bad := range evalJS[[]string](tb, visibleOptionsJS(css)) {
					t.Errorf("%s: %s", css, bad)
				}
			}
		})
	}
}

// The compare section lays its totals out as the schedule's, labels A's as the schedule labels
// its own when there is a budget, says that B does not inherit A's budget, and its picker keeps
// showing what was picked.
func TestCompareTotalsLayout(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, vp := range layoutScreens {
		t.Run(vp.name, func(t *testing.T) {
			tb := newTab(t)
			tb.emulate(vp)
			tb.navigate(srv.URL + "/?budget=2s&vs=base%3D1s#compare-section")
			tb.waitWasm()
			tb.waitFor("the comparison", `!!document.getElementById("compare-totals") && !document.getElementById("compare-totals").closest("[inert]")`)
			style := `((css) => { const e = document.querySelector(css), s = getComputedStyle(e);
				return [s.display, s.gridTemplateColumns.split(" ").length, s.fontSize, getComputedStyle(e.querySelector("div")).backgroundColor,
					getComputedStyle(e.querySelector("dt")).fontSize, getComputedStyle(e.querySelector("dd")).fontSize].join(" "); })`
			if a, b := evalJS[string](tb, style+`("#totals")`), evalJS[string](tb, style+`("#compare-totals")`); a != b {
				t.Errorf("the compare totals are laid out as %q, the schedule's as %q", b, a)
			}
			// Each policy's totals start a row of their own, as the schedule's within the budget do.
			rows := evalJS[string](tb, `["compare-a-total-min", "compare-b-total-min", "compare-d-total-min"].map(id =>
				Math.round(document.getElementById(id).parentElement.getBoundingClientRect().left)).join(" ")`)
			if f := strings.Fields(rows); len(f) != 3 || f[0] != f[1] || f[1] != f[2] {
				t.Errorf("A's, B's and B − A's totals start at x %s, not each a row of its own", rows)
			}
			label := evalJS[string](tb, `document.getElementById("compare-a-total-max").previousElementSibling.textContent`)
			if !strings.HasSuffix(label, "of the policy, ignoring the budget") {
				t.Errorf("A's worst case is labelled %q", label)
			}
			for _, cut := range evalJS[[]string](tb, captionsCutJS) {
				t.Errorf("a caption is cut: %s", cut)
			}
			if why := evalJS[string](tb, fitsJS("#compare-totals")); why != "" {
				t.Errorf("the compare totals do not fit: %s", why)
			}
			if words := evalJS[string](tb, `document.getElementById("compare-inherit").textContent`); !strings.Contains(words, "budget: none (A's: 2s)") {
				t.Errorf("the page does not say that B has no budget: %q", words)
			}
			tb.setInput("#vs-with", "polly-linear")
			tb.waitFor("B is the preset", `location.search.includes("vs=preset%3Dpolly-linear") && document.getElementById("compare-b").textContent.includes("Polly")`)
			tb.waitFor("the page's render after the pick", `document.getElementById("vs-remove") !== null`)
			if v := evalJS[string](tb, `document.getElementById("vs-with").value`); v != "polly-linear" {
				t.Errorf("after picking polly-linear the picker shows %q", v)
			}
		})
	}
}

// captionsCutJS lists the captions of tables in a scroll box that reach past the box's visible
// width: a caption is as wide as its table, so its lines would be cut at the box's edge.
const captionsCutJS = `[...document.querySelectorAll(".scroll caption")].filter(c => c.checkVisibility()).map(c => {
	const box = c.closest(".scroll").getBoundingClientRect(), r = c.getBoundingClientRect();
	return r.right > box.right + 1 ? c.textContent.slice(0, 40) + ": to " + Math.round(r.right) + " in a box to " + Math.round(box.right) : "";
}).filter(Boolean)`

// In Chromium, the text of every section as laid out (the wasm's render, the islands' markup
// and the server's copy of the sections until then) has none of the glitches the native
// wording test looks for, nor a caption that says "(scrolls)".
func TestWordingInBrowser(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	for _, link := range []string{"", "budget=2s&vs=base%3D1s", overloadBrowserLink, "clients=60&attempts=6&outage=500ms&capacity=10&seed=2"} {
		tb.navigate(srv.URL + "/?" + link)
		tb.waitWasm()
		tb.waitFor("the herd", `document.getElementById("herd-status").textContent === "" && !document.querySelector("[inert]") &&
			!document.querySelector("#herd-results[data-pending]")`)
		text := evalJS[string](tb, `document.getElementById("app").innerText`)
		for _, g := range textGlitches(strings.Split(text, "\n")) {
			t.Errorf("%q: %s", link, g)
		}
		for _, c := range evalJS[[]string](tb, `[...document.querySelectorAll("caption, figcaption")].map(c => c.textContent).filter(t => t.includes("(scrolls)"))`) {
			t.Errorf("%q: caption %q says (scrolls)", link, c)
		}
	}
}

// An edit that makes the herd an open system puts the overload section, with its heading and
// table of contents entry, in the herd's place; one that closes it puts the herd back. A link's
// fragment that names the section follows it, so that the link still opens there.
func TestOverloadSectionOnEdit(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.navigate(srv.URL + "/?clients=50#herd-section")
	tb.waitWasm()
	tb.waitFor("the herd section", `!!document.querySelector("#herd-section > h2") && !document.querySelector("[inert]")`)
	tb.setInput("#in-limiter", "grpc")
	// A limiter alone, with no stream: the heading says there is none.
	tb.waitFor("the overload section", `document.querySelector("#overload-section > h2")?.textContent === `+jsString(overloadNoStreamHeading)+` &&
		!!document.querySelector('#toc a[href="#overload-section"]') && !document.getElementById("herd-section")`)
	tb.waitFor("the link's fragment on the overload section", `location.search.includes("limiter=grpc") && location.hash === "#overload-section"`)
	tb.setInput("#in-limiter", "none")
	tb.waitFor("the herd section again", `document.querySelector("#herd-section > h2")?.textContent === `+jsString(sectionNamed(t, "herd-section").heading)+` &&
		!!document.querySelector('#toc a[href="#herd-section"]') && !document.getElementById("overload-section")`)
	tb.waitFor("the link's fragment on the herd section", `!location.search.includes("limiter=grpc") && location.hash === "#herd-section"`)

	// A shared link whose fragment names the herd's section, for an open system, opens at the
	// overload section.
	tb2 := newTab(t)
	tb2.emulate(firstScreens[0])
	tb2.navigate(srv.URL + "/?rate=50&run=10s#herd-section")
	tb2.waitWasm()
	tb2.waitFor("the overload section at the top", `(() => {
		const s = document.getElementById("overload-section");
		return !!s && Math.abs(s.getBoundingClientRect().top) < 40;
	})()`)
}

// TestFragmentStaysWhileSectionsFill: a link to the export section, near the end of the page,
// still shows that section once the contention section above it has grown by its experiment
// and its sweep, and the pin that keeps it there ends with the person's first input. The page
// was too short to bring the export section to the top when it scrolled there, so the
// browser's scroll anchoring held the end of the contention section in view instead, and the
// section the link names ended about 1,950 px below the window's top.
func TestFragmentStaysWhileSectionsFill(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.emulate(firstScreens[0])
	tb.navigate(srv.URL + "/?preset=grpc-retry#export-section")
	tb.waitWasm()
	tb.waitFor("the contention sweep", `document.querySelectorAll("#contention-sweep tr[data-clients]").length === 20 &&
		document.getElementById("contention-status").textContent === ""`)
	const frames = `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`
	evalJS[bool](tb, frames)
	checkAtTop(t, tb, "export-section", "once the contention section is complete")

	// The person takes over: a section above that grows no longer brings the view back.
	evalJS[bool](tb, `(window.dispatchEvent(new PointerEvent("pointerdown")), window.scrollTo(0, 100), true)`)
	evalJS[bool](tb, frames)
	evalJS[bool](tb, `(() => {
		const tall = document.createElement("div");
		tall.style.height = "2000px";
		document.getElementById("schedule-section").append(tall);
		return true;
	})()`)
	evalJS[bool](tb, frames)
	if y := evalJS[int](tb, `Math.round(window.scrollY)`); y != 100 {
		t.Errorf("after the person's pointer and scroll to 100 px, a section's growth left the page at %d px, want 100", y)
	}
}

// TestFocusStaysWhileSectionsFill: what the keyboard's focus moved to stays in view while the
// sections above it fill in. A link of the table of contents focuses its section's heading, and
// the section stays at the top; a control tabbed to stays where it was on the screen. Before,
// the herd section (which collapses while it computes) and the contention section grew above
// them: the export section's heading ended 2,118 px below the window's top, a tabbed-to copy
// button 1,964 px.
func TestFocusStaysWhileSectionsFill(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	sweepDone := `document.querySelectorAll("#contention-sweep tr[data-clients]").length === 20 &&
		document.getElementById("contention-status").textContent === "" &&
		!document.querySelector("#herd-results[data-pending]")`
	const frames = `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`
	top := `(el) => Math.round(el.getBoundingClientRect().top)`

	t.Run("table of contents", func(t *testing.T) {
		tb := newTab(t)
		tb.emulate(firstScreens[0])
		tb.navigate(srv.URL + "/?base=250ms&attempts=8&jitter=equal&budget=20s")
		tb.waitWasm()
		if evalJS[bool](tb, sweepDone) {
			t.Fatal("the sections were complete before the link was followed: the test shows nothing")
		}
		tb.run(chromedp.Click(chromedp.CSS(`#toc a[href="#export-section"]`)))
		tb.waitFor("the contention sweep", sweepDone)
		evalJS[bool](tb, frames)
		checkAtTop(t, tb, "export-section", "once the sections are complete")
		if id := evalJS[string](tb, `document.activeElement.id`); id != "export-section-h" {
			t.Errorf("the focus is on %q, want the export section's heading", id)
		}
	})

	t.Run("tabbed to", func(t *testing.T) {
		tb := newTab(t)
		tb.emulate(firstScreens[0])
		tb.navigate(srv.URL + "/?budget=2s#export-section")
		tb.waitWasm()
		tb.waitFor("the export panel's code", `!!document.querySelector("#snippets:not([data-pending]) button")`)
		if evalJS[bool](tb, sweepDone) {
			t.Fatal("the sections were complete before the tab: the test shows nothing")
		}
		// Tabbing on from the section the link opens at (the heading holds no control).
		evalJS[bool](tb, `(document.getElementById("export-section-h").focus({preventScroll: true}), true)`)
		tb.run(chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab))
		evalJS[bool](tb, frames)
		type focus struct {
			ID, Tag string
			Top     int
		}
		read := `({id: document.activeElement.id, tag: document.activeElement.tagName, top: (` + top + `)(document.activeElement)})`
		was := evalJS[focus](tb, read)
		if was.Tag == "BODY" || was.Top < 0 || was.Top > 768 {
			t.Fatalf("after two tabs the focus is on %+v, not a control in view", was)
		}
		tb.waitFor("the contention sweep", sweepDone)
		evalJS[bool](tb, frames)
		if now := evalJS[focus](tb, read); now.ID != was.ID || now.Tag != was.Tag || now.Top < was.Top-2 || now.Top > was.Top+2 {
			t.Errorf("the focused %s#%s was at %d px, and at %d px once the sections above it filled in: want it where it was", was.Tag, was.ID, was.Top, now.Top)
		}
	})
}

// checkAtTop checks that the element id is at the top of the window, or as near it as the page's
// end lets it come.
func checkAtTop(t *testing.T, tb *tab, id, when string) {
	t.Helper()
	type place struct{ Top, Y, Max, Height int }
	at := evalJS[place](tb, `({
		top: Math.round(document.getElementById(`+jsString(id)+`).getBoundingClientRect().top),
		y: Math.round(window.scrollY),
		max: document.documentElement.scrollHeight - window.innerHeight,
		height: window.innerHeight,
	})`)
	if at.Top < -40 || at.Top > 40 && (at.Y < at.Max-1 || at.Top > at.Height/2) {
		t.Errorf("%s, #%s's top is at %d px of a %d px window, the page scrolled to %d of %d px: want it at the top, or the page at its end",
			when, id, at.Top, at.Height, at.Y, at.Max)
	}
}
