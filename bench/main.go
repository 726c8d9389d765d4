//go:build !js

// Command bench measures the page and the calculator: app.wasm's size against an empty go-app
// page, the time from navigation to the right numbers on screen (cold, warm, offline; serve and
// the static site), input-to-screen latency, the herd's time and longest main-thread task, and
// calc's Go benchmarks natively and under WebAssembly. Run it from the repository root after
// `make wasm native`, as `make bench` does; it prints a table and writes it as CSV under bench/.
//
// Every browser figure is taken in headless Chromium on 127.0.0.1 by a script the page runs
// first (see measureJS), and is the median of -runs runs.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"backoffcalc/internal/headless"
)

type config struct {
	bin, goCmd, goroot, chromium string
	runs, edits                  int
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
	heavyQuery  = "attempts=1000&samples=200000"       // the heaviest schedule the page accepts
)

var phases = []string{"sizes", "loads", "input", "herd", "go"}

func main() {
	cfg := &config{}
	flag.StringVar(&cfg.bin, "bin", "bin/backoffcalc", "the native program, built by make native")
	flag.StringVar(&cfg.goCmd, "go", "go", "the go command")
	flag.StringVar(&cfg.chromium, "chromium", headless.Path(), "Chromium (default $CHROMIUM or /usr/bin/chromium)")
	flag.IntVar(&cfg.runs, "runs", 5, "runs of every page load and herd figure (the median is shown)")
	flag.IntVar(&cfg.edits, "edits", 50, "edits of each input-to-screen figure")
	flag.DurationVar(&cfg.heavyBudget, "heavy-budget", 30*time.Second,
		"time for the edits at "+heavyQuery+" after the first; fewer than -edits when they are slow")
	flag.DurationVar(&cfg.heavyTimeout, "heavy-timeout", 45*time.Second,
		"longest wait for the "+heavyQuery+" link, and for one edit there, before giving up")
	flag.Float64Var(&cfg.quietBusy, "quiet", 60, "before each measurement, wait for a second with the CPUs at most this `percent` busy…")
	flag.DurationVar(&cfg.quietWait, "quiet-wait", 10*time.Second, "… but no longer than this (0: do not wait), and no longer than -quiet-total in all")
	flag.DurationVar(&cfg.quietTotal, "quiet-total", time.Minute, "longest wait for a quiet machine over the whole bench")
	flag.StringVar(&cfg.benchRE, "bench", "Schedule1000|Sample200000|Herd", "calc benchmarks to run")
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
	if cfg.runs < 1 || cfg.edits < 1 {
		return fmt.Errorf("-runs and -edits must be at least 1")
	}
	for _, f := range []string{cfg.bin, "web/app.wasm", "wasm_exec.js"} {
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
	step("input", func() error { return measureInput(cfg, res) })
	step("herd", func() error { return measureHerd(cfg, res) })
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

// cpuBusy is the share of CPU time, in percent, that was not idle over d, from /proc/stat; NaN
// when it cannot tell.
func cpuBusy(d time.Duration) float64 {
	read := func() (busy, total float64, ok bool) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, false
		}
		f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
		if len(f) < 6 || f[0] != "cpu" {
			return 0, 0, false
		}
		for i, v := range f[1:] {
			x := atof(v)
			total += x
			if i != 3 && i != 4 { // idle, iowait
				busy += x
			}
		}
		return busy, total, true
	}
	b0, t0, ok0 := read()
	time.Sleep(d)
	b1, t1, ok1 := read()
	if !ok0 || !ok1 || t1 == t0 {
		return math.NaN()
	}
	return 100 * (b1 - b0) / (t1 - t0)
}

// quiet counts the waits for a quiet machine.
var quiet struct {
	waits, busy int
	waited      time.Duration
}

// waitQuiet waits, before a measurement, until the CPUs were at most -quiet percent busy over a
// second, or -quiet-wait has passed: other work on a shared machine comes in bursts. The
// measurement's own servers and browser are idle or stopped when it is called.
func waitQuiet(cfg *config) {
	if cfg.quietWait <= 0 || quiet.waited >= cfg.quietTotal {
		return
	}
	start := time.Now()
	quiet.waits++
	for {
		b := cpuBusy(time.Second)
		if math.IsNaN(b) || b <= cfg.quietBusy {
			break
		}
		if time.Since(start) > cfg.quietWait || quiet.waited+time.Since(start) > cfg.quietTotal {
			quiet.busy++
			fmt.Fprintf(os.Stderr, "bench: the machine is still %.0f%% busy after %s; measuring anyway\n", b, cfg.quietWait)
			break
		}
	}
	quiet.waited += time.Since(start)
}

