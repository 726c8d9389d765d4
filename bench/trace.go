//go:build !js

package main

// The trace phase: one cold and one warm load of our static site under a Chromium
// performance trace (CDP Tracing), split into steps: the page until app.wasm is requested, its
// download, its compile and instantiation after the last byte, the Go runtime's start, go-app's,
// our OnInit and first render, and the frame that shows it. The step boundaries are the page's
// own times (measureJS's marks, app/marks_js.go); the trace says what the renderer did within
// each: busy on its main thread, in style, layout and paint, and V8's wasm work (compiling, or
// a code-cache hit) on any thread. A third load, cold, adds V8's CPU profiler; tracefuncs.go
// charges the lazy compiles and the samples of each step to Go functions and packages. With -v
// each trace is written to $TMPDIR for Perfetto.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	TS   float64         `json:"ts"`   // µs
	Dur  float64         `json:"dur"`  // µs
	TDur float64         `json:"tdur"` // µs of the thread's CPU time, when the event has it
	PID  int             `json:"pid"`
	TID  int             `json:"tid"`
	ID   json.RawMessage `json:"id"` // of async and sample events: a string or a number
	Args json.RawMessage `json:"args"`
}

var traceCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading",
	"v8", "v8.wasm", "disabled-by-default-v8.wasm.detailed", "toplevel",
}

// profilerCategory adds V8's sampling CPU profiler to a trace. Only a third load has it: the
// profiler samples the main thread and logs every function V8 compiles, work that the loads
// whose steps and compiles are counted should not carry.
const profilerCategory = "disabled-by-default-v8.cpu_profiler"

func measureTrace(cfg *config, res *results, staticDir string) error {
	w, err := scheduleWant(cfg, sharedQuery)
	if err != nil {
		return err
	}
	// The names of app.wasm's functions, to say whose code V8 compiles and runs.
	funcs, ferr := traceFuncs(cfg, staticDir)
	if ferr != nil {
		fmt.Fprintln(os.Stderr, "bench: trace: no function names:", ferr)
	}
	waitQuiet(cfg)
	srv, err := startFiles(staticDir)
	if err != nil {
		return err
	}
	defer srv.stop()
	var b *browser
	defer func() {
		if b != nil {
			b.close()
		}
	}()
	url := srv.url + "/?" + sharedQuery
	for _, c := range []struct {
		name     string
		warm     bool // the same browser as the load before, its service worker installed
		profiled bool
	}{{"cold", false, false}, {"warm", true, false}, {"cold, CPU-profiled", false, true}} {
		if c.profiled && funcs == nil {
			continue // the profile is read by function names
		}
		if !c.warm {
			if b != nil {
				b.close()
			}
			if b, err = startWatching(cfg, w); err != nil {
				return err
			}
		} else if err := b.waitServiceWorker(30 * time.Second); err != nil {
			return err
		}
		waitQuiet(cfg)
		cats := traceCategories
		if c.profiled {
			cats = append(slices.Clone(cats), profilerCategory)
		}
		// The cold page stays open, traced, until its service worker is active and then for
		// -warm-after: what V8 compiles, tiers up and caches meanwhile is in the trace.
		then := func() error { return nil }
		if c.name == "cold" {
			then = func() error {
				if err := b.waitServiceWorker(30 * time.Second); err != nil {
					return err
				}
				time.Sleep(cfg.warmAfter)
				return nil
			}
		}
		r, events, raw, err := tracedLoad(b, url, cats, then)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if verbose {
			if err := writeTrace(c.name, raw); err != nil {
				return err
			}
		}
		tc, err := newTraceClock(r, events)
		if err != nil {
			res.add(row{section: traceSection(c.name), metric: "trace", value: math.NaN(), note: err.Error()})
			continue
		}
		if !c.profiled {
			for _, x := range traceBreakdown(c.name, tc, r, events) {
				res.add(x)
			}
		}
		switch {
		case ferr != nil:
			res.add(row{section: traceSection(c.name), metric: "by Go function", value: math.NaN(), note: ferr.Error()})
		case c.profiled:
			for _, x := range traceProfile(c.name, tc, r, events, funcs) {
				res.add(x)
			}
		default:
			for _, x := range traceCompiles(c.name, tc, r, events, funcs) {
				res.add(x)
			}
		}
		res.add(row{section: traceSection(c.name), metric: "Chromium's wasm code cache on disk after this load", value: float64(dirBytes(filepath.Join(b.profile, "Default", "Code Cache", "wasm"))),
			unit: "B", note: "the profile's Code Cache/wasm when the trace ended; 72 B is its empty index"})
	}
	return nil
}

// traceSection is the trace phase's section for a cold or warm load.
func traceSection(c string) string {
	return "trace of one " + c + " load of the static site, ?" + sharedQuery + ": ms"
}

// dirBytes is the size of the files under dir, 0 if there is none.
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if i, err := d.Info(); err == nil {
				n += i.Size()
			}
		}
		return nil
	})
	return n
}

