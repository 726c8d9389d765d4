//go:build !js

package main

// Where app.wasm's bytes over the baseline's go, package by package: the sizes phase builds both
// wasm files again without -s, so that they carry the "name" custom section, reads every
// function's name there, and charges each function body of the code section to the Go package
// the name belongs to. The data section is split by what Go's linker lays out in memory (type
// descriptors and strings, the pclntab's tables, funcdata, variables); every other section is
// compared whole. The parts add up to the files, and their differences to the difference of the
// files, to the byte; each part's share of the gzip difference is estimated (see sizeDiffs).
//
// The WebAssembly binary format (https://webassembly.github.io/spec/core/binary/modules.html):
// the magic and version (8 bytes), then sections, each an id byte, its size as an unsigned
// LEB128 and its contents. Go's linker (cmd/link/internal/wasm) writes the custom section
// "go:buildid", then type, import, function, table, memory, global, export, element, code, data,
// the custom section "producers" and, without -s, the custom section "name".

import (
	"bytes"
	"cmp"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Section ids.
const (
	wasmCustom = 0
	wasmImport = 2
	wasmCode   = 10
	wasmData   = 11
)

var wasmSectionNames = []string{"custom", "type", "import", "function", "table", "memory", "global",
	"export", "start", "element", "code", "data", "data count", "tag"}

// wasmSection is one section: data[start:end] is all of it, from its id byte; its contents start
// at body.
type wasmSection struct {
	id         byte
	name       string // a custom section's name
	start, end int
	body       int
}

func (s wasmSection) label() string {
	if s.id == wasmCustom {
		return fmt.Sprintf("custom %q", s.name)
	}
	if int(s.id) < len(wasmSectionNames) {
		return wasmSectionNames[s.id]
	}
	return fmt.Sprintf("id %d", s.id)
}

// wasmFunc is one entry of the code section, data[start:end]: the body's size, then the body.
type wasmFunc struct{ start, end int }

// wasmModule is a parsed WebAssembly binary.
type wasmModule struct {
	data     []byte
	sections []wasmSection
	imports  int        // imported functions, which take the first function indexes
	funcs    []wasmFunc // the code section's functions: function index imports+i
	names    map[int]string
}

// wasmReader reads the binary format from b[off:end].
type wasmReader struct {
	b        []byte
	off, end int
}

var errWasmTruncated = errors.New("truncated")

func (r *wasmReader) byte() (byte, error) {
	if r.off >= r.end {
		return 0, errWasmTruncated
	}
	r.off++
	return r.b[r.off-1], nil
}

// uleb reads an unsigned LEB128 of at most 64 bits. Go pads section sizes to 5 bytes (0x80 0x80
// 0x80 0x80 0x00 is 0), which is valid.
func (r *wasmReader) uleb() (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if shift == 63 && c > 1 || shift > 63 {
			return 0, fmt.Errorf("LEB128 at offset %d overflows 64 bits", r.off-1)
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, nil
		}
	}
}

// sleb reads a signed LEB128 of at most 64 bits.
func (r *wasmReader) sleb() (int64, error) {
	var v int64
	for shift := uint(0); ; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if shift > 63 {
			return 0, fmt.Errorf("LEB128 at offset %d overflows 64 bits", r.off-1)
		}
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v, nil
		}
	}
}

// size reads a size in bytes or a count of entries, none of which is empty: either is at most
// what is left to read.
func (r *wasmReader) size() (int, error) {
	v, err := r.uleb()
	if err != nil {
		return 0, err
	}
	if v > uint64(r.end-r.off) {
		return 0, fmt.Errorf("size %d at offset %d: only %d bytes left", v, r.off, r.end-r.off)
	}
	return int(v), nil
}

// bytes reads n bytes.
func (r *wasmReader) bytes(n int) ([]byte, error) {
	if n < 0 || n > r.end-r.off {
		return nil, errWasmTruncated
	}
	r.off += n
	return r.b[r.off-n : r.off], nil
}

// name reads a name: its length, then as many bytes of UTF-8.
func (r *wasmReader) name() (string, error) {
	n, err := r.size()
	if err != nil {
		return "", err
	}
	b, err := r.bytes(n)
	return string(b), err
}