// loadAverage is the 1, 5 and 15 minute load averages.
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

// machine describes what the figures are measured on.
func machine(cfg *config) [][2]string {
	model, mem := "?", "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
				var kb float64
				fmt.Sscan(f[1], &kb)
				mem = fmt.Sprintf("%.1f GiB", kb/(1<<20))
			}
		}
	}
	out := func(name string, args ...string) string {
		b, err := exec.Command(name, args...).Output() // stdout only: Debian's chromium wrapper chatters on stderr
		if err != nil {
			return "? (" + err.Error() + ")"
		}
		return strings.TrimSpace(string(b))
	}
	rev := out("git", "rev-parse", "--short", "HEAD")
	if st, err := exec.Command("git", "status", "--porcelain", "--", "app", "calc", "web", "go.mod").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += " with uncommitted changes in app/, calc/, web/ or go.mod"
	}
	return [][2]string{
		{"machine", fmt.Sprintf("%d CPUs (nproc), %s, %s memory, %s/%s", runtime.NumCPU(), model, mem, runtime.GOOS, runtime.GOARCH)},
		{"software", fmt.Sprintf("%s; %s; node %s", out(cfg.goCmd, "version"), out(cfg.chromium, "--version"), out("node", "--version"))},
		{"source", rev},
		{"load", fmt.Sprintf("load average %s, CPUs %.0f%% busy over the 2 s before the bench started (other work on the machine skews every figure)", loadAverage(), cpuBusy(2*time.Second))},
		{"browser", "headless Chromium on 127.0.0.1, a fresh profile per cold run; times in-page (performance.now in requestAnimationFrame, PerformanceObserver)"},
		{"started", time.Now().Format(time.RFC3339)},
	}
}

func measureSizes(cfg *config, res *results, base *baseline, staticDir string) error {
	const sec = "app.wasm size"
	appRaw, err := fileSize("web/app.wasm")
	if err != nil {
		return err
	}
	appGz, how, err := gzipSize("web/app.wasm")
	if err != nil {
		return err
	}
	baseRaw, err := fileSize(base.wasm)
	if err != nil {
		return err
	}
	baseGz, _, err := gzipSize(base.wasm)
	if err != nil {
		return err
	}
	fullRaw, _ := fileSize(base.wasmFull)
	fullGz, _, _ := gzipSize(base.wasmFull)
	pct := func(a, b int64) string { return fmt.Sprintf("%+.1f%% of the baseline", 100*float64(a-b)/float64(b)) }
	limit := float64(baseGz) * 1.10
	res.add(row{section: sec, metric: "app.wasm raw", value: float64(appRaw), unit: "bytes", note: "web/app.wasm as make wasm builds it"})
	res.add(row{section: sec, metric: "app.wasm gzip", value: float64(appGz), unit: "bytes",
		target: fmt.Sprintf("<= %.0f", limit), met: atMost(float64(appGz), limit), note: how + "; target: the baseline's gzip + 10%"})
	res.add(row{section: sec, metric: "baseline raw", value: float64(baseRaw), unit: "bytes", note: "empty go-app v9.8.0 page (bench/baseline), built the same way"})
	res.add(row{section: sec, metric: "baseline gzip", value: float64(baseGz), unit: "bytes", note: how})
	res.add(row{section: sec, metric: "app.wasm − baseline, raw", value: float64(appRaw - baseRaw), unit: "bytes", note: pct(appRaw, baseRaw)})
	res.add(row{section: sec, metric: "app.wasm − baseline, gzip", value: float64(appGz - baseGz), unit: "bytes", note: pct(appGz, baseGz)})
	res.add(row{section: sec, metric: "baseline with its server in the wasm, raw", value: float64(fullRaw), unit: "bytes",
		note: "go-app's one-file getting-started form (-tags singlefile): net/http's server compiled into the wasm"})
	res.add(row{section: sec, metric: "baseline with its server in the wasm, gzip", value: float64(fullGz), unit: "bytes", note: how})

	pre, err := precompressed(staticDir)
	if err != nil {
		return err
	}
	brNote := "not measured: the static site ships no precompressed files (.br, .gz)"
	if len(pre) > 0 {
		brNote = "the static site ships precompressed files: " + strings.Join(pre, " ")
		for _, p := range pre {
			if strings.HasSuffix(p, "app.wasm.br") {
				n, _ := fileSize(p)
				res.add(row{section: sec, metric: "app.wasm brotli (shipped)", value: float64(n), unit: "bytes"})
			}
		}
	}
	res.add(row{section: sec, metric: "app.wasm brotli", value: math.NaN(), note: brNote})

	srv, err := startServe(cfg)
	if err != nil {
		return err
	}
	defer srv.stop()
	enc, n, err := wireEncoding(srv.url + "/web/app.wasm")
	if err != nil {
		return err
	}
	if enc == "" {
		enc = "none"
	}
	res.add(row{section: sec, metric: "app.wasm over serve's wire", value: float64(n), unit: "bytes",
		note: "asked with Accept-Encoding: gzip, deflate, br; Content-Encoding: " + enc})
	return measureSizeAccount(cfg, res, base) // by package and by section: wasmsize.go
}

