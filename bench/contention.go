//go:build !js

package main

// The contention phase: how long the page takes to simulate the AWS post's experiment
// once its section is scrolled into view, the table at 100 clients and then the sweep over
// 10..200 clients, and the longest main-thread task meanwhile.

import (
	"fmt"
	"os"
	"time"
)

// contentionQuery is the post's setup at the defaults of contenders and runs (100 and 100).
const contentionQuery = "base=5ms&cap=2s"

// contentionJS scrolls the section into view and times, frame by frame, the table's six rows and
// then the sweep's twenty, with the status line empty; the long tasks are measureJS's.
const contentionJS = `new Promise((resolve) => {
	const B = window.__bench;
	const t0 = performance.now();
	let table = -1, last = t0, gap = 0;
	document.getElementById("contention-section").scrollIntoView();
	const longest = (from, to) => B.lt.filter(([s, d]) => s + d > from && s < to).reduce((m, [, d]) => Math.max(m, d), 0);
	const poll = () => {
		const now = performance.now();
		gap = Math.max(gap, now - last);
		last = now;
		if (table < 0 && document.querySelectorAll('#app[data-render="wasm"] #contention tr[data-mode]').length === 6) table = now - t0;
		if (table >= 0 && document.getElementById("contention-status").textContent === "" &&
			document.querySelectorAll("#contention-sweep tr[data-clients]").length === 20) {
			return resolve({ table, sweep: now - t0, longest: longest(t0, now), gap, error: "",
				count: B.lt.filter(([s, d]) => s + d > t0 && s < now).length });
		}
		if (now - t0 > 120000) return resolve({ table, sweep: -1, error: "timeout: " + document.getElementById("contention-status").textContent });
		requestAnimationFrame(poll);
	};
	requestAnimationFrame(poll);
})`

// contentionResult is one measurement, in ms from the scroll.
type contentionResult struct {
	Table   float64 `json:"table"`
	Sweep   float64 `json:"sweep"`
	Longest float64 `json:"longest"`
	Gap     float64 `json:"gap"`
	Count   int     `json:"count"`
	Error   string  `json:"error"`
}

func measureContention(cfg *config, res *results) error {
	const sec = "contention: from scrolling to the section until the table (100 clients, 100 runs, 6 modes) and the sweep (20 points) show"
	srv, b, stop, err := startWarmPage(cfg)
	if err != nil {
		return err
	}
	defer stop()
	var table, sweep, longest, gap, count []float64
	var errs []string
	for i := 0; i < cfg.runs; i++ {
		// A fresh page for every run, with its herd done: the experiment waits for it anyway.
		if _, err := loadOnce(b, srv.url+"/?"+contentionQuery); err != nil {
			return err
		}
		if busy, err := eval[string](b, "__bench.idle(60000)", 70*time.Second); err != nil || busy != "" {
			fmt.Fprintln(os.Stderr, "bench: before the contention:", busy, err)
		}
		waitQuiet(cfg)
		r, err := eval[contentionResult](b, contentionJS, 130*time.Second)
		if err == nil && r.Error != "" {
			err = fmt.Errorf("contention: %s", r.Error)
		}
		if err != nil {
			errs = append(errs, err.Error())
			fmt.Fprintln(os.Stderr, "bench:", err)
			continue
		}
		table = append(table, r.Table)
		sweep = append(sweep, r.Sweep)
		longest = append(longest, r.Longest)
		gap = append(gap, r.Gap)
		count = append(count, float64(r.Count))
	}
	note := "?" + contentionQuery
	if len(errs) > 0 {
		note += fmt.Sprintf("; %d run(s) failed: %s", len(errs), errs[0])
	}
	t := median(table)
	res.add(row{section: sec, metric: "table at 100 clients", value: t, unit: "ms", runs: table, target: "< 1000", met: atMost(t, 1000), note: note})
	s := median(sweep)
	res.add(row{section: sec, metric: "table and whole sweep", value: s, unit: "ms", runs: sweep, target: "< 10000", met: atMost(s, 10000), note: "from the same scroll"})
	lt := median(longest)
	res.add(row{section: sec, metric: "longest task meanwhile", value: lt, unit: "ms", runs: longest,
		target: "<= 50", met: atMost(lt, 50), note: "Long Tasks API (buffered); 0 = none over 50 ms"})
	res.add(row{section: sec, metric: "long tasks meanwhile", value: median(count), unit: "count", runs: count})
	res.add(row{section: sec, metric: "longest gap between frames", value: median(gap), unit: "ms", runs: gap,
		note: "requestAnimationFrame: the longest the page could not paint"})
	return nil
}
