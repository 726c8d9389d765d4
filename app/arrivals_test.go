//go:build !js

package main

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// barHeights reads each mode's chart: the height of each window's bar, in SVG units, from the
// path's baseline (its first point) to each V.
func barHeights(t *testing.T, html string) map[string][]float64 {
	t.Helper()
	out := map[string][]float64{}
	for _, path := range elements(html, "path") {
		if path["data-series"] != "arrivals" {
			continue
		}
		fields := strings.FieldsFunc(path["d"], func(r rune) bool { return r == ' ' || r == 'M' || r == 'V' || r == 'H' || r == 'Z' })
		var nums []float64
		for _, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("path %q: %v", path["d"], err)
			}
			nums = append(nums, v)
		}
		// M x0 base, then V y H x per window, then V base.
		base := nums[1]
		for k := 2; k+1 < len(nums)-1; k += 2 {
			out[path["data-mode"]] = append(out[path["data-mode"]], base-nums[k])
		}
	}
	return out
}

// Every mode's chart is drawn on one scale: two modes with known counts, checked by hand, and
// the axis's end is the most of any mode, said in the caption.
func TestArrivalsShareOneScale(t *testing.T) {
	p := calc.Default()
	p.Capacity = 0
	modes := calc.HerdModes()
	runs := []sim.HerdRun{
		{Mode: modes[0], Arrivals: []int{40, 10, 0}},
		{Mode: modes[1], Arrivals: []int{20, 5}},
	}
	html := app.HTMLString(renderArrivals(p, runs, false))
	h := barHeights(t, html)
	// The axis runs to 40 (the first mode's first window): 40 fills the chart's 56 units, the
	// second mode's 20 half of that, 10 a quarter, 5 an eighth.
	want := map[string][]float64{modes[0].String(): {56, 14, 0}, modes[1].String(): {28, 7}}
	for mode, w := range want {
		if len(h[mode]) != len(w) {
			t.Fatalf("%s: bars %v, want %v", mode, h[mode], w)
		}
		for k := range w {
			if d := h[mode][k] - w[k]; d > 0.1 || d < -0.1 {
				t.Errorf("%s window %d: bar %.1f high, want %.1f", mode, k, h[mode][k], w[k])
			}
		}
	}
	if !strings.Contains(html, "Same scale for every mode: 0 to 40 attempts per window.") {
		t.Errorf("the caption does not give the shared scale:\n%s", html)
	}
	if !strings.Contains(html, `<a href="#herd">the herd table</a>`) || !strings.Contains(html, `aria-labelledby="arrivals-caption"`) {
		t.Error("the chart's text alternative does not name the herd table")
	}
}

// With the herd of the defaults, the axis's end is set by the peaks once back: without jitter
// all 100 clients make their 5th attempt at 1.5s, the first after the 1s outage, so 100 in
// one window, which the jittered modes' peaks once back (at most 35) do not dwarf. Every bar's
// height is its count on that one scale, cut at its top: immediate's 600 at 0, while down, is
// drawn 100 high, and its title says 600.
func TestArrivalsScaleIsThePeakOnceBack(t *testing.T) {
	p := calc.Default()
	runs, err := sim.Herd(p)
	if err != nil {
		t.Fatal(err)
	}
	const end = 100
	if got := sim.HerdCountAxis(p, runs).End; got != end {
		t.Fatalf("axis to %d, want %d", got, end)
	}
	html := app.HTMLString(renderArrivals(p, runs, false))
	if !strings.Contains(html, "0 to "+strconv.Itoa(end)+" attempts per window, set by the peaks once back") {
		t.Errorf("the caption does not say 0 to %d", end)
	}
	h := barHeights(t, html)
	cut := 0
	for _, r := range runs {
		for k, n := range r.Arrivals {
			if n > end {
				n, cut = end, cut+1
			}
			if w := float64(n) / float64(end) * arrivalsHeight; h[r.Mode.String()][k]-w > 0.1 || w-h[r.Mode.String()][k] > 0.1 {
				t.Errorf("%s window %d: %d attempts drawn %.1f high, want %.1f", r.Mode, k, n, h[r.Mode.String()][k], w)
			}
		}
	}
	if cut == 0 {
		t.Error("no window was cut; immediate's 600 at 0 should be")
	}
	if !strings.Contains(html, "immediate: once back, none; while down, peak 600 at 0 (cut at 100)") {
		t.Errorf("immediate's title does not give its peak while down:\n%s", html)
	}
}

