//go:build !js

package main

// No text in a table or chart is cut, at a phone's width or a laptop's: a table may scroll
// sideways in its own box, but the column that answers its section's question is in view on
// the section's first screen.

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// cutLinks open every section of the page between them: the overload, the herd, a budget with
// what fits in it, a comparison, and the contention experiment.
var cutLinks = []string{
	"rate=80&run=60s&outage=2s&capacity=10&window=100ms&queue=100&timeout=500ms&clients=1#overload-section",
	"clients=1000&outage=2s&capacity=50",
	"budget=2s&base=250ms&factor=1.5&cap=3s&attempts=8&jitter=equal",
	"budget=5s&vs=preset%3Daws-go-v2-2026%26budget%3D5s",
	"base=5ms&cap=2s#contention-section",
}

// answerColumns are the columns that answer a table's question, by the table's id and the
// start of the column's heading: with the table at the left of its box, each must be whole in
// view. A herd or overload table shown without such a heading fails, so that a renamed column
// is not skipped; the schedule has its answer only with a budget.
var answerColumns = map[string]string{
	"schedule": "starts within budget",
	"herd":     "peak once back",
	"overload": "recovered at",
}

// textCutJS lists every text of a table cell (th, td) or a chart (SVG text) that is cut: its
// content wider than a box that hides it, its box outside the area a box it is in can show or
// scroll to, an SVG text outside its SVG; the page itself scrolling sideways; and every answer
// column not in view with its table unscrolled.
const textCutJS = `(() => {
	const problems = [];
	const doc = document.documentElement;
	if (doc.scrollWidth > innerWidth + 1) problems.push("the page scrolls sideways: " + doc.scrollWidth + " px in a window " + innerWidth + " wide");
	const where = (e) => {
		const t = e.closest("table, svg, [id]");
		return (t && t.id ? "#" + t.id : t ? t.tagName : "?") + " " + JSON.stringify(e.textContent.trim().slice(0, 40));
	};
	// Every box around e that clips it: one that scrolls shows what it can scroll to, one
	// that hides shows its padding box, and so does one that contains its paint (a section far
	// from the viewport is content-visibility: auto, skipFarSections).
	const inside = (e, r) => {
		for (let a = e.parentElement; a && a !== doc; a = a.parentElement) {
			const s = getComputedStyle(a);
			const ar = a.getBoundingClientRect();
			const left = ar.left + a.clientLeft, top = ar.top + a.clientTop;
			const scrolls = (o) => o === "auto" || o === "scroll";
			if (s.contentVisibility === "auto" || /paint|content|strict/.test(s.contain)) {
				if (r.left < left - 1 || r.right > left + a.clientWidth + 1) return "outside " + (a.id || a.tagName) + ", which contains its paint (" + Math.round(r.left - left) + " to " + Math.round(r.right - left) + " of " + a.clientWidth + ")";
			}
			if (s.overflowX !== "visible") {
				const l = scrolls(s.overflowX) ? left - a.scrollLeft : left;
				const w = scrolls(s.overflowX) ? a.scrollWidth : a.clientWidth;
				if (r.left < l - 1 || r.right > l + w + 1) return "outside " + (a.id || a.className || a.tagName) + " sideways (" + Math.round(r.left - l) + " to " + Math.round(r.right - l) + " of " + w + ")";
			}
			if (s.overflowY !== "visible") {
				const t = scrolls(s.overflowY) ? top - a.scrollTop : top;
				const h = scrolls(s.overflowY) ? a.scrollHeight : a.clientHeight;
				if (r.top < t - 1 || r.bottom > t + h + 1) return "outside " + (a.id || a.className || a.tagName) + " up or down";
			}
			if (s.overflowX !== "visible" || s.overflowY !== "visible") {
				r = ar; // inside it: what the boxes around it clip is this box
			}
		}
		return "";
	};
	for (const e of document.querySelectorAll("#app th, #app td")) {
		if (!e.checkVisibility() || e.textContent.trim() === "") continue;
		const s = getComputedStyle(e);
		if ((s.overflowX !== "visible" || s.textOverflow !== "clip") && e.scrollWidth > e.clientWidth + 1) {
			problems.push(where(e) + ": content " + e.scrollWidth + " px wide in " + e.clientWidth);
		}
		const why = inside(e, e.getBoundingClientRect());
		if (why) problems.push(where(e) + ": " + why);
	}
	for (const e of document.querySelectorAll("#app svg text")) {
		if (!e.checkVisibility() || e.textContent.trim() === "") continue;
		const r = e.getBoundingClientRect(), sr = e.ownerSVGElement.getBoundingClientRect();
		if (r.left < sr.left - 1 || r.right > sr.right + 1 || r.top < sr.top - 1 || r.bottom > sr.bottom + 1) {
			problems.push(where(e) + ": outside its chart (" + Math.round(r.left - sr.left) + " to " + Math.round(r.right - sr.left) + " of " + Math.round(sr.width) + ")");
		}
		const why = inside(e, r);
		if (why) problems.push(where(e) + ": " + why);
	}
	for (const [id, head] of Object.entries(ANSWERS)) {
		const table = document.getElementById(id);
		if (!table || !table.checkVisibility()) continue;
		const th = [...table.querySelectorAll("thead th")].find((th) => th.textContent.trim().startsWith(head));
		if (!th) {
			if (id === "schedule") continue;
			problems.push("#" + id + ": no column heading starts with " + JSON.stringify(head));
			continue;
		}
		const box = table.closest(".scroll");
		box.scrollLeft = 0;
		const r = th.getBoundingClientRect(), br = box.getBoundingClientRect();
		if (r.right > br.left + box.clientLeft + box.clientWidth + 1) {
			problems.push("#" + id + ": its answer, " + JSON.stringify(head) + ", is out of view until the table is scrolled (" + Math.round(r.right - br.left) + " px in a box " + box.clientWidth + " wide)");
		}
	}
	// The start chart's axis is whole on its first screen: its box does not scroll.
	for (const box of document.querySelectorAll("#chart > .chart-box")) {
		if (box.scrollWidth > box.clientWidth + 1) problems.push("#chart: the chart is " + box.scrollWidth + " px wide in a box of " + box.clientWidth + ": its axis is cut until it is scrolled");
	}
	return problems;
})()`

