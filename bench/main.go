//go:build !js

// Command bench measures the page and the calculator: app.wasm's size against an empty go-app
// page, the time from navigation to the right numbers on screen (cold, warm, offline; serve and
// the static site), input-to-screen latency, the herd's time and longest main-thread task, the
// code cache's warm-up, and the Go benchmarks of calc and the import reader natively and under
// WebAssembly. Run it from the repository root after
// `make wasm native`, as `make bench` does; it prints a table and writes it as CSV under bench/.
//
// Every browser figure is taken in headless Chromium on 127.0.0.1 by a script the page runs
// first (see measureJS), and is the median of -runs runs.
//
// main.go drives: it reads the flags (flags.go), builds what the phases share and runs each
// phase, one file each: sizes.go, loads.go, coldstart.go, network.go, trace.go, input.go, herd.go,
// contention.go, overload.go, calcbench.go (trace.go charges compile and run time to Go
// functions with tracefuncs.go). Before each
// measurement a phase waits for a quiet machine (quiet.go).
package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	cfg := parseFlags()
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(cfg *config) error {
	start := time.Now()
	goroot, err := exec.Command(cfg.goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	cfg.goroot = strings.TrimSpace(string(goroot))
	if cfg.runs < 1 || cfg.edits < 1 || cfg.coldRuns < 1 || cfg.netRuns < 1 {
		return fmt.Errorf("-runs, -edits, -cold-runs and -net-runs must be at least 1")
	}
	for _, f := range []string{cfg.bin, "web/app.wasm", "web/engine.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("%v (run from the repository root after make wasm native)", err)
		}
	}
	res := &results{}
	for _, kv := range machine(cfg) {
		fmt.Printf("%-9s %s\n", kv[0]+":", kv[1])
		res.add(row{section: "machine", metric: kv[0], value: math.NaN(), note: kv[1]})
	}

	tmp, err := os.MkdirTemp("", "backoffcalc-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	staticDir := filepath.Join(tmp, "site")
	if err := buildStatic(cfg, staticDir); err != nil {
		return err
	}
	base, err := buildBaseline(cfg, filepath.Join(tmp, "baseline"))
	if err != nil {
		return err
	}

	// A phase that fails is reported and the others still run.
	var failed []string
	step := func(name string, f func() error) {
		if !cfg.only[name] {
			return
		}
		t := time.Now()
		fmt.Fprintf(os.Stderr, "bench: %s…\n", name)
		if err := f(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s failed: %v\n", name, err)
			res.add(row{section: "failures", metric: name, value: math.NaN(), note: err.Error()})
			failed = append(failed, name)
		}
		fmt.Fprintf(os.Stderr, "bench: %s took %s\n", name, time.Since(t).Round(time.Second))
	}
	step("sizes", func() error { return measureSizes(cfg, res, base, staticDir) })
	step("loads", func() error { return measureLoads(cfg, res, base, staticDir) })
	step("coldstart", func() error { return measureColdStart(cfg, res, base, staticDir) })
	step("network", func() error { return measureNetwork(cfg, res, base) })
	step("trace", func() error { return measureTrace(cfg, res, staticDir) })
	step("input", func() error { return measureInput(cfg, res) })
	step("herd", func() error { return measureHerd(cfg, res) })
	step("contention", func() error { return measureContention(cfg, res) })
	step("overload", func() error { return measureOverload(cfg, res) })
	step("go", func() error { return measureGo(cfg, res) })

	if quiet.waits > 0 {
		res.add(row{section: "machine", metric: "quiet", value: math.NaN(), note: fmt.Sprintf(
			"%d measurements waited %s in all for a second with the CPUs at most %.0f%% busy; %d started on a busier machine after -quiet-wait %s or -quiet-total %s",
			quiet.waits, quiet.waited.Round(time.Second), cfg.quietBusy, quiet.busy, cfg.quietWait, cfg.quietTotal)})
		fmt.Printf("\nquiet:    %s\n", res.rows[len(res.rows)-1].note)
	}
	res.print(os.Stdout)
	stamp := time.Now().Format("20060102-150405")
	path := filepath.Join(cfg.csvDir, "results-"+stamp+".csv")
	if err := res.writeCSV(path); err != nil {
		return err
	}
	if err := res.writeCSV(filepath.Join(cfg.csvDir, "latest.csv")); err != nil {
		return err
	}
	fmt.Printf("\nwrote %s and %s; load average at the end %s; the bench took %s (builds not counted)\n",
		path, filepath.Join(cfg.csvDir, "latest.csv"), loadAverage(), time.Since(start).Round(time.Second))
	if len(failed) > 0 {
		return fmt.Errorf("failed: %s", strings.Join(failed, ", "))
	}
	return nil
}
