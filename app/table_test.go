//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

func runTableOut(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = runTable(args, &o, &e)
	return o.String(), e.String(), code
}

// tableJSON is the part of `table -format json` the tests read.
type tableJSON struct {
	Query    string `json:"query"`
	Attempts []struct {
		Attempt  int      `json:"attempt"`
		Retry    int      `json:"retry"`
		Nominal  float64  `json:"nominal_ms"`
		Min      float64  `json:"min_ms"`
		Mean     float64  `json:"mean_ms"`
		Max      float64  `json:"max_ms"`
		Earliest float64  `json:"earliest_start_ms"`
		Latest   float64  `json:"latest_start_ms"`
		P50      *float64 `json:"p50_start_ms"`
		Reached  float64  `json:"reached_share"`
		Budget   string   `json:"budget"`
	} `json:"attempts"`
	TotalWait struct{ Min, Mean, Max float64 } `json:"total_wait"`
	Modes     []struct {
		Jitter    string `json:"jitter"`
		TotalWait struct {
			Min  float64 `json:"min_ms"`
			Mean float64 `json:"mean_ms"`
			Max  float64 `json:"max_ms"`
		} `json:"total_wait"`
	} `json:"modes"`
	Layers struct {
		Layers int             `json:"layers"`
		Worst  json.RawMessage `json:"worst_case_attempts"`
	} `json:"layers"`
}

func TestTableJSON(t *testing.T) {
	out, errOut, code := runTableOut(t, "-format", "json", "https://example.test/?base=100ms&factor=2&cap=1s&attempts=6&layers=10#x")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r tableJSON
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value")
	}
	// Hand-worked: nominal 100, 200, 400, 800, 1000 ms; full jitter totals 0 / 1250 / 2500.
	for i, want := range []float64{0, 100, 200, 400, 800, 1000} {
		a := r.Attempts[i]
		if a.Attempt != i+1 || a.Retry != i || a.Nominal != want || a.Max != want || a.Mean != want/2 || a.Min != 0 {
			t.Errorf("attempt %d: %+v", i+1, a)
		}
	}
	if r.Attempts[5].Latest != 2500 || r.Attempts[0].P50 == nil || *r.Attempts[0].P50 != 0 {
		t.Errorf("starts: %+v", r.Attempts)
	}
	want := map[string][3]float64{"none": {2500, 2500, 2500}, "full": {0, 1250, 2500}, "equal": {1250, 1875, 2500}, "decorrelated": {500, -1, 4200}}
	for _, m := range r.Modes {
		w, ok := want[m.Jitter]
		if ok && (m.TotalWait.Min != w[0] || (w[1] >= 0 && m.TotalWait.Mean != w[1]) || m.TotalWait.Max != w[2]) {
			t.Errorf("mode %s: %+v, want %v", m.Jitter, m.TotalWait, w)
		}
	}
	if len(r.Modes) != 5 || string(r.Layers.Worst) != "60466176" { // 6^10
		t.Errorf("modes %d, worst case %s", len(r.Modes), r.Layers.Worst)
	}
	if !strings.HasPrefix(r.Query, "add=0&attempts=6&base=100ms&budget=0&call=0") {
		t.Errorf("query %q", r.Query)
	}
}

func TestTableBudgetJSON(t *testing.T) {
	out, _, code := runTableOut(t, "-format=json", "?base=0.7&factor=1&cap=0.7&jitter=none&budget=2.1")
	var r tableJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatal(code, err)
	}
	a := r.Attempts[3]
	if a.Earliest != 2.1 || a.Budget != "never" || a.P50 != nil || a.Reached != 0 {
		t.Errorf("attempt 4: %+v", a)
	}
	if r.Attempts[2].Budget != "always" || r.Attempts[2].Reached != 1 {
		t.Errorf("attempt 3: %+v", r.Attempts[2])
	}
	if !strings.Contains(out, `"p50_start_ms": null`) {
		t.Error("an attempt no path makes should have null percentiles")
	}
}

