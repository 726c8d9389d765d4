//go:build !js

package main

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// headCellsIn maps "side/col" to data-value for every cell of the headline table id.
func headCellsIn(html, id string) map[string]string {
	return tableCells(html, `<table id="`+id+`"`, "data-side", "data-value")
}

// wantHerdHead is what calc says a policy's herd headline cells hold: its own jitter mode's herd,
// or for an open system its own mode's overload run with its own limiter.
func wantHerdHead(t *testing.T, side string, p calc.Params) map[string]string {
	t.Helper()
	out := map[string]string{}
	if p.Open() {
		r, err := sim.Overload(p, calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: p.Limiter})
		if err != nil {
			t.Fatal(err)
		}
		recovered := ""
		if r.Recovered >= 0 {
			recovered = policy.Millis(r.Recovered)
		}
		for col, v := range map[string]string{"requests": strconv.Itoa(r.Requests), "succeeded": strconv.Itoa(r.Accepted),
			"refused": strconv.Itoa(r.Refused), "wasted_share": strconv.FormatFloat(r.WastedShare(), 'f', -1, 64), "recovered": recovered} {
			out[side+"/"+col] = v
		}
		return out
	}
	h, err := sim.HerdMode(p, calc.Backoff(p.Jitter))
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	if h.Accepted > 0 {
		last = policy.Millis(h.LastAccepted)
	}
	for col, v := range map[string]string{"peak_back": strconv.Itoa(h.PeakBack), "peak_down": strconv.Itoa(h.PeakDown),
		"accepted": strconv.Itoa(h.Accepted), "gave_up": strconv.Itoa(h.GaveUp), "last_accepted": last} {
		out[side+"/"+col] = v
	}
	return out
}

// The compare section shows A's and B's herd headlines, each in its own jitter mode (an open
// system's overload run with its own limiter), cell for cell calc's.
func TestPageCompareHerdHeadline(t *testing.T) {
	for _, tc := range []struct {
		name, link string
		tables     []string // the tables of A's and B's rows
	}{
		{"closed", compareLink, []string{"compare-herd", "compare-herd"}},
		{"both open", "rate=50&run=2s&timeout=300ms&queue=10&limiter=grpc&clients=20&seed=4&jitter=equal&vs=" +
			url.QueryEscape("preset=aws-go-v2&rate=40&run=2s&limiter=aws&clients=20"), []string{"compare-herd", "compare-herd"}},
		{"A open, B closed", "rate=50&run=2s&clients=20&vs=" + url.QueryEscape("jitter=none&clients=30"), []string{"compare-herd-a", "compare-herd-b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := navPage(t, tc.link)
			l, err := libs.DecodeLink(tc.link)
			if err != nil || !l.HasB() {
				t.Fatal(err)
			}
			html := app.HTMLString(p)
			for i, side := range []struct {
				name string
				p    calc.Params
			}{{"a", l.Params}, {"b", l.B}} {
				got := headCellsIn(html, tc.tables[i])
				want := wantHerdHead(t, side.name, side.p)
				for k, v := range want {
					if g, ok := got[k]; !ok || g != v {
						t.Errorf("%s: cell %s is %q, want %q", tc.tables[i], k, g, v)
					}
				}
				if s, ok := got[side.name+"/status"]; ok {
					t.Errorf("%s: %s still says %q", tc.tables[i], side.name, s)
				}
			}
		})
	}
}

// Before B's herd is in, its row says so and has no number; another B's run is never shown.
func TestPageCompareHerdPending(t *testing.T) {
	p, _ := navPage(t, compareLink)
	compareOf(p).vs.herdFor.Base++ // as if the run in were of another B
	html := app.HTMLString(compareOf(p).renderCompareRuns())
	got := headCellsIn(html, "compare-herd")
	if _, ok := got["b/status"]; !ok || got["b/peak"] != "" || !strings.Contains(html, "computing…") {
		t.Errorf("B's row with a run of another B: %v", got)
	}
}