// verbose is -v.
var verbose bool

// loadOnce navigates and returns what the page recorded once the wasm rendered the wanted numbers.
func loadOnce(b *browser, url string) (loadResult, error) {
	return loadWithin(b, url, 120*time.Second)
}

func loadWithin(b *browser, url string, timeout time.Duration) (loadResult, error) {
	if err := b.navigate(url, 90*time.Second); err != nil {
		return loadResult{}, fmt.Errorf("loading %s: %w", url, err)
	}
	r, err := eval[loadResult](b, `__bench.loaded.then(() => __bench.result())`, timeout)
	if err != nil {
		return loadResult{}, fmt.Errorf("waiting for the right numbers at %s: %w", url, err)
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "bench: %s: %+v\n", url, r)
		if tl, err := eval[[]string](b, `__bench.timeline()`, 10*time.Second); err == nil {
			fmt.Fprintf(os.Stderr, "\t%s\n", strings.Join(tl, "\n\t"))
		}
	}
	return r, nil
}

// loadRuns collects one case's loads.
type loadRuns struct {
	results []loadResult
	errs    []string
}

func (l *loadRuns) add(r loadResult, err error) {
	if err != nil {
		l.errs = append(l.errs, err.Error())
		fmt.Fprintln(os.Stderr, "bench:", err)
		return
	}
	l.results = append(l.results, r)
}

func (l *loadRuns) values(f func(loadResult) float64) []float64 {
	v := make([]float64, 0, len(l.results))
	for _, r := range l.results {
		v = append(v, f(r))
	}
	return v
}

func (l *loadRuns) count(f func(loadResult) bool) float64 {
	n := 0
	for _, r := range l.results {
		if f(r) {
			n++
		}
	}
	return float64(n)
}

func (l *loadRuns) failures() string {
	if len(l.errs) == 0 {
		return ""
	}
	return fmt.Sprintf("%d run(s) failed: %s", len(l.errs), l.errs[0])
}

