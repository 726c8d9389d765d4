//go:build !js

package wasmsize

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Func is one function of a program's code section.
type Func struct {
	Name string // as Go's linker writes it in the name section, e.g. "fmt.__pp_.doPrintf"
	Pkg  string // the import path of its package, or a note for names of no package (see pkgOf)
	Size int    // its entry in the code section, length prefix and body, bytes
}

// Funcs names the functions of b.Stripped by function index, the index V8 gives them in its
// trace events and profiles (the imported functions take the first ones and are not listed).
// It builds b again without -s into tmp, as Compare does, and fails when that build's code
// section is not b.Stripped's, byte for byte: the names would then be other functions'.
// dir is the module's root.
func Funcs(goCmd, dir, tmp string, b Build) (map[int]Func, error) {
	goWasm := func(args ...string) ([]byte, error) {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if e, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, e.Stderr)
		}
		return out, err
	}
	out, err := goWasm("list", "-deps", "-tags="+b.Tags, b.Pkg)
	if err != nil {
		return nil, err
	}
	pkgs := newPkgNames(strings.Fields(string(out)), b.Main)
	named := filepath.Join(tmp, "funcs-named.wasm")
	if _, err := goWasm("build", "-tags="+b.Tags, "-trimpath", "-ldflags=-w", "-o", named, b.Pkg); err != nil {
		return nil, err
	}
	nm, err := readWasm(named)
	if err != nil {
		return nil, err
	}
	sm, err := readWasm(b.Stripped)
	if err != nil {
		return nil, err
	}
	if why := sameCode(sm, nm); why != "" {
		return nil, fmt.Errorf("%s is not what %s builds now (%s): rebuild it, make wasm", b.Stripped, b.Pkg, why)
	}
	funcs := make(map[int]Func, len(sm.funcs))
	for i, f := range sm.funcs {
		idx := sm.imports + i
		name := nm.names[idx]
		pkg, _ := pkgs.pkgOf(name)
		funcs[idx] = Func{Name: name, Pkg: pkg, Size: f.end - f.start}
	}
	return funcs, nil
}
