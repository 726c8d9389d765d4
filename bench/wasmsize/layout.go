//go:build !js

package wasmsize

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

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
