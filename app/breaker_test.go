//go:build !js

package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// breakerQuery is Polly's breaker (open 5 s) in front of two processes for a 20 s stream with an
// error rate: it trips, probes and closes again within the run.
const breakerQuery = "rate=40&run=20s&timeout=300ms&queue=10&limiter=aws&clients=20&seed=4&breaker=polly&failrate=0.3&processes=2"

// breakerCallQuery is the same with the breaker around the call, one shared by the processes.
const breakerCallQuery = breakerQuery + "&breakerat=call&breakers=shared"

// breakerTableJSON is the breaker's part of `table -format json`, by the names in docs/overload.md.
type breakerTableJSON struct {
	Overload struct {
		Breaker *struct {
			Breaker, At, Scope, Source, Rule, Words string
			FedPerCall                              int          `json:"fed_per_call"`
			OpenPeriod                              json.Number  `json:"open_period_ms"`
			Schedule                                json.Number  `json:"schedule_ms"`
			OpenLonger                              bool         `json:"open_longer"`
			MinCalls                                int          `json:"min_calls"`
			MinWithin                               json.Number  `json:"min_within_ms"`
			PerBreaker                              float64      `json:"per_breaker"`
			Reach                                   *json.Number `json:"reach_ms"`
		}
		Runs []struct {
			Jitter, Limiter, Breaker                              string
			Requests, Succeeded, Attempts, Served, Errors, Failed int
			OutOfAttempts                                         int `json:"out_of_attempts"`
			Refused                                               int
			OutOfBudget                                           int `json:"out_of_budget"`
			TimedOut                                              int `json:"timed_out"`
			Breakers, Rejected, Blocked, Trips, Probes            *int
			MaxProbes                                             *int         `json:"max_probes"`
			OpenTime                                              *json.Number `json:"open_time_ms"`
			Windows                                               []struct {
				Queue                          int
				Rejected, Probes, Closed, Open *int
				HalfOpen                       *int `json:"half_open"`
			}
		}
	}
}