func TestTableFormats(t *testing.T) {
	q := "base=100ms&factor=2&cap=1s&attempts=6"
	text, _, _ := runTableOut(t, q)
	for _, want := range []string{"6 attempts = first call + 5 retries", "1.25 s", "2.5 s", "decorrelated", "4.2 s"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	csv, _, _ := runTableOut(t, "-format", "csv", q)
	sections := strings.Split(strings.TrimSpace(csv), "\n\n")
	lines := strings.Split(sections[0], "\n")
	herd := strings.Split(sections[len(sections)-1], "\n")
	if len(lines) != 7 || len(herd) != 7 || herd[0] != strings.Join(report.Keys(report.HerdCols), ",") || !strings.HasPrefix(lines[0], "attempt,retry,nominal_ms,min_ms,mean_ms,max_ms") || !strings.HasPrefix(lines[6], "6,5,1000,0,500,1000,0,2500,") {
		t.Errorf("csv:\n%s", csv)
	}
	md, _, _ := runTableOut(t, "-format", "md", q)
	if !strings.Contains(md, "| 6 | 5 | 1000 | 0 | 500 | 1000 | 0 | 2500 |") || !strings.Contains(md, "Total wait: best 0 ms, expected 1250 ms, worst 2500 ms.") {
		t.Errorf("markdown:\n%s", md)
	}
}

// Every format of table carries the herd's peak once back and peak while down, named, at the
// issue's link: no jitter's 1,000 at 3.1 s once back and at 0 while down (by hand: every client's
// 6th attempt is the first after the 2 s outage, see TestPageHerdPeaks), full jitter's 60 at 2 s
// and 2,275 at 0; immediate has none once back (no time: "none", empty, null).
func TestTableHerdPeaks(t *testing.T) {
	const q = "clients=1000&outage=2s&capacity=50"
	text, _, _ := runTableOut(t, q)
	for _, want := range []string{"peak once back  once back at  peak while down  while down at",
		"Peak once back: the most attempts in one 100 ms window at or after the outage's end", "the capacity, 50 per window, judges it",
		"none            1000         3.1 s             1000              0", "full              60           2 s             2275              0",
		"immediate               0          none             6000              0"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	csv, _, _ := runTableOut(t, "-format", "csv", q)
	for _, want := range []string{",peak_back,peak_back_at_ms,peak_down,peak_down_at_ms,model\n", ",1000,3100,1000,0,simulated\n", ",60,2000,2275,0,simulated\n", ",0,,6000,0,simulated\n"} {
		if !strings.Contains(csv, want) {
			t.Errorf("csv lacks %q:\n%s", want, csv)
		}
	}
	md, _, _ := runTableOut(t, "-format", "md", q)
	for _, want := range []string{"| peak once back, attempts per window | once back, at (ms) | peak while down, attempts per window | while down, at (ms) |",
		"| 1000 | 3100 | 1000 | 0 |", "| 60 | 2000 | 2275 | 0 |", "| 0 |  | 6000 | 0 |", "Peak once back: the most attempts"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	out, _, _ := runTableOut(t, "-format", "json", q)
	var r struct {
		Herd []struct {
			Jitter     string   `json:"jitter"`
			Peak       int      `json:"peak"`
			PeakBack   int      `json:"peak_back"`
			PeakBackAt *float64 `json:"peak_back_at_ms"`
			PeakDown   int      `json:"peak_down"`
			PeakDownAt *float64 `json:"peak_down_at_ms"`
		} `json:"herd"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Herd) != 6 {
		t.Fatalf("%v, %d modes", err, len(r.Herd))
	}
	for i, want := range []struct {
		jitter       string
		back, down   int
		backAt, peak float64
	}{{"immediate", 0, 6000, -1, 6000}, {"none", 1000, 1000, 3100, 1000}, {"full", 60, 2275, 2000, 2275}} {
		h := r.Herd[i]
		backAt := -1.0
		if h.PeakBackAt != nil {
			backAt = *h.PeakBackAt
		}
		if h.Jitter != want.jitter || h.PeakBack != want.back || backAt != want.backAt || h.PeakDown != want.down ||
			h.PeakDownAt == nil || *h.PeakDownAt != 0 || float64(h.Peak) != want.peak {
			t.Errorf("json %s: %+v, want %+v", h.Jitter, h, want)
		}
	}
	if !strings.Contains(out, `"peak_back_at_ms": null`) {
		t.Error("immediate's time once back is not null")
	}
}

func TestTableErrors(t *testing.T) {
	out, errOut, code := runTableOut(t, "base=20s&cap=10s&attempts=0&jitter=x")
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `calc: cap "10s": must be at least base (20s)`) ||
		!strings.HasPrefix(lines[1], `calc: attempts "0"`) || !strings.HasPrefix(lines[2], `calc: jitter "x"`) {
		t.Errorf("stderr:\n%s", errOut)
	}
	// What is wrong is named, not left to a reading of the usage.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "xml", "base=1s"}, `table: -format "xml": must be text, csv, md or json` + "\n"},
		{[]string{"base=1s", "jitter=full"}, `table: 2 queries given ("base=1s", "jitter=full"); give one, quoted: 'base=1s&jitter=full'` + "\n"},
		{[]string{"base=1s", "-format", "json"}, `table: "-format" after the query: flags go before it` + "\n"},
		{[]string{"attempt=8&bse=1s"}, `calc: attempt "8": unknown key; did you mean attempts?` + "\n" + `calc: bse "1s": unknown key; did you mean base?` + "\n"},
		// B's keys are named as B's, every one, before the link's own unknown keys.
		{[]string{"bse=2s&vs=bse%3D1s%26atempts%3D3"}, `calc: vs.bse "1s": unknown key; did you mean base?` + "\n" +
			`calc: vs.atempts "3": unknown key; did you mean attempts?` + "\n" + `calc: bse "2s": unknown key; did you mean base?` + "\n"},
	} {
		if out, errOut, code := runTableOut(t, tt.args...); code != 2 || out != "" || errOut != tt.want {
			t.Errorf("table %q: exit %d, stdout %.40q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
	if _, _, code := runTableOut(t); code != 0 {
		t.Errorf("no query means the defaults: exit %d", code)
	}
	// A '?' inside a query is part of it, as in the page's link; a fragment with inputs is said.
	for _, tt := range []struct{ arg, want string }{
		{"base=1s&jitter=full?", `jitter "full?": must be one of`},
		{"base=2s&jitter=none&utm_source=a?b", `utm_source "a?b": unknown key`},
		{"#base=1s", `table: "#base=1s": the inputs after '#' are not read`},
		{"?attempts=3#base=1s", `table: "#base=1s": the inputs after '#' are not read`},
	} {
		if out, errOut, code := runTableOut(t, tt.arg); code != 2 || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("table %q: exit %d, stdout %.40q, stderr %q; want exit 2 and %q", tt.arg, code, out, errOut, tt.want)
		}
	}
	// A link's address and a fragment without inputs are dropped: the same query in five forms.
	want, _, _ := runTableOut(t, "-format", "json", "base=1s&attempts=3")
	for _, arg := range []string{"?base=1s&attempts=3", "http://127.0.0.1:8000/?base=1s&attempts=3#schedule-section",
		"base=1s&attempts=3#herd-section", "https://example.test/calc/?base=1s&attempts=3", "base=1s&attempts=3#javascript:x=1"} {
		if out, errOut, code := runTableOut(t, "-format", "json", arg); code != 0 || out != want {
			t.Errorf("table %q: exit %d, stderr %q, and another table than base=1s&attempts=3's", arg, code, errOut)
		}
	}
}

// The herd's first known answer (an article's count), through the terminal: 4 clients retrying every 20 ms through a
// 700 ms outage make 36 attempts each (0, 20, ..., 700 ms), 144 in all; the attempts at 0..180 ms
// fill the first 200 ms window: peak 40 (4 clients x 10).
func TestTableHerd(t *testing.T) {
	out, errOut, code := runTableOut(t, "-format", "json",
		"clients=4&jitter=none&factor=1&base=20ms&cap=20ms&call=0&outage=700ms&window=200ms&capacity=0&attempts=100")
	if code != 0 {
		t.Fatal(errOut)
	}
	var r struct {
		Herd []struct {
			Jitter       string   `json:"jitter"`
			Attempts     int      `json:"attempts"`
			Accepted     int      `json:"accepted"`
			Peak         int      `json:"peak"`
			LastAccepted *float64 `json:"last_accepted_ms"`
			Arrivals     []int    `json:"arrivals"`
		} `json:"herd"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var none = r.Herd[1]
	if none.Jitter != "none" || none.Attempts != 144 || none.Accepted != 4 || none.Peak != 40 || *none.LastAccepted != 700 ||
		len(none.Arrivals) != 4 || none.Arrivals[0] != 40 {
		t.Errorf("none: %+v", none)
	}
	text, _, _ := runTableOut(t, "clients=4&jitter=none&factor=1&base=20ms&cap=20ms&outage=700ms&window=200ms&capacity=0&attempts=100")
	if !strings.Contains(text, "Many clients through an outage: 4 clients") {
		t.Errorf("text lacks the herd:\n%s", text)
	}
	// A window too short for the schedule leaves the herd out, as on the page; the schedule stands.
	out, errOut, code = runTableOut(t, "base=10s&cap=10s&attempts=2&window=1ms")
	if code != 0 || !strings.Contains(errOut, `the herd is not simulated: calc: window "1ms"`) ||
		!strings.Contains(out, "worst") || strings.Contains(out, "Many clients") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	// An open system's is the overload view's; B's is named as B's.
	_, errOut, code = runTableOut(t, "rate=50&run=10s&window=1ms")
	if code != 0 || !strings.HasPrefix(errOut, `the overload view is not simulated: calc: window "1ms"`) {
		t.Errorf("overload: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runTableOut(t, "vs=base%3D10s%26cap%3D10s%26attempts%3D2%26window%3D1ms")
	if code != 0 || !strings.HasPrefix(errOut, `B's herd is not simulated: calc: window "1ms"`) {
		t.Errorf("B: exit %d, stderr %q", code, errOut)
	}
	// An open system's headline is its overload run's, and says so: its counts are requests,
	// the stream's with the crowd's clients.
	out, _, code = runTableOut(t, "rate=50&run=10s&limiter=grpc&vs=preset%3Daws-go-v2")
	if code != 0 || !strings.Contains(out, "A its overload run, limiter grpc: ") || !strings.Contains(out, " requests accepted, ") ||
		strings.Contains(out, "B its overload run") {
		t.Errorf("an open A beside a closed B: exit %d, stdout:\n%s", code, out)
	}
	// B is never sampled: a B that A's sampling limit would refuse is compared, its herd run.
	out, errOut, code = runTableOut(t, "budget=10s&vs=base%3D10ms%26factor%3D1%26attempts%3D200%26budget%3D10s")
	if code != 0 || errOut != "" || !strings.Contains(out, "B peak once back") {
		t.Errorf("B over the sampling limit: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

func TestTablePreset(t *testing.T) {
	out, errOut, code := runTableOut(t, "-format", "json", "preset=aws-go-v2")
	if code != 0 {
		t.Fatal(errOut)
	}
	var r tableJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// aws-sdk-go-v2: retry k waits random() x 2^k s, so retry 1 is [0, 2 s] and retry 2 [0, 4 s].
	if a := r.Attempts; len(a) != 3 || a[1].Max != 2000 || a[2].Max != 4000 || a[2].Min != 0 || !strings.Contains(r.Query, "preset=aws-go-v2") {
		t.Errorf("aws-go-v2: %+v", r)
	}
	text, _, _ := runTableOut(t, "preset=envoy")
	if !strings.Contains(text, "backoff_strategy.cc") || !strings.Contains(text, "documentation") {
		t.Errorf("the text does not say where the preset comes from:\n%s", text)
	}
}

// withinJSON is a total wait as `table -format json` writes it; absent fields stay nil.
type withinJSON struct {
	Min   *float64 `json:"min_ms"`
	Mean  *float64 `json:"mean_ms"`
	Max   *float64 `json:"max_ms"`
	P50   *float64 `json:"p50_ms"`
	P90   *float64 `json:"p90_ms"`
	P99   *float64 `json:"p99_ms"`
	Exact *bool    `json:"min_max_exact"`
}

func (w withinJSON) String() string {
	f := func(x *float64) string {
		if x == nil {
			return "-"
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	}
	e := "-"
	if w.Exact != nil {
		e = strconv.FormatBool(*w.Exact)
	}
	return strings.Join([]string{f(w.Min), f(w.Mean), f(w.Max), f(w.P50), f(w.P90), f(w.P99), e}, " ")
}

type budgetJSON struct {
	TotalWait withinJSON  `json:"total_wait"`
	Within    *withinJSON `json:"total_wait_within_budget"`
	Modes     []struct {
		Jitter    string      `json:"jitter"`
		TotalWait withinJSON  `json:"total_wait"`
		Within    *withinJSON `json:"total_wait_within_budget"`
	} `json:"modes"`
}

// With a budget, total_wait is the policy's (no percentiles: the sampled paths follow the
// budget) and total_wait_within_budget has the rest; without one, nothing moves.
func TestTableWithinBudgetJSON(t *testing.T) {
	for _, c := range []struct {
		query          string
		total, within  string
		modes          map[string]string // jitter -> within
		modesTotalWait map[string]string
	}{
		// Hand-worked: base 1s x2 without jitter waits 1, 2, 4, 8, 16 s, 31 s in all; within
		// 6.5s it makes attempts at 0, 1 and 3 s, not the one at 7 s: 3 s on every path.
		// Equal jitter: 1 s + 1.5 s, then a 4 s wait reaches 6.5 s; the most is 1 ns short of it.
		{"base=1s&factor=2&attempts=6&jitter=none&budget=6.5s&cap=1m",
			"31000 31000 31000 - - - -", "3000 3000 3000 3000 3000 3000 true",
			map[string]string{"equal": "2500 * 6499.999999 * * * true", "full": "0 * 6499.999999 * * * true"},
			map[string]string{"equal": "15500 23250 31000 - - - -"}},
		// The link: decorrelated from 250 ms within 3 s.
		{"base=250ms&attempts=8&jitter=decorrelated&budget=3s",
			"1750 * 49750 - - - -", "750 * 2999.999999 * * * true",
			map[string]string{"none": "1750 1750 1750 1750 1750 1750 true"}, nil},
		// Polly's jitter: its least and most are its samples' (checked against calc below).
		{"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12&budget=5s&samples=500", "* * * - - - -", "* * * * * * false", nil, nil},
	} {
		out, errOut, code := runTableOut(t, "-format=json", c.query)
		if code != 0 {
			t.Fatal(errOut)
		}
		var r budgetJSON
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		match := func(what, got, want string) {
			g, w := strings.Fields(got), strings.Fields(want)
			for i := range w {
				if w[i] != "*" && g[i] != w[i] || w[i] == "*" && g[i] == "-" {
					t.Errorf("%s: %s = %s, want %s", c.query, what, got, want)
					return
				}
			}
		}
		match("total_wait", r.TotalWait.String(), c.total)
		if r.Within == nil {
			t.Fatalf("%s: no total_wait_within_budget", c.query)
		}
		match("total_wait_within_budget", r.Within.String(), c.within)
		for _, m := range r.Modes {
			if m.Within == nil || m.TotalWait.P50 != nil {
				t.Errorf("%s: mode %s mixes or lacks the kinds: %v / %v", c.query, m.Jitter, m.TotalWait, m.Within)
				continue
			}
			if w, ok := c.modes[m.Jitter]; ok {
				match("mode "+m.Jitter+" within", m.Within.String(), w)
			}
			if w, ok := c.modesTotalWait[m.Jitter]; ok {
				match("mode "+m.Jitter+" total_wait", m.TotalWait.String(), w)
			}
		}
		// Every number is calc's.
		p, _ := libs.Decode(c.query)
		rep := p.Report()
		want := fmt.Sprintf("%s %s %s %s %s %s %v", policy.Millis(rep.Within.Min), policy.MillisFloat(rep.Within.Mean), policy.Millis(rep.Within.Max),
			policy.Millis(rep.Sample.Total.P50), policy.Millis(rep.Sample.Total.P90), policy.Millis(rep.Sample.Total.P99), rep.Within.Exact)
		match("total_wait_within_budget against calc", r.Within.String(), want)
	}
	// No budget: total_wait keeps its percentiles and nothing is within a budget.
	out, _, _ := runTableOut(t, "-format=json", "base=100ms&factor=2&cap=1s&attempts=6")
	var r budgetJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Within != nil || r.TotalWait.P50 == nil || r.TotalWait.Exact != nil || strings.Contains(out, "within_budget") || strings.Contains(out, "min_max_exact") {
		t.Errorf("without a budget: %s", out)
	}
}

// The text, Markdown and CSV tables keep the two kinds apart too, each labelled.
func TestTableWithinBudgetFormats(t *testing.T) {
	q := "base=1s&factor=2&attempts=6&jitter=none&budget=6.5s&cap=1m&samples=100&seed=3"
	text, _, _ := runTableOut(t, q)
	for _, want := range []string{
		"Total wait of the policy, ignoring the budget: best case 31 s, expected 31 s, worst case 31 s.\n",
		"Total wait within the 6.5 s budget (the waits before the attempts a path makes): best case 3 s, expected 3 s (mean of 100 sampled paths, seed 3), worst case 3 s; sampled p50 3 s, p90 3 s, p99 3 s.\n",
		"policy best total  policy expected total  policy worst total  in budget best total  in budget expected total  in budget worst total  in budget p99 total",
		"best and worst case are exact, expected is the mean of 100 sampled paths.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// No line has a total of both kinds without saying which is which.
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "Total wait") && strings.Contains(line, "p50") && strings.Contains(line, "ignoring") {
			t.Errorf("one line mixes the kinds: %q", line)
		}
	}
	md, _, _ := runTableOut(t, "-format=md", q)
	for _, want := range []string{
		"\nTotal wait of the policy, ignoring the budget: best 31000 ms, expected 31000 ms, worst 31000 ms.\n",
		"\nTotal wait within the 6.5 s budget (the waits before the attempts a path makes): best case 3000 ms, expected 3000 ms (mean of 100 sampled paths, seed 3), worst case 3000 ms; sampled p50 3000 ms, p90 3000 ms, p99 3000 ms.\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	csv, _, _ := runTableOut(t, "-format=csv", q)
	sections := strings.Split(strings.TrimSpace(csv), "\n\n")
	if len(sections) != 6 { // the schedule, the totals, the fit's two tables, the summary, the herd
		t.Fatalf("csv sections: %d\n%s", len(sections), csv)
	}
	totals := strings.Split(sections[1], "\n")
	if totals[0] != "jitter,scope,min_ms,mean_ms,max_ms,p50_ms,p90_ms,p99_ms,min_max_exact" || len(totals) != 1+2*5 ||
		totals[1] != "none,policy,31000,31000.000000,31000.000000,,,,true" ||
		totals[2] != "none,within_budget,3000,3000.000000,3000.000000,3000.000000,3000.000000,3000.000000,true" ||
		!strings.HasPrefix(totals[5], "equal,policy,15500,23250.000000,31000.000000,,,,") || !strings.HasPrefix(totals[6], "equal,within_budget,2500,") ||
		!strings.Contains(totals[6], ",6499.999999,") {
		t.Errorf("csv totals:\n%s", sections[1])
	}
	// Without a budget the totals are the policy's only, with their percentiles.
	csv, _, _ = runTableOut(t, "-format=csv", "base=1s")
	if strings.Contains(csv, "within_budget") || len(strings.Split(strings.TrimSpace(csv), "\n\n")) != 4 || !strings.Contains(csv, "\nfull,policy,0,") {
		t.Errorf("csv without a budget:\n%s", csv)
	}
}

// A page can copy before its paths are sampled: what sampling gives is left blank, not 0.
func TestTableWithinBudgetBeforeSampling(t *testing.T) {
	p, _ := libs.Decode("base=1s&factor=2&attempts=6&jitter=none&budget=6.5s&cap=1m")
	var csv, md strings.Builder
	report.WriteCSV(&csv, report.Results{Report: p.ReportBounds()})
	report.WriteMarkdown(&md, report.Results{Report: p.ReportBounds()})
	if !strings.Contains(csv.String(), "\nnone,within_budget,3000,,3000.000000,,,,true\n") || !strings.HasPrefix(csv.String(), strings.Join(report.Keys(report.ScheduleCols), ",")+"\n1,0,0,0,0,0,0,0,,,,,0,always\n") {
		t.Errorf("csv:\n%s", csv.String())
	}
	if !strings.Contains(md.String(), "best case 3000 ms, worst case 3000 ms; the sampled paths are still being simulated.") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// The contention experiment: its table in every format, its sweep in JSON when asked, each
// number calc's own.
func TestTableContention(t *testing.T) {
	q := "base=5ms&cap=2s&contenders=20&runs=3&jitter=decorrelatedv2"
	p, err := calc.Decode(q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := contention.Run(p.Params, 20, 3, contention.ModesOf(p.Params)...)
	if err != nil {
		t.Fatal(err)
	}
	type spread struct{ Mean, SD, Min, P50, P90, Max float64 }
	type mode struct {
		Mode, Title   string
		Clients, Runs int
		Calls         spread
		Time          spread `json:"time_ms"`
	}
	var out struct {
		Contention []mode
		Sweep      []struct {
			Clients int
			Modes   []mode
		} `json:"contention_sweep"`
	}
	// Without -contention there is none: it is a hundred times the work of the rest.
	text, _, _ := runTableOut(t, "-format=json", q)
	if strings.Contains(text, "contention") {
		t.Errorf("contention without -contention:\n%s", text)
	}
	for _, sweep := range []bool{false, true} {
		args := []string{"-format=json", "-contention", q}
		if sweep { // -sweep implies -contention
			args = []string{"-format=json", "-sweep", q}
		}
		text, errOut, code := runTableOut(t, args...)
		if err := json.Unmarshal([]byte(text), &out); err != nil || code != 0 || errOut != "" {
			t.Fatalf("%v: %v, code %d, %s", args, err, code, errOut)
		}
		if len(out.Contention) != len(want) {
			t.Fatalf("%d modes, want %d", len(out.Contention), len(want))
		}
		for i, m := range out.Contention {
			w := want[i]
			if m.Mode != w.Mode.String() || m.Title != w.Mode.Title() || m.Clients != 20 || m.Runs != 3 ||
				m.Calls != spread(w.Calls) || m.Time.Mean != w.Time.Mean/1e6 || m.Time.P90 != w.Time.P90/1e6 {
				t.Errorf("mode %d: %+v, want %+v", i, m, w)
			}
		}
		if last := out.Contention[len(out.Contention)-1].Mode; last != "policy-decorrelatedv2" {
			t.Errorf("the policy's mode is %q", last)
		}
		if n := len(out.Sweep); sweep && (n != 20 || out.Sweep[19].Clients != 200 || len(out.Sweep[19].Modes) != 6) || !sweep && n != 0 {
			t.Errorf("-sweep=%v: %d points", sweep, n)
		}
	}
	text, _, _ = runTableOut(t, "-contention", q)
	for _, s := range []string{"Contention (the AWS post's experiment): 20 clients", "mean over 3 runs", "This policy: Polly's decorrelated jitter (DecorrelatedJitterBackoffV2)", "Exponential backoff"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	md, _, _ := runTableOut(t, "-format=md", "-contention", q)
	if !strings.Contains(md, "| "+strings.Join(report.Heads(report.ContentionCols), " | ")+" |") || !strings.Contains(md, "| fulljitter | 20 | 3 | ") {
		t.Errorf("markdown:\n%s", md)
	}
	csv, _, _ := runTableOut(t, "-format=csv", "-contention", q)
	if sections := strings.Split(strings.TrimSpace(csv), "\n\n"); len(sections) != 5 || !strings.HasPrefix(sections[4], strings.Join(report.Keys(report.ContentionCols), ",")+"\n") ||
		strings.Count(sections[4], "\n") != 6 {
		t.Errorf("csv:\n%s", csv)
	}
	_, errOut, code := runTableOut(t, "contenders=501&runs=0")
	if code != 2 || errOut != "calc: contenders \"501\": must be between 1 and 500\ncalc: runs \"0\": must be between 1 and 1000\n" {
		t.Errorf("bad keys: code %d, %q", code, errOut)
	}
}

// -import reads a configuration's policy, keeps the query's other keys, says what it read on
// stderr with the link, and prints the table of that link; a bad file is named, exit 2.
func TestTableImport(t *testing.T) {
	file := filepath.Join(t.TempDir(), "service.json")
	config := `{"methodConfig": [{"name": [{"service": "a.B"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s",
  "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}, "waitForReady": true}]}`
	if err := os.WriteFile(file, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runTableOut(t, "-format", "json", "-import", file, "attempts=9&layers=3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"import: " + file + " read as gRPC service config (JSON)\n",
		`read: line 1: methodConfig[0].retryPolicy.maxAttempts "4" → attempts=4` + "\n",
		"ignored: line 2: methodConfig[0].waitForReady: waiting for the channel to be ready is not modelled\n",
		"link: ?add=0&attempts=4&base=100ms&budget=0&call=0&cap=1s&capacity=20&capat=before&clients=100&export=grpc&factor=2&first=jittered&growth=exponential&jitter=proportional&layers=3&outage=1s&ratio=0.2&samples=10000&seed=1&spread=0&window=100ms\n"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	var r tableJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// gRPC's ±20% around 100 ms, 200 ms, 400 ms; the query's layers kept.
	if len(r.Attempts) != 4 || r.Attempts[1].Min != 80 || r.Attempts[3].Max != 480 || r.Layers.Layers != 3 {
		t.Errorf("attempts %+v, layers %d", r.Attempts, r.Layers.Layers)
	}

	tableStdin = strings.NewReader("[default]\nretry_mode = standard\nmax_attempts = 2\n")
	defer func() { tableStdin = os.Stdin }()
	if out, errOut, code := runTableOut(t, "-import", "-"); code != 0 || !strings.Contains(errOut, "import: stdin read as AWS shared config") ||
		!strings.Contains(out, "2 attempts = first call + 1 retry.") {
		t.Errorf("stdin: exit %d\n%s\n%s", code, errOut, out)
	}

	// A configuration's text reaches the terminal escaped: this key set its title and cleared
	// it. Every key it ignored is listed, however many (the page shows the first 200).
	tableStdin = strings.NewReader("[default]\nretry_mode = standard\n\033]0;PWNED\007\033[2Jkey = 1\n" + strings.Repeat("k=1\n", 500))
	if _, errOut, code := runTableOut(t, "-import", "-"); code != 0 || strings.ContainsAny(errOut, "\033\007") ||
		!strings.Contains(errOut, `ignored: line 3: "\x1b]0;PWNED\a\x1b[2Jkey": not about retries`+"\n") || strings.Count(errOut, "ignored: ") != 501 {
		t.Errorf("control characters: exit %d\n%.600q", code, errOut)
	}

	for _, tt := range []struct{ stdin, file, want string }{
		{stdin: "[default]\nretry_mode = legacy\n", want: `table: -import stdin: import (AWS shared config (~/.aws/config)): the legacy mode's waits are not modelled here: set retry_mode = standard (line 2, retry_mode "legacy")` + "\n"},
		{stdin: strings.Repeat("#", 1<<20), want: "table: -import stdin: import: 65537 bytes: at most 65536\n"},
		{stdin: "hello", want: "table: -import stdin: import: not a configuration this calculator reads: "},
		{file: filepath.Join(t.TempDir(), "missing.json"), want: "table: -import: open "},
	} {
		tableStdin = strings.NewReader(tt.stdin)
		name := tt.file
		if name == "" {
			name = "-"
		}
		if out, errOut, code := runTableOut(t, "-import", name); code != 2 || out != "" || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("-import %s %.20q: exit %d, stdout %.40q, stderr %q; want exit 2 and %q", name, tt.stdin, code, out, errOut, tt.want)
		}
	}
}
