//go:build !js

package main

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// typeKeys types value into key's field one keystroke at a time, as the input event reports
// each: "5000" is 5, 50, 500, 5000. after runs after each keystroke's handler and render.
func typeKeys(p *page, d app.ClientDispatcher, key, value string, after func(typed string)) {
	for i := 1; i <= len(value); i++ {
		p.typed(d.Context(), key, value[:i])
		p.Update()
		d.Consume()
		after(value[:i])
	}
}

// pauseWhenTold makes the typing pause when the test says so (pause), not after a time.
func pauseWhenTold(t *testing.T) (pause func()) {
	was := typingPaused
	t.Cleanup(func() { typingPaused = was })
	tick := make(chan time.Time)
	typingPaused = func() <-chan time.Time { return tick }
	return func() {
		close(tick)
		tick = make(chan time.Time)
	}
}

// waitTyping waits until the edit in progress has ended (its pause timer, settle) and the work
// it started has finished. The limit only catches a hang.
func waitTyping(t *testing.T, p *page, d app.ClientDispatcher) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); p.typing.before != nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the typing never settled")
		}
		d.Consume()
	}
	settle(t, p, d)
	p.Update()
	d.Consume()
}

// herdTable maps "mode/col" to the value of each cell of the herd's table in the page's HTML.
func herdTable(t *testing.T, html string) map[string]string {
	t.Helper()
	cells := tableCells(html, `id="herd"`, "data-mode", "data-value")
	if len(cells) == 0 {
		t.Fatal("no herd table")
	}
	return cells
}

// Typing 5000 into Attempts, after clearing it, passes through 5, 50 and 500, which are valid:
// their numbers show as typed, but the link is never theirs, and once 5000 is refused the page
// shows what it showed before the edit, attempts=6's, the sampled numbers and the herd included.
func TestTypingRefusedKeepsThePreEditResult(t *testing.T) {
	p, d := navPage(t, "base=100ms&cap=1s&attempts=6")
	pause := pauseWhenTold(t)
	link := d.Context().Page().URL().RawQuery
	html := app.HTMLString(p)
	cells, herd := scheduleCells(html), herdTable(t, html)
	if cells["6/max"] != "1000" || cells["6/p50"] == "" { // min(1s, 100ms·2⁴), full jitter
		t.Fatalf("before the edit: 6/max %q, 6/p50 %q", cells["6/max"], cells["6/p50"])
	}
	p.typed(d.Context(), "attempts", "") // the field cleared
	d.Consume()
	typeKeys(p, d, "attempts", "5000", func(typed string) {
		if got := d.Context().Page().URL().RawQuery; got != link {
			t.Errorf("after typing %q the link is %q, want the committed %q", typed, got, link)
		}
		got := scheduleCells(app.HTMLString(p))
		switch typed {
		case "5": // this keystroke's numbers show: 100, 200, 400, 800 ms before attempts 2..5
			if got["5/max"] != "800" || got["6/max"] != "" {
				t.Errorf("after typing 5: 5/max %q, 6/max %q", got["5/max"], got["6/max"])
			}
		case "500":
			if got["500/max"] != "1000" {
				t.Errorf("after typing 500: 500/max %q", got["500/max"])
			}
		}
	})
	pause()
	waitTyping(t, p, d)
	if got := d.Context().Page().URL().RawQuery; got != link {
		t.Errorf("after the refusal the link is %q, want the committed %q", got, link)
	}
	html = app.HTMLString(p)
	if got := scheduleCells(html); !maps.Equal(got, cells) {
		t.Errorf("after the refusal the schedule is not the pre-edit one:\n got %v\nwant %v", got, cells)
	}
	if got := herdTable(t, html); !maps.Equal(got, herd) {
		t.Errorf("after the refusal the herd is not the pre-edit one:\n got %v\nwant %v", got, herd)
	}
	if herdOf(p).params.Attempts != 6 || p.report.Params.Attempts != 6 {
		t.Errorf("the herd is for %d attempts, the report for %d, want 6", herdOf(p).params.Attempts, p.report.Params.Attempts)
	}
	if !strings.Contains(html, `attempts &#34;5000&#34;: must be between 1 and 1000`) {
		t.Error("no message naming attempts and 5000")
	}
	if !strings.Contains(html, "These results use attempts 6 in place of the marked values.") {
		t.Error("the stale note does not name the pre-edit attempts, 6")
	}
}

