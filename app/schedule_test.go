//go:build !js

package main

import (
	"strings"
	"testing"

	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The notes name the pile-up at cap of both decorrelated modes, with calc's share of waits at
// cap by the last retry, and say nothing of it where no wait reaches the cap.
func TestPageNotesPileUp(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"jitter=decorrelated&cap=1s&attempts=12", "Decorrelated jitter piles waits up at the cap"},
		{"jitter=decorrelatedv2&cap=1s&attempts=7", "decorrelated jitter (DecorrelatedJitterBackoffV2) piles waits up at the cap"},
		{"jitter=decorrelatedv2&cap=1s&attempts=4", ""},
	} {
		p, _ := calc.Decode(c.query)
		r := p.ReportBounds()
		html := app.HTMLString(renderNotes(r))
		last := r.Schedule.Rows[len(r.Schedule.Rows)-1]
		switch {
		case c.want == "" && strings.Contains(html, "piles"):
			t.Errorf("%s: %s", c.query, html)
		case c.want != "" && (!strings.Contains(html, c.want) || last.AtCap == 0 || !strings.Contains(html, "by the last retry, "+calc.Percent(last.AtCap)+" of the waits are exactly 1 s")):
			t.Errorf("%s: no %q at %s:\n%s", c.query, c.want, calc.Percent(last.AtCap), html)
		}
	}
}
