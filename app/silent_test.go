//go:build !js

package main

import (
	"regexp"
	"strings"
	"testing"

	"backoffcalc/calc/libs"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Input that would otherwise be silently wrong: a key no input reads, a select that cannot show
// its value, a bare number read as milliseconds.

// alertKeys are the data-key of each item of the page's alert.
func alertKeys(html string) []string {
	var keys []string
	for _, li := range elements(html[strings.Index(html, `id="errors"`):], "li") {
		if k, ok := li["data-key"]; ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// An unknown key is named, with the key it is likely a typo of; the link stays as it is; the
// fields show the defaults used; a valid edit writes the canonical link, without the key, and
// its message goes.
func TestPageUnknownKey(t *testing.T) {
	const q = "attempt=8&bse=1s"
	p, d := navPage(t, q)
	html := app.HTMLString(p)
	if got := strings.Join(alertKeys(html), " "); got != "attempt bse" {
		t.Errorf("the alert names %q, want attempt and bse", got)
	}
	for _, msg := range []string{`attempt &#34;8&#34;: unknown key; did you mean attempts?`, `bse &#34;1s&#34;: unknown key; did you mean base?`} {
		if !strings.Contains(html, msg) {
			t.Errorf("no message %q", msg)
		}
	}
	if !strings.Contains(html, "This link has keys that no input reads") {
		t.Error("the alert does not say what is wrong with the link")
	}
	if strings.Contains(html, "stale") {
		t.Error("the results are marked as the last valid inputs', but they are the fields'")
	}
	if got := d.Context().Page().URL().RawQuery; got != q {
		t.Errorf("the link was rewritten to %q", got)
	}
	if got := scheduleCells(html)["6/max"]; got != "1600" {
		t.Errorf("6/max = %q, want the defaults' 1600", got)
	}
	// A bad edit leaves the link, so its unknown keys are still named.
	typeInto(p, d, "factor", "x")
	if got := strings.Join(alertKeys(app.HTMLString(p)), " "); got != "factor attempt bse" {
		t.Errorf("after a bad edit the alert names %q", got)
	}
	typeInto(p, d, "factor", "3")
	html = app.HTMLString(p)
	want, _ := libs.DecodeLink("factor=3")
	if got := d.Context().Page().URL().RawQuery; got != want.Encode() {
		t.Errorf("after a valid edit the link is %q, want %q", got, want.Encode())
	}
	if keys := alertKeys(html); len(keys) != 0 || strings.Contains(html, "unknown key") {
		t.Errorf("after a valid edit the alert names %q", keys)
	}
}

// selected returns the text of the selected options of the select id.
func selected(t *testing.T, html, id string) []string {
	t.Helper()
	i := strings.Index(html, `id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no #%s", id)
	}
	body := html[i:]
	body = body[:strings.Index(body, "</select>")]
	var out []string
	for _, m := range regexp.MustCompile(`<option([^>]*)>([^<]*)</option>`).FindAllStringSubmatch(body, -1) {
		if strings.Contains(m[1], "selected") {
			out = append(out, m[2])
		}
	}
	return out
}

// Every select shows a bad value as given, marked invalid beside its message, never one of its
// options; the note above the results says the value they were computed with.
func TestPageSelectShowsBadValue(t *testing.T) {
	for _, tt := range []struct{ query, id, shown, note string }{
		{"jitter=fulll", "in-jitter", "fulll (not valid)", "These results use jitter full in place of the marked values."},
		{"capat=later", "in-capat", "later (not valid)", "These results use capat before in place"},
		{"growth=cubic", "in-growth", "cubic (not valid)", "These results use growth exponential in place"},
		{"first=EXACT", "in-first", "EXACT (not valid)", "These results use first jittered in place"},
		{"arrivals=burst", "in-arrivals", "burst (not valid)", "These results use arrivals even in place"},
		{"limiter=nope", "in-limiter", "nope (not valid)", "These results use limiter none in place"},
		{"preset=ENVOY", "in-preset", "ENVOY (not valid)", "These results use preset none in place"},
		{"jitter=", "in-jitter", "&#34;&#34; (not valid)", "These results use jitter full in place"},
		{"jitter=fulll&base=abc", "in-jitter", "fulll (not valid)", "These results use base 100ms, jitter full in place"},
	} {
		p, _ := navPage(t, tt.query)
		html := app.HTMLString(p)
		if got := selected(t, html, tt.id); len(got) != 1 || got[0] != tt.shown {
			t.Errorf("%s: #%s shows %q, want %q", tt.query, tt.id, got, tt.shown)
		}
		// go-app pre-renders aria-invalid="true" as a bare attribute, and in no fixed order.
		sel := regexp.MustCompile(`<select[^>]* id="` + tt.id + `"[^>]*>`).FindString(html)
		if !strings.Contains(sel, "aria-invalid") || !strings.Contains(sel, tt.id+"-error") {
			t.Errorf("%s: #%s is not marked invalid with its message: %s", tt.query, tt.id, sel)
		}
		if !regexp.MustCompile(`id="` + tt.id + `-error"[^>]*>[^<]*not valid|id="` + tt.id + `-error"[^>]*>[^<]*` + tt.id[3:] + ` &#34;`).MatchString(html) {
			t.Errorf("%s: #%s-error does not name the key", tt.query, tt.id)
		}
		if !strings.Contains(html, tt.note) {
			t.Errorf("%s: no note %q", tt.query, tt.note)
		}
	}
}

// A bare number in a duration is milliseconds: the field says so when it holds one.
func TestPageBareNumberIsMilliseconds(t *testing.T) {
	p, d := navPage(t, "budget=5s")
	typeInto(p, d, "budget", "20")
	html := app.HTMLString(p)
	if !strings.Contains(html, "read as 20 ms: a bare number is milliseconds (20s is seconds)") {
		t.Error("the budget's hint does not say that 20 is 20 ms")
	}
	if !strings.Contains(html, "starts before 20 ms from the first call") {
		t.Error("the policy's sentence does not say 20 ms")
	}
	typeInto(p, d, "budget", "20s")
	if strings.Contains(app.HTMLString(p), "read as 20") {
		t.Error("20s is said to be read as milliseconds")
	}
	// In the group one step away, the summary of what is set says the unit too.
	typeInto(p, d, "call", "15")
	if html := app.HTMLString(p); !strings.Contains(html, "call duration 15 ms") {
		t.Error("the summary of the inputs set does not say 15 ms")
	}
}

// Leaving a bad preset for "custom" takes its message away with it.
func TestPageLeaveBadPreset(t *testing.T) {
	p, d := navPage(t, "preset=ENVOY&base=300ms")
	if p.fieldError("preset") == nil {
		t.Fatal("no error for preset=ENVOY")
	}
	p.choosePreset(d.Context(), "")
	p.Update()
	settle(t, p, d)
	html := app.HTMLString(p)
	if p.fieldError("preset") != nil || strings.Contains(html, "(not valid)") || !strings.Contains(d.Context().Page().URL().RawQuery, "base=300ms&") {
		t.Errorf("after choosing custom: errors %v, link %.80q", p.errs, d.Context().Page().URL().RawQuery)
	}
}

// B's bad keys (vs.preset) are B's, in the vs input: not keys of the form, so an edit does not
// call them unknown.
func TestPageBadKeyOfB(t *testing.T) {
	p, d := navPage(t, "vs=preset%3Dnope")
	typeInto(p, d, "base", "123ms")
	if got := strings.Join(alertKeys(app.HTMLString(p)), " "); got != "vs.preset" {
		t.Errorf("after an edit the alert names %q, want vs.preset alone", got)
	}
}

// B's keys that are none of a policy's are named each once, as B's, with the key meant, in the
// alert and beside B's input; an edit of A leaves them named once, as B's query still holds
// them (they are not the link's unknown keys, which a valid edit drops); fixing B takes them away.
func TestPageUnknownKeysOfB(t *testing.T) {
	p, d := navPage(t, "base=300ms&vs=bse%3D1s%26atempts%3D3%26preset%3Denvoy")
	msgs := []string{`vs.bse &#34;1s&#34;: unknown key; did you mean base?`, `vs.atempts &#34;3&#34;: unknown key; did you mean attempts?`}
	vsError := regexp.MustCompile(`id="in-vs-error"[^>]*>([^<]*)<`)
	check := func(when string) {
		t.Helper()
		html := app.HTMLString(p)
		if got := strings.Join(alertKeys(html), " "); got != "vs.bse vs.atempts" {
			t.Errorf("%s: the alert names %q, want vs.bse and vs.atempts", when, got)
		}
		alert := html[strings.Index(html, `id="errors"`):]
		alert = alert[:strings.Index(alert, "</ul>")]
		beside := vsError.FindStringSubmatch(html)
		for _, msg := range msgs {
			if n := strings.Count(alert, msg); n != 1 {
				t.Errorf("%s: the alert says %q %d times", when, msg, n)
			}
			if beside == nil || strings.Count(beside[1], msg) != 1 {
				t.Errorf("%s: B's input is not marked with %q once: %v", when, msg, beside)
			}
		}
	}
	check("the link")
	typeInto(p, d, "base", "123ms")
	check("after an edit of A")
	compareOf(p).setVs(d.Context(), "preset=envoy")
	p.Update()
	settle(t, p, d)
	html := app.HTMLString(p)
	if keys := alertKeys(html); len(keys) != 0 || strings.Contains(html, "unknown key") {
		t.Errorf("after fixing B the alert names %q", keys)
	}
	if q := d.Context().Page().URL().RawQuery; !strings.Contains(q, "base=123ms&") || !strings.Contains(q, "&vs=preset%3Denvoy") {
		t.Errorf("after fixing B the link is %q", q)
	}
}
