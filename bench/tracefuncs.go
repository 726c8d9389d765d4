//go:build !js

package main

// The trace phase by Go function: which of app.wasm's functions V8 compiles, and which it runs,
// in each step of a load from the wasm's instantiation on.
//
// V8 compiles a wasm function on its first call (lazily, with Liftoff, on the calling thread:
// the main thread), and its trace says which: "wasm.CompileLazy" (category v8.wasm) has
// args.func_index, nested "wasm.CompileBaseline" (disabled-by-default-v8.wasm.detailed)
// args.funcIndex and args.bodySize. Its sampling CPU profiler (disabled-by-default-v8.cpu_profiler,
// "Profile" and "ProfileChunk" events) names wasm frames "wasm-function[N]" with the same index.
// app.wasm is built with -s, so the names come from the same program built without -s
// (wasmsize.Funcs): the function index is the same in both.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"backoffcalc/bench/wasmsize"
)

// traceFuncs names the functions of the static site's app.wasm by index.
func traceFuncs(cfg *config, staticDir string) (map[int]wasmsize.Func, error) {
	tmp, err := os.MkdirTemp("", "backoffcalc-funcs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	return wasmsize.Funcs(cfg.goCmd, ".", tmp, wasmsize.Build{Label: "app.wasm", Pkg: "./app",
		Main: "backoffcalc/app (main)", Stripped: filepath.Join(staticDir, "web", "app.wasm")})
}

// funcShare is what one function, or one package, or one kind of work, took.
type funcShare struct {
	name  string
	ms    float64
	cpu   float64 // of ms, the thread's CPU time, when known: the rest it waited for a CPU
	n     int     // functions compiled, or samples
	bytes int     // code section bytes of the functions compiled
}

// tally sums shares by name.
type tally map[string]*funcShare

func (t tally) add(name string, ms, cpu float64, bytes int) {
	s := t[name]
	if s == nil {
		s = &funcShare{name: name}
		t[name] = s
	}
	s.ms += ms
	s.cpu += cpu
	s.n++
	s.bytes += bytes
}

// top is the k largest shares, largest first, and the sum of the rest: by CPU time where it is
// known (on a shared machine a compile's wall time is mostly waiting), then by time.
func (t tally) top(k int) ([]*funcShare, funcShare) {
	all := make([]*funcShare, 0, len(t))
	for _, s := range t {
		all = append(all, s)
	}
	slices.SortFunc(all, func(a, b *funcShare) int {
		return cmp.Or(cmp.Compare(b.cpu, a.cpu), cmp.Compare(b.ms, a.ms), cmp.Compare(a.name, b.name))
	})
	var rest funcShare
	if len(all) > k {
		for _, s := range all[k:] {
			rest.ms += s.ms
			rest.cpu += s.cpu
			rest.n += s.n
			rest.bytes += s.bytes
		}
		all = all[:k]
	}
	return all, rest
}

// shortPkg shortens go-app's import paths, which are most of the names.
func shortPkg(pkg string) string {
	return strings.Replace(pkg, "github.com/maxence-charriere/go-app/v9/pkg/", "go-app/", 1)
}

