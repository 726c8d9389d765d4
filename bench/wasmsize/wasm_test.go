//go:build !js

package wasmsize

import (
	"bytes"
	"fmt"
	"slices"
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
