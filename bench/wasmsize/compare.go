//go:build !js

package wasmsize

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Build is one program for js/wasm: its package, what to call its package main, and its
// binary as make wasm or the bench builds it (-trimpath -ldflags="-s -w").
type Build struct {
	Label, Pkg, Main string // e.g. "app.wasm", "./app", "backoffcalc/app (main)"
	Tags             string // go build -tags, if any
	Stripped         string
}

// Account is the accounting of app.wasm against the baseline.
type Account struct {
	diffs             []sizeDiff
	gzipFactor        float64
	app, base         *fileAccount
	appGzip, baseGzip int64
	notes             []string // how each file was accounted
	Matched           bool     // the accounted files are the stripped files given
	dataSplit         string   // why the data section is one part, or ""
}

// Compare builds app and base again without -s (-trimpath -ldflags=-w) into tmp, so that
// they have a name section, and accounts for the stripped files, as they are when it reads them,
// with the names of the functions of the same index, when their code sections are the same, byte
// for byte, and every other section but name the same size (they are when the stripped file was
// built from the same source); otherwise for the build without -s less its name section, which is
// what -s would have linked, and it says so in the notes. dir is the module's root.
func Compare(goCmd, dir, tmp string, app, base Build) (*Account, error) {
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
	acc := &Account{Matched: true}
	var mods [2]*wasmModule
	var names [2]map[int]string
	var paths [2][]string
	var gz [2]int64
	for i, b := range []Build{app, base} {
		out, err := goWasm("list", "-deps", "-tags="+b.Tags, b.Pkg)
		if err != nil {
			return nil, err
		}
		paths[i] = strings.Fields(string(out))
		named := filepath.Join(tmp, fmt.Sprintf("named-%d.wasm", i))
		if _, err := goWasm("build", "-tags="+b.Tags, "-trimpath", "-ldflags=-w", "-o", named, b.Pkg); err != nil {
			return nil, err
		}
		nm, err := readWasm(named)
		if err != nil {
			return nil, err
		}
		if len(nm.names) == 0 {
			return nil, fmt.Errorf("%s built without -s has no function names", b.Pkg)
		}
		names[i] = nm.names
		sm, err := readWasm(b.Stripped)
		if err != nil {
			return nil, err
		}
		m := sm
		why := sameCode(sm, nm)
		if why != "" {
			acc.Matched = false
			if m, err = nm.withoutNames(); err != nil {
				return nil, err
			}
		}
		// gzip what is accounted, as read: the file may have been rebuilt since it was measured.
		// Under the same name: gzip writes the name into its header.
		snap := filepath.Join(tmp, strconv.Itoa(i), filepath.Base(b.Stripped))
		if err := os.MkdirAll(filepath.Dir(snap), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(snap, m.data, 0o644); err != nil {
			return nil, err
		}
		var how string
		if gz[i], how, err = GzipSize(snap); err != nil {
			return nil, err
		}
		if why == "" {
			how = fmt.Sprintf("%s: %s (%d bytes, %s %d), with the names of the same build without -s, whose code section is the same, byte for byte",
				b.Label, b.Stripped, len(m.data), how, gz[i])
		} else {
			how = fmt.Sprintf("%s: NOT %s, which is not what %s builds now (%s: rebuild it, make wasm), but that build without -s less its name section, as -s links it (%d bytes, %s %d)",
				b.Label, b.Stripped, b.Pkg, why, len(m.data), how, gz[i])
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
				acc.dataSplit = fmt.Sprintf("%s: %v", []string{app.Label, base.Label}[i], err)
			}
		}
	}
	var accounts [2]*fileAccount
	var err error
	for i, b := range []Build{app, base} {
		pkgs := newPkgNames(slices.Concat(paths[0], paths[1]), b.Main)
		if accounts[i], err = accountWasm(mods[i], names[i], pkgs, split); err != nil {
			return nil, fmt.Errorf("%s: %w", b.Label, err)
		}
	}
	acc.app, acc.base = accounts[0], accounts[1]
	acc.appGzip, acc.baseGzip = gz[0], gz[1]
	acc.diffs, acc.gzipFactor, err = sizeDiffs(acc.app, acc.base, gz[0], gz[1])
	return acc, err
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
