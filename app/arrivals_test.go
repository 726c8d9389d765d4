//go:build !js

package main

import (
	"strconv"
	"strings"
	"testing"

	"backoffcalc/calc"

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
	runs := []calc.HerdRun{
		{Mode: modes[0], Arrivals: []int{40, 10, 0}},
		{Mode: modes[1], Arrivals: []int{20, 5}},
	}
	html := app.HTMLString(renderArrivals(p, runs))
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

// With the herd of the defaults, the axis's end is the largest count of any mode, and every
// bar's height is its count on that one scale.
func TestArrivalsScaleIsTheMostOfAnyMode(t *testing.T) {
	p := calc.Default()
	runs, err := p.Herd()
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for _, r := range runs {
		for _, n := range r.Arrivals {
			most = max(most, n)
		}
	}
	end := calc.HerdCountAxis(p, runs).End
	if end != calc.NewCountAxis(most).End {
		t.Fatalf("axis to %d; the most of any mode is %d", end, most)
	}
	html := app.HTMLString(renderArrivals(p, runs))
	if !strings.Contains(html, "0 to "+strconv.Itoa(end)+" attempts per window") {
		t.Errorf("the caption does not say 0 to %d", end)
	}
	h := barHeights(t, html)
	for _, r := range runs {
		for k, n := range r.Arrivals {
			if w := float64(n) / float64(end) * arrivalsHeight; h[r.Mode.String()][k]-w > 0.1 || w-h[r.Mode.String()][k] > 0.1 {
				t.Errorf("%s window %d: %d attempts drawn %.1f high, want %.1f", r.Mode, k, n, h[r.Mode.String()][k], w)
			}
		}
	}
}
