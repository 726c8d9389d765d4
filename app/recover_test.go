//go:build !js

package main

import (
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A panic in the herd's goroutine would end the wasm: it must become an error on screen, and the
// next edit must run the herd again.
func TestHerdPanicBecomesError(t *testing.T) {
	p, d := navPage(t, "")
	orig := herdModePausing
	herdModePausing = func(calc.Params, calc.HerdMode, func() bool) (sim.HerdRun, bool, error) { panic("boom") }
	typeInto(p, d, "base", "200ms") // typeInto waits for the goroutine
	herdModePausing = orig
	html := app.HTMLString(p)
	if !strings.Contains(html, "internal error") || !strings.Contains(html, "boom") {
		t.Errorf("a panic in the herd is not shown as an error:\n%.3000s", html[strings.Index(html, `id="errors"`):])
	}
	typeInto(p, d, "base", "300ms")
	html = app.HTMLString(p)
	if strings.Contains(html, "internal error") || len(herdOf(p).runs) != len(p.report.Params.HerdModes()) || herdOf(p).err != nil {
		t.Errorf("the herd did not run again: %d runs, error %v", len(herdOf(p).runs), herdOf(p).err)
	}
}

// A panic in an event handler would end the wasm too: it must become an error in the alert, and
// the next edit must work.
func TestEventPanicBecomesError(t *testing.T) {
	p, d := navPage(t, "")
	p.recovering(func(app.Context, app.Event) { panic("boom") })(d.Context(), app.Event{})
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	if !strings.Contains(html, `data-key="query"`) || !strings.Contains(html, "internal error") || !strings.Contains(html, "boom") {
		t.Error("a panic in an event handler is not shown as an error")
	}
	typeInto(p, d, "base", "300ms")
	html = app.HTMLString(p)
	if strings.Contains(html, "internal error") || scheduleCells(html)["2/max"] != "300" {
		t.Errorf("the page did not recover: 2/max = %q", scheduleCells(html)["2/max"])
	}
}

// Islands are also written from dispatched work (the samples, the herd, the export panel), out of
// any event handler's recover: a panic while writing one must become an error, on screen in its
// place and in the alert.
func TestIslandPanicBecomesError(t *testing.T) {
	p, _ := navPage(t, "")
	ui := p.guarded(func() app.UI { panic("boom") })()
	if html := app.HTMLString(ui); !strings.Contains(html, `role="alert"`) || !strings.Contains(html, "boom") {
		t.Errorf("the island shows %s", html)
	}
	if fe := p.fieldError("query"); fe == nil || !strings.Contains(fe.Error(), "internal error") {
		t.Errorf("the alert does not list the panic: %v", p.errs)
	}
}
