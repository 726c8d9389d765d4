//go:build !js

package main

// The charts and the captions of the tables that scroll, measured in Chromium on a laptop's
// screen and a phone's: every chart text at least 11 CSS px and inside its chart, no line
// across a text, no two texts (end labels, ticks, titles) on each other, no caption cut at its box's edge.

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// chartsMeasure measures every chart and table caption in view of the layout (the far sections'
// skip is lifted first) and lists what is wrong, each named by its nearest id and its text.
const chartsMeasure = `(() => {
	document.documentElement.classList.remove("skip-far");
	const out = { charts: 0, minFont: 1e9, minFontAt: "", texts: [], problems: [] };
	const key = (e) => (e.closest("[id]")?.id ?? "") + " " + JSON.stringify(e.textContent.slice(0, 50));
	const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
	const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
	for (const s of document.querySelectorAll("figure svg")) {
		if (!s.checkVisibility()) continue;
		out.charts++;
		const sr = s.getBoundingClientRect(), scale = s.getScreenCTM().a, fig = s.closest("figure");
		const box = s.closest(".chart-box");
		if (!box || box.tabIndex !== 0 || !box.getAttribute("aria-label") || getComputedStyle(box).overflowX !== "auto") {
			out.problems.push(fig.id + ": its chart is not in a named scroll box that Tab reaches");
		} else if (box.getBoundingClientRect().right > fig.getBoundingClientRect().right + 0.5) {
			out.problems.push(fig.id + ": its chart's box is wider than the figure");
		}
		const texts = [...s.querySelectorAll("text")];
		for (const t of texts) {
			const px = parseFloat(getComputedStyle(t).fontSize) * scale;
			if (px < out.minFont) { out.minFont = px; out.minFontAt = key(t); }
			out.texts.push(fig.id + " " + t.textContent);
			if (!inside(t.getBoundingClientRect(), sr)) out.problems.push(key(t) + ": text not wholly inside its chart");
		}
		for (const l of s.querySelectorAll('[data-series="outage"], [data-series="budget"]')) {
			const lr = l.getBoundingClientRect();
			for (const t of texts) if (meet(lr, t.getBoundingClientRect())) out.problems.push(key(t) + ": crossed by the " + l.dataset.series + " line");
		}
		// Any two texts: the lines' end labels, and the ticks, titles and marks' labels.
		for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++)
			if (meet(texts[i].getBoundingClientRect(), texts[j].getBoundingClientRect())) out.problems.push(key(texts[i]) + " and " + key(texts[j]) + ": texts on each other");
	}
	for (const c of document.querySelectorAll(".scroll > table > caption")) {
		if (!c.checkVisibility()) continue;
		const box = c.closest(".scroll");
		for (const left of [0, box.scrollWidth]) {
			box.scrollLeft = left;
			if (c.scrollWidth > c.clientWidth + 0.5 || !inside(c.getBoundingClientRect(), box.getBoundingClientRect())) {
				out.problems.push(key(c) + ": caption cut by its box, scrolled to " + box.scrollLeft);
			}
		}
		box.scrollLeft = 0;
	}
	if (document.documentElement.scrollWidth > innerWidth) out.problems.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " px wide");
	return out;
})()`

type chartsMeasured struct {
	Charts    int      `json:"charts"`
	MinFont   float64  `json:"minFont"`
	MinFontAt string   `json:"minFontAt"`
	Texts     []string `json:"texts"`
	Problems  []string `json:"problems"`
}

// checkCharts measures the page at both viewports (the page stays loaded: only the layout
// changes) and fails on each problem, and when fewer than want charts are drawn or a text in
// them that must be there is not.
func checkCharts(t *testing.T, tb *tab, want int, texts ...string) {
	t.Helper()
	for _, vp := range a11yViewports[:2] {
		tb.emulate(vp)
		m := evalJS[chartsMeasured](tb, chartsMeasure)
		t.Logf("%s: %d charts, smallest text %.1f px (%s)", vp.name, m.Charts, m.MinFont, m.MinFontAt)
		if m.Charts < want {
			t.Errorf("%s: %d charts drawn, want %d", vp.name, m.Charts, want)
		}
		if m.MinFont < 11 {
			t.Errorf("%s: chart text %.1f CSS px (%s), want at least 11", vp.name, m.MinFont, m.MinFontAt)
		}
		for _, p := range m.Problems {
			t.Errorf("%s: %s", vp.name, p)
		}
		all := "\n" + strings.Join(m.Texts, "\n") + "\n"
		for _, s := range texts {
			if !strings.Contains(all, "\n"+s+"\n") {
				t.Errorf("%s: no chart text %q", vp.name, s)
			}
		}
	}
}

// The start chart with its budget marked, the herd's and the contention section's charts, and
// every table caption, readable at 1366x768 and 390x844.
func TestChartsReadable(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.emulate(a11yViewports[0])
	tb.navigate(srv.URL + "/?" + sharedQuery + "&contenders=30&runs=10")
	tb.waitWasm()
	tb.waitFor("the herd", wasmRunsIn)
	tb.run(chromedp.Click(chromedp.CSS(`#toc a[href="#contention-section"]`)))
	tb.waitFor("the sweep", `document.querySelectorAll("#contention-sweep tr[data-clients]").length === 20 && document.getElementById("contention-status").textContent === ""`)
	// The start chart, the herd's, the contention section's two and the zoomed view of no
	// backoff's and exponential backoff's dwarfing times.
	checkCharts(t, tb, 5, "chart budget 2 s", "contention-time-zoom-chart 0")

	// Starts within 200 ms, whose last tick label is at the chart's right edge, and a short
	// outage, whose line is under the herd's titles.
	tb.emulate(a11yViewports[0])
	tb.navigate(srv.URL + "/?base=8ms&cap=2s&jitter=decorrelatedv2&outage=100ms&seed=4")
	tb.waitWasm()
	tb.waitFor("the herd", wasmRunsIn)
	checkCharts(t, tb, 2, "chart 200 ms")
	tb.requireNoConsoleProblems()
}

// The overload view's chart, window by window, with the outage's line in every strip.
func TestOverloadChartReadable(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tb := newTab(t)
	tb.emulate(a11yViewports[0])
	tb.navigate(srv.URL + "/?" + overloadBrowserLink)
	tb.waitWasm()
	tb.waitFor("the overload chart", wasmRunsIn+` && document.querySelector("#overload-chart svg") !== null`)
	evalJS[bool](tb, `(document.getElementById("overload-windows").scrollIntoView(), true)`)
	checkCharts(t, tb, 2, "overload-chart new requests per 100 ms window")
	tb.requireNoConsoleProblems()
}
