//go:build !js

package main

import (
	"bytes"
	"html"
	"math/big"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// besideLinks have numbers within rounding distance of their budget, on both sides of it: a
// worst-case total 1 ns under it, sampled starts just under it, starts exactly at it, starts
// 1 ns over a budget that three digits do not write, a total a hair under a minute.
var besideLinks = []string{
	"base=250ms&factor=1.5&cap=3s&attempts=8&jitter=equal&budget=2s&call=10ms&seed=9&samples=2000",
	"budget=2s&jitter=full&base=500ms&samples=1000",
	"budget=1234500us&jitter=none&base=1234501us&cap=3s&attempts=3&samples=200",
	"base=999999999ns&factor=1&cap=1s&jitter=none&budget=3s&attempts=5&samples=200",
	"base=1s&factor=1&cap=1s&jitter=equal&budget=2000000001ns&attempts=4&samples=500",
	"base=100ms&factor=2&cap=10s&jitter=full&budget=1s&attempts=10&samples=1000",
	"base=1s&jitter=decorrelated&cap=1m&budget=1m&attempts=20&samples=1000",
	"base=400ms&factor=1.5&cap=5s&attempts=7&jitter=proportional&ratio=0.3&budget=5s&call=20ms&samples=1000",
}

var unitNs = map[string]int64{"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "h": 3600e9, "d": 24 * 3600e9}

// readsBelow says whether text, a time as the page or the text report writes it, reads as
// before limit b: "< X" (X must be how the page writes b), or a number and a unit compared
// exactly with b.
func readsBelow(t *testing.T, text string, b time.Duration) bool {
	t.Helper()
	text = strings.TrimSuffix(strings.TrimPrefix(html.UnescapeString(text), "~"), " (sampled)")
	if rest, ok := strings.CutPrefix(text, "< "); ok {
		if rest != report.LimitText(b) {
			t.Errorf("%q: below %q, but the budget reads %q", text, rest, report.LimitText(b))
		}
		return true
	}
	if text == "0" {
		return b > 0
	}
	num, unit, _ := strings.Cut(text, " ")
	r, ok := new(big.Rat).SetString(num)
	if !ok || unitNs[unit] == 0 {
		t.Errorf("%q is no time", text)
		return false
	}
	return r.Mul(r, new(big.Rat).SetInt64(unitNs[unit])).Cmp(new(big.Rat).SetInt64(int64(b))) < 0
}

// msBelow says whether an exact number of milliseconds (data-ms) is before b.
func msBelow(t *testing.T, ms string, b time.Duration) bool {
	t.Helper()
	r, ok := new(big.Rat).SetString(ms)
	if !ok {
		t.Fatalf("data-ms %q is no number", ms)
	}
	return r.Mul(r, big.NewRat(1e6, 1)).Cmp(new(big.Rat).SetInt64(int64(b))) < 0
}

var msTextRE = regexp.MustCompile(`<(?:td|dd)\b([^>]*\bdata-ms="([^"]+)"[^>]*)>([^<]*)</(?:td|dd)>`)

// On the page, no wait, start or total reads on the other side of the budget from its exact
// value: a start 1 ns before a 2 s budget is "< 2 s", not "2 s" (which is out), and a start just
// past a 1.2345 s budget is never "1.23 s".
func TestPageTimesKeepTheirSideOfTheBudget(t *testing.T) {
	near := 0
	for _, q := range besideLinks {
		p, _ := navPage(t, q)
		b := p.report.Params.Budget
		html := app.HTMLString(p)
		cells := 0
		for _, m := range msTextRE.FindAllStringSubmatch(html, -1) {
			text := strings.TrimSpace(m[3])
			cells++
			if below := msBelow(t, m[2], b); readsBelow(t, text, b) != below {
				t.Errorf("%s: %q (exactly %s ms) reads on the other side of the %s budget", q, text, m[2], report.LimitText(b))
			}
			if strings.HasPrefix(text, "&lt; ") {
				near++
			}
		}
		if cells < 20 {
			t.Errorf("%s: only %d times on the page", q, cells)
		}
	}
	if near < 10 {
		t.Errorf("only %d times read as just under the budget: the links do not test the boundary", near)
	}
}

// The herd's times are read against the budget (a client's attempts start before it) and the
// outage's end.
func TestPageHerdTimesKeepTheirSide(t *testing.T) {
	q := besideLinks[0] + "&clients=100&outage=1s&capacity=20&window=100ms"
	p, _ := navPage(t, q)
	html := app.HTMLString(p)
	got := tableCells(html, `id="herd"`, "data-mode", "data-value")
	if len(got) == 0 {
		t.Fatal("no herd table")
	}
	texts := regexp.MustCompile(`data-col="last_accepted"[^>]*data-value="([^"]+)"[^>]*>([^<]*)<|data-value="([^"]+)"[^>]*data-col="last_accepted"[^>]*>([^<]*)<`).FindAllStringSubmatch(html, -1)
	if len(texts) == 0 {
		t.Fatal("no last client through")
	}
	under := 0
	for _, m := range texts {
		ms, text := m[1]+m[3], m[2]+m[4]
		for _, b := range []time.Duration{p.report.Params.Budget, p.report.Params.Outage} {
			if strings.HasPrefix(text, "&lt; ") && b != p.report.Params.Budget {
				continue // below the budget says nothing of the outage
			}
			if readsBelow(t, text, b) != msBelow(t, ms, b) {
				t.Errorf("last through %q (exactly %s ms) reads on the other side of %s", text, ms, report.LimitText(b))
			}
		}
		if strings.HasPrefix(text, "&lt; ") {
			under++
		}
	}
	if under == 0 {
		t.Error("no last client through just before the budget: the link does not test the boundary")
	}
}

// The text report's schedule, totals and modes read on the same side of the budget as calc's
// exact numbers.
func TestTextTimesKeepTheirSideOfTheBudget(t *testing.T) {
	cols := regexp.MustCompile(`\S+(?: \S+)*`) // tabwriter pads with two spaces or more; a cell has single ones
	near := 0
	for _, q := range besideLinks {
		params, err := libs.Decode(q)
		if err != nil {
			t.Fatal(err)
		}
		r := params.Report()
		r.AddSolveSamples(nil)
		var out bytes.Buffer
		if err := report.WriteText(&out, report.Results{Report: r}); err != nil {
			t.Fatal(err)
		}
		b := params.Budget
		check := func(what, text string, ns float64) {
			t.Helper()
			if readsBelow(t, text, b) != (ns < float64(b)) {
				t.Errorf("%s: %s %q (exactly %v ns) reads on the other side of the %s budget", q, what, text, ns, report.LimitText(b))
			}
			if strings.HasPrefix(text, "< ") {
				near++
			}
		}
		lines := strings.Split(out.String(), "\n")
		row, modes := -1, -1
		for i, l := range lines {
			switch {
			case strings.HasPrefix(strings.TrimSpace(l), "attempt  retry"):
				row = i + 1
			case strings.HasPrefix(strings.TrimSpace(l), "jitter  policy best total"):
				modes = i + 1
			}
		}
		if row < 0 || modes < 0 {
			t.Fatalf("%s: no schedule or modes in\n%s", q, out.String())
		}
		for i, sr := range r.Schedule.Rows {
			c := cols.FindAllString(lines[row+i], -1)
			if sr.Retry > 0 && !params.Jitter.FromPrevious() { // decorrelated: no nominal delay, "-"
				check("nominal", c[2], float64(sr.Nominal))
			}
			if sr.Retry > 0 {
				check("min wait", c[3], float64(sr.Min))
				check("mean wait", c[4], sr.Mean)
				check("max wait", c[5], float64(sr.Max))
			}
			check("earliest start", c[6], float64(sr.Earliest))
			check("latest start", c[7], float64(sr.Latest))
			if st := r.Sample.Starts[i]; st.Reached > 0 {
				check("p50 start", c[8], float64(st.Start.P50))
				check("p99 start", c[9], float64(st.Start.P99))
			}
		}
		for i, m := range r.Modes {
			c := cols.FindAllString(lines[modes+i], -1)
			for j, v := range []float64{float64(m.Total.Min), m.Total.Mean, float64(m.Total.Max),
				float64(m.Within.Min), m.Within.Mean, float64(m.Within.Max), float64(m.Sample.P99)} {
				check(m.Jitter.String()+" total", c[1+j], v)
			}
		}
		within := regexp.MustCompile(`(?m)best case (.+?), expected (.+?) \(mean .*?, worst case (.+?); sampled p50 (.+?), p90 (.+?), p99 (.+)\.$`).FindStringSubmatch(out.String())
		if within == nil {
			t.Fatalf("%s: no total wait within the budget in\n%s", q, out.String())
		}
		w, s := r.Within, r.Sample.Total
		for j, v := range []float64{float64(w.Min), w.Mean, float64(w.Max), float64(s.P50), float64(s.P90), float64(s.P99)} {
			check("total within the budget", within[1+j], v)
		}
	}
	if near < 10 {
		t.Errorf("only %d times read as just under the budget: the links do not test the boundary", near)
	}
}

// The issue's two links: the p99 start of attempt 6 and the worst case within the budget are
// just under 2 s, and read so.
func TestTextIssueLinks(t *testing.T) {
	for q, want := range map[string]string{
		besideLinks[0]:                     "< 2 s   sometimes (0.85%)",
		"budget=2s&jitter=full&base=500ms": "worst case < 2 s;",
	} {
		out, _, code := runTableOut(t, q)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: no %q in\n%s", q, want, out)
		}
	}
}

// A fit answer reads as a person would type it, its exact value in the title and data-value,
// and applying it types what it reads, in the field's units.
func TestFitShowsTypedAnswers(t *testing.T) {
	r := solvedReport(t, "budget=2s&jitter=full&base=500ms&samples=500")
	html := app.HTMLString(renderFitGroup(r, fitGroups[1]))
	for _, want := range []string{`64.5 ms`, `title="exact answer: 64.516129 ms; shown rounded down, which still fits"`, `data-value="64.516129"`, `data-value="64.5ms"`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in the base group: %s", want, html)
		}
	}
	if strings.Contains(html, "64516129ns") || strings.Contains(html, ">64.516129 ms") {
		t.Errorf("the base group shows or types the answer to the nanosecond: %s", html)
	}
	html = app.HTMLString(renderFitGroup(solvedReport(t, fitQuery), fitGroups[2]))
	if !strings.Contains(html, `data-value="2.701"`) || strings.Contains(html, ">2.701562117553472") {
		t.Errorf("the factor is not shown and typed as 2.701: %s", html)
	}
}