// TestNoTextCut loads each of cutLinks at 390 and 1366 px wide, lets every section compute
// and lays every one out, and finds no text of a table or chart cut.
func TestNoTextCut(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	answers, err := json.Marshal(answerColumns)
	if err != nil {
		t.Fatal(err)
	}
	check := strings.Replace(textCutJS, "ANSWERS", string(answers), 1)
	for _, vp := range []viewport{firstScreens[2], firstScreens[0]} {
		for _, link := range cutLinks {
			t.Run(vp.name+"/"+link, func(t *testing.T) {
				t.Parallel() // each link's sections compute for seconds: beside the other tests
				tb := newTab(t)
				tb.emulate(vp)
				tb.navigate(srv.URL + "/?" + link)
				tb.waitWasm()
				// Every section is computed (the contention experiment only where the link opens
				// it: it waits until it is scrolled to) and laid out, and the start chart is the
				// one drawn for this screen: serve's, kept on the wasm's first render, is drawn for
				// any screen, and the sections kept from serve's page show no pending mark while
				// the wasm samples the other modes, after which it draws the chart again.
				done := `(document.getElementById("herd-status")?.textContent ?? "") === "" &&
					document.querySelector("#results [data-pending]:not(#contention-section *)") === null &&
					![...document.querySelectorAll('#compare-runs td[data-col="status"]')].some((td) => td.textContent === "computing…") &&
					(location.hash !== "#contention-section" || document.getElementById("contention-status")?.textContent === "") &&
					(document.querySelector("#chart svg")?.hasAttribute("data-narrow") ?? matchMedia("(max-width: 40rem)").matches) === matchMedia("(max-width: 40rem)").matches`
				for start := time.Now(); !evalJS[bool](tb, done); time.Sleep(100 * time.Millisecond) {
					// The overload runs and the contention sweep take longer than a step's timeout.
					if time.Since(start) > 3*time.Minute {
						t.Fatal("the sections were not computed, or the start chart not drawn for this screen, in 3 minutes")
					}
				}
				for _, p := range evalJS[[]string](tb, check) {
					t.Error(p)
				}
			})
		}
	}
}

// TestHintsWrap opens More inputs with resilience4j's breaker chosen, whose hint names
// permittedNumberOfCallsInHalfOpenState, at 390 and 1366 px wide: no hint is wider than its
// box, and the inputs' column does not scroll sideways.
func TestHintsWrap(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, vp := range []viewport{firstScreens[2], firstScreens[0]} {
		t.Run(vp.name, func(t *testing.T) {
			tb := newTab(t)
			tb.emulate(vp)
			tb.navigate(srv.URL + "/?rate=10&breaker=resilience4j")
			tb.waitWasm()
			evalJS[bool](tb, `(document.getElementById("more-inputs").open = true, true)`)
			tb.waitFor("the breaker's inputs", `document.getElementById("in-r4jhalfopen") !== null`)
			for _, p := range evalJS[[]string](tb, `(() => {
				const problems = [];
				const c = document.getElementById("controls");
				if (c.scrollWidth > c.clientWidth + 1) problems.push("the inputs' column scrolls sideways: " + c.scrollWidth + " px in " + c.clientWidth);
				for (const h of document.querySelectorAll("#inputs .hint, #inputs label")) {
					if (h.checkVisibility() && h.scrollWidth > h.clientWidth + 1) problems.push((h.id || h.htmlFor) + ": " + h.scrollWidth + " px wide in " + h.clientWidth);
				}
				return problems;
			})()`) {
				t.Error(p)
			}
		})
	}
}