// A valid value is committed once the typing pauses, or at once on the change event (Enter, or
// leaving the field): its link and its herd follow; before, neither is written.
func TestTypingCommitsOnPauseOrChange(t *testing.T) {
	p, d := navPage(t, "base=100ms&cap=1s&attempts=6")
	pause := pauseWhenTold(t)
	typeKeys(p, d, "attempts", "9", func(string) {})
	if got := d.Context().Page().URL().RawQuery; !strings.Contains(got, "attempts=6") {
		t.Errorf("before the pause the link is %q, want the committed attempts=6", got)
	}
	pause()
	waitTyping(t, p, d)
	if got := d.Context().Page().URL().RawQuery; !strings.Contains(got, "attempts=9") {
		t.Errorf("after the pause the link is %q, want attempts=9", got)
	}
	if herdOf(p).params.Attempts != 9 || len(herdOf(p).runs) == 0 {
		t.Errorf("after the pause the herd is for %d attempts with %d runs, want 9's", herdOf(p).params.Attempts, len(herdOf(p).runs))
	}

	typeKeys(p, d, "attempts", "7", func(string) {})
	if got := d.Context().Page().URL().RawQuery; !strings.Contains(got, "attempts=9") {
		t.Errorf("while typing the link is %q, want the committed attempts=9", got)
	}
	p.settle(d.Context()) // the change event's handler
	settle(t, p, d)
	if got := d.Context().Page().URL().RawQuery; !strings.Contains(got, "attempts=7") {
		t.Errorf("after the change event the link is %q, want attempts=7", got)
	}
	if herdOf(p).params.Attempts != 7 {
		t.Errorf("after the change event the herd is for %d attempts, want 7", herdOf(p).params.Attempts)
	}
}

// A keystroke in another field before the last one's change event ends the last field's edit as
// that event would: base's valid 2s is committed, and attempts' refused 8x gives back base=2s's
// numbers, not the ones from before base was typed, which its field no longer showed.
func TestTypingAnotherFieldCommitsTheLast(t *testing.T) {
	p, d := navPage(t, "base=100ms&jitter=none")
	pause := pauseWhenTold(t) // no pause while typing: only the next field's keystroke ends base's edit
	typeKeys(p, d, "base", "2s", func(string) {})
	typeKeys(p, d, "attempts", "8x", func(string) {})
	pause()
	waitTyping(t, p, d)
	if p.report.Params.Base != 2*time.Second {
		t.Errorf("after a refused value in attempts the numbers are for base %v, want the 2s typed into base", p.report.Params.Base)
	}
	html := app.HTMLString(p)
	if !strings.Contains(html, `attempts &#34;8x&#34;`) {
		t.Error("no message naming attempts and 8x")
	}
	if cells := scheduleCells(html); cells["2/max"] != "2000" {
		t.Errorf("attempt 2's wait is %q ms, want base=2s's 2000", cells["2/max"])
	}
	if got := d.Context().Page().URL().RawQuery; !strings.Contains(got, "base=2s") {
		t.Errorf("the link is %q, want base's committed 2s", got)
	}
}

// Valid values typed beside an invalid one are in their fields but not in the results: the
// stale note names what the results use for them too, where it named only the marked field's
// value beside a field showing 3 attempts over a table of 6. Another way of writing the value
// used (0.1s for 100ms) is the value used, and is not named.
func TestStaleNoteNamesEveryFieldNotUsed(t *testing.T) {
	p, d := navPage(t, "budget=7s")
	typeInto(p, d, "clients", "abc")
	typeInto(p, d, "jitter", "none")
	typeInto(p, d, "attempts", "3")
	typeInto(p, d, "base", "0.1s")
	waitTyping(t, p, d)
	const want = "These results use clients 100 in place of the marked values, and attempts 6, jitter full in place of what the other fields show."
	if got := p.staleNote(); got != want {
		t.Errorf("the stale note:\n got %s\nwant %s", got, want)
	}
	if html := app.HTMLString(p); !strings.Contains(html, want) {
		t.Error("the page does not show the note")
	}
	typeInto(p, d, "clients", "100")
	waitTyping(t, p, d)
	if p.report.Params.Attempts != 3 || len(p.errs) != 0 || strings.Contains(app.HTMLString(p), "These results use") {
		t.Errorf("once clients is valid: %d attempts, errors %v", p.report.Params.Attempts, p.errs)
	}
}
