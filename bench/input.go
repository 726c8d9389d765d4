//go:build !js

package main

// The input phase: input-to-screen latency of edits of #in-base, at the defaults and at the
// heaviest schedule the page accepts.

import (
	"errors"
	"fmt"
	"math"
	"os"
	"time"
)

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
