//go:build !js

package main

// The flags, and the inputs every phase shares.

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"backoffcalc/internal/headless"
)

// config is the flags, as the phases read them, and GOROOT.
type config struct {
	bin, goCmd, goroot, chromium string
	runs, edits                  int
	coldRuns, netRuns            int
	warmAfter, cacheAfter        time.Duration
	heavyBudget, heavyTimeout    time.Duration
	quietBusy                    float64
	quietWait, quietTotal        time.Duration
	benchRE, benchTime           string
	benchCount                   int
	only                         map[string]bool
	verbose                      bool
	csvDir                       string
}

// The inputs the bench uses.
const (
	sharedQuery = "base=250ms&attempts=8&jitter=equal" // a shared link with a non-default query
	heavyQuery  = "attempts=1000&samples=30000"        // the heaviest schedule the page accepts: 30000 × 1000 × 5 modes, sampling's limit (policy.MaxSampleWork)
)

// phases are the names -only knows, in the order they run.
var phases = []string{"sizes", "loads", "coldstart", "network", "trace", "input", "herd", "contention", "overload", "go"}

// verbose is -v.
var verbose bool

// parseFlags reads the flags; a phase -only does not know ends the program.
func parseFlags() *config {
	cfg := &config{}
	flag.StringVar(&cfg.bin, "bin", "bin/backoffcalc", "the native program, built by make native")
	flag.StringVar(&cfg.goCmd, "go", "go", "the go command")
	flag.StringVar(&cfg.chromium, "chromium", headless.Path(), "Chromium (default $CHROMIUM or /usr/bin/chromium)")
	flag.IntVar(&cfg.runs, "runs", 5, "runs of every page load and herd figure (the median is shown)")
	flag.IntVar(&cfg.coldRuns, "cold-runs", 3, "runs of the coldstart phase: each loads the baseline, the static site and serve, cold then warm")
	flag.DurationVar(&cfg.warmAfter, "warm-after", 0,
		"how long the coldstart and trace phases leave the cold page open, once its service worker is active, before the warm load "+
			"(V8 writes its wasm code cache only once top-tier compiles stop; Chromium 156 here wrote none even after 60 s)")
	flag.DurationVar(&cfg.cacheAfter, "cache-after", 12*time.Second,
		"how long the coldstart phase leaves the warm page open before loading it once more (\"warm, cache written\"): "+
			"the page's warm-up and V8's write of its wasm code cache, 2 s after the last top-tier compile, happen meanwhile")
	flag.IntVar(&cfg.netRuns, "net-runs", 1, "runs of the network phase: each loads serve and the baseline cold over each emulated network (about 40 s)")
	flag.IntVar(&cfg.edits, "edits", 50, "edits of each input-to-screen figure")
	flag.DurationVar(&cfg.heavyBudget, "heavy-budget", 30*time.Second,
		"time for the edits at "+heavyQuery+" after the first; fewer than -edits when they are slow")
	flag.DurationVar(&cfg.heavyTimeout, "heavy-timeout", 45*time.Second,
		"longest wait for the "+heavyQuery+" link, and for one edit there, before giving up")
	flag.Float64Var(&cfg.quietBusy, "quiet", 60, "before each measurement, wait for a second with the CPUs at most this `percent` busy…")
	flag.DurationVar(&cfg.quietWait, "quiet-wait", 10*time.Second, "… but no longer than this (0: do not wait), and no longer than -quiet-total in all")
	flag.DurationVar(&cfg.quietTotal, "quiet-total", time.Minute, "longest wait for a quiet machine over the whole bench")
	flag.StringVar(&cfg.benchRE, "bench", "Schedule1000|Sample200000|Herd|ReadHostile", "Go benchmarks to run, of calc and app/internal/importcfg")
	flag.IntVar(&cfg.benchCount, "count", 5, "go test -count of the benchmarks")
	flag.StringVar(&cfg.benchTime, "benchtime", "200ms", "go test -benchtime of the benchmarks")
	only := flag.String("only", strings.Join(phases, ","), "phases to run, of "+strings.Join(phases, ","))
	flag.StringVar(&cfg.csvDir, "csv-dir", "bench", "where the CSV goes")
	flag.BoolVar(&cfg.verbose, "v", false, "print every page load's figures and timeline on stderr")
	flag.Parse()
	verbose = cfg.verbose
	cfg.only = map[string]bool{}
	for _, p := range strings.Split(*only, ",") {
		p = strings.TrimSpace(p)
		if !slices.Contains(phases, p) {
			fmt.Fprintf(os.Stderr, "bench: -only %q: no phase %q, the phases are %s\n", *only, p, strings.Join(phases, ","))
			os.Exit(2)
		}
		cfg.only[p] = true
	}
	return cfg
}
