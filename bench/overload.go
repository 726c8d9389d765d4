//go:build !js

package main

// The overload phase: how long the page takes to fill the overload view after an
// edit of the rate, and the longest main-thread task meanwhile, as the herd phase measures the
// closed herd.

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// overloadCases are the phase's inputs: the link the view was first measured at, and the work
// limit (200,000 requests × 10 attempts) with the heaviest of calc's overload benchmarks, without
// and with circuit breakers.
var overloadCases = []struct{ name, query, rate string }{
	{"moderate link", "run=5s&timeout=500ms&queue=20&limiter=grpc&clients=100&outage=2s&seed=5", "100"},
	{"the work limit", "attempts=10&run=199900ms&queue=1000&timeout=1s", "1000"},
	// With a breaker the view adds a run for every other breaker; sre, the costliest per call,
	// is one of them. The work limit counts each run with a breaker twice (calc's overloadCost):
	// 17 runs weighing 33, (100 clients + 72620 requests) × 10 attempts × 33 = 23997600.
	{"the work limit with breakers", "attempts=10&run=72620ms&queue=1000&timeout=1s&breaker=resilience4j", "1000"},
}

func measureOverload(cfg *config, res *results) error {
	const sec = "overload: from the input event on #in-rate until the overload view shows every case"
	srv, b, stop, err := startWarmPage(cfg)
	if err != nil {
		return err
	}
	defer stop()
	for _, c := range overloadCases {
		if err := measureOverloadCase(cfg, res, sec, b, srv.url, c.name, c.query, c.rate); err != nil {
			return err
		}
	}
	return nil
}

// measureOverloadCase edits the rate from 1 (a stream of a few requests, quick to run) to rate
// in a page at query, cfg.runs times.
func measureOverloadCase(cfg *config, res *results, sec string, b *browser, url, name, query, rate string) error {
	from, to := query+"&rate=1", query+"&rate="+rate
	w, err := overloadWantFor(cfg, to)
	if err != nil {
		return err
	}
	var ms, longest, gap, count []float64
	var errs []string
	for i := 0; i < cfg.runs; i++ {
		// A fresh page for every run, from the link before the edit, with its overload done.
		if _, err := loadOnce(b, url+"/?"+from); err != nil {
			return err
		}
		if busy, err := eval[string](b, "__bench.idle(60000)", 70*time.Second); err != nil || busy != "" {
			fmt.Fprintln(os.Stderr, "bench: before the overload:", busy, err)
		}
		waitQuiet(cfg)
		js, err := jsonArgs("#in-rate", rate, w, 300000)
		if err != nil {
			return err
		}
		r, err := eval[herdResult](b, "__bench.overload("+js+")", 310*time.Second)
		if err == nil && r.Error != "" {
			err = fmt.Errorf("overload %s: %s", to, r.Error)
		}
		if err != nil {
			errs = append(errs, err.Error())
			fmt.Fprintln(os.Stderr, "bench:", err)
			continue
		}
		if verbose {
			fmt.Fprintf(os.Stderr, "bench: overload %s: %+v\n", to, r)
			if d, err := eval[[]string](b, fmt.Sprintf("__bench.during(%v, %v)", r.From, r.To), 10*time.Second); err == nil {
				fmt.Fprintf(os.Stderr, "\t%s\n", strings.Join(d, "\n\t"))
			}
		}
		ms = append(ms, r.MS)
		longest = append(longest, r.Longest)
		gap = append(gap, r.Gap)
		count = append(count, float64(r.Count))
	}
	note := "?" + to + ", rate edited from 1"
	if len(errs) > 0 {
		note += fmt.Sprintf("; %d run(s) failed: %s", len(errs), errs[0])
	}
	name += ", rate=" + rate
	t := median(ms)
	res.add(row{section: sec, metric: name + ": view complete", value: t, unit: "ms", runs: ms,
		target: "<= 2000", met: atMost(t, 2000), note: note})
	lt := median(longest)
	res.add(row{section: sec, metric: name + ": longest task meanwhile", value: lt, unit: "ms", runs: longest,
		target: "<= 50", met: atMost(lt, 50), note: "Long Tasks API (buffered); 0 = none over 50 ms"})
	res.add(row{section: sec, metric: name + ": long tasks meanwhile", value: median(count), unit: "count", runs: count})
	res.add(row{section: sec, metric: name + ": longest gap between frames", value: median(gap), unit: "ms", runs: gap,
		note: "requestAnimationFrame: the longest the page could not paint"})
	return nil
}