// limits skips a table's or a memory's limits: flags, minimum and, with flags&1, maximum.
func (r *wasmReader) limits() error {
	flags, err := r.byte()
	if err != nil {
		return err
	}
	if _, err := r.uleb(); err != nil {
		return err
	}
	if flags&1 != 0 {
		_, err = r.uleb()
	}
	return err
}

// parseWasm reads the sections, the number of imported functions, the bounds of every function
// body and, when there is a "name" section, the function names.
func parseWasm(data []byte) (*wasmModule, error) {
	if len(data) < 8 || !bytes.Equal(data[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly binary: no \\0asm magic")
	}
	if v := data[4:8]; !bytes.Equal(v, []byte{1, 0, 0, 0}) {
		return nil, fmt.Errorf("WebAssembly binary version %x, want 1", v)
	}
	m := &wasmModule{data: data}
	r := &wasmReader{b: data, off: 8, end: len(data)}
	for r.off < r.end {
		s := wasmSection{start: r.off}
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		n, err := r.size()
		if err != nil {
			return nil, fmt.Errorf("section at offset %d: %w", s.start, err)
		}
		s.id, s.body, s.end = id, r.off, r.off+n
		if s.end > len(data) {
			return nil, fmt.Errorf("section %d at offset %d: %d bytes, only %d left", id, s.start, n, len(data)-r.off)
		}
		sr := &wasmReader{b: data, off: s.body, end: s.end}
		switch id {
		case wasmCustom:
			if s.name, err = sr.name(); err == nil && s.name == "name" {
				err = m.parseNames(sr)
			}
		case wasmImport:
			err = m.parseImports(sr)
		case wasmCode:
			err = m.parseCode(sr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s section at offset %d: %w", s.label(), s.start, err)
		}
		m.sections = append(m.sections, s)
		r.off = s.end
	}
	return m, nil
}

func (m *wasmModule) parseImports(r *wasmReader) error {
	n, err := r.size()
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if _, err := r.name(); err != nil { // module
			return err
		}
		if _, err := r.name(); err != nil { // field
			return err
		}
		kind, err := r.byte()
		if err != nil {
			return err
		}
		switch kind {
		case 0: // function: its type index
			m.imports++
			_, err = r.uleb()
		case 1: // table: reference type, limits
			if _, err = r.byte(); err == nil {
				err = r.limits()
			}
		case 2: // memory
			err = r.limits()
		case 3: // global: value type, mutability
			_, err = r.bytes(2)
		case 4: // tag: attribute, type index
			if _, err = r.byte(); err == nil {
				_, err = r.uleb()
			}
		default:
			return fmt.Errorf("import %d: unknown kind %d", i, kind)
		}
		if err != nil {
			return fmt.Errorf("import %d: %w", i, err)
		}
	}
	return nil
}

func (m *wasmModule) parseCode(r *wasmReader) error {
	n, err := r.size()
	if err != nil {
		return err
	}
	m.funcs = make([]wasmFunc, 0, n)
	for i := 0; i < n; i++ {
		f := wasmFunc{start: r.off}
		size, err := r.size()
		if err == nil {
			_, err = r.bytes(size)
		}
		if err != nil {
			return fmt.Errorf("function body %d: %w", i, err)
		}
		f.end = r.off
		m.funcs = append(m.funcs, f)
	}
	if r.off != r.end {
		return fmt.Errorf("%d bytes after the last function body", r.end-r.off)
	}
	return nil
}

// parseNames reads the "name" section's subsections, of which it keeps 1, the function names: a
// vector of function index and name.
func (m *wasmModule) parseNames(r *wasmReader) error {
	m.names = map[int]string{}
	for r.off < r.end {
		id, err := r.byte()
		if err != nil {
			return err
		}
		n, err := r.size()
		if err != nil {
			return err
		}
		body, err := r.bytes(n)
		if err != nil {
			return fmt.Errorf("subsection %d: %w", id, err)
		}
		if id != 1 {
			continue
		}
		sr := &wasmReader{b: body, end: len(body)}
		count, err := sr.size()
		if err != nil {
			return err
		}
		for i := 0; i < count; i++ {
			idx, err := sr.uleb()
			if err != nil {
				return fmt.Errorf("function name %d: %w", i, err)
			}
			name, err := sr.name()
			if err != nil {
				return fmt.Errorf("function name %d: %w", i, err)
			}
			m.names[int(idx)] = name
		}
	}
	return nil
}

// section returns the first section with id (and, for a custom section, name).
func (m *wasmModule) section(id byte, name string) (wasmSection, bool) {
	for _, s := range m.sections {
		if s.id == id && (id != wasmCustom || s.name == name) {
			return s, true
		}
	}
	return wasmSection{}, false
}

func (m *wasmModule) bytesOf(s wasmSection) []byte { return m.data[s.start:s.end] }

// withoutNames is the module as -s would have linked it: the same, less the "name" section.
func (m *wasmModule) withoutNames() (*wasmModule, error) {
	s, ok := m.section(wasmCustom, "name")
	if !ok {
		return m, nil
	}
	data := slices.Concat(m.data[:s.start], m.data[s.end:])
	return parseWasm(data)
}

// wasmNameRE is what Go's linker replaces with '_' in the names it writes to the name section
// (nameRegexp in cmd/link/internal/wasm).
var wasmNameRE = regexp.MustCompile(`[^\w.]`)

// pkgNames maps function names of the name section back to Go packages.
type pkgNames struct {
	byName map[string]string // import path as the linker writes it → import path
	main   string            // what to call the package main
}

// newPkgNames knows the import paths paths; main is what to call the package main, e.g.
// "backoffcalc/app (main)".
func newPkgNames(paths []string, main string) *pkgNames {
	p := &pkgNames{byName: map[string]string{}, main: main}
	for _, path := range paths {
		p.byName[wasmNameRE.ReplaceAllString(path, "_")] = path
	}
	return p
}

// noPkg is the part for the functions whose names hold no known package: the runtime's assembly
// (memchr, memeqbody, wasm_export_run, …), go:buildid, the equality of arrays of builtin types
// (type:.eq.[8]string), methods of unnamed struct types, runtime/debug.SetTraceback (provided by
// the runtime).
const noPkg = "(no package in the name: assembly, linker, builtin types)"

// pkgOf is the package of the function named fn: the longest known import path that, written as
// the linker writes it, is followed by a '.' in fn. Package paths hold dots too (github.com), so
// the first dot is not enough. The compiler's equality functions, type:.eq.T, go to T's package;
// so do those of *T, []T and [N]T. A name of no known package goes to noPkg, and ok is false.
func (p *pkgNames) pkgOf(fn string) (pkg string, ok bool) {
	name := fn
	if rest, ok := strings.CutPrefix(name, "type_."); ok { // type:.eq.T, type:.hash.T
		if _, t, ok := strings.Cut(rest, "."); ok {
			name = strings.TrimLeft(t, "_0123456789") // *T, []T, [2]T
		}
	}
	found := ""
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if name[:i] == "main" {
			return p.main, true
		}
		if path, ok := p.byName[name[:i]]; ok {
			found = path
		}
	}
	if found != "" {
		return found, true
	}
	return noPkg, false
}