// The button computes the contention headlines of A and B, each at its own contenders and in its
// own mode, calc's; an edit of an input the experiment reads takes them away.
func TestPageCompareContention(t *testing.T) {
	link := compareLink + "&contenders=20&runs=10"
	p, d := navPage(t, link)
	l, _ := libs.DecodeLink(link)
	if headCellsIn(app.HTMLString(p), "compare-contention") != nil {
		t.Fatal("contention headlines before the button")
	}
	compareOf(p).computeVsContention(d.Context(), app.Event{})
	for deadline := time.Now().Add(time.Minute); compareOf(p).vs.contGen != 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		d.Consume()
	}
	d.Consume() // the island's render
	got := headCellsIn(app.HTMLString(p), "compare-contention")
	for _, side := range []struct {
		name string
		p    calc.Params
	}{{"a", l.Params}, {"b", l.B}} {
		rs, err := contention.Run(side.p.Params, side.p.Contenders, side.p.Runs, contention.Policy(side.p.Jitter))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"contenders": strconv.Itoa(side.p.Contenders), "runs": strconv.Itoa(side.p.Runs),
			"calls": strconv.FormatFloat(rs[0].Calls.Mean, 'f', -1, 64), "time": policy.MillisFloat(rs[0].Time.Mean)}
		for col, v := range want {
			if g := got[side.name+"/"+col]; g != v {
				t.Errorf("contention %s/%s = %q, want %q", side.name, col, g, v)
			}
		}
	}
	p.edit(d.Context(), "cap", "4s")
	settle(t, p, d)
	if headCellsIn(app.HTMLString(p), "compare-contention") != nil {
		t.Error("the contention headlines of other inputs stay")
	}
}

