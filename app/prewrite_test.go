package main

import (
	"slices"
	"strings"
	"testing"
)

// TestFirstScreenParts: what prewrite writes is every island of the first screen with the
// attempts hint, the schedule's percentiles included, the form's every input and the answer
// groups the link opens; a bad link gives nothing to write.
func TestFirstScreenParts(t *testing.T) {
	p, parts, fields, open, ok := firstScreen("base=300ms&attempts=4&budget=2s&solve=attempts")
	if !ok {
		t.Fatalf("a valid link gave nothing to write: %v", p.errs)
	}
	var ids []string
	markup := map[string]string{}
	for i := 0; i < len(parts); i += 2 {
		id := parts[i].(string)
		ids = append(ids, id)
		markup[id] = parts[i+1].(string)
	}
	var want []string
	for _, i := range sections[0].numbers(p) {
		want = append(want, i.id)
		if !i.written || i.markup != markup[i.id] {
			t.Errorf("island %s does not keep the markup written for it", i.id)
		}
	}
	if want = append(want, "in-attempts-hint"); !slices.Equal(ids, want) {
		t.Errorf("parts %q, want %q", ids, want)
	}
	if !p.report.PolicySampled() || strings.Contains(markup["tables"], `data-pending="samples"`) || !strings.Contains(markup["tables"], `data-col="p99" data-ms="`) {
		t.Errorf("the schedule's percentiles are not in the tables: %.300s", markup["tables"])
	}
	if markup["in-attempts-hint"] != "4 attempts = first call + 3 retries" {
		t.Errorf("attempts hint %q", markup["in-attempts-hint"])
	}
	got := map[any]any{}
	for i := 0; i < len(fields); i += 2 {
		got[fields[i]] = fields[i+1]
	}
	inputs := 1 // the preset
	for _, g := range formGroups {
		inputs += len(g.fields)
	}
	for _, c := range chosenParams {
		inputs -= len(c.keys) // no limiter or breaker is chosen: the form shows none of theirs
	}
	if got["base"] != "300ms" || got["attempts"] != "4" || got["jitter"] != "full" || got["preset"] != "" || len(got) != inputs {
		t.Errorf("fields %v (%d of them), want every input of the form (%d)", got, len(got), inputs)
	}
	if !slices.Equal(open, []any{"attempts"}) {
		t.Errorf("open groups %v, want attempts", open)
	}
	for _, query := range []string{"base=oops", "attempts=4&nosuchkey=1"} {
		if _, _, _, _, ok := firstScreen(query); ok {
			t.Errorf("%s: written", query)
		}
	}
}