// sizePart is a part of a wasm file: the bodies of one package's functions, or a section less
// what is counted elsewhere.
type sizePart struct {
	kind     string // "package" or "section"
	name     string
	raw      int64 // bytes in the file
	funcs    int   // functions, for a package
	deflated int64 // its bytes alone, deflated at level 9
}

// fileAccount is a wasm file split into parts that add up to it.
type fileAccount struct {
	size                    int64
	parts                   map[[2]string]*sizePart
	code, named, pkgMatched int64            // function body bytes; with a name; of a known package
	unknown                 map[string]int64 // body bytes by what precedes the first '.', for names of no known package
	dataSplit               string           // why the data section is one part, or ""
}

// accountWasm splits m into parts: the file header; every section but code and data whole; the
// code section's own header and function count, and each package's function bodies (every body
// with its size), named by names (function index → name, from the same program linked without
// -s); the data section, with splitData, by what Go's linker puts there (see dataParts), or
// whole.
func accountWasm(m *wasmModule, names map[int]string, pkgs *pkgNames, splitData bool) (*fileAccount, error) {
	a := &fileAccount{size: int64(len(m.data)), parts: map[[2]string]*sizePart{}, unknown: map[string]int64{}}
	content := map[[2]string][][]byte{}
	add := func(kind, name string, b []byte) *sizePart {
		k := [2]string{kind, name}
		p := a.parts[k]
		if p == nil {
			p = &sizePart{kind: kind, name: name}
			a.parts[k] = p
		}
		p.raw += int64(len(b))
		content[k] = append(content[k], b)
		return p
	}
	add("section", "file header (magic, version)", m.data[:8])
	for _, s := range m.sections {
		switch s.id {
		case wasmData:
			var parts []namedBytes
			err := errors.New("not split")
			if splitData {
				parts, err = dataParts(m, s)
			}
			if err != nil {
				a.dataSplit = err.Error()
				add("section", s.label(), m.bytesOf(s))
			}
			for _, p := range parts {
				add("section", "data: "+p.name, p.b)
			}
		case wasmCode:
			if len(m.funcs) > 0 {
				add("section", "code: section header and function count", m.data[s.start:m.funcs[0].start])
			} else {
				add("section", "code: section header and function count", m.bytesOf(s))
			}
			for i, f := range m.funcs {
				body := m.data[f.start:f.end]
				a.code += int64(len(body))
				fn, ok := names[m.imports+i]
				if !ok {
					add("package", "(no name)", body).funcs++
					continue
				}
				a.named += int64(len(body))
				pkg, ok := pkgs.pkgOf(fn)
				if ok {
					a.pkgMatched += int64(len(body))
				} else {
					prefix, _, _ := strings.Cut(fn, ".")
					a.unknown[prefix] += int64(len(body))
				}
				add("package", pkg, body).funcs++
			}
		default:
			add("section", s.label(), m.bytesOf(s))
		}
	}
	var sum int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k, p := range a.parts {
		sum += p.raw
		wg.Go(func() {
			sem <- struct{}{}
			p.deflated = deflatedSize(content[k]...)
			<-sem
		})
	}
	wg.Wait()
	if sum != a.size {
		return nil, fmt.Errorf("the parts add up to %d bytes, the file has %d", sum, a.size)
	}
	return a, nil
}

