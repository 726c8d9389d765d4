//go:build !js

package wasmsize

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// sizeDiff is one part's difference, app.wasm − baseline.
type sizeDiff struct {
	kind, name          string // kind: "package", "section", or "gzip" for what is not shared out
	app, base           int64  // bytes
	appFuncs, baseFuncs int
	appDefl, baseDefl   int64 // deflated alone
	diff                int64 // app − base
	gzip                int64 // estimated share of the gzip difference
}

// sizeDiffs are the parts' differences, packages then sections, each by difference, largest
// first; the differences
// add up to app.size − base.size, and their gzip estimates to gzApp − gzBase.
//
// The gzip estimate: each part deflated alone at level 9 in each file; the difference of those,
// times one factor for all the parts so that they add up to the measured gzip difference, then
// rounded so that the sum stays exact (largest remainder). A part of the same bytes in both files
// gets 0. The factor (returned) is the share of a part's compressed size that survives
// compressing the whole file, where it finds matches in other parts.
func sizeDiffs(app, base *fileAccount, gzApp, gzBase int64) ([]sizeDiff, float64, error) {
	keys := map[[2]string]bool{}
	for k := range app.parts {
		keys[k] = true
	}
	for k := range base.parts {
		keys[k] = true
	}
	var d []sizeDiff
	var deflDiff int64
	for k := range keys {
		x := sizeDiff{kind: k[0], name: k[1]}
		if p := app.parts[k]; p != nil {
			x.app, x.appFuncs, x.appDefl = p.raw, p.funcs, p.deflated
		}
		if p := base.parts[k]; p != nil {
			x.base, x.baseFuncs, x.baseDefl = p.raw, p.funcs, p.deflated
		}
		x.diff = x.app - x.base
		deflDiff += x.appDefl - x.baseDefl
		d = append(d, x)
	}
	slices.SortFunc(d, func(a, b sizeDiff) int {
		if a.kind != b.kind {
			return strings.Compare(a.kind, b.kind) // packages, then sections
		}
		if a.diff != b.diff {
			return int(min(max(b.diff-a.diff, -1), 1))
		}
		return strings.Compare(a.name, b.name)
	})
	gzDiff := gzApp - gzBase
	factor := float64(gzDiff) / float64(deflDiff)
	if deflDiff == 0 || factor <= 0 {
		// The files are (nearly) the same: no factor makes sense. Each part gets its own
		// difference deflated, and what is left goes to a row of its own.
		factor = 1
		d = append(d, sizeDiff{kind: "gzip", name: "gzip: not shared out (files nearly the same)"})
	}
	shares := make([]float64, len(d))
	var sum int64
	for i, x := range d {
		shares[i] = float64(x.appDefl-x.baseDefl) * factor
		sum += x.appDefl - x.baseDefl
	}
	if d[len(d)-1].kind == "gzip" {
		shares[len(d)-1] = float64(gzDiff - sum)
	}
	for i, g := range roundToSum(shares, gzDiff) {
		d[i].gzip = g
	}
	var raw, gz int64
	for _, x := range d {
		raw += x.diff
		gz += x.gzip
	}
	if raw != app.size-base.size {
		return nil, 0, fmt.Errorf("the parts' differences add up to %+d bytes, the files differ by %+d", raw, app.size-base.size)
	}
	if gz != gzDiff {
		return nil, 0, fmt.Errorf("the parts' gzip estimates add up to %+d bytes, the gzip sizes differ by %+d", gz, gzDiff)
	}
	return d, factor, nil
}

// roundToSum rounds xs, which add up to sum, to integers that still do: each down, then one up
// for the largest remainders (Hamilton's method).
func roundToSum(xs []float64, sum int64) []int64 {
	out := make([]int64, len(xs))
	order := make([]int, len(xs))
	var floor int64
	for i, x := range xs {
		f := math.Floor(x)
		out[i], order[i] = int64(f), i
		floor += int64(f)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ra, rb := xs[a]-math.Floor(xs[a]), xs[b]-math.Floor(xs[b])
		switch {
		case ra > rb:
			return -1
		case ra < rb:
			return 1
		}
		return 0
	})
	for i := 0; floor < sum && len(order) > 0; i = (i + 1) % len(order) {
		out[order[i]]++
		floor++
	}
	for i := 0; floor > sum && len(order) > 0; i = (i + 1) % len(order) { // only from rounding error
		out[order[len(order)-1-i]]--
		floor--
	}
	return out
}
