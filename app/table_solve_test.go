//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The hand-worked case through the table command: the JSON carries every answer of
// every mode under fit_budget, with the names docs/fit-and-compare.md gives, and the text says them.
func TestTableFitBudget(t *testing.T) {
	q := "base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s&samples=500"
	out, errOut, code := runTableOut(t, "-format=json", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type fit struct {
		Kind    string   `json:"kind"`
		Value   *float64 `json:"value"`
		Ms      *float64 `json:"value_ms"`
		Largest bool     `json:"largest"`
	}
	type limits struct{ Base, Factor, Cap fit }
	var r struct {
		FitBudget []struct {
			Jitter   string `json:"jitter"`
			Attempts struct {
				Always fit `json:"every_path"`
				Can    fit `json:"best_path"`
				P50    fit `json:"p50_paths"`
				P99    fit `json:"p99_paths"`
			} `json:"most_attempts"`
			Worst   limits  `json:"largest_every_path"`
			Sampled *limits `json:"largest_p99_paths"`
		} `json:"fit_budget"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.FitBudget) != 5 {
		t.Fatalf("fit_budget has %d modes, want the 5 compared", len(r.FitBudget))
	}
	none := r.FitBudget[0]
	if none.Jitter != "none" || none.Attempts.Always.Kind != "found" || *none.Attempts.Always.Value != 6 ||
		*none.Worst.Base.Ms != 157.142857 || none.Worst.Base.Value != nil || !none.Worst.Base.Largest ||
		*none.Worst.Cap.Ms != 1599.999999 || none.Sampled == nil || *none.Sampled.Base.Ms != 157.142857 {
		t.Errorf("none: %+v", none)
	}
	full := r.FitBudget[1]
	if full.Attempts.Can.Kind != "all" || *full.Attempts.Can.Value != 1000 || full.Sampled.Cap.Kind != "all" {
		t.Errorf("full: best path %+v, p99 cap %+v; want all 1000 and all", full.Attempts.Can, full.Sampled.Cap)
	}
	dec := r.FitBudget[3]
	if dec.Worst.Factor.Kind != "unused" || dec.Worst.Factor.Value != nil || dec.Attempts.P99.Kind != "found" {
		t.Errorf("decorrelated: factor %+v, p99 attempts %+v", dec.Worst.Factor, dec.Attempts.P99)
	}

	text, _, _ := runTableOut(t, q)
	for _, want := range []string{
		"Fit the 3.1 s budget",
		"          none                          6          6",
		// The text shows the answers rounded down, as typed; the JSON keeps them exact.
		"          none            157 ms        157 ms               2.701         2.701           1.59 s        1.59 s",
		"unused",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// Without a budget there is nothing to fit.
	out, _, _ = runTableOut(t, "-format=json", "samples=100")
	text, _, _ = runTableOut(t, "samples=100")
	if strings.Contains(out, "fit_budget") || strings.Contains(text, "Fit the") {
		t.Error("without a budget the report fits something")
	}
}

// The solve key is the page's (which answers it shows opened), not the report's inputs, but the
// link a report echoes must still reproduce the page: JSON's query and the compare table's A
// carry it, in its canonical order.
func TestTableEchoesSolve(t *testing.T) {
	q := "budget=3s&solve=cap,attempts&vs=preset%3Dgrpc-retry"
	out, errOut, code := runTableOut(t, "-format=json", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Query, "&solve=attempts%2Ccap&") {
		t.Errorf("json query %q: want solve=attempts%%2Ccap (url.Values escapes the comma)", r.Query)
	}
	csv, errOut, code := runTableOut(t, "-format=csv", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(csv, "\na,"+r.Query+",") && !strings.Contains(csv, "\na,\""+r.Query+"\",") {
		t.Errorf("compare CSV's A row does not carry A's query %q:\n%s", r.Query, csv)
	}
	if out, _, _ := runTableOut(t, "-format=json", "budget=3s"); strings.Contains(out, "solve=") {
		t.Errorf("a link without solve echoes one: %s", out)
	}
}
