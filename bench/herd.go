//go:build !js

package main

// The herd phase: how long the page takes to simulate a herd, and the longest main-thread task
// meanwhile.

import (
	"fmt"
	"os"
	"time"
)

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