func measureLoads(cfg *config, res *results, base *baseline, staticDir string) error {
	const sec = "shared link ?" + sharedQuery + ": ms from navigation start"
	w, err := scheduleWant(cfg, sharedQuery)
	if err != nil {
		return err
	}
	for _, site := range []struct {
		name  string
		start func() (*server, error)
	}{
		{"serve", func() (*server, error) { return startServe(cfg) }},
		{"static", func() (*server, error) { return startFiles(staticDir) }},
	} {
		cases := map[string]*loadRuns{"cold": {}, "warm": {}, "offline": {}}
		for i := 0; i < cfg.runs; i++ {
			if err := loadRun(cfg, site.start, w, cases); err != nil {
				return err
			}
		}
		for _, c := range []string{"cold", "warm", "offline"} {
			l := cases[c]
			name := site.name + " " + c + ": "
			v := func(f func(loadResult) float64) (float64, []float64) {
				xs := l.values(f)
				return median(xs), xs
			}
			m, xs := v(func(r loadResult) float64 { return r.First })
			res.add(row{section: sec, metric: name + "first numbers", value: m, unit: "ms", runs: xs,
				note: "every row right; sampled percentiles may still be pending"})
			m, xs = v(func(r loadResult) float64 { return r.Shown })
			x := row{section: sec, metric: name + "numbers on screen", value: m, unit: "ms", runs: xs,
				note: "every number right and visible, server pre-render or wasm"}
			if site.name == "serve" && c == "cold" {
				x.target, x.met = "<= 60", atMost(x.value, 60)
			}
			res.add(x)
			m, xs = v(func(r loadResult) float64 { return r.Interactive })
			x = row{section: sec, metric: name + "interactive", value: m, unit: "ms", runs: xs,
				note: "every number right, rendered by the wasm"}
			if c == "cold" {
				x.target, x.met = "<= 800", atMost(x.value, 800)
			} else {
				x.target, x.met = "<= 300", atMost(x.value, 300)
				x.note += fmt.Sprintf("; %.0f of %d loads answered by the service worker", l.count(func(r loadResult) bool { return r.Controlled }), len(l.results))
			}
			if f := l.failures(); f != "" {
				x.note += "; " + f
			}
			res.add(x)
			wrong := l.count(func(r loadResult) bool { return r.Wrong >= 0 })
			x = row{section: sec, metric: name + "loads showing other numbers", value: wrong, unit: "runs",
				note: fmt.Sprintf("of %d: a visible schedule cell, not pending, with another value", len(l.results))}
			if site.name == "static" {
				x.target, x.met = "0", atMost(wrong, 0)
			}
			res.add(x)
			lostNote := fmt.Sprintf("of %d: every number was on screen, then not", len(l.results))
			for _, r := range l.results {
				if r.Lost >= 0 {
					lostNote += fmt.Sprintf("; e.g. at %.0f ms: %s", r.Lost, r.LostWhat)
					break
				}
			}
			res.add(row{section: sec, metric: name + "loads where numbers went back to pending", value: l.count(func(r loadResult) bool { return r.Lost >= 0 }),
				unit: "runs", note: lostNote})
			m, xs = v(func(r loadResult) float64 { return r.FCP })
			res.add(row{section: sec, metric: name + "first contentful paint", value: m, unit: "ms", runs: xs})
			m, xs = v(func(r loadResult) float64 { return r.LongestTask })
			res.add(row{section: sec, metric: name + "longest task until interactive", value: m, unit: "ms", runs: xs, note: "Long Tasks API; 0 = none over 50 ms"})
			if c == "cold" {
				m, xs = v(func(r loadResult) float64 { return r.WasmEnd })
				res.add(row{section: sec, metric: name + "app.wasm received", value: m, unit: "ms", runs: xs, note: "responseEnd of app.wasm"})
				m, xs = v(func(r loadResult) float64 { return r.Transferred })
				res.add(row{section: sec, metric: name + "bytes transferred", value: m, unit: "bytes", runs: xs, note: "transferSize of the page and every resource until interactive"})
			}
		}
	}

	// What this browser on this machine needs for any page, and what go-app alone costs: a
	// page of plain HTML, and the go-app baseline, cold.
	l, err := coldLoads(cfg, func() (*server, error) { return startPlain() })
	if err != nil {
		return err
	}
	shown := l.values(func(r loadResult) float64 { return r.Shown })
	res.add(row{section: sec, metric: "plain HTML page cold: on screen", value: median(shown), unit: "ms", runs: shown,
		note: "the floor: one heading, no CSS, no script, same browser set-up " + l.failures()})
	if l, err = coldLoads(cfg, base.start); err != nil {
		return err
	}
	shown = l.values(func(r loadResult) float64 { return r.Shown })
	inter := l.values(func(r loadResult) float64 { return r.Interactive })
	res.add(row{section: sec, metric: "go-app baseline cold: pre-render on screen", value: median(shown), unit: "ms", runs: shown,
		note: "empty go-app page served by its own go-app Handler " + l.failures()})
	res.add(row{section: sec, metric: "go-app baseline cold: wasm rendered", value: median(inter), unit: "ms", runs: inter})
	return nil
}

// coldLoads loads a page cfg.runs times, each in a fresh profile, and waits for the baseline's
// markers: a visible h1 in #app, then #app[data-render="wasm"].
func coldLoads(cfg *config, start func() (*server, error)) (*loadRuns, error) {
	l := &loadRuns{}
	for i := 0; i < cfg.runs; i++ {
		waitQuiet(cfg)
		srv, err := start()
		if err != nil {
			return nil, err
		}
		b, err := startBrowser(cfg)
		if err != nil {
			srv.stop()
			return nil, err
		}
		if err := b.setWant(want{Kind: "baseline"}); err != nil {
			b.close()
			srv.stop()
			return nil, err
		}
		l.add(loadOnce(b, srv.url+"/"))
		b.close()
		srv.stop()
	}
	return l, nil
}

