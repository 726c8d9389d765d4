//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// latencyQuery is Brooker's server at 80 requests per second with three retries.
const latencyQuery = "rate=80&run=20s&clients=1&outage=0&attempts=4&capacity=0&window=1s&timeout=3s&latency=1s&slope=10ms"

// The overload view's load-dependent latency shows calc's closed form and says what the model
// leaves out; the side by side table and the window table carry calc's latency figures; without
// latency and slope none of it is there.
func TestCollapseHTML(t *testing.T) {
	p, err := libs.Decode(latencyQuery)
	if err != nil {
		t.Fatal(err)
	}
	html := collapseHTML(p)
	c := p.Collapse()
	for _, want := range []string{attrEscape(report.CollapseWords(p)), "Not modelled", `data-value="` + report.Float(c.Steady) + `"`,
		`data-value="` + report.Float(c.Threshold) + `"`, "66.67", "5 s"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in %s", want, html)
		}
	}
	cases := p.OverloadCases()
	var runs []sim.OverloadRun
	for _, cs := range cases {
		r, err := sim.Overload(p, cs)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	cells := cellsOf(overloadTable(p, cases, runs), "overload", "data-mode")
	for i, cs := range cases {
		if cs.Mode == calc.Backoff(p.Jitter) {
			continue // cellsOf keys rows by mode: the policy's own mode's row comes again
		}
		key := cs.Mode.String() + "/"
		if got, want := cells[key+"max_in_service"], report.LatencyCells(runs[i])[0][0]; got != want {
			t.Errorf("%s max_in_service %q, want %q", cs.Mode, got, want)
		}
		if got, want := cells[key+"max_latency"], policy.Millis(runs[i].MaxLatency); got != want || runs[i].MaxLatency == 0 {
			t.Errorf("%s max_latency %q, want %q", cs.Mode, got, want)
		}
	}
	win := overloadWindowsHTML(p, runs[0], nil, len(cases))
	w := runs[0].Windows[5]
	if !strings.Contains(win, "attempts in service") || !strings.Contains(win, `<td data-col="latency" data-value="`+policy.Millis(w.Latency)+`"`) {
		t.Errorf("the window table has no latency series: %s", win)
	}
	p.Latency, p.Slope = 0, 0
	if got := collapseHTML(p); got != "" {
		t.Errorf("without latency and slope: %q", got)
	}
	if strings.Contains(overloadTable(p, cases[:1], runs[:1]), "max_in_service") {
		t.Errorf("without latency and slope the table has their columns")
	}
}

// table carries the load-dependent latency in every format: the closed form, and per run and
// per window the attempts in service and the latency; a link without it has none of it.
func TestTableLatency(t *testing.T) {
	p, _ := libs.Decode(latencyQuery)
	c := p.Collapse()
	out, errOut, code := runTableOut(t, "-format", "json", latencyQuery)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Overload struct {
			Collapse *struct {
				Steady    *json.Number `json:"steady_ms"`
				Threshold *float64     `json:"threshold_per_second"`
				Limit     *float64     `json:"no_steady_state_from_per_second"`
				TimesOut  bool         `json:"times_out"`
			}
			Runs []struct {
				MaxInService *int         `json:"max_in_service"`
				MaxLatency   *json.Number `json:"max_latency_ms"`
				Windows      []struct {
					InService *int         `json:"in_service"`
					Latency   *json.Number `json:"latency_ms"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Overload.Collapse == nil {
		t.Fatalf("%v: %s", err, out)
	}
	g := got.Overload.Collapse
	if g.Steady == nil || g.Steady.String() != "5000" || *g.Threshold != c.Threshold || *g.Limit != 100 || !g.TimesOut {
		t.Errorf("collapse %+v, want calc's %+v", g, c)
	}
	cases := p.OverloadCases()
	for i, cs := range cases {
		want, _ := sim.Overload(p, cs)
		r := got.Overload.Runs[i]
		if r.MaxInService == nil || *r.MaxInService != want.MaxInService || r.MaxLatency.String() != policy.Millis(want.MaxLatency) || len(r.Windows) != len(want.Windows) {
			t.Fatalf("run %d: %+v, want %d, %v", i, r, want.MaxInService, want.MaxLatency)
		}
		for k, w := range r.Windows {
			if *w.InService != want.Windows[k].InService || w.Latency.String() != policy.Millis(want.Windows[k].Latency) {
				t.Fatalf("run %d window %d: %v %v, want %+v", i, k, *w.InService, w.Latency, want.Windows[k])
			}
		}
	}
	text, _, _ := runTableOut(t, latencyQuery)
	csv, _, _ := runTableOut(t, "-format", "csv", latencyQuery)
	md, _, _ := runTableOut(t, "-format", "md", latencyQuery)
	words := report.CollapseWords(p)
	for name, s := range map[string]string{"text": text, "md": md} {
		if !strings.Contains(s, words) || !strings.Contains(s, "attempts in service") {
			t.Errorf("%s: no collapse words or no latency series", name)
		}
	}
	if !strings.Contains(csv, "base_ms,slope_ms,timeout_ms,rate,steady_ms,times_out,threshold_per_second,no_steady_state_from_per_second\n1000,10,3000,80,5000,true,66.666667,100\n") ||
		!strings.Contains(csv, ",in_service,latency_ms\n") || !strings.Contains(csv, ",max_in_service,max_latency_ms\n") {
		t.Errorf("csv has no collapse table or latency columns:\n%s", csv)
	}
	plain := strings.Replace(latencyQuery, "&latency=1s&slope=10ms", "", 1)
	out, _, _ = runTableOut(t, "-format", "json", plain)
	if strings.Contains(out, `"collapse"`) || strings.Contains(out, `"in_service"`) || strings.Contains(out, `"max_latency_ms"`) {
		t.Errorf("a link without latency and slope has their parts")
	}
}
