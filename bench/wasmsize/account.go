//go:build !js

package wasmsize

import (
	"compress/flate"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
)

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
