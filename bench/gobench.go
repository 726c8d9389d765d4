//go:build !js

package main

// calc's Go benchmarks, natively and under WebAssembly in node.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// benchStats are one benchmark's -count runs.
type benchStats struct {
	ns, bytes, allocs []float64
}

// benchLine is a result line of go test -bench; the -N GOMAXPROCS suffix is dropped, as wasm
// runs have none.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) B/op)?(?:\s+([\d.]+) allocs/op)?`)

// goBench runs calc's benchmarks matching cfg.benchRE, natively or (wasm) under node through the
// toolchain's go_js_wasm_exec, and returns the results by name in the order they came.
func goBench(cfg *config, wasm bool) ([]string, map[string]*benchStats, string, error) {
	args := []string{"test", "-run", "^$", "-bench", cfg.benchRE, "-benchmem",
		"-count", strconv.Itoa(cfg.benchCount), "-benchtime", cfg.benchTime}
	env := os.Environ()
	if wasm {
		args = append(args, "-exec", filepath.Join(cfg.goroot, "lib", "wasm", "go_js_wasm_exec"))
		env = append(env, "GOOS=js", "GOARCH=wasm")
	}
	args = append(args, "./calc")
	cmd := exec.Command(cfg.goCmd, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	command := strings.Join(append([]string{cfg.goCmd}, quoteArgs(args)...), " ")
	if wasm {
		command = "GOOS=js GOARCH=wasm " + command
	}
	if err != nil {
		return nil, nil, command, fmt.Errorf("%s: %v\n%s%s", command, err, out, stderr.Bytes())
	}
	var order []string
	stats := map[string]*benchStats{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name := strings.TrimPrefix(m[1], "Benchmark")
		s := stats[name]
		if s == nil {
			s = &benchStats{}
			stats[name] = s
			order = append(order, name)
		}
		s.ns = append(s.ns, atof(m[2]))
		if m[3] != "" {
			s.bytes = append(s.bytes, atof(m[3]))
		}
		if m[4] != "" {
			s.allocs = append(s.allocs, atof(m[4]))
		}
	}
	if len(order) == 0 {
		return nil, nil, command, fmt.Errorf("%s: no benchmark matched\n%s", command, out)
	}
	return order, stats, command, nil
}

func atof(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// quoteArgs quotes the arguments a shell would split or expand, for printing a command.
func quoteArgs(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " ^$|*?'\"\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return q
}
