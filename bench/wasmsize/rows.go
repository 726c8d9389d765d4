//go:build !js

package wasmsize

import (
	"fmt"
	"math"
)

// smallDiff is the most a package's code may differ, in bytes raw and gzip, to be counted with the
// others that differ as little rather than on a row of its own: a package both files link the
// same differs by a few bytes, the addresses and function indexes in its code being other
// numbers, of other lengths.
const smallDiff = 100

// Rows are the accounting: one row per package whose code differs by smallDiff or more, one for
// the others, one per section; then the totals and how the figures were made.
func (acc *Account) Rows() []Row {
	var rows []Row
	var raw, gz int64
	var small sizeDiff
	n := 0
	smallRow := func() Row {
		return Row{Metric: fmt.Sprintf("code: %d other packages, each within ±%d bytes", n, smallDiff),
			Value: float64(small.diff), Unit: "bytes", Note: fmt.Sprintf("app.wasm %d, baseline %d; gzip ≈ %+d; functions %d, %d; the same packages, their addresses and function indexes other numbers",
				small.app, small.base, small.gzip, small.appFuncs, small.baseFuncs)}
	}
	for _, x := range acc.diffs {
		raw += x.diff
		gz += x.gzip
		if x.kind == "package" && abs(x.diff) < smallDiff && abs(x.gzip) < smallDiff {
			n++
			small.app += x.app
			small.base += x.base
			small.diff += x.diff
			small.gzip += x.gzip
			small.appFuncs += x.appFuncs
			small.baseFuncs += x.baseFuncs
			continue
		}
		if x.kind == "section" && n > 0 {
			rows = append(rows, smallRow())
			n = 0
		}
		note := fmt.Sprintf("app.wasm %d, baseline %d; gzip ≈ %+d", x.app, x.base, x.gzip)
		metric := "section: " + x.name
		if x.kind == "gzip" {
			metric = x.name
		}
		if x.kind == "package" {
			metric = "code: " + x.name
			note += fmt.Sprintf("; functions %d, %d", x.appFuncs, x.baseFuncs)
		}
		rows = append(rows, Row{Metric: metric, Value: float64(x.diff), Unit: "bytes", Note: note})
	}
	if n > 0 {
		rows = append(rows, smallRow())
	}
	pct := func(a *fileAccount) float64 { return 100 * float64(a.pkgMatched) / float64(a.code) }
	rows = append(rows,
		Row{Metric: "total, raw", Value: float64(raw), Unit: "bytes",
			Note: fmt.Sprintf("the parts' differences add up to app.wasm %d − baseline %d (checked)", acc.app.size, acc.base.size)},
		Row{Metric: "total, gzip (estimated by part)", Value: float64(gz), Unit: "bytes",
			Note: fmt.Sprintf("adds up to app.wasm %d − baseline %d, gzip -9 (checked); a part's share: its bytes deflated alone at level 9, in each file, the difference times %.3f, the same for every part, so that the shares add up, rounded keeping the sum; a part the same in both files gets 0",
				acc.appGzip, acc.baseGzip, acc.gzipFactor)},
		Row{Metric: "code of a known package", Value: pct(acc.app), Unit: "%",
			Note: fmt.Sprintf("app.wasm, and %.1f%% of the baseline's: a package's code is its function bodies (each with its size), by the names in the name section of the same build without -s; a generic function's instances count for its own package, type:.eq.T for T's", pct(acc.base))},
	)
	if acc.dataSplit != "" {
		rows = append(rows, Row{Metric: "data section not split", Value: math.NaN(), Note: acc.dataSplit})
	}
	for _, n := range acc.notes {
		rows = append(rows, Row{Metric: "accounted", Value: math.NaN(), Note: n})
	}
	return rows
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Row is one figure of the accounting: Value in Unit, or NaN for a row that only says something
// in Note.
type Row struct {
	Metric string
	Value  float64
	Unit   string
	Note   string
}
