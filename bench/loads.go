//go:build !js

package main

// The loads phase: the shared link on serve and on the static site, cold, warm and offline, and
// for scale a plain HTML page and the go-app baseline, cold. Also how every phase loads a page.

import (
	"fmt"
	"os"
	"strings"
	"time"
)

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
			if c == "offline" {
				x.note += fmt.Sprintf("; the warm page left open %v first", cfg.cacheAfter)
			}
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
		b, err := startWatching(cfg, want{Kind: "baseline"})
		if err != nil {
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
// The warm page is left open -cache-after before going offline: a person offline has been
// there before, and the warm visit's warm-up gets V8's code cache written (app/codecache.go).
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
	b, err := startWatching(cfg, w)
	if err != nil {
		return err
	}
	defer b.close()
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
	time.Sleep(cfg.cacheAfter)
	if err := b.clearHTTPCache(); err != nil {
		return err
	}
	srv.stop()
	stopped = true
	cases["offline"].add(loadOnce(b, url))
	return nil
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