// namedBytes is some bytes of the file and what they are.
type namedBytes struct {
	name string
	b    []byte
}

// wasmSegment is an active data segment: data, a slice of the file, goes to memory at addr.
type wasmSegment struct {
	addr uint64
	data []byte
}

// dataParts splits the data section, whose segments are Go's memory image less its runs of
// zeroes, by what the memory holds where: Go's linker (cmd/link/internal/ld, Go 1.26) lays out
// .rodata (from runtime.types to runtime.etypes: type descriptors, strings and other read-only
// data), .gopclntab (the pcHeader, then the function names, cutab, file names, pc-value tables,
// functab and _func records, then go:func.*, the funcdata: stack maps, inline trees…, up to
// runtime.epclntab), typelinks, itablinks, runtime.firstmoduledata, then the noptrdata and data
// variables. It finds runtime.firstmoduledata, which records all of those addresses, as the word
// that points to the pcHeader. The segments' own headers (memory index, offset, size) are a part
// of their own. It fails, and the data section stays whole, when the layout is not that.
func dataParts(m *wasmModule, s wasmSection) ([]namedBytes, error) {
	r := &wasmReader{b: m.data, off: s.body, end: s.end}
	n, err := r.size()
	if err != nil {
		return nil, err
	}
	headers := []namedBytes{{"section and segment headers", m.data[s.start:r.off]}}
	segs := make([]wasmSegment, 0, n)
	for i := 0; i < n; i++ {
		start := r.off
		flags, err := r.uleb()
		if err != nil {
			return nil, err
		}
		if flags == 2 {
			_, err = r.uleb() // memory index
		}
		if flags != 0 && flags != 2 || err != nil {
			return nil, fmt.Errorf("data segment %d: not active (flags %d) %v", i, flags, err)
		}
		op, err := r.byte()
		if err != nil {
			return nil, err
		}
		addr, err := r.sleb()
		if err != nil {
			return nil, err
		}
		end, err := r.byte()
		if op != 0x41 && op != 0x42 || end != 0x0b || err != nil || addr < 0 {
			return nil, fmt.Errorf("data segment %d: its offset is not i32.const or i64.const", i)
		}
		size, err := r.size()
		if err != nil {
			return nil, err
		}
		headers = append(headers, namedBytes{"section and segment headers", m.data[start:r.off]})
		b, err := r.bytes(size)
		if err != nil {
			return nil, err
		}
		segs = append(segs, wasmSegment{uint64(addr), b})
	}
	if r.off != r.end {
		return nil, fmt.Errorf("%d bytes after the last data segment", r.end-r.off)
	}
	ranges, err := goMemoryLayout(segs)
	if err != nil {
		return nil, err
	}
	parts := headers
	for _, sg := range segs {
		for len(sg.data) > 0 {
			name, end := "other: runtime.firstmoduledata, padding", sg.addr+uint64(len(sg.data))
			for _, rg := range ranges {
				if sg.addr >= rg.start && sg.addr < rg.end {
					name, end = rg.name, min(end, rg.end)
					break
				}
				if rg.start > sg.addr {
					end = min(end, rg.start)
				}
			}
			k := end - sg.addr
			parts = append(parts, namedBytes{name, sg.data[:k]})
			sg.addr, sg.data = end, sg.data[k:]
		}
	}
	return parts, nil
}

