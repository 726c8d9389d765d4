//go:build !js

package main

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"backoffcalc/app/internal/work"
	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// optionTexts are the visible texts of the options of the select with id in the page's HTML.
func optionTexts(t *testing.T, page, id string) []string {
	t.Helper()
	start := strings.Index(page, `id="`+id+`"`)
	if start < 0 {
		t.Fatalf("no select #%s", id)
	}
	page = page[start:]
	page = page[:strings.Index(page, "</select>")]
	var out []string
	for _, m := range regexp.MustCompile(`<option[^>]*>([^<]*)</option>`).FindAllStringSubmatch(page, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// Every preset's option, in the preset picker and in the compare section's, tells it apart from
// every other option by its visible text.
func TestPresetOptionsDistinct(t *testing.T) {
	p, _ := navPage(t, "")
	page := app.HTMLString(p)
	for _, id := range []string{"in-preset", "vs-with"} {
		texts := optionTexts(t, page, id)
		if len(texts) < len(libs.Presets()) {
			t.Fatalf("#%s: %d options, want one a preset at least (%d)", id, len(texts), len(libs.Presets()))
		}
		seen := map[string]bool{}
		for _, text := range texts {
			if strings.TrimSpace(text) == "" || seen[text] {
				t.Errorf("#%s: option %q is empty or not the only one with its text", id, text)
			}
			seen[text] = true
		}
	}
}

// The hint under the preset picker says what the chosen preset sets, truly for each: gRPC's
// retry preset is an example policy, not defaults the library has.
func TestPresetHintTrue(t *testing.T) {
	hint := func(p *page) string {
		for _, m := range regexp.MustCompile(`<span[^>]*id="in-preset-hint"[^>]*>([^<]*)</span>`).FindAllStringSubmatch(app.HTMLString(p), -1) {
			return html.UnescapeString(m[1])
		}
		t.Fatal("no #in-preset-hint")
		return ""
	}
	p, d := navPage(t, "")
	if h := hint(p); strings.Contains(h, "defaults") {
		t.Errorf("with no preset, the hint %q claims defaults some presets do not have", h)
	}
	for _, pr := range libs.Presets() {
		p.choosePreset(d.Context(), pr.Name)
		p.Update()
		d.Consume()
		if h := hint(p); !strings.Contains(h, pr.BasisWords()) {
			t.Errorf("%s: hint %q does not say %q", pr.Name, h, pr.BasisWords())
		}
	}
	grpc, _ := libs.PresetByName("grpc-retry")
	if b := grpc.BasisWords(); strings.Contains(b, "library's defaults") || !strings.Contains(b, "example") {
		t.Errorf("gRPC's retry preset is said to be %q", b)
	}
}

// glitchLinks are links whose every section the wording test reads: the defaults, budgets,
// layers, a comparison, open systems, a closed herd with a capacity, edge policies, the fit's
// answers open, and every preset with its own export.
func glitchLinks() []string {
	links := []string{"", "budget=2s", "budget=2s&call=50ms&layers=3", "attempts=1", "jitter=decorrelated&cap=1s&attempts=12",
		"vs=preset%3Daws-go-v2&budget=2s", "vs=base%3D1s%26budget%3D3s", overloadBrowserLink, overloadWideLink,
		"clients=60&attempts=6&outage=500ms&capacity=10&seed=2", "budget=1s&solve=attempts,base,cap,factor"}
	for _, pr := range libs.Presets() {
		l := "preset=" + pr.Name
		if lib, ok := libs.HomeOf(pr.Name); ok {
			l += "&" + libs.ExportKey + "=" + lib
		}
		links = append(links, l)
	}
	return links
}

var (
	// Elements whose text is not prose: code, scripts, what is typed.
	codeRE = regexp.MustCompile(`(?s)<(pre|script|style|textarea)\b.*?</(pre|script|style|textarea)>`)
	// Tags that end a run of text, as a browser lays it out (blocks, cells, controls).
	breakRE   = regexp.MustCompile(`(?i)</?(p|div|li|ul|ol|dl|dt|dd|td|th|tr|table|caption|thead|tbody|h[1-6]|option|select|summary|details|figcaption|figure|section|nav|header|footer|main|label|legend|fieldset|text|svg|g|br|button|input)\b[^>]*>`)
	tagRE2    = regexp.MustCompile(`<[^>]*>`)
	spaceRE   = regexp.MustCompile(`\s+`)
	glitchRE  = regexp.MustCompile(`\s[,:;.!?)]|\(\s|(^|[^\w])\(\s*\)|\[\s*\]`)
	doubledRE = regexp.MustCompile(`(?i)\b([a-z]{2,})\s+([a-z]{2,})\b`)
	// A label said twice around a number: "Layers: 1 layer: …".
	labelRE   = regexp.MustCompile(`(?i)\b([a-z]+?)s?: [^:.]*\b([a-z]+?)s?:`)
	captionRE = regexp.MustCompile(`(?s)<(caption|figcaption)\b[^>]*>(.*?)</(caption|figcaption)>`)
)

// visibleRuns are the runs of text a browser shows for page, each with its spaces collapsed:
// go-app writes an element's children a line each, so that text after an inline element starts
// with a space on screen ("the herd table , one chart").
func visibleRuns(page string) []string {
	page = codeRE.ReplaceAllString(page, "\n")
	page = breakRE.ReplaceAllString(page, "\x00")
	page = html.UnescapeString(tagRE2.ReplaceAllString(page, ""))
	var runs []string
	for _, r := range strings.Split(page, "\x00") {
		if r = strings.TrimSpace(spaceRE.ReplaceAllString(r, " ")); r != "" {
			runs = append(runs, r)
		}
	}
	return runs
}

// wordingGlitches lists the glitches of the page's text: a space before punctuation, empty
// brackets, a word or a label written twice, and "(scrolls)" in a caption, which the box's
// label says.
func wordingGlitches(page string) []string {
	out := textGlitches(visibleRuns(page))
	for _, m := range captionRE.FindAllStringSubmatch(page, -1) {
		if strings.Contains(m[2], "(scrolls)") {
			out = append(out, "caption says (scrolls): "+excerpt(m[2], strings.Index(m[2], "(scrolls)")))
		}
	}
	return out
}

// textGlitches are wordingGlitches' checks of runs of text as a browser shows them.
func textGlitches(runs []string) []string {
	var out []string
	for _, r := range runs {
		r = strings.ReplaceAll(r, " .NET", " NET") // a name that starts with a dot, not a space before one
		for _, m := range glitchRE.FindAllStringIndex(r, -1) {
			out = append(out, "spacing or brackets: "+excerpt(r, m[0]))
		}
		for _, m := range labelRE.FindAllStringSubmatchIndex(r, -1) {
			if strings.EqualFold(r[m[2]:m[3]], r[m[4]:m[5]]) {
				out = append(out, "label said twice: "+excerpt(r, m[0]))
			}
		}
		for _, m := range doubledRE.FindAllStringSubmatchIndex(r, -1) {
			if strings.EqualFold(r[m[2]:m[3]], r[m[4]:m[5]]) {
				out = append(out, "doubled word: "+excerpt(r, m[0]))
			}
		}
	}
	return out
}

func excerpt(s string, at int) string {
	from, to := max(0, at-40), min(len(s), at+40)
	return "…" + s[from:to] + "…"
}

// Every sentence a set of links makes the page write, in every section (the contention
// experiment's too), has no space before punctuation, no empty brackets, no doubled word and no
// "(scrolls)" in a caption.
func TestWordingGlitches(t *testing.T) {
	for i, link := range glitchLinks() {
		p, d := navPage(t, link)
		if i == 0 {
			partOf[*contentionSection](p).near(d.Context())
			settle(t, p, d)
		}
		p.Update()
		d.Consume()
		seen := map[string]bool{}
		for _, g := range wordingGlitches(app.HTMLString(p)) {
			if !seen[g] {
				t.Errorf("%q: %s", link, g)
				seen[g] = true
			}
		}
	}
}

// The test's own checks find what they look for.
func TestWordingGlitchesFinds(t *testing.T) {
	page := app.HTMLString(app.Div().Body(
		app.P().Body(app.A().Href("#herd").Text("the herd table"), app.Text(", one chart.")),
		app.P().Text("Layers: the the herd ()"),
		app.P().Text("Layers: 1 layer: one request"),
		app.Table().Body(app.Caption().Text("Every attempt (scrolls)")),
	))
	got := strings.Join(wordingGlitches(page), "\n")
	for _, want := range []string{"table , one", "doubled word", "herd ()", "caption says (scrolls)", "label said twice"} {
		if !strings.Contains(got, want) {
			t.Errorf("the checks miss %q in:\n%s", want, got)
		}
	}
}

// The copy status names what a snippet's button copied in words: "Copied the python code of
// tenacity (Python).", not "Copied the tenacity (Python) python.".
func TestSnippetName(t *testing.T) {
	p, _ := libs.Decode("preset=tenacity-random-exponential")
	ex, ok := libs.ExportOf(p, "tenacity")
	if !ok || len(ex.Snippets) == 0 {
		t.Fatal("no tenacity export")
	}
	if got, want := "Copied the "+snippetName(work.Shown(ex), 0)+".", "Copied the python code of tenacity (Python)."; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}