// funcName is f's name with its package as shortPkg writes it; the linker writes the package
// path with '_' for every character but letters, digits, '_' and '.'.
func funcName(f wasmsize.Func) string {
	linked := strings.Map(func(r rune) rune {
		if r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, f.Pkg)
	name := f.Name
	if rest, ok := strings.CutPrefix(name, linked+"."); ok {
		name = shortPkg(f.Pkg) + "." + rest
	}
	return pointerRecv.ReplaceAllString(name, ".(*$1).")
}

// pointerRecv is a method's pointer receiver, "(*page)." as the linker writes it.
var pointerRecv = regexp.MustCompile(`\.__(\w+?)_\.`)

// lookup is the function of index i, or one that says it is unknown.
func lookup(funcs map[int]wasmsize.Func, i int) wasmsize.Func {
	if f, ok := funcs[i]; ok {
		return f
	}
	return wasmsize.Func{Name: "wasm-function[" + strconv.Itoa(i) + "]", Pkg: "(not in app.wasm's code section)"}
}

// stepsFrom is the steps of r from the Go runtime's start on.
func stepsFrom(r loadResult) []traceStep {
	steps := traceSteps(r)
	for i, s := range steps {
		if s.name == stepRuntime {
			return steps[i:]
		}
	}
	return nil
}

// traceCompiles attributes the main thread's lazy compiles in each step, from the Go runtime's
// start on, to the functions compiled and their packages.
func traceCompiles(c string, tc traceClock, r loadResult, events []traceEvent, funcs map[int]wasmsize.Func) []row {
	sec := traceSection(c) + ", wasm compiled lazily on the main thread, by Go package"
	steps := stepsFrom(r)
	pkgs := make([]tally, len(steps))
	fns := make([]tally, len(steps))
	for i := range steps {
		pkgs[i], fns[i] = tally{}, tally{}
	}
	later := 0
	for _, e := range events {
		if e.Name != "wasm.CompileLazy" || e.Ph != "X" || e.PID != tc.pid || e.TID != tc.mainTID {
			continue
		}
		var args struct {
			FuncIndex *int `json:"func_index"`
		}
		if json.Unmarshal(e.Args, &args) != nil || args.FuncIndex == nil {
			continue
		}
		t := tc.ms(e.TS)
		i := slices.IndexFunc(steps, func(s traceStep) bool { return s.from <= t && t < s.to })
		if i < 0 {
			later++
			continue
		}
		f := lookup(funcs, *args.FuncIndex)
		pkgs[i].add(shortPkg(f.Pkg), e.Dur/1000, e.TDur/1000, f.Size)
		fns[i].add(funcName(f), e.Dur/1000, e.TDur/1000, f.Size)
	}
	var rows []row
	for i, s := range steps {
		all, _ := pkgs[i].top(math.MaxInt)
		var sum funcShare
		for _, p := range all {
			sum.ms += p.ms
			sum.cpu += p.cpu
			sum.n += p.n
			sum.bytes += p.bytes
		}
		rows = append(rows, row{section: sec, metric: s.name, value: sum.ms, unit: "ms",
			note: fmt.Sprintf("of %.0f ms: %d functions, %.0f KB of code, %.0f ms of it on the CPU (the rest off it: waiting for a CPU, or blocked); by package: %s",
				s.to-s.from, sum.n, float64(sum.bytes)/1000, sum.cpu, shares(pkgs[i], 6, "fns"))})
		if verbose {
			fmt.Fprintf(os.Stderr, "bench: trace %s, compiled in %q: %s\n", c, s.name, shares(fns[i], 10, ""))
		}
		if s.name == stepRender {
			rows = append(rows, row{section: sec, metric: "the 10 functions our first render takes most CPU to compile", value: float64(sum.n), unit: "count",
				note: shares(fns[i], 10, "")})
		}
	}
	if verbose {
		writeFuncTable(c, "compiled", steps, fns)
	}
	rows = append(rows, row{section: sec, metric: "compiled lazily once the wasm is in charge", value: float64(later), unit: "count",
		note: "functions V8 compiled on the main thread after the steps above, until the trace stopped"})
	return rows
}

// shares writes the k largest of t as "name 12 ms (34 fns, 5.6 KB, CPU 9.0 ms)"; what is a unit for n
// ("fns", "samples"), or "" to leave n out; the rest is summed.
func shares(t tally, k int, what string) string {
	top, rest := t.top(k)
	one := func(s funcShare) string {
		x := fmt.Sprintf("%s %.0f ms", s.name, s.ms)
		if s.ms < 10 {
			x = fmt.Sprintf("%s %.1f ms", s.name, s.ms)
		}
		var in []string
		if what != "" {
			in = append(in, fmt.Sprintf("%d %s", s.n, what))
		}
		if s.bytes > 0 {
			in = append(in, fmt.Sprintf("%.1f KB", float64(s.bytes)/1000))
		}
		if s.cpu > 0 {
			in = append(in, fmt.Sprintf("CPU %.1f ms", s.cpu))
		}
		if len(in) > 0 {
			x += " (" + strings.Join(in, ", ") + ")"
		}
		return x
	}
	var parts []string
	for _, s := range top {
		parts = append(parts, one(*s))
	}
	if rest.n > 0 {
		rest.name = "the rest"
		parts = append(parts, one(rest))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// profileSample is one sample of the main thread: when, for how long (until the next sample),
// and the node of the profile's call tree it was in.
type profileSample struct {
	at, ms float64
	node   int
}

type profileNode struct {
	CallFrame struct {
		FunctionName string `json:"functionName"`
		URL          string `json:"url"`
		CodeType     string `json:"codeType"`
	} `json:"callFrame"`
	ID     int `json:"id"`
	Parent int `json:"parent"`
}

// mainProfile reads the main thread's CPU profile out of the trace: V8 writes one "Profile"
// event per thread, on that thread, then "ProfileChunk" events of the same id with the new nodes
// of the call tree, the samples (the leaf node of each) and the time from each sample to the
// one before (the first: from the profile's startTime), in µs.
func mainProfile(tc traceClock, events []traceEvent) (map[int]profileNode, []profileSample, error) {
	var args struct {
		Data struct {
			StartTime  float64 `json:"startTime"`
			CPUProfile struct {
				Nodes   []profileNode `json:"nodes"`
				Samples []int         `json:"samples"`
			} `json:"cpuProfile"`
			TimeDeltas []float64 `json:"timeDeltas"`
		} `json:"data"`
	}
	var id string
	t := 0.0 // µs, trace clock
	nodes := map[int]profileNode{}
	var samples []profileSample
	for _, e := range events {
		if e.PID != tc.pid || (e.Name != "Profile" && e.Name != "ProfileChunk") {
			continue
		}
		args.Data.CPUProfile.Nodes, args.Data.CPUProfile.Samples, args.Data.TimeDeltas = nil, nil, nil
		if json.Unmarshal(e.Args, &args) != nil {
			continue
		}
		switch {
		case e.Name == "Profile" && e.TID == tc.mainTID:
			id, t = string(e.ID), args.Data.StartTime
		case e.Name == "ProfileChunk" && id != "" && string(e.ID) == id:
			for _, n := range args.Data.CPUProfile.Nodes {
				nodes[n.ID] = n
			}
			for i, n := range args.Data.CPUProfile.Samples {
				if i >= len(args.Data.TimeDeltas) {
					break
				}
				t += args.Data.TimeDeltas[i]
				samples = append(samples, profileSample{at: tc.ms(t), node: n})
			}
		}
	}
	if len(samples) == 0 {
		return nil, nil, fmt.Errorf("no CPU profile of the main thread in the trace")
	}
	for i := 0; i+1 < len(samples); i++ {
		samples[i].ms = samples[i+1].at - samples[i].at
	}
	return nodes, samples, nil
}

// What the main thread's samples that are not in Go code were doing.
const (
	kindCompile = "compiling lazily"
	kindGo      = "running Go"
	kindGlue    = "wasm_exec.js (syscall/js)"
	kindJS      = "other JS and DOM calls"
	kindGC      = "V8's GC"
	kindV8      = "V8 and Blink, no JS on the stack"
	kindIdle    = "idle"
)

// traceProfile splits each step of the load r, from the Go runtime's start on, by the main
// thread's CPU profile: compiling (a sample within a wasm.CompileLazy, charged to the package
// of the function compiled), running Go (a sample whose leaf is a wasm function: its self time,
// charged to its package), and the rest by what is on top of the stack.
func traceProfile(c string, tc traceClock, r loadResult, events []traceEvent, funcs map[int]wasmsize.Func) []row {
	sec := traceSection(c) + ", the main thread's samples by Go package"
	nodes, samples, err := mainProfile(tc, events)
	if err != nil {
		return []row{{section: sec, metric: "CPU profile", value: math.NaN(), note: err.Error()}}
	}
	type compile struct {
		from, to float64
		f        wasmsize.Func
	}
	var compiles []compile
	lazy := 0.0
	for _, e := range events {
		if e.Name != "wasm.CompileLazy" || e.Ph != "X" || e.PID != tc.pid || e.TID != tc.mainTID {
			continue
		}
		var args struct {
			FuncIndex int `json:"func_index"`
		}
		if json.Unmarshal(e.Args, &args) == nil {
			compiles = append(compiles, compile{tc.ms(e.TS), tc.ms(e.TS + e.Dur), lookup(funcs, args.FuncIndex)})
			lazy += e.Dur / 1000
		}
	}
	slices.SortFunc(compiles, func(a, b compile) int { return cmp.Compare(a.from, b.from) })
	steps := stepsFrom(r)
	kinds := make([]tally, len(steps))
	compiled := make([]tally, len(steps)) // by package
	ran := make([]tally, len(steps))      // by package
	ranFns := make([]tally, len(steps))
	for i := range steps {
		kinds[i], compiled[i], ran[i], ranFns[i] = tally{}, tally{}, tally{}, tally{}
	}
	for _, s := range samples {
		i := slices.IndexFunc(steps, func(x traceStep) bool { return x.from <= s.at && s.at < x.to })
		if i < 0 {
			continue
		}
		k, _ := slices.BinarySearchFunc(compiles, s.at, func(c compile, t float64) int { return cmp.Compare(c.from, t) })
		if k > 0 && s.at < compiles[k-1].to {
			kinds[i].add(kindCompile, s.ms, 0, 0)
			compiled[i].add(shortPkg(compiles[k-1].f.Pkg), s.ms, 0, 0)
			continue
		}
		cf := nodes[s.node].CallFrame
		var n int
		switch _, err := fmt.Sscanf(cf.FunctionName, "wasm-function[%d]", &n); {
		case cf.CodeType == "wasm" && err == nil:
			f := lookup(funcs, n)
			kinds[i].add(kindGo, s.ms, 0, 0)
			ran[i].add(shortPkg(f.Pkg), s.ms, 0, 0)
			ranFns[i].add(funcName(f), s.ms, 0, 0)
		case strings.HasSuffix(cf.URL, "/wasm_exec.js") || cf.FunctionName == "wasm-to-js" || cf.FunctionName == "js-to-wasm":
			kinds[i].add(kindGlue, s.ms, 0, 0)
		case cf.CodeType == "JS":
			kinds[i].add(kindJS, s.ms, 0, 0)
		case cf.FunctionName == "(garbage collector)":
			kinds[i].add(kindGC, s.ms, 0, 0)
		case cf.FunctionName == "(idle)":
			kinds[i].add(kindIdle, s.ms, 0, 0)
		default:
			kinds[i].add(kindV8, s.ms, 0, 0)
		}
	}
	var rows []row
	for i, s := range steps {
		get := func(k string) float64 {
			if x := kinds[i][k]; x != nil {
				return x.ms
			}
			return 0
		}
		note := fmt.Sprintf("%s %.0f ms: %s | %s %.0f ms: %s | %s %.0f, %s %.0f, %s %.0f, %s %.0f, %s %.0f ms",
			kindCompile, get(kindCompile), shares(compiled[i], 4, ""), kindGo, get(kindGo), shares(ran[i], 5, ""),
			kindGlue, get(kindGlue), kindJS, get(kindJS), kindGC, get(kindGC), kindV8, get(kindV8), kindIdle, get(kindIdle))
		rows = append(rows, row{section: sec, metric: s.name, value: s.to - s.from, unit: "ms", note: note})
		if verbose {
			fmt.Fprintf(os.Stderr, "bench: trace %s, ran in %q: %s\n", c, s.name, shares(ranFns[i], 10, ""))
		}
		if s.name == stepRender {
			rows = append(rows, row{section: sec, metric: "the 10 functions our first render runs longest (self time)", value: get(kindGo), unit: "ms",
				note: shares(ranFns[i], 10, "")})
		}
	}
	if verbose {
		writeFuncTable(c, "ran", steps, ranFns)
	}
	rows = append(rows, row{section: sec, metric: "lazy compiles under the profiler", value: float64(len(compiles)), unit: "count",
		note: fmt.Sprintf("%.0f ms in all, %.2f ms each: the profiler also logs every function compiled; compare with the unprofiled loads above", lazy, lazy/math.Max(1, float64(len(compiles))))})
	return rows
}

// writeFuncTable writes every function of t, step by step, to traceFile(c, "-"+what+".tsv"):
// the step, the function, its ms, CPU ms, count (compiles or samples) and code bytes, largest
// first. The log shows only the ten largest of each step; grouping a step's functions by what
// they do needs them all (docs/performance.md, "What go-app's first render does").
func writeFuncTable(c, what string, steps []traceStep, t []tally) {
	var b strings.Builder
	b.WriteString("step\tfunction\tms\tcpu_ms\tn\tbytes\n")
	for i, s := range steps {
		all, _ := t[i].top(math.MaxInt)
		for _, f := range all {
			fmt.Fprintf(&b, "%s\t%s\t%.3f\t%.3f\t%d\t%d\n", s.name, f.name, f.ms, f.cpu, f.n, f.bytes)
		}
	}
	path := traceFile(c, "-"+what+".tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bench: trace:", err)
		return
	}
	fmt.Fprintf(os.Stderr, "bench: trace %s: every function %s, by step, written to %s\n", c, what, path)
}
