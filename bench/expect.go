//go:build !js

package main

// What the page must show, from the terminal's own table (`backoffcalc table -format json`),
// which prints calc's numbers exactly as the page's data-ms and data-value attributes do.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

type tableJSON struct {
	Attempts []struct {
		Attempt  int          `json:"attempt"`
		Retry    int          `json:"retry"`
		Nominal  json.Number  `json:"nominal_ms"`
		Min      json.Number  `json:"min_ms"`
		Mean     json.Number  `json:"mean_ms"`
		Max      json.Number  `json:"max_ms"`
		Earliest json.Number  `json:"earliest_start_ms"`
		Latest   json.Number  `json:"latest_start_ms"`
		P50      *json.Number `json:"p50_start_ms"`
		P99      *json.Number `json:"p99_start_ms"`
	} `json:"attempts"`
	Herd []struct {
		Jitter   string `json:"jitter"`
		Attempts int    `json:"attempts"`
		Accepted int    `json:"accepted"`
		GaveUp   int    `json:"gave_up"`
		PeakBack int    `json:"peak_back"`
		PeakDown int    `json:"peak_down"`
	} `json:"herd"`
	Overload *struct {
		Runs []struct {
			Jitter        string `json:"jitter"`
			Limiter       string `json:"limiter"`
			Breaker       string `json:"breaker"` // "" without a breaker
			Requests      int    `json:"requests"`
			Succeeded     int    `json:"succeeded"`
			OutOfAttempts int    `json:"out_of_attempts"`
			Refused       int    `json:"refused"`
			OutOfBudget   int    `json:"out_of_budget"`
			Windows       []struct {
				New int `json:"new"`
			} `json:"windows"`
		} `json:"runs"`
	} `json:"overload"`
}

// table runs `BIN table -format json QUERY`.
func table(cfg *config, query string) (*tableJSON, error) {
	cmd := exec.Command(cfg.bin, "table", "-format", "json", query)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s table -format json %q: %v: %s", cfg.bin, query, err, stderr.Bytes())
	}
	var t tableJSON
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("table -format json %q: %v", query, err)
	}
	return &t, nil
}

// scheduleWant is every schedule cell of the query's table: the page shows "" for the waits of
// the first attempt, which has none, and for percentiles of attempts no path reaches.
func scheduleWant(cfg *config, query string) (want, error) {
	t, err := table(cfg, query)
	if err != nil {
		return want{}, err
	}
	w := want{Kind: "schedule", Rows: len(t.Attempts), Cells: map[string]string{}}
	opt := func(n *json.Number) string {
		if n == nil {
			return ""
		}
		return n.String()
	}
	for _, a := range t.Attempts {
		k := strconv.Itoa(a.Attempt) + "/"
		for col, v := range map[string]string{"nominal": "", "min": "", "mean": "", "max": ""} {
			w.Cells[k+col] = v
		}
		if a.Retry > 0 {
			w.Cells[k+"nominal"], w.Cells[k+"min"] = a.Nominal.String(), a.Min.String()
			if a.Nominal.String() == "0" {
				w.Cells[k+"nominal"] = "" // decorrelated's none, "–" on the page
			}
			w.Cells[k+"mean"], w.Cells[k+"max"] = a.Mean.String(), a.Max.String()
		}
		w.Cells[k+"earliest"], w.Cells[k+"latest"] = a.Earliest.String(), a.Latest.String()
		w.Cells[k+"p50"], w.Cells[k+"p99"] = opt(a.P50), opt(a.P99)
	}
	return w, nil
}

// heavyWant is for inputs whose table takes too long to compute here (at attempts=1000 and
// samples=200000 calc's sampling takes seconds natively, and the terminal table also refuses the
// herd): the exact deterministic cells of the second and the last attempt from calc's schedule,
// and the sampled cells of those rows must have changed. All of them are drawn by one render.
func heavyWant(query string) (want, error) {
	p, err := libs.Decode(query) // the page knows the libraries' presets
	if err != nil {
		return want{}, err
	}
	rows := p.Schedule().Rows
	w := want{Kind: "schedule", Rows: len(rows), Cells: map[string]string{}}
	for _, row := range []policy.Row{rows[1], rows[len(rows)-1]} {
		k := strconv.Itoa(row.Attempt) + "/"
		w.Cells[k+"nominal"], w.Cells[k+"min"] = policy.Millis(row.Nominal), policy.Millis(row.Min)
		if p.Jitter.FromPrevious() {
			w.Cells[k+"nominal"] = "" // none, "–" on the page
		}
		w.Cells[k+"mean"], w.Cells[k+"max"] = policy.MillisFloat(row.Mean), policy.Millis(row.Max)
		w.Cells[k+"earliest"], w.Cells[k+"latest"] = policy.Millis(row.Earliest), policy.Millis(row.Latest)
		w.Differ = append(w.Differ, k+"p50", k+"p99")
	}
	return w, nil
}

// herdWantFor is the herd table of the query: attempts, accepted, gave up and the peaks once
// back and while down per mode.
func herdWantFor(cfg *config, query string) (herdWant, error) {
	t, err := table(cfg, query)
	if err != nil {
		return herdWant{}, err
	}
	if len(t.Herd) == 0 {
		return herdWant{}, fmt.Errorf("table %q has no herd", query)
	}
	w := herdWant{Modes: map[string]map[string]string{}}
	for _, h := range t.Herd {
		w.Modes[h.Jitter] = map[string]string{
			"attempts": strconv.Itoa(h.Attempts), "accepted": strconv.Itoa(h.Accepted),
			"gave_up": strconv.Itoa(h.GaveUp), "peak_back": strconv.Itoa(h.PeakBack), "peak_down": strconv.Itoa(h.PeakDown),
		}
	}
	return w, nil
}

// overloadWantFor is the overload view of the query: its counts per case ("mode/limiter/breaker",
// the breaker "" without one), as the
// side by side table's data-value, and how many windows the policy's own run has.
func overloadWantFor(cfg *config, query string) (overloadWant, error) {
	t, err := table(cfg, query)
	if err != nil {
		return overloadWant{}, err
	}
	if t.Overload == nil || len(t.Overload.Runs) == 0 {
		return overloadWant{}, fmt.Errorf("table %q has no overload runs", query)
	}
	w := overloadWant{Cases: map[string]map[string]string{}}
	for _, r := range t.Overload.Runs {
		w.Cases[r.Jitter+"/"+r.Limiter+"/"+r.Breaker] = map[string]string{
			"requests": strconv.Itoa(r.Requests), "succeeded": strconv.Itoa(r.Succeeded),
			"out_of_attempts": strconv.Itoa(r.OutOfAttempts), "refused": strconv.Itoa(r.Refused),
			"out_of_budget": strconv.Itoa(r.OutOfBudget),
		}
	}
	return w, nil
}