// table -format json carries calc's breaker figures for every case and window, and calc's
// BreakerFacts; the counts add up on their own: every request succeeded or gave up for one
// reason, every attempt was served, answered with an error, failed at once, timed out or was
// rejected, the windows' rejections and probes make the run's, and every breaker is in one state.
func TestTableBreakerJSON(t *testing.T) {
	for _, q := range []string{breakerQuery, breakerCallQuery} {
		out, errOut, code := runTableOut(t, "-format", "json", q)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got breakerTableJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		p, _ := libs.Decode(q)
		f, g := sim.BreakerFactsOf(p), got.Overload.Breaker
		if g == nil || g.Breaker != "polly" || g.At != p.BreakerAt.String() || g.Scope != p.Breakers.String() || g.Source != f.Source ||
			g.Rule != f.Rule || g.Words != f.Words || g.FedPerCall != f.FedPerCall || g.OpenPeriod.String() != policy.Millis(f.OpenPeriod) ||
			g.Schedule.String() != policy.Millis(f.Schedule) || g.OpenLonger != f.OpenLonger || g.MinCalls != f.MinCalls ||
			g.MinWithin.String() != policy.Millis(f.MinWithin) || g.PerBreaker != f.PerBreaker || (g.Reach == nil) != (f.Reach < 0) {
			t.Fatalf("%s: breaker %+v, calc %+v", q, g, f)
		}
		cases := p.OverloadCases()
		if len(got.Overload.Runs) != len(cases) {
			t.Fatalf("%d runs, want %d", len(got.Overload.Runs), len(cases))
		}
		var trips, probes int
		for i, c := range cases {
			want, err := sim.Overload(p, c)
			r := got.Overload.Runs[i]
			if err != nil || r.Breaker != c.Breaker.String() || r.Breakers == nil || *r.Breakers != want.Breakers || *r.Rejected != want.Rejected ||
				*r.Blocked != want.Blocked || *r.Trips != want.Trips || *r.Probes != want.Probes || *r.MaxProbes != want.MaxProbes ||
				r.OpenTime.String() != policy.Millis(want.OpenTime) || len(r.Windows) != len(want.Windows) {
				t.Fatalf("%s run %d %v: %+v, calc %+v, %v", q, i, c, r, want, err)
			}
			if n := r.Succeeded + r.OutOfAttempts + r.Refused + r.OutOfBudget + *r.Blocked; n != r.Requests {
				t.Errorf("%s run %d: %d requests, %d succeeded or gave up", q, i, r.Requests, n)
			}
			last := r.Windows[len(r.Windows)-1].Queue
			if n := r.Served + r.Errors + r.Failed + r.TimedOut + *r.Rejected + last; n != r.Attempts {
				t.Errorf("%s run %d: %d attempts, %d accounted for", q, i, r.Attempts, n)
			}
			if p.BreakerAt == calc.BreakerAtCall && c.Breaker != breaker.None && *r.Blocked != *r.Rejected || p.BreakerAt == calc.BreakerAtAttempt && *r.Blocked != 0 {
				t.Errorf("%s run %d: %d blocked, %d rejected", q, i, *r.Blocked, *r.Rejected)
			}
			var rejected, probed, most int
			for k, w := range r.Windows {
				ww := want.Windows[k]
				if *w.Rejected != ww.Rejected || *w.Probes != ww.Probes || *w.Closed != ww.Closed || *w.Open != ww.Open || *w.HalfOpen != ww.HalfOpen {
					t.Fatalf("%s run %d window %d: %+v, calc %+v", q, i, k, w, ww)
				}
				if *w.Closed+*w.Open+*w.HalfOpen != *r.Breakers {
					t.Errorf("%s run %d window %d: breakers in states %d+%d+%d, of %d", q, i, k, *w.Closed, *w.Open, *w.HalfOpen, *r.Breakers)
				}
				rejected, probed, most = rejected+*w.Rejected, probed+*w.Probes, max(most, *w.Probes)
			}
			if rejected != *r.Rejected || probed != *r.Probes || most != *r.MaxProbes {
				t.Errorf("%s run %d: windows %d rejected, %d probes, %d most; run %d, %d, %d", q, i, rejected, probed, most, *r.Rejected, *r.Probes, *r.MaxProbes)
			}
			trips, probes = trips+*r.Trips, probes+*r.Probes
		}
		if trips == 0 || probes == 0 {
			t.Errorf("%s: no trip or no probe in any run: the link tests too little", q)
		}
	}
	plain := strings.Replace(breakerQuery, "&breaker=polly", "", 1)
	out, _, _ := runTableOut(t, "-format", "json", plain)
	for _, key := range []string{`"breaker"`, `"rejected"`, `"trips"`, `"open_time_ms"`, `"half_open"`} {
		if strings.Contains(out, key) {
			t.Errorf("a link without a breaker has %s", key)
		}
	}
}