// loadRun is one run of a site: a cold load in a fresh profile, a warm load once the service
// worker is installed, and an offline load with the HTTP cache cleared and the server stopped.
func loadRun(cfg *config, start func() (*server, error), w want, cases map[string]*loadRuns) error {
	waitQuiet(cfg)
	srv, err := start()
	if err != nil {
		return err
	}
	stopped := false
	defer func() {
		if !stopped {
			srv.stop()
		}
	}()
	b, err := startBrowser(cfg)
	if err != nil {
		return err
	}
	defer b.close()
	if err := b.setWant(w); err != nil {
		return err
	}
	url := srv.url + "/?" + sharedQuery
	r, err := loadOnce(b, url)
	cases["cold"].add(r, err)
	if err != nil {
		return nil
	}
	if err := b.waitServiceWorker(30 * time.Second); err != nil {
		cases["warm"].add(loadResult{}, err)
		cases["offline"].add(loadResult{}, err)
		return nil
	}
	cases["warm"].add(loadOnce(b, url))
	if err := b.clearHTTPCache(); err != nil {
		return err
	}
	srv.stop()
	stopped = true
	cases["offline"].add(loadOnce(b, url))
	return nil
}

// editRuns are the edits of one case; ms and first as editResult's, timedOut the edits whose
// table was not complete within the timeout (their first numbers are in first).
type editRuns struct {
	ms, first, handler []float64
	timedOut           int
	errs               []string
}

// editsWith measures edits of #in-base at query in a page already loaded: base 101ms, 102ms, ...
// It stops after cfg.edits, once budget has passed after the first edit, or after an edit that
// timed out, as the next would too.
func editsWith(cfg *config, b *browser, query string, heavy bool, budget, timeout time.Duration) (*editRuns, error) {
	e := &editRuns{}
	start := time.Now()
	for i := 0; i < cfg.edits; i++ {
		if i > 0 && budget > 0 && time.Since(start) > budget {
			break
		}
		value := fmt.Sprintf("%dms", 101+i)
		q := "base=" + value
		if query != "" {
			q = query + "&" + q
		}
		var w want
		var err error
		if heavy {
			w, err = heavyWant(q)
		} else {
			w, err = scheduleWant(cfg, q)
		}
		if err != nil {
			return nil, err
		}
		js, err := jsonArgs("#in-base", value, w, timeout.Milliseconds())
		if err != nil {
			return nil, err
		}
		r, err := eval[editResult](b, "__bench.edit("+js+")", timeout+30*time.Second)
		switch {
		case err == nil && r.Error == "":
			e.ms = append(e.ms, r.MS)
			e.first = append(e.first, r.First)
			e.handler = append(e.handler, r.Handler)
		case err == nil && r.Error == "timeout":
			e.timedOut++
			if r.First >= 0 {
				e.first = append(e.first, r.First)
			}
			e.handler = append(e.handler, r.Handler)
			return e, nil
		default:
			if err == nil {
				err = errors.New(r.Error)
			}
			err = fmt.Errorf("edit to base=%s: %w", value, err)
			e.errs = append(e.errs, err.Error())
			fmt.Fprintln(os.Stderr, "bench:", err)
			if heavy {
				return e, nil
			}
			continue
		}
		if busy, err := eval[string](b, "__bench.idle(60000)", 70*time.Second); err != nil || busy != "" {
			fmt.Fprintln(os.Stderr, "bench: after an edit:", busy, err)
		}
	}
	return e, nil
}

// startWarmPage starts serve and a browser whose service worker is installed, so that the links
// measured next are answered from its cache (serve would otherwise pre-render a heavy table
// natively before answering). stop ends both.
func startWarmPage(cfg *config) (srv *server, b *browser, stop func(), err error) {
	if srv, err = startServe(cfg); err != nil {
		return nil, nil, nil, err
	}
	if b, err = startBrowser(cfg); err != nil {
		srv.stop()
		return nil, nil, nil, err
	}
	stop = func() { b.close(); srv.stop() }
	if err = b.setWant(want{Kind: "wasm"}); err == nil {
		if _, err = loadOnce(b, srv.url+"/"); err == nil {
			err = b.waitServiceWorker(30 * time.Second)
		}
	}
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return srv, b, stop, nil
}