// tracedLoad loads url under a trace, runs then with the trace still on, and returns the
// page's figures, the trace's events and their JSON as Chromium sent them.
func tracedLoad(b *browser, url string, categories []string, then func() error) (loadResult, []traceEvent, [][]byte, error) {
	var mu sync.Mutex
	var raw [][]byte
	done := make(chan struct{})
	if err := chromedp.Listen(b.tab, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				raw = append(raw, slices.Clone([]byte(v)))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			select {
			case <-done:
			default:
				close(done)
			}
		}
	}); err != nil {
		return loadResult{}, nil, nil, err
	}
	if err := chromedp.Do(b.tab, chromedp.Navigate("about:blank")); err != nil {
		return loadResult{}, nil, nil, err
	}
	if _, err := chromedp.Call(b.tab, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	}); err != nil {
		return loadResult{}, nil, nil, fmt.Errorf("Tracing.start: %w", err)
	}
	r, err := loadOnce(b, url)
	if err == nil {
		err = then()
	}
	if _, e := chromedp.Call(b.tab, tracing.End, struct{}{}); e != nil && err == nil {
		err = fmt.Errorf("Tracing.end: %w", e)
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		if err == nil {
			err = fmt.Errorf("no Tracing.tracingComplete after 60 s")
		}
	}
	if err != nil {
		return loadResult{}, nil, nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	events := make([]traceEvent, 0, len(raw))
	for _, v := range raw {
		var e traceEvent
		if json.Unmarshal(v, &e) == nil {
			events = append(events, e)
		}
	}
	return r, events, raw, nil
}

// traceFile is the path under $TMPDIR of what -v writes of the load c: backoffcalc-trace-c+suffix,
// c without commas and with dashes for spaces.
func traceFile(c, suffix string) string {
	return filepath.Join(os.TempDir(), "backoffcalc-trace-"+strings.NewReplacer(",", "", " ", "-").Replace(c)+suffix)
}

// writeTrace writes the raw events of the load c to traceFile(c, ".json"), a file
// that Perfetto and chrome://tracing open.
func writeTrace(c string, raw [][]byte) error {
	var buf bytes.Buffer
	buf.WriteString(`{"traceEvents":[`)
	for i, v := range raw {
		if i > 0 {
			buf.WriteString(",\n")
		}
		buf.Write(v)
	}
	buf.WriteString("]}\n")
	path := traceFile(c, ".json")
	fmt.Fprintf(os.Stderr, "bench: trace %s: %d events written to %s\n", c, len(raw), path)
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// traceClock places a load's trace events on the page's clock: the renderer that loaded it, its
// main thread, and the trace time of the page's time origin.
type traceClock struct {
	pid, mainTID int
	origin       float64 // ms
}

// newTraceClock finds the page's renderer by its go-init mark, which is at the page's
// r.Marks["go-init"].
func newTraceClock(r loadResult, events []traceEvent) (traceClock, error) {
	tc := traceClock{pid: -1, mainTID: -1}
	for _, e := range events {
		if e.Name == "backoffcalc:go-init" && (e.Ph == "R" || e.Ph == "I" || e.Ph == "n" || e.Ph == "b" || e.Ph == "X") {
			if v, ok := r.Marks["go-init"]; ok {
				tc.pid, tc.origin = e.PID, e.TS/1000-v
			}
			break
		}
	}
	if tc.pid < 0 {
		return tc, fmt.Errorf("no backoffcalc:go-init mark in the trace")
	}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && e.PID == tc.pid && strings.Contains(string(e.Args), "CrRendererMain") {
			tc.mainTID = e.TID
		}
	}
	return tc, nil
}

// ms is trace time ts (µs) on the page's clock.
func (tc traceClock) ms(ts float64) float64 { return ts/1000 - tc.origin }

// traceStep is one step of a load, from and to on the page's clock.
type traceStep struct {
	name     string
	from, to float64
}

// traceSteps splits the load r into steps, from navigation start until the wasm is in charge.
func traceSteps(r loadResult) []traceStep {
	t := func(k string) float64 {
		switch k {
		case "":
			return 0
		case "wasmStart":
			return r.WasmStart
		case "wasmEnd":
			return r.WasmEnd
		case "interactive":
			return r.Interactive
		}
		return mark(&r, k)
	}
	var steps []traceStep
	for _, s := range []struct{ name, from, to string }{
		{"page, app.js and wasm_exec.js until app.wasm is requested", "", "wasmStart"},
		{"app.wasm downloading", "wasmStart", "wasmEnd"},
		{"after the last byte: compile finished and instantiated", "wasmEnd", "instantiated"},
		{stepRuntime, "instantiated", "go-init"},
		{"go-app's start until it asks for the page", "go-init", "route"},
		{stepRender, "route", "mounted"},
		{"the frame that shows it (style, layout, paint)", "mounted", "interactive"},
	} {
		steps = append(steps, traceStep{s.name, t(s.from), t(s.to)})
	}
	return steps
}

