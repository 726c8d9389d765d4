//go:build !js

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func uleb(v uint64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func wname(s string) []byte { return append(uleb(uint64(len(s))), s...) }

// wsection is a section: id, its size as LEB128 (padded to 5 bytes, as Go's linker writes it,
// with pad), then its contents.
func wsection(id byte, pad bool, content ...[]byte) []byte {
	c := bytes.Join(content, nil)
	size := uleb(uint64(len(c)))
	if pad {
		n := uint64(len(c))
		size = []byte{byte(n) | 0x80, byte(n>>7) | 0x80, byte(n>>14) | 0x80, byte(n>>21) | 0x80, byte(n >> 28)}
	}
	return slices.Concat([]byte{id}, size, c)
}

// handMadeModule is a module with one imported function, one imported memory and three
// functions, named in a name section, and one data segment. bodies are the three bodies'
// contents (locals and code, without their size).
func handMadeModule(bodies [3][]byte, names [3]string) []byte {
	var code [][]byte
	code = append(code, uleb(3))
	for _, b := range bodies {
		code = append(code, uleb(uint64(len(b))), b)
	}
	var fnNames [][]byte
	fnNames = append(fnNames, uleb(4), uleb(0), wname("go.debug"))
	for i, n := range names {
		fnNames = append(fnNames, uleb(uint64(i+1)), wname(n))
	}
	sub1 := bytes.Join(fnNames, nil)
	return slices.Concat(
		[]byte("\x00asm\x01\x00\x00\x00"),
		wsection(0, true, wname("go:buildid"), []byte("abc")),
		wsection(1, false, uleb(1), []byte{0x60, 1, 0x7f, 1, 0x7f}), // type: (i32) → i32
		wsection(2, true, uleb(2), wname("go"), wname("debug"), []byte{0, 0}, wname("env"), wname("mem"), // a function of type 0,
			[]byte{2, 1}, uleb(1), uleb(300)), // a memory of 1 to 300 pages
		wsection(3, false, uleb(3), []byte{0, 0, 0}),
		wsection(10, true, code...),
		wsection(11, false, uleb(1), []byte{0, 0x41}, uleb(16), []byte{0x0b}, wname("abc")),
		wsection(0, false, wname("name"),
			[]byte{0}, wname("module name, skipped"), // subsection 0, the module's name
			[]byte{1}, uleb(uint64(len(sub1))), sub1),
	)
}

var handNames = [3]string{
	"backoffcalc_calc.Params.Schedule",
	"github.com_maxence_charriere_go_app_v9_pkg_app.__htmlElement_.html",
	"runtime.mallocgc",
}

func TestParseWasmHandMade(t *testing.T) {
	bodies := [3][]byte{
		{0, 0x41, 0, 0x0b},                   // no locals; i32.const 0; end
		{1, 2, 0x7f, 0x20, 0, 0x20, 1, 0x0b}, // 2 i32 locals; local.get 0; local.get 1; end
		bytes.Repeat([]byte{0x01}, 200),      // 200 bytes: its size takes 2 bytes of LEB128
	}
	data := handMadeModule(bodies, handNames)
	m, err := parseWasm(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.imports != 1 {
		t.Errorf("imports = %d, want 1 (the memory is not a function)", m.imports)
	}
	if len(m.funcs) != 3 {
		t.Fatalf("%d functions, want 3", len(m.funcs))
	}
	for i, f := range m.funcs {
		want := len(uleb(uint64(len(bodies[i])))) + len(bodies[i])
		if f.end-f.start != want || !bytes.HasSuffix(data[f.start:f.end], bodies[i]) {
			t.Errorf("function %d: %d bytes % x, want %d ending % x", i, f.end-f.start, data[f.start:f.end], want, bodies[i])
		}
	}
	for i, n := range handNames {
		if got := m.names[i+1]; got != n {
			t.Errorf("name of function %d = %q, want %q", i+1, got, n)
		}
	}
	if m.names[0] != "go.debug" {
		t.Errorf("name of the import = %q", m.names[0])
	}
	var labels []string
	sum := 8
	for _, s := range m.sections {
		labels = append(labels, s.label())
		sum += s.end - s.start
	}
	if want := `[custom "go:buildid" type import function code data custom "name"]`; fmt.Sprint(labels) != want {
		t.Errorf("sections %v, want %s", labels, want)
	}
	if sum != len(data) {
		t.Errorf("the sections add up to %d bytes, the module has %d", sum, len(data))
	}

	// The account: every byte in a part, the bodies by package.
	pkgs := newPkgNames([]string{"backoffcalc/calc", "github.com/maxence-charriere/go-app/v9/pkg/app", "runtime"}, "main")
	a, err := accountWasm(m, m.names, pkgs, true)
	if err != nil {
		t.Fatal(err)
	}
	if a.dataSplit == "" {
		t.Error("the data section was split, with no Go runtime in it")
	}
	var total int64
	for _, p := range a.parts {
		total += p.raw
	}
	if total != int64(len(data)) || a.size != int64(len(data)) {
		t.Errorf("parts add up to %d, size %d, want %d", total, a.size, len(data))
	}
	for i, pkg := range []string{"backoffcalc/calc", "github.com/maxence-charriere/go-app/v9/pkg/app", "runtime"} {
		p := a.parts[[2]string{"package", pkg}]
		if p == nil || p.raw != int64(m.funcs[i].end-m.funcs[i].start) || p.funcs != 1 {
			t.Errorf("package %s: %+v, want function %d's %d bytes", pkg, p, i, m.funcs[i].end-m.funcs[i].start)
		}
	}
	// id, size; count; flags, i32.const 16, end; size, "abc"
	if p := a.parts[[2]string{"section", "data"}]; p == nil || p.raw != 2+1+4+4 {
		t.Errorf("data section: %+v", p)
	}
	if a.code != 4+1+8+1+200+2 || a.pkgMatched != a.code || a.named != a.code {
		t.Errorf("code %d, named %d, of a package %d", a.code, a.named, a.pkgMatched)
	}
}

func TestParseWasmBroken(t *testing.T) {
	good := handMadeModule([3][]byte{{0, 0x0b}, {0, 0x0b}, {0, 0x0b}}, handNames)
	if _, err := parseWasm(good); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"empty":      nil,
		"no magic":   []byte("\x00wasm\x01\x00\x00\x00"),
		"version 2":  []byte("\x00asm\x02\x00\x00\x00"),
		"truncated":  good[:len(good)-3],
		"big size":   append([]byte("\x00asm\x01\x00\x00\x00\x01"), uleb(1<<40)...),
		"LEB128 >64": append([]byte("\x00asm\x01\x00\x00\x00\x01"), bytes.Repeat([]byte{0xff}, 11)...),
	} {
		if _, err := parseWasm(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestLEB128(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		u    uint64
		s    int64
		fail bool
	}{
		{b: []byte{0}, u: 0, s: 0},
		{b: []byte{0x7f}, u: 127, s: -1},
		{b: []byte{0x80, 0x01}, u: 128, s: 128},
		{b: []byte{0x80, 0x80, 0x80, 0x80, 0x00}, u: 0, s: 0}, // padded, as Go writes section sizes
		{b: []byte{0xe5, 0x8e, 0x26}, u: 624485, s: 624485},
		{b: []byte{0xc0, 0xbb, 0x78}, u: 1973696, s: -123456},
		{b: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, u: 1<<64 - 1, s: -1},
		{b: []byte{0x80}, fail: true},
	} {
		r := &wasmReader{b: c.b, end: len(c.b)}
		u, err := r.uleb()
		if c.fail {
			if err == nil {
				t.Errorf("% x: uleb %d, want an error", c.b, u)
			}
			continue
		}
		if err != nil || u != c.u || r.off != len(c.b) {
			t.Errorf("% x: uleb %d %v, read %d bytes, want %d", c.b, u, err, r.off, c.u)
		}
		r = &wasmReader{b: c.b, end: len(c.b)}
		if s, err := r.sleb(); err != nil || s != c.s || r.off != len(c.b) {
			t.Errorf("% x: sleb %d %v, want %d", c.b, s, err, c.s)
		}
	}
	r := &wasmReader{b: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, end: 10}
	if v, err := r.uleb(); err == nil {
		t.Errorf("65 bits: %d, want an error", v)
	}
}

func TestPkgOf(t *testing.T) {
	pkgs := newPkgNames([]string{"backoffcalc/calc", "github.com/maxence-charriere/go-app/v9/pkg/app",
		"github.com/maxence-charriere/go-app/v9/pkg/errors", "runtime", "encoding/csv", "slices",
		"sync/atomic", "internal/sync", "math/rand/v2", "vendor/golang.org/x/net/dns/dnsmessage"}, "backoffcalc/app (main)")
	for name, want := range map[string]string{
		"backoffcalc_calc.Params.Schedule":                                   "backoffcalc/calc",
		"backoffcalc_calc.__Params_.Schedule.func1":                          "backoffcalc/calc",
		"github.com_maxence_charriere_go_app_v9_pkg_app.__htmlElement_.html": "github.com/maxence-charriere/go-app/v9/pkg/app",
		"github.com_maxence_charriere_go_app_v9_pkg_errors.New":              "github.com/maxence-charriere/go-app/v9/pkg/errors",
		"runtime.mallocgc":                                                      "runtime",
		"encoding_csv.__Writer_.Write":                                          "encoding/csv",
		"slices.pdqsortOrdered_go.shape.uint64_":                                "slices",
		"math_rand_v2.__PCG_.AppendBinary":                                      "math/rand/v2",
		"vendor_golang.org_x_net_dns_dnsmessage.Name.String":                    "vendor/golang.org/x/net/dns/dnsmessage",
		"main.__page_.Render":                                                   "backoffcalc/app (main)",
		"type_.eq.main.libSnippet":                                              "backoffcalc/app (main)",
		"type_.eq.backoffcalc_calc.Params":                                      "backoffcalc/calc",
		"type_.eq._2_main.libSnippet":                                           "backoffcalc/app (main)",
		"type_.eq._16_sync_atomic.Pointer_go.shape.struct___internal_sync.isEn": "sync/atomic",
		"type_.eq._8_string":                                                    noPkg,
		"memeqbody":                                                             noPkg,
		"wasm_export_run":                                                       noPkg,
		"go_buildid":                                                            noPkg,
		"runtime_debug.SetTraceback":                                            noPkg,
	} {
		got, ok := pkgs.pkgOf(name)
		if got != want || ok != (want != noPkg) {
			t.Errorf("pkgOf(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

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
	rows := (&sizeAccount{diffs: d, app: app, base: base, gzipFactor: factor}).rows()
	if len(rows) == 0 || rows[0].metric != "code: backoffcalc/calc" || rows[0].value != 902 {
		t.Errorf("first row %+v", rows[0])
	}
}

// TestRealBuild builds the baseline for js/wasm, with and without -s, and with its server
// compiled in (-tags singlefile), and accounts for the difference.
func TestRealBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wasm")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	tmp := t.TempDir()
	build := func(out, tags, ldflags string) string {
		t.Helper()
		path := filepath.Join(tmp, out)
		cmd := exec.Command(goCmd, "build", "-tags="+tags, "-trimpath", "-ldflags="+ldflags, "-o", path, "./bench/baseline")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		return path
	}
	named, err := readWasm(build("named.wasm", "", "-w"))
	if err != nil {
		t.Fatal(err)
	}
	stripped := build("stripped.wasm", "", "-s -w")
	sm, err := readWasm(stripped)
	if err != nil {
		t.Fatal(err)
	}
	if why := sameCode(sm, named); why != "" {
		t.Errorf("the build with -s is not the build without, less names: %s", why)
	}
	if _, ok := sm.section(wasmCustom, "name"); ok {
		t.Error("the build with -s has a name section")
	}
	if un, err := named.withoutNames(); err != nil || len(un.data) != len(sm.data) {
		t.Errorf("without its name section the build is %d bytes, with -s %d (%v)", len(un.data), len(sm.data), err)
	}

	cmd := exec.Command(goCmd, "list", "-deps", "./bench/baseline")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	a, err := accountWasm(sm, named.names, newPkgNames(strings.Fields(string(out)), "main"), true)
	if err != nil {
		t.Fatal(err)
	}
	if a.dataSplit != "" {
		t.Errorf("data section not split: %s", a.dataSplit)
	}
	if share := float64(a.pkgMatched) / float64(a.code); share < 0.9 {
		t.Errorf("%.1f%% of the code is of a known package, want > 90%%; no package: %v", 100*share, a.unknown)
	}
	bySection := map[string]int64{}
	var sum int64
	for _, p := range a.parts {
		sum += p.raw
		switch {
		case p.kind == "package", strings.HasPrefix(p.name, "code: "):
			bySection["code"] += p.raw
		case strings.HasPrefix(p.name, "data: "):
			bySection["data"] += p.raw
		default:
			bySection[p.name] += p.raw
		}
	}
	if sum != int64(len(sm.data)) {
		t.Errorf("the parts add up to %d, the file is %d bytes", sum, len(sm.data))
	}
	for _, s := range sm.sections {
		if s.id == wasmCode || s.id == wasmData {
			if got := bySection[s.label()]; got != int64(s.end-s.start) {
				t.Errorf("%s section: %d bytes, its parts %d", s.label(), s.end-s.start, got)
			}
		}
	}

	// app: the baseline with its server compiled in, its stripped file as built; base: the
	// baseline. Then app: the baseline, its "stripped file" not what the source builds (the full
	// one), so accounted for as built without -s less the name section.
	full := build("full.wasm", "singlefile", "-s -w")
	for _, c := range []struct {
		tags, file string
		matched    bool
	}{{"singlefile", full, true}, {"", full, false}} {
		acc, err := accountSizes(goCmd, "..", tmp,
			wasmBuild{label: "app", pkg: "./bench/baseline", tags: c.tags, main: "main (app)", stripped: c.file},
			wasmBuild{label: "baseline", pkg: "./bench/baseline", main: "main", stripped: stripped})
		if err != nil {
			t.Fatal(err)
		}
		if acc.matched != c.matched {
			t.Errorf("-tags=%s: matched %v, want %v", c.tags, acc.matched, c.matched)
		}
		var raw, gz int64
		for _, x := range acc.diffs {
			raw += x.diff
			gz += x.gzip
		}
		if raw != acc.app.size-acc.base.size || gz != acc.appGzip-acc.baseGzip {
			t.Errorf("-tags=%s: the differences add up to %d raw, %d gzip; the files differ by %d, %d",
				c.tags, raw, gz, acc.app.size-acc.base.size, acc.appGzip-acc.baseGzip)
		}
		if acc.dataSplit != "" {
			t.Errorf("-tags=%s: data section not split: %s", c.tags, acc.dataSplit)
		}
		if c.matched {
			if fi, _ := os.Stat(full); acc.app.size != fi.Size() {
				t.Errorf("accounted for %d bytes, the full build is %d", acc.app.size, fi.Size())
			}
			found := false
			for _, x := range acc.diffs {
				found = found || x.name == "net/http" && x.diff > 100000
			}
			if !found {
				t.Error("net/http's server is not among the differences")
			}
		} else if acc.app.size != int64(len(sm.data)) || raw != 0 || gz < -8 || gz > 8 { // the build ids differ
			t.Errorf("the baseline less its names is %d bytes, differing by %d, %d gzip; want %d, 0, about 0", acc.app.size, raw, gz, len(sm.data))
		}
	}
}
