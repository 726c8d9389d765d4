//go:build !js

package main

// The coldstart phase: our page on the static site and on serve against the empty
// go-app page of bench/baseline, cold and warm, in one run and interleaved (each run loads the
// three in turn, so that a burst of other work on the machine hits all three alike), with the
// ratios ours/baseline and where the time goes: the wasm received, compiled and instantiated,
// the Go program started, its page in the DOM, and the first frame with the right numbers. Each
// run makes three visits in one profile: cold, warm (the service worker installed) and warm
// again once the warm page has had time to get V8's wasm code cache written (app/codecache.go),
// with what the profile's caches hold after each, and what the warm page's warm-up did in that
// time: its slices, how long they took, and the long tasks among them (TestWarmCode checks that
// it hands the thread back after each slice, and times nothing).

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"time"
)

// coldSite is one page the coldstart and network phases load.
type coldSite struct {
	name  string
	start func() (*server, error)
	path  string // what is loaded: "/" or "/?query"
	want  want   // what the page must show
}

func coldSites(cfg *config, base *baseline, staticDir string) ([]coldSite, error) {
	w, err := scheduleWant(cfg, sharedQuery)
	if err != nil {
		return nil, err
	}
	return []coldSite{
		{"baseline", base.start, "/", want{Kind: "baseline"}},
		{"static", func() (*server, error) { return startFiles(staticDir) }, "/?" + sharedQuery, w},
		{"serve", func() (*server, error) { return startServe(cfg) }, "/?" + sharedQuery, w},
	}, nil
}

// The coldstart phase's visits, in the order each run makes them in one profile.
const (
	visitCold   = "cold"
	visitWarm   = "warm"
	visitCached = "warm, cache written" // the warm page left open -cache-after, then loaded again
)

var coldVisits = []string{visitCold, visitWarm, visitCached}