// table -contention adds both policies' contention headline to the comparison, calc's, in text
// and in JSON; without -contention there is none.
func TestTableCompareContention(t *testing.T) {
	link := compareLink + "&contenders=20&runs=10"
	l, _ := libs.DecodeLink(link)
	var want [2]contention.Result
	for i, p := range []calc.Params{l.Params, l.B} {
		rs, err := contention.Run(p.Params, p.Contenders, p.Runs, contention.Policy(p.Jitter))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = rs[0]
	}
	out, _, code := runTableOut(t, "-contention", link)
	line := "Contention, each in its own jitter mode: A " + report.ContentionLineOf(&want[0]) + " B " + report.ContentionLineOf(&want[1])
	if code != 0 || !strings.Contains(out, line+"\n") {
		t.Errorf("no line %q in:\n%s", line, out[max(0, len(out)-600):])
	}
	if out, _, _ := runTableOut(t, link); strings.Contains(out, "Contention, each") {
		t.Error("a contention headline without -contention")
	}
	out, _, _ = runTableOut(t, "-contention", "-format", "json", link)
	var doc struct {
		Compare struct {
			Contention map[string]struct {
				Clients int
				Calls   struct{ Mean float64 }
				Time    struct{ Mean float64 } `json:"time_ms"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for i, side := range []string{"a", "b"} {
		got := doc.Compare.Contention[side]
		if got.Clients != want[i].Clients || got.Calls.Mean != want[i].Calls.Mean || strconv.FormatFloat(got.Time.Mean, 'f', -1, 64) != policy.MillisFloat(want[i].Time.Mean) {
			t.Errorf("JSON contention %s: %+v, want %d clients, %v calls, %s ms", side, got, want[i].Clients, want[i].Calls.Mean, policy.MillisFloat(want[i].Time.Mean))
		}
	}
}

// A herd over what the simulation runs is the fluid model's in the compare section too: A's
// from the herd section's expected counts, B's from its own, each row saying that its counts are
// expected, and each cell calc/fluid's rounded count. B's row said "not simulated" before.
func TestPageCompareFluidHerd(t *testing.T) {
	link := "clients=1000000&outage=2s&capacity=5000&vs=" + url.QueryEscape("clients=2000000&outage=2s&capacity=5000&jitter=equal")
	p, _ := navPage(t, link)
	l, err := libs.DecodeLink(link)
	if err != nil || !l.HasB() || l.Params.HerdSimulated() || l.B.HerdSimulated() {
		t.Fatalf("%v: the link's herds are not both over the simulation's limit", err)
	}
	html := app.HTMLString(p)
	got := headCellsIn(html, "compare-herd")
	for _, side := range []struct {
		name string
		p    calc.Params
	}{{"a", l.Params}, {"b", l.B}} {
		run, err := fluid.Mode(side.p, calc.Backoff(side.p.Jitter))
		if err != nil {
			t.Fatal(err)
		}
		r := run.Rounded(side.p.Window)
		for col, want := range map[string]string{"peak_back": strconv.Itoa(r.PeakBack), "accepted": strconv.Itoa(r.Accepted), "gave_up": strconv.Itoa(r.GaveUp)} {
			if g := got[side.name+"/"+col]; g != want {
				t.Errorf("%s/%s: %q, want %q", side.name, col, g, want)
			}
		}
		if s, ok := got[side.name+"/status"]; ok {
			t.Errorf("%s still says %q", side.name, s)
		}
		if name := strings.ToUpper(side.name) + ", " + side.p.Jitter.Title() + ", expected"; !strings.Contains(html, name+"<") {
			t.Errorf("no row named %q", name)
		}
	}
	if !strings.Contains(html, `id="compare-herd-model"`) || !strings.Contains(html, "herds are over what the simulation runs") {
		t.Error("no note says which model the expected rows are")
	}
}

// table with vs says the same of a herd over the simulation's limit: the fluid model's expected
// counts, named as such in the text and the JSON, with no sliding peak, where it said "B not
// simulated".
func TestTableCompareFluidHerd(t *testing.T) {
	q := "clients=1000000&outage=2s&capacity=5000&vs=" + url.QueryEscape("clients=2000000&outage=2s&capacity=5000&jitter=equal")
	l, err := libs.DecodeLink(q)
	if err != nil {
		t.Fatal(err)
	}
	text, errOut, code := runTableOut(t, q)
	if code != 0 {
		t.Fatalf("table: %s", errOut)
	}
	if !strings.Contains(text, "A expected counts (fluid model, rounded): ") || !strings.Contains(text, " B expected counts (fluid model, rounded): ") {
		t.Errorf("the text's herd line does not name the model:\n%s", text)
	}
	out, errOut, code := runTableOut(t, "-format", "json", q)
	if code != 0 {
		t.Fatalf("table: %s", errOut)
	}
	var printed struct {
		Compare struct {
			Herd map[string]map[string]any `json:"herd"`
		} `json:"compare"`
	}
	if err := json.Unmarshal([]byte(out), &printed); err != nil {
		t.Fatal(err)
	}
	for side, p := range map[string]calc.Params{"a": l.Params, "b": l.B} {
		run, err := fluid.Mode(p, calc.Backoff(p.Jitter))
		if err != nil {
			t.Fatal(err)
		}
		r, h := run.Rounded(p.Window), printed.Compare.Herd[side]
		if h["model"] != "expected, fluid model" || h["accepted"] != float64(r.Accepted) || h["peak_back"] != float64(r.PeakBack) {
			t.Errorf("%s: %v, want model, accepted %d, peak_back %d", side, h, r.Accepted, r.PeakBack)
		}
		if _, ok := h["peak"]; ok {
			t.Errorf("%s: a sliding peak %v, which the fluid model has not", side, h["peak"])
		}
	}
}

// TestCompareTimesNeverCrossTheBudget: a time of A or B just below its 2 s budget never reads
// "2 s" in the compare section's tables, nor in the terminal's comparison: the herd's last client
// through and a wait, as the schedule and the herd's section write them. They read "2 s" before.
func TestCompareTimesNeverCrossTheBudget(t *testing.T) {
	cellRE := regexp.MustCompile(`<td((?:\s+[\w-]+="[^"]*")*)\s*>([^<]*)</td>`)
	for _, tc := range []struct {
		link     string
		cells    int    // at least this many cells hold a time within 0.5% below 2 s
		terminal string // a line of the terminal's comparison that holds one
	}{
		// Both herds' last client gets through at about 1,996 ms.
		{"budget=2s&clients=1000&capacity=1000&outage=1s&vs=" + url.QueryEscape("budget=2s&jitter=equal&clients=1000&capacity=1000&outage=1s"), 2, "Herd, each"},
		// A's second attempt waits 1,998 ms, and makes it within A's 2 s budget.
		{"base=1998ms&jitter=none&attempts=2&cap=10s&budget=2s&vs=" + url.QueryEscape("budget=2s&jitter=none&base=1999ms&attempts=2"), 4, "2  "},
	} {
		p, _ := navPage(t, tc.link)
		html := app.HTMLString(p)
		near := 0
		for _, m := range cellRE.FindAllStringSubmatch(html, -1) {
			attrs := map[string]string{}
			for _, a := range attrRE.FindAllStringSubmatch(m[1], -1) {
				attrs[a[1]] = a[2]
			}
			v := attrs["data-ms"]
			if v == "" {
				v = attrs["data-value"]
			}
			ms, err := strconv.ParseFloat(v, 64)
			if err != nil || ms < 1990 || ms >= 2000 {
				continue
			}
			near++
			if text := strings.TrimSpace(m[2]); text == "2 s" {
				t.Errorf("%s: cell %s of %s ms reads %q", tc.link, attrs["data-col"], v, text)
			}
		}
		if near < tc.cells {
			t.Errorf("%s: %d cells within 0.5%% below 2 s, want at least %d", tc.link, near, tc.cells)
		}
		out, _, code := runTableOut(t, tc.link)
		found := false
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), tc.terminal) {
				continue
			}
			found = found || strings.Contains(line, "< 2 s")
			if rest := strings.ReplaceAll(line, "< 2 s", ""); strings.Contains(rest, " 2 s") {
				t.Errorf("%s: the terminal's line %q reads 2 s", tc.link, line)
			}
		}
		if code != 0 || !found {
			t.Errorf("%s: exit %d, and no line starting %q reads < 2 s:\n%s", tc.link, code, tc.terminal, out)
		}
	}
}