// The steps the attribution to Go code starts at, and the one it details.
const (
	stepRuntime = "Go runtime start and package inits"
	stepRender  = "our OnInit and first render, until it is in the DOM"
)

// traceBreakdown says, from the trace, what the renderer did in each step of the load r. Every
// ms from navigation start to the wasm in charge is in exactly one step.
func traceBreakdown(c string, tc traceClock, r loadResult, events []traceEvent) []row {
	sec := traceSection(c)
	pid, mainTID := tc.pid, tc.mainTID
	at := func(e traceEvent) (float64, float64) { return tc.ms(e.TS), tc.ms(e.TS + e.Dur) }
	var rows []row
	// overlap sums the part of each complete event's duration that falls in [from, to).
	overlap := func(from, to float64, keep func(traceEvent) bool) float64 {
		sum := 0.0
		for _, e := range events {
			if e.Ph != "X" || e.PID != pid || !keep(e) {
				continue
			}
			s, f := at(e)
			sum += math.Max(0, math.Min(f, to)-math.Max(s, from))
		}
		return sum
	}
	// Tasks nest (ThreadControllerImpl::RunTask holds RunTask): busy is their union.
	var tasks [][2]float64
	for _, e := range events {
		if e.Ph == "X" && e.PID == pid && e.TID == mainTID && (e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask") {
			s, f := at(e)
			tasks = append(tasks, [2]float64{s, f})
		}
	}
	slices.SortFunc(tasks, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	busyIn := func(from, to float64) float64 {
		sum, end := 0.0, math.Inf(-1)
		for _, t := range tasks {
			s, f := math.Max(math.Max(t[0], end), from), math.Min(t[1], to)
			if f > s {
				sum += f - s
			}
			end = math.Max(end, t[1])
		}
		return sum
	}
	render := map[string]bool{"UpdateLayoutTree": true, "Layout": true, "PrePaint": true, "Paint": true, "Layerize": true,
		"Commit": true, "RecalculateStyles": true, "UpdateLayerTree": true, "HitTest": true}
	isRender := func(e traceEvent) bool { return e.TID == mainTID && render[e.Name] }
	// V8's own events are in categories named wasm; Blink's around them (streaming, and its code
	// cache: v8.wasm.compiledModule, cachedModule, moduleCacheHit, moduleCacheInvalid…) are in
	// disabled-by-default-devtools.timeline, named v8.wasm.*.
	isWasm := func(e traceEvent) bool {
		return strings.Contains(e.Cat, "wasm") || strings.HasPrefix(e.Name, "v8.wasm.")
	}
	for _, s := range traceSteps(r) {
		from, to := s.from, s.to
		busy := busyIn(from, to)
		note := fmt.Sprintf("%.0f–%.0f; main thread busy %.0f ms, of it style/layout/paint %.0f ms; V8 wasm events, summed over all threads (they overlap) %.0f ms",
			from, to, busy, overlap(from, to, isRender), overlap(from, to, isWasm))
		rows = append(rows, row{section: sec, metric: s.name, value: to - from, unit: "ms", note: note})
	}
	rows = append(rows, row{section: sec, metric: "wasm in charge", value: r.Interactive, unit: "ms",
		note: fmt.Sprintf("the sum of the steps; app.wasm %.0f bytes over the wire (0: from the service worker's cache)", r.WasmBytes)})
	// V8's wasm events by name, until the wasm is in charge and after: compile, tier-up, or a
	// hit in its code cache, and writing that cache.
	rows = append(rows, wasmEvents(sec, "V8 wasm events until the wasm is in charge", events, pid, isWasm, at, math.Inf(-1), r.Interactive))
	if x := wasmEvents(sec, "V8 wasm events after, while the page stays open", events, pid, isWasm, at, r.Interactive, math.Inf(1)); x.value > 0 {
		rows = append(rows, x)
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "bench: trace %s: %d events, renderer pid %d main tid %d\n", c, len(events), pid, mainTID)
	}
	return rows
}

// wasmEvents is a row that counts and sums pid's wasm events that start in [from, to), by name.
func wasmEvents(sec, metric string, events []traceEvent, pid int, isWasm func(traceEvent) bool,
	at func(traceEvent) (float64, float64), from, to float64) row {
	type agg struct {
		n          int
		dur, first float64
	}
	byName := map[string]*agg{}
	for _, e := range events {
		if e.PID != pid || !isWasm(e) {
			continue
		}
		s, _ := at(e)
		if s < from || s >= to {
			continue
		}
		a := byName[e.Name]
		if a == nil {
			a = &agg{first: math.Inf(1)}
			byName[e.Name] = a
		}
		a.n++
		a.dur += e.Dur / 1000
		a.first = math.Min(a.first, s)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		a := byName[n]
		parts = append(parts, fmt.Sprintf("%s ×%d %.0f ms from %.0f", n, a.n, a.dur, a.first))
	}
	return row{section: sec, metric: metric, value: float64(len(names)), unit: "count", note: strings.Join(parts, "; ")}
}