// memRange is a range of memory, [start, end), and what it holds.
type memRange struct {
	start, end uint64
	name       string
}

// goMemoryLayout reads runtime.firstmoduledata from the memory image and returns the ranges it
// records, in order, not overlapping.
func goMemoryLayout(segs []wasmSegment) ([]memRange, error) {
	// The linker writes its sections in its own order, not always the addresses'.
	segs = slices.SortedFunc(slices.Values(segs), func(a, b wasmSegment) int { return cmp.Compare(a.addr, b.addr) })
	for i := 1; i < len(segs); i++ {
		if segs[i].addr < segs[i-1].addr+uint64(len(segs[i-1].data)) {
			return nil, fmt.Errorf("data segments overlap at %#x", segs[i].addr)
		}
	}
	// word reads 8 bytes at addr, zeroes where no segment is: a run of zeroes the linker
	// left out can start or end inside a word.
	word := func(addr uint64) uint64 {
		var b [8]byte
		for k := range b {
			a := addr + uint64(k)
			i, _ := slices.BinarySearchFunc(segs, a, func(s wasmSegment, a uint64) int {
				switch {
				case s.addr+uint64(len(s.data)) <= a:
					return -1
				case s.addr > a:
					return 1
				}
				return 0
			})
			if i < len(segs) && segs[i].addr <= a {
				b[k] = segs[i].data[a-segs[i].addr]
			}
		}
		return binary.LittleEndian.Uint64(b[:])
	}
	// The pcHeader: magic 0xfffffff1 (Go 1.20 and later), two zero bytes, minLC 1, ptrSize 8.
	magic := []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}
	var hdr uint64
	found := false
	for _, sg := range segs {
		if i := bytes.Index(sg.data, magic); i >= 0 && (sg.addr+uint64(i))%8 == 0 {
			hdr, found = sg.addr+uint64(i), true
			break
		}
	}
	if !found {
		return nil, errors.New("no Go 1.20+ pcHeader for wasm in the data section")
	}
	// runtime.firstmoduledata starts with a pointer to the pcHeader, then the slices
	// funcnametab, cutab, filetab, pctab, pclntable at the offsets the pcHeader records.
	want := binary.LittleEndian.AppendUint64(nil, hdr)
	var md uint64
	found = false
	for _, sg := range segs {
		for i := 0; !found; {
			j := bytes.Index(sg.data[i:], want)
			if j < 0 {
				break
			}
			a := sg.addr + uint64(i+j)
			i += j + 1
			if a%8 != 0 {
				continue
			}
			ok := true
			for k, off := range []uint64{32, 40, 48, 56, 64} { // funcnameOffset, cuOffset, …, pclnOffset
				ok = ok && word(a+8+24*uint64(k)) == hdr+word(hdr+off)
			}
			if ok {
				md, found = a, true
			}
		}
	}
	if !found {
		return nil, errors.New("no runtime.firstmoduledata pointing to the pcHeader")
	}
	f := func(i int) uint64 { return word(md + 8*uint64(i)) } // the i-th word of moduledata
	// Words: 0 pcHeader; 1-3 funcnametab, 4-6 cutab, 7-9 filetab, 10-12 pctab, 13-15 pclntable,
	// 16-18 ftab; 19 findfunctab; 20-21 minpc, maxpc; 22-23 text, etext; 24-25 noptrdata,
	// enoptrdata; 26-27 data, edata; 28-29 bss, ebss; 30-31 noptrbss, enoptrbss; 32-33 covctrs,
	// ecovctrs; 34-36 end, gcdata, gcbss; 37-38 types, etypes; 39 rodata; 40 gofunc; 41
	// epclntab; 42-44 textsectmap; 45-47 typelinks; 48-50 itablinks.
	ranges := []memRange{
		{f(37), f(38), ".rodata: type descriptors, strings, other read-only data"},
		{hdr, f(1), "pclntab: header"},
		{f(1), f(1) + f(2), "pclntab: function names"},
		{f(4), f(4) + 4*f(5), "pclntab: cutab"},
		{f(7), f(7) + f(8), "pclntab: file names"},
		{f(10), f(10) + f(11), "pclntab: pc-value tables (pctab)"},
		{f(13), f(13) + f(14), "pclntab: functab and _func records"},
		{f(40), f(41), "go:func.*: funcdata (stack maps, inline trees, …)"},
		{f(45), f(45) + 4*f(46), "typelinks"},
		{f(48), f(48) + 8*f(49), "itablinks"},
		{f(24), f(25), "variables without pointers (noptrdata)"},
		{f(26), f(27), "variables with pointers (data)"},
	}
	for i, rg := range ranges {
		if rg.start > rg.end || i > 0 && rg.start < ranges[i-1].end {
			return nil, fmt.Errorf("runtime.firstmoduledata at %#x: %s [%#x, %#x) is not after %s [%#x, %#x)",
				md, rg.name, rg.start, rg.end, ranges[i-1].name, ranges[i-1].start, ranges[i-1].end)
		}
	}
	if last := ranges[len(ranges)-1]; last.end < segs[len(segs)-1].addr+uint64(len(segs[len(segs)-1].data)) {
		return nil, fmt.Errorf("data beyond the end of Go's data variables (%#x)", last.end)
	}
	return ranges, nil
}

