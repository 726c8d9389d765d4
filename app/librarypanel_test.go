//go:build !js

package main

import (
	"regexp"
	"strings"
	"testing"

	"backoffcalc/app/internal/work"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

var (
	codeLibRE = regexp.MustCompile(`<code[^>]* data-lib="([^"]*)"`)
	diffLibRE = regexp.MustCompile(`<ul data-lib-diff="([^"]*)">`)
	copyRE    = regexp.MustCompile(`<button[^>]* data-copy="(\d+)"`)
)

// panelLibs is the libraries whose code blocks and lists of differences html shows.
func panelLibs(html string) (code, diffs []string) {
	for _, m := range codeLibRE.FindAllStringSubmatch(html, -1) {
		code = append(code, m[1])
	}
	for _, m := range diffLibRE.FindAllStringSubmatch(html, -1) {
		diffs = append(diffs, m[1])
	}
	return code, diffs
}

// One library's part of the panel: its code in text nodes, a copy button per block, and its
// differences; no other library's.
func TestSnippetRender(t *testing.T) {
	for _, e := range libs.Exports(calc.Default()) {
		html := app.HTMLString(renderSnippets(work.Shown(e)))
		code, diffs := panelLibs(html)
		if len(code) != len(e.Snippets) || strings.Trim(strings.Repeat(e.Lib+" ", len(code)), " ") != strings.Join(code, " ") {
			t.Errorf("%s: code blocks for %q, want %d of its own", e.Lib, code, len(e.Snippets))
		}
		if len(diffs) != 1 || diffs[0] != e.Lib {
			t.Errorf("%s: lists of differences for %q", e.Lib, diffs)
		}
		if n := len(copyRE.FindAllString(html, -1)); n != len(e.Snippets) {
			t.Errorf("%s: %d copy buttons for %d blocks", e.Lib, n, len(e.Snippets))
		}
	}
	grpc, _ := libs.ExportOf(calc.Default(), "grpc")
	html := app.HTMLString(renderSnippets(work.Shown(grpc)))
	if !strings.Contains(html, "&#34;maxAttempts&#34;") && !strings.Contains(html, "&quot;maxAttempts&quot;") {
		t.Errorf("the gRPC JSON is not escaped text:\n%s", html)
	}
}

// selectedLib is the library the panel's picker shows as chosen.
func selectedLib(t *testing.T, html string) string {
	t.Helper()
	var chosen []string
	for _, o := range elements(html[strings.Index(html, `id="export-lib"`):], "option") {
		if _, ok := o["selected"]; ok {
			chosen = append(chosen, o["value"])
		}
	}
	if len(chosen) != 1 {
		t.Fatalf("%d options chosen in the picker: %q", len(chosen), chosen)
	}
	return chosen[0]
}

// The page shows exactly one library, the link's, picked in the list, and the link keeps it.
func TestPanelShowsTheLinksLibrary(t *testing.T) {
	for _, lib := range libs.Libraries() {
		p, d := navPage(t, "base=200ms&export="+lib.Lib)
		html := app.HTMLString(p)
		code, diffs := panelLibs(html)
		if len(diffs) != 1 || diffs[0] != lib.Lib || strings.Count(html, "<h3>") != 1 || !strings.Contains(html, "<h3>"+lib.Title+"</h3>") {
			t.Errorf("export=%s: the panel shows the differences of %q, code of %q", lib.Lib, diffs, code)
		}
		for _, c := range code {
			if c != lib.Lib {
				t.Errorf("export=%s: code of %s", lib.Lib, c)
			}
		}
		if got := selectedLib(t, html); got != lib.Lib {
			t.Errorf("export=%s: the picker shows %s", lib.Lib, got)
		}
		want, _ := libs.DecodeLink("base=200ms&export=" + lib.Lib)
		if got := d.Context().Page().URL().RawQuery; got != want.Encode() {
			t.Errorf("export=%s: the link became %q, want %q", lib.Lib, got, want.Encode())
		}
	}
}

// Without the key the panel shows the preset's library, else the first; choosing a preset
// moves it to the preset's library, else to the first.
func TestPanelDefault(t *testing.T) {
	for _, c := range []struct{ query, lib string }{
		{"", "grpc"},
		{"preset=polly-linear", "polly"},
		{"preset=tenacity-exponential-jitter&attempts=3", "grpc"}, // attempts leaves the preset
		{"preset=grpc-connect", "grpc"},
		{"preset=aws-go-v2", "aws-go-v2"},
		{"preset=temporal", "temporal"},
		{"preset=stepfunctions", "stepfunctions"},
	} {
		p, d := navPage(t, c.query)
		html := app.HTMLString(p)
		if _, diffs := panelLibs(html); len(diffs) != 1 || diffs[0] != c.lib || selectedLib(t, html) != c.lib {
			t.Errorf("%q: the panel shows %q, want %s", c.query, diffs, c.lib)
		}
		if q := d.Context().Page().URL().RawQuery; !strings.Contains(q, "export="+c.lib+"&") {
			t.Errorf("%q: the link became %q, without export=%s", c.query, q, c.lib)
		}
	}
	p, d := navPage(t, "export=envoy")
	p.choosePreset(d.Context(), "resilience4j")
	settle(t, p, d)
	if _, diffs := panelLibs(app.HTMLString(p)); len(diffs) != 1 || diffs[0] != "resilience4j" ||
		!strings.Contains(d.Context().Page().URL().RawQuery, "export=resilience4j&") {
		t.Errorf("after choosing the resilience4j preset the panel shows %q, the link is %q", diffs, d.Context().Page().URL().RawQuery)
	}
	// A preset without a library of its own shows the default, as a link to it does, not the
	// library of the preset chosen before (it kept aws-go-v2's).
	p, d = navPage(t, "preset=aws-go-v2")
	p.choosePreset(d.Context(), "sidekiq")
	settle(t, p, d)
	if _, diffs := panelLibs(app.HTMLString(p)); len(diffs) != 1 || diffs[0] != "grpc" ||
		!strings.Contains(d.Context().Page().URL().RawQuery, "export=grpc&") {
		t.Errorf("after aws-go-v2's preset, sidekiq's shows %q, the link is %q", diffs, d.Context().Page().URL().RawQuery)
	}
}

// An edit of the picker shows that library and puts it in the link at once, without computing
// the report again.
func TestPanelPickerEdit(t *testing.T) {
	p, d := navPage(t, "base=300ms&jitter=equal")
	report := p.report
	partOf[*exportSection](p).choose(d.Context(), "tenacity")
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	if _, diffs := panelLibs(html); len(diffs) != 1 || diffs[0] != "tenacity" || selectedLib(t, html) != "tenacity" {
		t.Errorf("after picking tenacity the panel shows %q", diffs)
	}
	want, _ := libs.DecodeLink("base=300ms&jitter=equal&export=tenacity")
	if got := d.Context().Page().URL().RawQuery; got != want.Encode() {
		t.Errorf("after picking tenacity the link is %q, want %q", got, want.Encode())
	}
	if p.report != report {
		t.Error("picking a library computed the report again")
	}
	// Another edit keeps the library.
	typeInto(p, d, "attempts", "4")
	if q := d.Context().Page().URL().RawQuery; !strings.Contains(q, "export=tenacity&") || !strings.Contains(q, "attempts=4&") {
		t.Errorf("after an edit of attempts the link is %q", q)
	}
}

// A bad value is reported like any other key's, the picker shows it, the panel shows the default
// library and the note above the results says so, and picking one clears the error.
func TestPanelBadExport(t *testing.T) {
	for _, bad := range []string{"nope", "", strings.Repeat("x", 5000), "%3Cscript%3E"} {
		p, d := navPage(t, "base=200ms&export="+bad)
		html := app.HTMLString(p)
		fe := p.fieldError("export")
		if fe == nil || !strings.Contains(html, `data-key="export"`) || !strings.Contains(html, "must be one of grpc,") && !strings.Contains(html, "empty") {
			t.Fatalf("export=%.20s: no error for export: %v", bad, fe)
		}
		if _, diffs := panelLibs(html); len(diffs) != 1 || diffs[0] != "grpc" {
			t.Errorf("export=%.20s: the panel shows %q", bad, diffs)
		}
		picker := html[strings.Index(html, `id="export-lib"`):]
		picker = picker[:strings.Index(picker, "</select>")]
		if selectedLib(t, html) != "" || !strings.Contains(picker, " (not valid)</option>") {
			t.Errorf("export=%.20s: the picker does not show the value given: %.300s", bad, picker)
		}
		if !strings.Contains(html, "These results use export grpc in place of the marked values.") {
			t.Errorf("export=%.20s: the results do not say which library they show", bad)
		}
		// go-app writes attributes in no fixed order.
		if !regexp.MustCompile(`<div (?:[^>]* )?class="field export-pick invalid"`).MatchString(html) ||
			!regexp.MustCompile(`<span (?:id="export-lib-error" class="error"|class="error" id="export-lib-error")>export `).MatchString(html) {
			t.Errorf("export=%.20s: the picker is not marked invalid", bad)
		}
		if got := d.Context().Page().URL().RawQuery; got != "base=200ms&export="+bad {
			t.Errorf("export=%.20s: the bad link was rewritten: %.80q", bad, got)
		}
		partOf[*exportSection](p).choose(d.Context(), "polly")
		p.Update()
		d.Consume()
		if p.fieldError("export") != nil || !strings.Contains(d.Context().Page().URL().RawQuery, "export=polly&") {
			t.Errorf("export=%.20s: picking polly leaves %v, link %.80q", bad, p.errs, d.Context().Page().URL().RawQuery)
		}
	}
}

// The page shows the preset's own library's configuration, with nothing listed as different.
func TestPageExport(t *testing.T) {
	p, _ := navPage(t, "preset=cenkalti-v5")
	html := app.HTMLString(p)
	if !strings.Contains(html, `id="export-code"`) || !strings.Contains(html, "InitialInterval") {
		t.Fatal("no cenkalti export on the page")
	}
	i := strings.Index(html, `data-lib-diff="cenkalti"`)
	if j := strings.Index(html[i:], "</ul>"); i < 0 || strings.Contains(html[i:i+j], "<li") {
		t.Errorf("the preset's own library lists differences")
	}
}
