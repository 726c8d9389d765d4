//go:build !js

package wasmsize

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
		cmd.Dir = "../.."
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
	cmd.Dir = "../.."
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
		acc, err := Compare(goCmd, "../..", tmp,
			Build{Label: "app", Pkg: "./bench/baseline", Tags: c.tags, Main: "main (app)", Stripped: c.file},
			Build{Label: "baseline", Pkg: "./bench/baseline", Main: "main", Stripped: stripped})
		if err != nil {
			t.Fatal(err)
		}
		if acc.Matched != c.matched {
			t.Errorf("-tags=%s: matched %v, want %v", c.tags, acc.Matched, c.matched)
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