func measureColdStart(cfg *config, res *results, base *baseline, staticDir string) error {
	sec := "cold start against the empty go-app page, interleaved: ms from navigation start"
	if cfg.warmAfter > 0 {
		sec += fmt.Sprintf("; warm: the cold page left open %v first", cfg.warmAfter)
	}
	sec += fmt.Sprintf("; warm, cache written: the warm page left open %v first", cfg.cacheAfter)
	sites, err := coldSites(cfg, base, staticDir)
	if err != nil {
		return err
	}
	// runs[site][visit] is every run's load; a failed load is nil, so that run i is the same
	// run for every site.
	runs := map[string]map[string][]*loadResult{}
	for _, s := range sites {
		runs[s.name] = map[string][]*loadResult{}
	}
	for i := 0; i < cfg.coldRuns; i++ {
		// Each run in another order, so that no page always comes first after a quiet wait.
		for j := range sites {
			s := sites[(i+j)%len(sites)]
			loads := coldWarm(cfg, s)
			for k, c := range coldVisits {
				runs[s.name][c] = append(runs[s.name][c], loads[k])
			}
		}
	}

	ready := func(r *loadResult) float64 { return r.Interactive }
	for _, c := range coldVisits {
		for _, s := range sites {
			l := runs[s.name][c]
			add := func(metric, unit, note string, f func(*loadResult) float64) {
				xs := values(l, f)
				res.add(row{section: sec, metric: s.name + " " + c + ": " + metric, value: median(xs), unit: unit, runs: xs, note: note})
			}
			what := "#app[data-render=wasm] with the link's right numbers"
			if s.name == "baseline" {
				what = "#app[data-render=wasm] (the empty page's own marker)"
			}
			add("wasm in charge", "ms", what+failed(l), ready)
			if s.name != "baseline" {
				add("numbers on screen", "ms", "any render, the server's too", func(r *loadResult) float64 { return r.Shown })
			}
			add("app.wasm received", "ms", "responseEnd; 0 from the service worker's cache is still a fetch", func(r *loadResult) float64 { return r.WasmEnd })
			add("received → compiled and instantiated", "ms", "instantiateStreaming resolves; streaming compiles while it downloads",
				func(r *loadResult) float64 { return mark(r, "instantiated") - r.WasmEnd })
			if s.name != "baseline" {
				add("instantiated → Go's main", "ms", "the Go runtime and every package's init (performance mark go-init)",
					func(r *loadResult) float64 { return mark(r, "go-init") - mark(r, "instantiated") })
				add("Go's main → go-app asks for the page", "ms", "go-app's start (mark route)",
					func(r *loadResult) float64 { return mark(r, "route") - mark(r, "go-init") })
				add("go-app asks → page in the DOM", "ms", "our OnInit and first render, mounted; the wasm hands the thread back",
					func(r *loadResult) float64 { return mark(r, "mounted") - mark(r, "route") })
			} else {
				add("instantiated → page in the DOM", "ms", "Go runtime, go-app and the empty render",
					func(r *loadResult) float64 { return mark(r, "mounted") - mark(r, "instantiated") })
			}
			add("page in the DOM → frame with the numbers", "ms", "until the next animation frame finds them",
				func(r *loadResult) float64 { return r.Interactive - mark(r, "mounted") })
			add("longest task", "ms", "until the wasm is in charge (Long Tasks API)", func(r *loadResult) float64 { return r.LongestTask })
			add("Code Cache/wasm after the visit", "B", "the profile's wasm code cache, before the next load (the last: just after its load); empty: 72 B",
				func(r *loadResult) float64 { return r.codeCache })
			add("Cache Storage after the visit", "B", "the service worker's copies with their code cache (side data), measured as the row above",
				func(r *loadResult) float64 { return r.cacheStorage })
			if c == visitWarm && s.name != "baseline" {
				addWarmUp(res, sec, s.name+" "+c, l)
			}
		}
	}
	// The ratios: of the medians, and run by run (each run loads both pages side by side).
	for _, c := range coldVisits {
		for _, s := range sites[1:] {
			ours, theirs := runs[s.name][c], runs["baseline"][c]
			var per []float64
			for i := range ours {
				if ours[i] != nil && theirs[i] != nil && theirs[i].Interactive > 0 {
					per = append(per, ours[i].Interactive/theirs[i].Interactive)
				}
			}
			ratio := median(values(ours, ready)) / median(values(theirs, ready))
			res.add(row{section: sec, metric: fmt.Sprintf("ratio %s/baseline, %s, wasm in charge", s.name, c), value: ratio, unit: "×", runs: per,
				target: "<= 1.25", met: atMost(ratio, 1.25), note: "of the medians; min–max: run by run"})
		}
	}
	return nil
}

// coldWarm loads s in a fresh profile (cold), again once its service worker is installed and
// the cold page has been left open for -warm-after (warm), and again once the warm page has been
// left open for -cache-after (warm, cache written); the same for every site, so that the ratios
// compare like with like. A failed load is nil, and so are the loads after it.
func coldWarm(cfg *config, s coldSite) []*loadResult {
	loads := make([]*loadResult, len(coldVisits))
	waitQuiet(cfg)
	srv, err := s.start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", s.name, err)
		return loads
	}
	defer srv.stop()
	b, err := startWatching(cfg, s.want)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return loads
	}
	defer b.close()
	get := func() *loadResult {
		r, err := loadOnce(b, srv.url+s.path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", s.name, err)
			return nil
		}
		return &r
	}
	// sized records, in the load before, what the profile's caches hold now.
	sized := func(r *loadResult) {
		r.codeCache, r.cacheStorage = b.cacheBytes()
		if verbose {
			fmt.Fprintf(os.Stderr, "bench: %s: Code Cache/wasm %.0f B, Cache Storage %.0f B\n", s.name, r.codeCache, r.cacheStorage)
		}
	}
	if loads[0] = get(); loads[0] == nil {
		return loads
	}
	if err := b.waitServiceWorker(30 * time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", s.name, err)
		return loads
	}
	time.Sleep(cfg.warmAfter)
	sized(loads[0])
	if loads[1] = get(); loads[1] == nil {
		return loads
	}
	time.Sleep(cfg.cacheAfter)
	sized(loads[1])
	if s.name != "baseline" {
		w, err := eval[warmUp](b, warmUpJS, 10*time.Second)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", s.name, "the warm-up:", err)
		} else {
			loads[1].warm = &w
		}
	}
	if loads[2] = get(); loads[2] != nil {
		sized(loads[2])
	}
	return loads
}