// The link: the chart's scale is set by what the recovering server receives (0 to
// 200: proportional's 164 once back, no jitter's 1,000 dwarfing it is cut), so that full
// jitter's 60 against the capacity of 50 can be read: the capacity's line is 50/200 of the
// strip high and named in text; the 2,275 at 0 while down is cut and written in the title.
func TestArrivalsReadOnceBack(t *testing.T) {
	p, err := calc.Decode("clients=1000&outage=2s&capacity=50")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := sim.Herd(p)
	if err != nil {
		t.Fatal(err)
	}
	html := app.HTMLString(renderArrivals(p, runs, false))
	for _, want := range []string{
		"full: once back, peak 60 at 2 s; while down, peak 2275 at 0 (cut at 200)",
		"none: once back, peak 1000 at 3.1 s (cut at 200); while down, peak 1000 at 0 (cut at 200)",
		"0 to 200 attempts per window", "Dashed line: the capacity, 50 per window.",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the chart does not say %q", want)
		}
	}
	lines, labels := 0, 0
	for _, l := range elements(html, "line") {
		if l["data-series"] != "capacity" {
			continue
		}
		lines++
		base, _ := strconv.ParseFloat(l["y1"], 64)
		// The strip of chart i starts at gap + i*(height+gap); its baseline is height lower.
		i := lines - 1
		bottom := arrivalsGap + float64(i)*(arrivalsHeight+arrivalsGap) + arrivalsHeight
		if d := bottom - base - arrivalsHeight*50/200; d > 0.1 || d < -0.1 {
			t.Errorf("chart %d: the capacity's line is %.1f above the baseline, want %.1f", i, bottom-base, arrivalsHeight*50/200)
		}
	}
	for _, l := range elements(html, "text") {
		if l["data-label"] == "capacity" {
			labels++
		}
	}
	if lines != len(runs) || labels != len(runs) || strings.Count(html, ">capacity 50<") != len(runs) {
		t.Errorf("%d capacity lines, %d labels, for %d charts", lines, labels, len(runs))
	}
}

// An axis's end is written short and exactly: ten digits of a herd of 10^9 clients ran past the
// chart's left margin.
func TestAxisCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 50: "50", 99_999: "99999", 100_000: "100 k", 200_000: "200 k",
		1_000_000: "1 M", 5_000_000: "5 M", 2_000_000_000: "2 bn", 150_000: "150 k", 123_456: "123456"} {
		if got := axisCount(n); got != want {
			t.Errorf("axisCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// The fluid model's charts say that they draw expected counts, in each title and the caption.
func TestArrivalsExpected(t *testing.T) {
	p, err := libs.Decode("clients=1000000&outage=2s&capacity=5000")
	if err != nil {
		t.Fatal(err)
	}
	runs := []sim.HerdRun{{Mode: calc.Backoff(policy.Full), PeakBack: 53229, PeakBackAt: 2 * time.Second, PeakDown: 2271538, PeakDownAt: 0,
		Arrivals: []int{2271538, 634372, 512516}}}
	html := app.HTMLString(renderArrivals(p, runs, true))
	for _, want := range []string{"once back, expected peak 53229 at 2 s", "while down, expected peak 2271538 at 0", "The expected attempts (the fluid model"} {
		if !strings.Contains(html, want) {
			t.Errorf("the charts lack %q", want)
		}
	}
	if html := app.HTMLString(renderArrivals(p, runs, false)); strings.Contains(html, "expected") {
		t.Error("the simulation's charts say expected")
	}
}
