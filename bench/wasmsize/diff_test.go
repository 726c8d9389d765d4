//go:build !js

package wasmsize

import (
	"bytes"
	"slices"
	"testing"
)

func TestRoundToSum(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		sum  int64
		want []int64
	}{
		{[]float64{1.5, 1.5, 1}, 4, []int64{2, 1, 1}},
		{[]float64{0.4, 0.4, 0.2}, 1, []int64{1, 0, 0}},
		{[]float64{-1.5, 3.5, 0}, 2, []int64{-1, 3, 0}},
		{[]float64{10, -3, 2}, 9, []int64{10, -3, 2}},
	} {
		got := roundToSum(c.xs, c.sum)
		var s int64
		for _, g := range got {
			s += g
		}
		if s != c.sum || !slices.Equal(got, c.want) {
			t.Errorf("roundToSum(%v, %d) = %v, want %v", c.xs, c.sum, got, c.want)
		}
	}
}

func TestSizeDiffsHandMade(t *testing.T) {
	pkgs := newPkgNames([]string{"backoffcalc/calc", "github.com/maxence-charriere/go-app/v9/pkg/app", "runtime"}, "main")
	account := func(bodies [3][]byte, names [3]string) *fileAccount {
		m, err := parseWasm(handMadeModule(bodies, names))
		if err != nil {
			t.Fatal(err)
		}
		a, err := accountWasm(m, m.names, pkgs, false)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	app := account([3][]byte{bytes.Repeat([]byte{1, 2, 3}, 300), {0, 0x0b}, {0, 0x0b}}, handNames)
	base := account([3][]byte{{0, 0x0b}, {0, 0x0b}, {0, 0x0b}},
		[3]string{"main.main", "github.com_maxence_charriere_go_app_v9_pkg_app.Run", "runtime.main"})
	d, factor, err := sizeDiffs(app, base, 500, 400)
	if err != nil {
		t.Fatal(err)
	}
	if factor <= 0 {
		t.Errorf("factor %v", factor)
	}
	byName := map[string]sizeDiff{}
	var raw, gz int64
	for _, x := range d {
		byName[x.name] = x
		raw += x.diff
		gz += x.gzip
	}
	if raw != app.size-base.size || gz != 100 {
		t.Errorf("differences add up to %d raw, %d gzip; want %d, 100", raw, gz, app.size-base.size)
	}
	if x := byName["backoffcalc/calc"]; x.diff != 902 || x.base != 0 || x.app != 902 {
		t.Errorf("backoffcalc/calc: %+v", x)
	}
	if x := byName["main"]; x.diff != -3 {
		t.Errorf("main: %+v", x)
	}
	if x := byName[`custom "go:buildid"`]; x.diff != 0 || x.gzip != 0 {
		t.Errorf("go:buildid, the same in both: %+v", x)
	}
	if d[0].name != "backoffcalc/calc" || d[len(d)-1].kind != "section" {
		t.Errorf("order: packages by difference, then sections: first %s, last %s", d[0].name, d[len(d)-1].name)
	}
	// The same file on both sides: nothing to share out but what gzip adds.
	for _, gzDiff := range []int64{0, 1, -2} {
		d, _, err := sizeDiffs(app, app, 500+gzDiff, 500)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range d {
			if want := map[bool]int64{true: gzDiff, false: 0}[x.kind == "gzip"]; x.diff != 0 || x.gzip != want {
				t.Errorf("the same file, gzip %+d: %+v", gzDiff, x)
			}
		}
	}
	rows := (&Account{diffs: d, app: app, base: base, gzipFactor: factor}).Rows()
	if len(rows) == 0 || rows[0].Metric != "code: backoffcalc/calc" || rows[0].Value != 902 {
		t.Errorf("first row %+v", rows[0])
	}
}