// deflatedSize is the size of b, concatenated, deflated at level 9 (without gzip's 18 bytes).
func deflatedSize(b ...[]byte) int64 {
	var n countWriter
	w, _ := flate.NewWriter(&n, flate.BestCompression) // no error at a valid level
	for _, x := range b {
		w.Write(x) // countWriter fails never
	}
	w.Close()
	return int64(n)
}

type countWriter int64

func (c *countWriter) Write(b []byte) (int, error) { *c += countWriter(len(b)); return len(b), nil }

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

// wasmBuild is one program for js/wasm: its package, what to call its package main, and its
// binary as make wasm or the bench builds it (-trimpath -ldflags="-s -w").
type wasmBuild struct {
	label, pkg, main string // e.g. "app.wasm", "./app", "backoffcalc/app (main)"
	tags             string // go build -tags, if any
	stripped         string
}

// sizeAccount is the accounting of app.wasm against the baseline.
type sizeAccount struct {
	diffs             []sizeDiff
	gzipFactor        float64
	app, base         *fileAccount
	appGzip, baseGzip int64
	notes             []string // how each file was accounted
	matched           bool     // the accounted files are the stripped files given
	dataSplit         string   // why the data section is one part, or ""
}

// accountSizes builds app and base again without -s (-trimpath -ldflags=-w) into tmp, so that
// they have a name section, and accounts for the stripped files, as they are when it reads them,
// with the names of the functions of the same index, when their code sections are the same, byte
// for byte, and every other section but name the same size (they are when the stripped file was
// built from the same source); otherwise for the build without -s less its name section, which is
// what -s would have linked, and it says so in the notes. dir is the module's root.
func accountSizes(goCmd, dir, tmp string, app, base wasmBuild) (*sizeAccount, error) {
	goWasm := func(args ...string) ([]byte, error) {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			if e, ok := err.(*exec.ExitError); ok {
				out = e.Stderr
			}
			return nil, fmt.Errorf("GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out, nil
	}
	acc := &sizeAccount{matched: true}
	var mods [2]*wasmModule
	var names [2]map[int]string
	var paths [2][]string
	var gz [2]int64
	for i, b := range []wasmBuild{app, base} {
		out, err := goWasm("list", "-deps", "-tags="+b.tags, b.pkg)
		if err != nil {
			return nil, err
		}
		paths[i] = strings.Fields(string(out))
		named := filepath.Join(tmp, fmt.Sprintf("named-%d.wasm", i))
		if _, err := goWasm("build", "-tags="+b.tags, "-trimpath", "-ldflags=-w", "-o", named, b.pkg); err != nil {
			return nil, err
		}
		nm, err := readWasm(named)
		if err != nil {
			return nil, err
		}
		if len(nm.names) == 0 {
			return nil, fmt.Errorf("%s built without -s has no function names", b.pkg)
		}
		names[i] = nm.names
		sm, err := readWasm(b.stripped)
		if err != nil {
			return nil, err
		}
		m := sm
		why := sameCode(sm, nm)
		if why != "" {
			acc.matched = false
			if m, err = nm.withoutNames(); err != nil {
				return nil, err
			}
		}
		// gzip what is accounted, as read: the file may have been rebuilt since it was measured.
		// Under the same name: gzip writes the name into its header.
		snap := filepath.Join(tmp, strconv.Itoa(i), filepath.Base(b.stripped))
		if err := os.MkdirAll(filepath.Dir(snap), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(snap, m.data, 0o644); err != nil {
			return nil, err
		}
		var how string
		if gz[i], how, err = gzipSize(snap); err != nil {
			return nil, err
		}
		if why == "" {
			how = fmt.Sprintf("%s: %s (%d bytes, %s %d), with the names of the same build without -s, whose code section is the same, byte for byte",
				b.label, b.stripped, len(m.data), how, gz[i])
		} else {
			how = fmt.Sprintf("%s: NOT %s, which is not what %s builds now (%s: rebuild it, make wasm), but that build without -s less its name section, as -s links it (%d bytes, %s %d)",
				b.label, b.stripped, b.pkg, why, len(m.data), how, gz[i])
		}
		acc.notes = append(acc.notes, how)
		mods[i] = m
	}
	// The data section split by Go's memory layout, or whole in both files.
	split := true
	for i, m := range mods {
		if s, ok := m.section(wasmData, ""); ok {
			if _, err := dataParts(m, s); err != nil {
				split = false
				acc.dataSplit = fmt.Sprintf("%s: %v", []string{app.label, base.label}[i], err)
			}
		}
	}
	var accounts [2]*fileAccount
	var err error
	for i, b := range []wasmBuild{app, base} {
		pkgs := newPkgNames(slices.Concat(paths[0], paths[1]), b.main)
		if accounts[i], err = accountWasm(mods[i], names[i], pkgs, split); err != nil {
			return nil, fmt.Errorf("%s: %w", b.label, err)
		}
	}
	acc.app, acc.base = accounts[0], accounts[1]
	acc.appGzip, acc.baseGzip = gz[0], gz[1]
	acc.diffs, acc.gzipFactor, err = sizeDiffs(acc.app, acc.base, gz[0], gz[1])
	return acc, err
}

// measureSizeAccount adds the accounting of web/app.wasm against the baseline's wasm to res.
func measureSizeAccount(cfg *config, res *results, base *baseline) error {
	tmp, err := os.MkdirTemp("", "backoffcalc-wasmsize-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	acc, err := accountSizes(cfg.goCmd, ".", tmp,
		wasmBuild{label: "app.wasm", pkg: "./app", main: "backoffcalc/app (main)", stripped: "web/app.wasm"},
		wasmBuild{label: "baseline", pkg: "./bench/baseline", main: "backoffcalc/bench/baseline (main)", stripped: base.wasm})
	if err != nil {
		return fmt.Errorf("accounting for app.wasm − baseline: %w", err)
	}
	if !acc.matched {
		fmt.Fprintln(os.Stderr, "bench: web/app.wasm is not what ./app builds now: the accounting by package is of a fresh build (make wasm)")
	}
	for _, r := range acc.rows() {
		res.add(r)
	}
	return nil
}

func readWasm(path string) (*wasmModule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := parseWasm(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// sameCode says how stripped is not named linked with -s: "" when their code sections and
// imports are the same, and every other section but name is the same size.
func sameCode(stripped, named *wasmModule) string {
	sc, ok1 := stripped.section(wasmCode, "")
	nc, ok2 := named.section(wasmCode, "")
	switch {
	case !ok1 || !ok2:
		return "no code section"
	case stripped.imports != named.imports:
		return fmt.Sprintf("%d imported functions, not %d", stripped.imports, named.imports)
	case !bytes.Equal(stripped.bytesOf(sc), named.bytesOf(nc)):
		return fmt.Sprintf("its code section is %d bytes, not %d, or other bytes", sc.end-sc.start, nc.end-nc.start)
	}
	size := func(m *wasmModule) map[string]int {
		s := map[string]int{}
		for _, x := range m.sections {
			if x.id != wasmCustom || x.name != "name" {
				s[x.label()] += x.end - x.start
			}
		}
		return s
	}
	a, b := size(stripped), size(named)
	for k, n := range b {
		if a[k] != n {
			return fmt.Sprintf("its %s section is %d bytes, not %d", k, a[k], n)
		}
	}
	if len(a) != len(b) {
		return "other sections"
	}
	return ""
}

// smallDiff is the most a package's code may differ, in bytes raw and gzip, to be counted with the
// others that differ as little rather than on a row of its own: a package both files link the
// same differs by a few bytes, the addresses and function indexes in its code being other
// numbers, of other lengths.
const smallDiff = 100

// rows are the accounting: one row per package whose code differs by smallDiff or more, one for
// the others, one per section; then the totals and how the figures were made.
func (acc *sizeAccount) rows() []row {
	const sec = "size: app.wasm − baseline, by package"
	var rows []row
	var raw, gz int64
	var small sizeDiff
	n := 0
	smallRow := func() row {
		return row{section: sec, metric: fmt.Sprintf("code: %d other packages, each within ±%d bytes", n, smallDiff),
			value: float64(small.diff), unit: "bytes", note: fmt.Sprintf("app.wasm %d, baseline %d; gzip ≈ %+d; functions %d, %d; the same packages, their addresses and function indexes other numbers",
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
		rows = append(rows, row{section: sec, metric: metric, value: float64(x.diff), unit: "bytes", note: note})
	}
	if n > 0 {
		rows = append(rows, smallRow())
	}
	pct := func(a *fileAccount) float64 { return 100 * float64(a.pkgMatched) / float64(a.code) }
	rows = append(rows,
		row{section: sec, metric: "total, raw", value: float64(raw), unit: "bytes",
			note: fmt.Sprintf("the parts' differences add up to app.wasm %d − baseline %d (checked)", acc.app.size, acc.base.size)},
		row{section: sec, metric: "total, gzip (estimated by part)", value: float64(gz), unit: "bytes",
			note: fmt.Sprintf("adds up to app.wasm %d − baseline %d, gzip -9 (checked); a part's share: its bytes deflated alone at level 9, in each file, the difference times %.3f, the same for every part, so that the shares add up, rounded keeping the sum; a part the same in both files gets 0",
				acc.appGzip, acc.baseGzip, acc.gzipFactor)},
		row{section: sec, metric: "code of a known package", value: pct(acc.app), unit: "%",
			note: fmt.Sprintf("app.wasm, and %.1f%% of the baseline's: a package's code is its function bodies (each with its size), by the names in the name section of the same build without -s; a generic function's instances count for its own package, type:.eq.T for T's", pct(acc.base))},
	)
	if acc.dataSplit != "" {
		rows = append(rows, row{section: sec, metric: "data section not split", value: math.NaN(), note: acc.dataSplit})
	}
	for _, n := range acc.notes {
		rows = append(rows, row{section: sec, metric: "accounted", value: math.NaN(), note: n})
	}
	return rows
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
