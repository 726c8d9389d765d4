//go:build !js

package wasmsize

import (
	"regexp"
	"strings"
)

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