// Every answer a fit table shows, typed into the link, fits per calc: on every path for the
// worst-case columns, on 99% of the sampled paths for the sampled ones; in every mode.
func TestFitShownAnswersFit(t *testing.T) {
	checked := 0
	for _, q := range []string{
		"budget=2s&jitter=full&base=500ms&samples=300",
		"base=250ms&factor=1.5&cap=3s&attempts=8&budget=2s&call=10ms&seed=9&samples=300",
		"base=37ms&factor=1.7&cap=2s&attempts=7&jitter=proportional&ratio=0.3&budget=2.9s&call=15ms&samples=300&capat=fixed",
		"base=1s&factor=2&cap=30s&attempts=6&budget=45s&add=300ms&capat=after&samples=300",
		// 500ms, three digits of the answer 500.999999ms, is below the piece that fits.
		"jitter=proportional&ratio=1&base=100ms&factor=2&cap=1s&attempts=3&capat=fixed&budget=2002ms&samples=300",
	} {
		r := solvedReport(t, q)
		base, err := libs.DecodeLink(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range fitGroups[1:] {
			html := app.HTMLString(renderFitGroup(r, g))
			for _, row := range strings.Split(html, "<tr")[2:] {
				mode := elements("<tr"+row, "tr")[0]["data-mode"]
				for _, m := range regexp.MustCompile(`<td([^>]*)>([^<]*)`).FindAllStringSubmatch(row, -1) {
					attrs := elements("<td"+m[1]+">", "td")[0]
					if attrs["data-kind"] != "found" {
						continue
					}
					shown := strings.TrimPrefix(strings.TrimSpace(m[2]), "~")
					typed := strings.ReplaceAll(strings.ReplaceAll(shown, " ", ""), "µs", "us")
					typed = strings.Replace(typed, "min", "m", 1)
					v := base.Values()
					v.Set(g.key, typed)
					v.Set("jitter", mode)
					v.Del("preset")
					p, err := calc.DecodeValues(v)
					if err != nil {
						t.Errorf("%s: %s %s %q does not read back: %v", q, mode, g.key, shown, err)
						continue
					}
					checked++
					if attrs["data-col"] == "worst" {
						if p.Schedule().Rows[p.Attempts-1].Latest >= p.Budget {
							t.Errorf("%s: %s %s=%s shown for every path, but the last latest start is past the budget", q, mode, g.key, shown)
						}
					} else if st := p.Sample().Starts; st[len(st)-1].Reached*100 < 99*p.Samples {
						t.Errorf("%s: %s %s=%s shown for 99%% of the paths, but only %d of %d make every attempt", q, mode, g.key, shown, st[len(st)-1].Reached, p.Samples)
					}
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d answers checked", checked)
	}
}

// In a comparison each policy's starts are read against its own budget: A's start 2 ns before
// its 2 s budget and B's 1 ns before its 1 s budget read as just under them, on the page and in
// the text.
func TestCompareStartsKeepTheirSide(t *testing.T) {
	q := "base=999999999ns&factor=1&cap=1s&jitter=none&budget=2s&attempts=4&samples=100&vs=" +
		url.QueryEscape("base=999999999ns&factor=1&cap=1s&jitter=none&budget=1s&attempts=3&samples=100")
	p, _ := navPage(t, q)
	got := tableCells(app.HTMLString(p), `id="compare-table"`, "data-attempt", "data-ms")
	if got["3/a-latest"] != "1999.999998" || got["2/b-latest"] != "999.999999" {
		t.Fatalf("the comparison's starts are not the link's: %v", got)
	}
	html := app.HTMLString(p)
	for _, want := range []string{`data-col="a-latest" data-ms="1999.999998">&lt; 2 s<`, `data-col="b-latest" data-ms="999.999999">&lt; 1 s<`} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in the comparison", want)
		}
	}
	out, _, _ := runTableOut(t, q)
	start := strings.Index(out, "Start of each attempt:")
	if start < 0 {
		t.Fatalf("no starts of the comparison in\n%s", out)
	}
	rows := strings.Split(out[start:], "\n")
	if !strings.Contains(rows[3], "< 1 s") {
		t.Errorf("attempt 2 of the comparison's starts: %q, want B's latest < 1 s", rows[3])
	}
	if !strings.Contains(rows[4], "< 2 s") {
		t.Errorf("attempt 3 of the comparison's starts: %q, want A's latest < 2 s", rows[4])
	}
}

// A number that rounds up to a whole larger unit is written in it: a mean of 999.9999995 ms
// beside a 2 s max is "1 s", never "1000 ms"; a total a hair under a minute is "1 min".
func TestTextOneUnitStyle(t *testing.T) {
	for q, want := range map[string]string{
		"base=1999999999ns&cap=2s&jitter=full&attempts=2&samples=100":  "expected 1 s, worst case 2 s",
		"base=59999999999ns&cap=1m&jitter=none&attempts=2&samples=100": "1 min",
	} {
		out, _, _ := runTableOut(t, q)
		if !strings.Contains(out, want) || regexp.MustCompile(`\b(1000 (ms|µs|ns)|60 (s|min)|24 h)\b`).MatchString(out) {
			t.Errorf("%s: want %q and no 1000 ms, 60 s, 60 min, 24 h in\n%s", q, want, out)
		}
	}
}

// The runs table says whether the server came back while the stream ran or after it ended: the
// time beside those words never reads as the stream's end itself.
func TestOverloadRecoveredKeepsItsSide(t *testing.T) {
	r := sim.OverloadRun{Recovered: 119900 * time.Millisecond, RecoveredInStream: true}
	if _, at, when := report.RecoveredWords(r, 2*time.Minute); at != "< 2 min" || when != "running" {
		t.Errorf("recovered at 119.9 s in a 2 min stream: %q, %q", at, when)
	}
	if got := report.OverloadCells(r, 2*time.Minute); !strings.HasPrefix(got[len(got)-1][1], "< 2 min (while") {
		t.Errorf("text cell %q", got[len(got)-1][1])
	}
}

// The start chart's tooltips keep their side of the budget too: attempt 3 starts at the latest
// at 1.999999998 s, before a 2 s budget, and says so.
func TestChartTimesKeepTheirSide(t *testing.T) {
	p, err := calc.Decode("base=999999999ns&factor=1&cap=1s&attempts=3&jitter=none&budget=2s")
	if err != nil {
		t.Fatal(err)
	}
	chart := app.HTMLString(renderChart(p.Report()))
	if want := "attempt 3 starts between &lt; 2 s and &lt; 2 s"; !strings.Contains(html.UnescapeString(chart), html.UnescapeString(want)) {
		t.Errorf("no %q in the chart", html.UnescapeString(want))
	}
	if strings.Contains(chart, "and 2 s<") {
		t.Error("a start before the budget reads as the budget")
	}
}