func measureInput(cfg *config, res *results) error {
	const sec = "input to screen: ms from the input event on #in-base to the first frame showing the new table"
	srv, b, stop, err := startWarmPage(cfg)
	if err != nil {
		return err
	}
	defer stop()
	for _, c := range []struct {
		name, query          string
		heavy                bool
		p50Target, p95Target float64
	}{
		{"defaults", "", false, 5, 16},
		{heavyQuery, heavyQuery, true, 100, 100},
	} {
		url := srv.url + "/"
		loadTimeout, editTimeout, budget := 120*time.Second, 10*time.Second, time.Duration(0)
		w := want{Kind: "wasm"}
		if c.heavy {
			url += "?" + c.query
			loadTimeout, editTimeout, budget = cfg.heavyTimeout, cfg.heavyTimeout, cfg.heavyBudget
			if w, err = heavyWant(c.query); err != nil {
				return err
			}
		}
		if err := b.setWant(w); err != nil {
			return err
		}
		lr, err := loadWithin(b, url, loadTimeout)
		if c.heavy {
			x := row{section: sec, metric: c.name + ": the link, from the service worker, until its table is complete", value: lr.Interactive, unit: "ms",
				note: "one load: how long the wasm takes to compute this table at all"}
			if err != nil {
				x.value, x.note = math.NaN(), fmt.Sprintf("> %s: not complete within -heavy-timeout; the edits start anyway", cfg.heavyTimeout)
			}
			res.add(x)
			if ok, _ := eval[bool](b, `!!document.querySelector('#app[data-render="wasm"] #in-base')`, 10*time.Second); !ok {
				return fmt.Errorf("%s: the wasm did not render the page: %v", url, err)
			}
		} else if err != nil {
			return err
		}
		if busy, err := eval[string](b, "__bench.idle(60000)", 70*time.Second); err != nil || busy != "" {
			fmt.Fprintln(os.Stderr, "bench: before the edits:", busy, err)
		}
		if err == nil { // else the page is still computing, and keeps the machine busy itself
			waitQuiet(cfg)
		}
		e, err := editsWith(cfg, b, c.query, c.heavy, budget, editTimeout)
		if err != nil {
			return err
		}
		note := ""
		switch {
		case len(e.errs) > 0:
			note = fmt.Sprintf("%d edit(s) failed: %s", len(e.errs), e.errs[0])
		case e.timedOut > 0:
			note = fmt.Sprintf("> %s: the table was not complete within the timeout (%d edit(s) measured before)", editTimeout, len(e.ms))
		case len(e.ms) < cfg.edits:
			note = fmt.Sprintf("%d of %d edits: -heavy-budget %s ran out", len(e.ms), cfg.edits, cfg.heavyBudget)
		}
		p50, p95 := percentile(e.ms, 50), percentile(e.ms, 95)
		res.add(row{section: sec, metric: c.name + ": p50", value: p50, unit: "ms", runs: e.ms,
			target: fmt.Sprintf("< %g", c.p50Target), met: below(p50, c.p50Target), note: note})
		res.add(row{section: sec, metric: c.name + ": p95", value: p95, unit: "ms", runs: e.ms,
			target: fmt.Sprintf("< %g", c.p95Target), met: below(p95, c.p95Target)})
		res.add(row{section: sec, metric: c.name + ": first numbers, p50", value: percentile(e.first, 50), unit: "ms", runs: e.first,
			note: "every row right, sampled percentiles maybe still pending"})
		res.add(row{section: sec, metric: c.name + ": first numbers, p95", value: percentile(e.first, 95), unit: "ms", runs: e.first})
		res.add(row{section: sec, metric: c.name + ": input event handler, p50", value: percentile(e.handler, 50), unit: "ms", runs: e.handler,
			note: "how long dispatching the input event blocked"})
	}
	return nil
}

func below(v, limit float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v < limit {
		return "yes"
	}
	return "no"
}