// The text, CSV and Markdown carry the breaker's facts, its column and figures per run, and its
// series per window; CSV with calc's numbers.
func TestTableBreakerFormats(t *testing.T) {
	p, _ := libs.Decode(breakerQuery)
	f := sim.BreakerFactsOf(p)
	cases := p.OverloadCases()
	own, _ := sim.Overload(p, cases[2]) // full, the policy's mode
	if cases[2] != p.OwnCase() {
		t.Fatalf("case 2 is %v, not the policy's own", cases[2])
	}
	row := []string{"full", "aws", "polly"}
	for _, c := range report.OverloadCells(own, p.Run)[:5] {
		row = append(row, c[0])
	}
	for format, want := range map[string][]string{
		"text": {f.Words, report.BreakerSourceWords(f), "full with limiter aws with breaker polly, per 100 ms window:", "time open, summed over the breakers",
			"attempts rejected by the breaker", "breakers half-open"},
		"csv": {"\nbreaker,at,scope,fed_per_call,open_period_ms,schedule_ms,open_longer,min_calls,min_within_ms,per_breaker,reach_ms,rule,source\n",
			"\npolly,attempt,client," + strconv.Itoa(f.FedPerCall) + "," + policy.Millis(f.OpenPeriod) + ",",
			"\nmode,limiter,breaker,requests,succeeded,out_of_attempts,refused,out_of_budget,per_request,wasted_share,recovered_ms,recovered_in_stream,breakers,rejected,blocked,trips,probes,max_probes,open_time_ms\n",
			"\n" + strings.Join(row, ",") + ",",
			"," + strings.Join([]string{strconv.Itoa(own.Breakers), strconv.Itoa(own.Rejected), strconv.Itoa(own.Blocked), strconv.Itoa(own.Trips),
				strconv.Itoa(own.Probes), strconv.Itoa(own.MaxProbes), policy.Millis(own.OpenTime)}, ",") + "\n",
			",queue,rejected,probes,closed,open,half_open\n", "\nfull,aws,none,"},
		"md": {f.Words, "| mode | limiter | breaker | requests |", "| full | aws | sre |", "time open, summed over the breakers (ms)", "| breakers half-open |"},
	} {
		out, errOut, code := runTableOut(t, "-format", format, breakerQuery)
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

// With a breaker the page shows its column, calc's figures of every run, its series in the window
// table, its name in the choice of case and its facts; without one, none of it.
func TestPageBreaker(t *testing.T) {
	p, _ := navPage(t, breakerQuery)
	params, _ := libs.Decode(breakerQuery)
	html := app.HTMLString(p)
	cases := params.OverloadCases()
	if len(herdOf(p).over) != len(cases) {
		t.Fatalf("%d runs in, want %d", len(herdOf(p).over), len(cases))
	}
	var rows []string
	for _, tr := range elements(html, "tr") {
		if tr["data-breaker"] != "" {
			rows = append(rows, tr["data-mode"]+"+"+tr["data-limiter"]+"+"+tr["data-breaker"])
		}
	}
	cells := cellsOf(html, "overload", "data-mode", "data-limiter", "data-breaker")
	for i, c := range cases {
		key := c.Mode.String() + "+" + c.Limiter.String() + "+" + c.Breaker.String()
		if i >= len(rows) || rows[i] != key {
			t.Fatalf("rows %q, want %v at %d", rows, c, i)
		}
		for j, cell := range report.BreakerCells(herdOf(p).over[i]) {
			if got := cells[key+"/"+report.BreakerColumns[j][0]]; got != cell[0] {
				t.Errorf("%v %s: %q, want calc's %q", c, report.BreakerColumns[j][0], got, cell[0])
			}
		}
	}
	f := sim.BreakerFactsOf(params)
	for _, want := range []string{"then with every other breaker", `<th scope="colgroup" colspan="7">circuit breaker</th>`,
		"full with limiter aws with breaker polly, the policy&#39;s own", ">full with limiter aws with breaker sre</option>",
		`data-col="half_open"`, "attempts rejected by the breaker", `id="overload-breaker"`, attrEscape(f.Words), attrEscape(report.BreakerSourceWords(f)),
		`data-value="` + policy.Millis(f.OpenPeriod) + `"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q on the page", want)
		}
	}
	own := herdOf(p).over[2].Windows
	if got := windowCellsOf(html, "rejected"); len(got) != len(own) || got[len(own)/2] != strconv.Itoa(own[len(own)/2].Rejected) {
		t.Errorf("the window table's rejections %q, calc's %+v", got, own[len(own)/2])
	}
	plain, _ := navPage(t, strings.Replace(breakerQuery, "&breaker=polly", "", 1))
	html = app.HTMLString(plain)
	for _, no := range []string{"data-breaker", `data-col="breaker"`, ">circuit breaker</th>", "with breaker", `data-col="half_open"`, `id="overload-breaker"`} {
		if strings.Contains(html, no) {
			t.Errorf("without a breaker the page has %q", no)
		}
	}
}

// windowCellsOf is column col of the window table in html, row by row.
func windowCellsOf(html, col string) []string {
	html = html[strings.Index(html, `id="overload-windows-table"`):]
	html = html[:strings.Index(html, "</table>")]
	var out []string
	for _, tr := range strings.Split(html, "<tr data-window=")[1:] {
		open := `data-col="` + col + `">`
		if i := strings.Index(tr, open); i >= 0 {
			cell := tr[i+len(open):]
			out = append(out, cell[:strings.Index(cell, "<")])
		}
	}
	return out
}
