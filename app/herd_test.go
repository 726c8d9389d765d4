//go:build !js

package main

import (
	"strings"
	"testing"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The herd's table leads with what the recovering server receives, beside the capacity, and
// the burst while down after it, each named. At the link, by hand: without jitter all
// 1,000 clients make their 6th attempt at 3.1 s (waits of 100 ms doubling: 0, 0.1, 0.3, 0.7,
// 1.5 s in the 2 s outage), so 1,000 once back in that window and 1,000 while down at 0;
// immediate retries make all 6,000 attempts at 0, none once back. Full jitter's 60 once back
// at 2 s and 2,275 at 0 are the (calc's TestHerdPeakDownAndBack counts them again).
func TestPageHerdPeaks(t *testing.T) {
	p, _ := navPage(t, "clients=1000&outage=2s&capacity=50")
	html := app.HTMLString(p)
	cells, at := tableCells(html, `id="herd"`, "data-mode", "data-value"), tableCells(html, `id="herd"`, "data-mode", "data-at")
	for k, want := range map[string]string{
		"none/peak_back": "1000", "none/peak_down": "1000", "immediate/peak_back": "0", "immediate/peak_down": "6000",
		"full/peak_back": "60", "full/peak_down": "2275",
	} {
		if got, ok := cells[k]; !ok || got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	for k, want := range map[string]string{"none/peak_back": "3100", "none/peak_down": "0", "immediate/peak_back": "", "full/peak_back": "2000", "full/peak_down": "0"} {
		if got, ok := at[k]; !ok || got != want {
			t.Errorf("%s at: %q, want %q", k, got, want)
		}
	}
	table := html[strings.Index(html, `id="herd"`):]
	table = table[:strings.Index(table, "</table>")]
	var heads []string
	for _, th := range strings.Split(table, `<th scope="col">`)[1:] {
		heads = append(heads, th[:strings.Index(th, "<")])
	}
	if len(heads) < 3 || heads[1] != "peak once back, per 100 ms window (capacity 50)" || heads[2] != "peak while down, per 100 ms window" {
		t.Errorf("the herd's heads: %q", heads)
	}
	for mode, want := range map[string][]string{"immediate": {">none</td>", ">6000 at 0</td>"}, "none": {">1000 at 3.1 s</td>", ">1000 at 0</td>"},
		"full": {">60 at 2 s</td>", ">2275 at 0</td>"}} {
		row := table[strings.Index(table, `data-mode="`+mode+`"`):]
		row = row[:strings.Index(row, "</tr>")]
		for _, w := range want {
			if !strings.Contains(row, w) {
				t.Errorf("%s's row lacks %q: %s", mode, w, row)
			}
		}
	}
}

// Over the simulation's limits the herd section shows the fluid model's expected counts, named
// as such: at 10^9 clients without capacity, no jitter's 10^9 clients fail at 0 (the peak while
// down) and all come back at 1.5 s (the peak once back, by hand: 100+200+400+800 ms of waits),
// with no deviation; at 10^6 clients, a 2 s outage and a capacity of 5000, full jitter's
// windows as calc/fluid counts them, with its band.
func TestPageFluidHerd(t *testing.T) {
	p, _ := navPage(t, "clients=1000000000&capacity=0")
	html := app.HTMLString(p)
	if !strings.Contains(html, `id="herd-model"`) || !strings.Contains(html, `data-model="expected, fluid model"`) || !strings.Contains(html, "Model: expected, fluid model. 1000000000 clients × 6 attempts") {
		t.Fatalf("the herd does not say its model:\n%s", html[strings.Index(html, `id="herd-section"`):][:3000])
	}
	cells := tableCells(html, `id="herd"`, "data-mode", "data-value")
	for k, want := range map[string]string{"none/peak_back": "1000000000.0", "none/peak_down": "1000000000.0", "none/accepted": "1000000000.0",
		"immediate/peak_down": "6000000000.0", "immediate/accepted": "0.0"} {
		if got := cells[k]; got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if !strings.Contains(html, ">1000000000.0 ± 0.0 at 1.5 s</td>") || strings.Count(html, `data-series="arrivals"`) != 6 {
		t.Errorf("no jitter's peak once back, or full jitter's windows, are missing")
	}

	p, _ = navPage(t, "clients=1000000&outage=2s&capacity=5000")
	html = app.HTMLString(p)
	q := calc.Default()
	q.Clients, q.Outage, q.Capacity = 1000000, 2*time.Second, 5000
	full, err := fluid.Mode(q, calc.Backoff(policy.Full))
	if err != nil {
		t.Fatal(err)
	}
	want := report.Expected(full.PeakBack) + " ± " + report.Expected(report.FluidPeakSD(q, full)) + " at 2 s"
	if cells := tableCells(html, `id="herd"`, "data-mode", "data-value"); cells["full/accepted"] != report.Expected(full.Accepted) || !strings.Contains(html, ">"+want+"</td>") {
		t.Errorf("full jitter: accepted %q, want %q; peak once back %q", cells["full/accepted"], report.Expected(full.Accepted), want)
	}
}

// With a budget the herd's introduction says that its clients keep to it: the schedule beside it
// lists every attempt, the herd's attempts per client only those within the budget.
func TestHerdSaysItKeepsToTheBudget(t *testing.T) {
	p, _ := navPage(t, "budget=2s&clients=50")
	if html := app.HTMLString(p); !strings.Contains(html, "Each client makes only the attempts that start within the 2 s budget") {
		t.Error("the herd's introduction does not say that its clients keep to the 2 s budget")
	}
	p, _ = navPage(t, "clients=50")
	if html := app.HTMLString(p); strings.Contains(html, "Each client makes only the attempts") {
		t.Error("without a budget the herd's introduction speaks of one")
	}
}

// An overload view its windows' limit refuses says why in its status line, and shows no headline
// "being computed" beside it: no run is.
func TestRefusedOverloadSaysNothingIsComputed(t *testing.T) {
	p, _ := navPage(t, "rate=100&run=1999ms&attempts=10&clients=1&queue=1000000&timeout=1s&capacity=1")
	html := app.HTMLString(p)
	if !strings.Contains(html, "windows, over the limit of 10000") || strings.Contains(html, "being computed") {
		t.Error("a refused overload view: want its status's refusal and no headline being computed")
	}
}

// A herd refused on its window says why in its status line, with no empty table under it.
func TestRefusedHerdDrawsNoTable(t *testing.T) {
	p, _ := navPage(t, "clients=1000&window=1ms")
	html := app.HTMLString(p)
	if !strings.Contains(html, `window &#34;1ms&#34;`) || !strings.Contains(html, "windows, over the limit of 10000") {
		t.Errorf("a refused herd: want its status's refusal naming the window")
	}
	if strings.Contains(html, `id="herd"`) {
		t.Error("a refused herd draws its table's head under the refusal")
	}
}