func measureHerd(cfg *config, res *results) error {
	const sec = "herd: from the input event on #in-clients until #herd shows the 6 modes"
	srv, b, stop, err := startWarmPage(cfg)
	if err != nil {
		return err
	}
	defer stop()
	for _, c := range []struct{ name, from, clients, query string }{
		{"clients=10000", "", "10000", "clients=10000"},
		{"clients=100000&attempts=20 (the 2,000,000 limit)", "attempts=20", "100000", "clients=100000&attempts=20"},
	} {
		w, err := herdWantFor(cfg, c.query)
		if err != nil {
			return err
		}
		var ms, longest, gap, count []float64
		var errs []string
		for i := 0; i < cfg.runs; i++ {
			// A fresh page for every run, from the link before the edit, with its small herd done.
			if _, err := loadOnce(b, srv.url+"/?"+c.from); err != nil {
				return err
			}
			if busy, err := eval[string](b, "__bench.idle(60000)", 70*time.Second); err != nil || busy != "" {
				fmt.Fprintln(os.Stderr, "bench: before the herd:", busy, err)
			}
			waitQuiet(cfg)
			js, err := jsonArgs("#in-clients", c.clients, w, 300000)
			if err != nil {
				return err
			}
			r, err := eval[herdResult](b, "__bench.herd("+js+")", 310*time.Second)
			if err == nil && r.Error != "" {
				err = fmt.Errorf("herd %s: %s", c.query, r.Error)
			}
			if err != nil {
				errs = append(errs, err.Error())
				fmt.Fprintln(os.Stderr, "bench:", err)
				continue
			}
			ms = append(ms, r.MS)
			longest = append(longest, r.Longest)
			gap = append(gap, r.Gap)
			count = append(count, float64(r.Count))
		}
		note := "from ?" + c.from + ", clients set to " + c.clients
		if len(errs) > 0 {
			note += fmt.Sprintf("; %d run(s) failed: %s", len(errs), errs[0])
		}
		res.add(row{section: sec, metric: c.name + ": table complete", value: median(ms), unit: "ms", runs: ms, note: note})
		lt := median(longest)
		res.add(row{section: sec, metric: c.name + ": longest task meanwhile", value: lt, unit: "ms", runs: longest,
			target: "<= 50", met: atMost(lt, 50), note: "Long Tasks API (buffered); 0 = none over 50 ms"})
		res.add(row{section: sec, metric: c.name + ": long tasks meanwhile", value: median(count), unit: "count", runs: count})
		res.add(row{section: sec, metric: c.name + ": longest gap between frames", value: median(gap), unit: "ms", runs: gap,
			note: "requestAnimationFrame: the longest the page could not paint"})
	}
	return nil
}

func measureGo(cfg *config, res *results) error {
	const sec = "calc benchmarks (go test -bench, median of -count runs)"
	waitQuiet(cfg)
	order, native, ncmd, err := goBench(cfg, false)
	if err != nil {
		return err
	}
	waitQuiet(cfg)
	_, wasm, wcmd, err := goBench(cfg, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "bench: ran %s\nbench: ran %s\n", ncmd, wcmd)
	targets := map[string]float64{"Schedule1000": 50e3, "Herd100000x20": 1e9} // ns/op, natively
	for _, name := range order {
		n := native[name]
		// µs/op, or ms/op for the slow ones, the same unit natively and under wasm.
		unit, div := "µs/op", 1e3
		if median(n.ns) >= 1e7 {
			unit, div = "ms/op", 1e6
		}
		x := row{section: sec, metric: name + " native", value: median(n.ns) / div, unit: unit, runs: scale(n.ns, 1/div)}
		if t, ok := targets[name]; ok {
			x.target, x.met = fmt.Sprintf("< %g", t/div), below(median(n.ns), t)
		}
		res.add(x)
		res.add(row{section: sec, metric: name + " native", value: median(n.bytes), unit: "B/op", runs: n.bytes})
		res.add(row{section: sec, metric: name + " native", value: median(n.allocs), unit: "allocs/op", runs: n.allocs})
		wm, ok := wasm[name]
		if !ok {
			res.add(row{section: sec, metric: name + " wasm", value: math.NaN(), note: "no result under wasm"})
			continue
		}
		res.add(row{section: sec, metric: name + " wasm (node)", value: median(wm.ns) / div, unit: unit, runs: scale(wm.ns, 1/div)})
		res.add(row{section: sec, metric: name + " wasm (node)", value: median(wm.bytes), unit: "B/op", runs: wm.bytes})
		ratio := median(wm.ns) / median(n.ns)
		res.add(row{section: sec, metric: name + " wasm/native", value: ratio, unit: "×", target: "<= 4", met: atMost(ratio, 4)})
	}
	return nil
}

func scale(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}
