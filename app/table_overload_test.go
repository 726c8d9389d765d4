//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
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
			Idle              bool         `json:"idle_after_outage"`
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
	if len(o.Runs) != len(cases) || len(o.Limiters) != len(p.Shown()) || o.Window != "100" || o.Load != sim.FailingLoadWords(p) {
		t.Fatalf("%d runs, %d limiters, window %s, load %q", len(o.Runs), len(o.Limiters), o.Window, o.Load)
	}
	for i, c := range cases {
		want, err := sim.Overload(p, c)
		g := o.Runs[i]
		if err != nil || g.Jitter != c.Mode.String() || g.Limiter != c.Limiter.String() || g.Requests != want.Requests ||
			g.Stream != want.Stream || g.Succeeded != want.Accepted || g.OutOfAttempts != want.OutOfAttempts ||
			g.Refused != want.Refused || g.OutOfBudget != want.OutOfBudget || g.PerRequest != want.MeanPerClient ||
			g.Wasted != want.Wasted || g.WastedShare != want.WastedShare() || g.TimedOut != want.TimedOut ||
			(g.Recovered != nil) != want.Recovers() || g.RecoveredInStream != want.RecoveredInStream || len(g.Windows) != len(want.Windows) {
			t.Fatalf("run %d %v: %+v, calc %+v, %v", i, c, g, want, err)
		}
		if g.Recovered != nil && g.Recovered.String() != policy.Millis(want.Recovered) {
			t.Errorf("run %d recovered at %s, calc %v", i, g.Recovered, want.Recovered)
		}
		for k, w := range want.Windows {
			gw := g.Windows[k]
			if gw.Start.String() != policy.Millis(p.WindowStart(k)) || [8]int{gw.New, gw.Retries, gw.Served, gw.Wasted, gw.Failed, gw.TimedOut, gw.Refused, gw.Queue} != w.Counts() {
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

// An error rate alone (issue 37): no stream, so nothing "after the stream ended" or per second
// of one; the closed form and the simulation each say which question they answer; a limiter
// that refuses every retry of the outage leaves the server idle from its end, recovered then,
// and a run that served nothing says so, not "0%" wasted.
func TestTableErrorRateAlone(t *testing.T) {
	out, errOut, code := runTableOut(t, "?failrate=0.1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, no := range []string{"stream ended", "while the stream", "0 attempts per second", "New requests keep arriving", "probability 1;"} {
		if strings.Contains(out, no) {
			t.Errorf("table says %q", no)
		}
	}
	for _, want := range []string{
		"no new requests arrive (no stream: rate or run is 0)",
		"Error rate, in closed form (from the inputs alone, not the simulation)",
		"succeeds with probability over 0.9999", // 1 − 0.1⁶
		"Simulated: the herd's 100 clients through a 1 s outage, then a server of 20 attempts per 100 ms window that fails each attempt with probability 0.1.",
		"no stream\n", // the closed form's attempts per second
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table does not say %q", want)
		}
	}
	var grpc string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "full" && f[1] == "grpc" {
			grpc = line
		}
	}
	if !strings.Contains(grpc, "none served") || !strings.Contains(grpc, "1 s, idle") || strings.Contains(grpc, "not recovered") {
		t.Errorf("grpc's run: %q", grpc)
	}
	out, _, _ = runTableOut(t, "-format", "json", "?failrate=0.1")
	var got overloadTableJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Overload == nil {
		t.Fatal(err)
	}
	for _, r := range got.Overload.Runs {
		if r.RecoveredInStream {
			t.Errorf("%s %s: recovered in a stream that does not exist", r.Jitter, r.Limiter)
		}
		if r.Limiter == "grpc" && (r.Recovered == nil || *r.Recovered != "1000" || !r.Idle) {
			t.Errorf("grpc: recovered_ms %v, idle %v; want 1000, true", r.Recovered, r.Idle)
		}
	}
}

// A stream without clients= (issue 37): the herd's default 100 clients join it, and the words
// say so, beside the simulation's numbers, which count them (80 × 60 + 100 = 4900 requests).
func TestTableStreamNamesTheCrowd(t *testing.T) {
	out, errOut, code := runTableOut(t, "?rate=80&run=60s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"The herd's crowd of 100 clients (the clients input) retries through the outage; beside it, new requests keep arriving (the stream).",
		"Simulated: the herd's 100 clients and a stream of 80 new requests per second for 1 min, through a 1 s outage, then a server of 20 attempts per 100 ms window.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table does not say %q", want)
		}
	}
	if f := strings.Fields(out[strings.Index(out, "\n     immediate "):]); len(f) < 3 || f[2] != "4900" {
		t.Errorf("requests of the first run: %q, want 4900", f[:3])
	}
}
