//go:build !js

package wasmsize

// The WebAssembly binary format (https://webassembly.github.io/spec/core/binary/modules.html):
// the magic and version (8 bytes), then sections, each an id byte, its size as an unsigned
// LEB128 and its contents. Go's linker (cmd/link/internal/wasm) writes the custom section
// "go:buildid", then type, import, function, table, memory, global, export, element, code, data,
// the custom section "producers" and, without -s, the custom section "name".

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
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
