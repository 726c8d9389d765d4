//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
)

// overloadTableJSON is the overload part of `table -format json`, by the names in docs/overload.md.
type overloadTableJSON struct {
	Herd     []json.RawMessage `json:"herd"`
	Overload *struct {
		Window   json.Number `json:"window_ms"`
		Load     string      `json:"load_if_every_attempt_failed"`
		Offered  float64     `json:"offered_attempts_per_second"`
		Capacity float64     `json:"capacity_per_second"`
		Limiters []struct {
			Limiter, Source string
			Bound           string `json:"under_total_failure"`
		} `json:"limiters"`
		Runs []struct {
			Jitter            string       `json:"jitter"`
			Limiter           string       `json:"limiter"`
			Requests          int          `json:"requests"`
			Stream            int          `json:"stream_requests"`
			Succeeded         int          `json:"succeeded"`
			OutOfAttempts     int          `json:"out_of_attempts"`
			Refused           int          `json:"refused"`
			OutOfBudget       int          `json:"out_of_budget"`
			PerRequest        float64      `json:"mean_attempts_per_request"`
			Wasted            int          `json:"wasted"`
			WastedShare       float64      `json:"wasted_share"`
			TimedOut          int          `json:"timed_out"`
			Recovered         *json.Number `json:"recovered_ms"`
			RecoveredInStream bool         `json:"recovered_in_stream"`
			Windows           []struct {
				Start                                                          json.Number `json:"start_ms"`
				New, Retries, Served, Wasted, Failed, TimedOut, Refused, Queue int
			} `json:"windows"`
		} `json:"runs"`
	} `json:"overload"`
}

// table -format json carries every overload case with calc's numbers, every window included,
// in place of the closed herd; a closed herd's link has no overload part.
func TestTableOverloadJSON(t *testing.T) {
	const q = "rate=40&run=2s&timeout=300ms&queue=10&limiter=aws&clients=20&seed=4"
	out, errOut, code := runTableOut(t, "-format", "json", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got overloadTableJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Overload == nil || got.Herd != nil {
		t.Fatalf("%v; overload %v, herd %d", err, got.Overload != nil, len(got.Herd))
	}
	p, _ := libs.Decode(q)
	cases := p.OverloadCases()
	o := got.Overload
	if len(o.Runs) != len(cases) || len(o.Limiters) != len(p.Shown()) || o.Window != "100" || o.Load != p.FailingLoadWords() {
		t.Fatalf("%d runs, %d limiters, window %s, load %q", len(o.Runs), len(o.Limiters), o.Window, o.Load)
	}
	for i, c := range cases {
		want, err := p.Overload(c)
		g := o.Runs[i]
		if err != nil || g.Jitter != c.Mode.String() || g.Limiter != c.Limiter.String() || g.Requests != want.Requests ||
			g.Stream != want.Stream || g.Succeeded != want.Accepted || g.OutOfAttempts != want.OutOfAttempts ||
			g.Refused != want.Refused || g.OutOfBudget != want.OutOfBudget || g.PerRequest != want.MeanPerClient ||
			g.Wasted != want.Wasted || g.WastedShare != want.WastedShare() || g.TimedOut != want.TimedOut ||
			(g.Recovered != nil) != want.Recovers() || g.RecoveredInStream != want.RecoveredInStream || len(g.Windows) != len(want.Windows) {
			t.Fatalf("run %d %v: %+v, calc %+v, %v", i, c, g, want, err)
		}
		if g.Recovered != nil && g.Recovered.String() != calc.Millis(want.Recovered) {
			t.Errorf("run %d recovered at %s, calc %v", i, g.Recovered, want.Recovered)
		}
		for k, w := range want.Windows {
			gw := g.Windows[k]
			if gw.Start.String() != calc.Millis(p.WindowStart(k)) || [8]int{gw.New, gw.Retries, gw.Served, gw.Wasted, gw.Failed, gw.TimedOut, gw.Refused, gw.Queue} != w.Counts() {
				t.Fatalf("run %d window %d: %+v, calc %+v", i, k, gw, w)
			}
		}
	}
	out, _, _ = runTableOut(t, "-format", "json", "clients=50")
	if strings.Contains(out, `"overload"`) {
		t.Error("a closed herd's JSON has an overload part")
	}
}

// The text, CSV and Markdown tables carry the runs side by side; the text also the policy's own
// run window by window.
func TestTableOverloadFormats(t *testing.T) {
	const q = "rate=40&run=2s&timeout=300ms&queue=10&limiter=aws&clients=20&seed=4"
	for format, want := range map[string][]string{
		"text": {"\nOverload: ", "out of attempts", "full with limiter aws, per 100 ms window:", "retries refused by the limiter", "Source: botocore"},
		"csv":  {"mode,limiter,requests,succeeded,out_of_attempts,refused,out_of_budget,per_request,wasted_share,recovered_ms,recovered_in_stream\n", "\nfull,envoy,"},
		"md":   {"| mode | limiter | requests |", "| full | envoy |", "If every attempt failed"},
	} {
		out, errOut, code := runTableOut(t, "-format", format, q)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q", format, w)
			}
		}
	}
}
