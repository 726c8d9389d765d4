//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/sim"
)

const errorRateQuery = "attempts=4&failrate=0.5&rate=100&run=2s&outage=0&capacity=0&call=10ms&clients=1"

// The overload view's error rate shows calc's closed form, every number as calc computed it, for
// every shown limiter (Brooker's two among them); without an error rate it is not there.
func TestErrorRateHTML(t *testing.T) {
	p, err := libs.Decode(errorRateQuery)
	if err != nil {
		t.Fatal(err)
	}
	html := errorRateHTML(p)
	if !strings.Contains(html, attrEscape(report.ErrorRateWords(p))) {
		t.Errorf("no words: %s", html)
	}
	cells := cellsOf(html, "error-rate-table", "data-limiter")
	e := sim.ErrorRateOf(p)
	if len(e.Limiters) != len(limiter.Kinds()) {
		t.Fatalf("%d limiters shown, want all %d", len(e.Limiters), len(limiter.Kinds()))
	}
	for _, b := range e.Limiters {
		bound := ""
		if b.Bounded {
			bound = report.Float(b.Bound)
		}
		for col, want := range map[string]string{"bound": bound, "retries_per_request": report.Float(b.Retries),
			"attempts_per_request": report.Float(b.Attempts), "attempts_per_second": report.Float(b.AttemptsPerSecond)} {
			if got := cells[b.Limiter.String()+"/"+col]; got != want {
				t.Errorf("%s %s: %q, want %q", b.Limiter, col, got, want)
			}
		}
	}
	// Brooker's numbers, as calc gives them: 1.875 attempts, success 0.9375, adaptive 1.1.
	if !strings.Contains(html, "makes 1.875 of them") || !strings.Contains(html, "probability 0.9375") || cells["adaptive/attempts_per_request"] != "1.1" {
		t.Errorf("not Brooker's numbers: %s", html)
	}
	p.FailRate = 0
	if got := errorRateHTML(p); got != "" {
		t.Errorf("without an error rate: %q", got)
	}
}

// table carries the error rate in every format: the closed form, Brooker's limiters beside the
// others, and in JSON each run's errors; a link without one has none of it.
func TestTableErrorRate(t *testing.T) {
	p, _ := libs.Decode(errorRateQuery)
	e := sim.ErrorRateOf(p)
	out, errOut, code := runTableOut(t, "-format", "json", errorRateQuery)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Overload struct {
			ErrorRate *struct {
				FailRate, Success float64
				Attempts          float64 `json:"attempts_per_request"`
				Retries           float64 `json:"retries_per_request"`
				Limiters          []struct {
					Limiter  string
					Bound    *float64
					Attempts float64 `json:"attempts_per_request"`
				}
			} `json:"error_rate"`
			Runs []struct {
				Limiter string
				Errors  *int
				Windows []struct{ Errors *int }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Overload.ErrorRate == nil {
		t.Fatalf("%v: %s", err, out)
	}
	g := got.Overload.ErrorRate
	if g.FailRate != 0.5 || g.Attempts != e.Attempts || g.Success != e.Success || g.Retries != e.Retries || len(g.Limiters) != len(e.Limiters) {
		t.Fatalf("error_rate %+v, want %+v", g, e)
	}
	for i, b := range e.Limiters {
		l := g.Limiters[i]
		if l.Limiter != b.Limiter.String() || l.Attempts != b.Attempts || (l.Bound != nil) != b.Bounded || b.Bounded && *l.Bound != b.Bound {
			t.Errorf("limiter %d: %+v, want %+v", i, l, b)
		}
	}
	cases := p.OverloadCases()
	if len(got.Overload.Runs) != len(cases) {
		t.Fatalf("%d runs, want %d", len(got.Overload.Runs), len(cases))
	}
	for i, c := range cases {
		want, _ := sim.Overload(p, c)
		r := got.Overload.Runs[i]
		if r.Limiter != c.Limiter.String() || r.Errors == nil || *r.Errors != want.Errors || len(r.Windows) != len(want.Windows) {
			t.Fatalf("run %d (%v): errors %v, want %d", i, c, r.Errors, want.Errors)
		}
		sum := 0
		for _, w := range r.Windows {
			sum += *w.Errors
		}
		if sum != want.Errors || want.Errors == 0 {
			t.Errorf("run %d: windows' errors %d, run's %d", i, sum, want.Errors)
		}
	}
	text, _, _ := runTableOut(t, errorRateQuery)
	csv, _, _ := runTableOut(t, "-format", "csv", errorRateQuery)
	md, _, _ := runTableOut(t, "-format", "md", errorRateQuery)
	words := report.ErrorRateWords(p)
	for name, s := range map[string]string{"text": text, "md": md} {
		if !strings.Contains(s, words) || !strings.Contains(s, "retrybreaker") {
			t.Errorf("%s: no error rate or no retrybreaker", name)
		}
	}
	if !strings.Contains(csv, "limiter,bound,retries_per_request,attempts_per_request,attempts_per_second\nnone,,0.875000,1.875000,187.500000\n") ||
		!strings.Contains(csv, "\nadaptive,0.100000,0.100000,1.100000,110.000000\n") {
		t.Errorf("csv has no error rate table:\n%s", csv)
	}
	// Without an error rate: no part of it, and no run of Brooker's limiters.
	plain := strings.Replace(errorRateQuery, "failrate=0.5&", "", 1)
	out, _, _ = runTableOut(t, "-format", "json", plain)
	if strings.Contains(out, `"error_rate"`) || strings.Contains(out, `"errors"`) || strings.Contains(out, "adaptive") {
		t.Errorf("a link without failrate has the error rate's parts")
	}
}