// mark is a step of r's cold start (see measureJS), NaN when the page did not reach it.
func mark(r *loadResult, name string) float64 {
	if v, ok := r.Marks[name]; ok {
		return v
	}
	return math.NaN()
}

// values is f of every load that did not fail, NaN left out.
func values(l []*loadResult, f func(*loadResult) float64) []float64 {
	var xs []float64
	for _, r := range l {
		if r != nil {
			if v := f(r); !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
	}
	return xs
}

func failed(l []*loadResult) string {
	n := len(l) - len(slices.DeleteFunc(slices.Clone(l), func(r *loadResult) bool { return r == nil }))
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d of %d loads failed", n, len(l))
}

// warmUp is what the page's code cache warm-up (app/codecache.go) did on a warm visit, read from
// its performance marks and measureJS's long tasks; times in ms.
type warmUp struct {
	Slices  int     `json:"slices"`  // its slice marks (backoffcalc:warm-code)
	Span    float64 `json:"span"`    // from its first slice mark to its end mark; -1: it did not end
	End     string  `json:"end"`     // how it ended: done, stopped-by-work, -time, -heap; "" not begun or not ended
	Longest float64 `json:"longest"` // the longest task that holds one of its marks (0: none over 50 ms)
	Long    int     `json:"long"`    // how many tasks over 50 ms hold one of its marks
}

// warmUpJS reads warmUp in the page. A slice ends with its mark, and then hands the thread back:
// a long task that holds a mark is one of the warm-up's slices.
const warmUpJS = `(() => {
	const slices = performance.getEntriesByName("backoffcalc:warm-code").map((m) => m.startTime);
	const end = performance.getEntriesByType("mark").find((m) => m.name.startsWith("backoffcalc:warm-code-"));
	const marks = end ? slices.concat([end.startTime]) : slices;
	const held = ((window.__bench && window.__bench.lt) || []).filter(([s, d]) => marks.some((m) => m >= s && m <= s + d));
	return {
		slices: slices.length,
		span: end && slices.length ? end.startTime - slices[0] : -1,
		end: end ? end.name.slice("backoffcalc:warm-code-".length) : "",
		longest: held.reduce((m, [, d]) => Math.max(m, d), 0),
		long: held.length,
	};
})()`

// addWarmUp adds the rows of the warm-up of every load of l that read one.
func addWarmUp(res *results, sec, name string, l []*loadResult) {
	var count, span, longest, long []float64
	ends := map[string]int{}
	for _, r := range l {
		if r == nil || r.warm == nil {
			continue
		}
		w := r.warm
		count = append(count, float64(w.Slices))
		if w.Span >= 0 {
			span = append(span, w.Span)
		}
		longest = append(longest, w.Longest)
		long = append(long, float64(w.Long))
		ends[cmp.Or(w.End, "none")]++
	}
	var how []string
	for _, k := range slices.Sorted(maps.Keys(ends)) {
		how = append(how, fmt.Sprintf("%s %d", k, ends[k]))
	}
	note := "ended: " + strings.Join(how, ", ")
	res.add(row{section: sec, metric: name + ": the warm-up's slices", value: median(count), unit: "", runs: count, note: note})
	res.add(row{section: sec, metric: name + ": the warm-up, first slice to its end", value: median(span), unit: "ms", runs: span,
		note: "its 1,200 renders (warmRenders), in slices of about 10 ms (workSlice)"})
	res.add(row{section: sec, metric: name + ": the warm-up's longest task", value: median(longest), unit: "ms", runs: longest,
		note: "a task over 50 ms that holds one of its marks (Long Tasks API; 0 = none)"})
	res.add(row{section: sec, metric: name + ": the warm-up's long tasks", value: median(long), unit: "", runs: long,
		note: "tasks over 50 ms that hold one of its marks: a slice the machine stretched, or the warm-up's own"})
}
