//go:build !js

package main

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// fitQuery is the hand-worked case, with few paths so that sampling is quick.
const fitQuery = "base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s&samples=500"

// solvedReport is the report of query with every sampled answer in, as the page has it once
// its work is done.
func solvedReport(t *testing.T, query string) calc.Report {
	t.Helper()
	p, err := libs.Decode(query)
	if err != nil {
		t.Fatalf("the test's own query %q: %v", query, err)
	}
	r := p.Report()
	if !r.AddSolveSamples(nil) {
		t.Fatal("AddSolveSamples did not finish")
	}
	return r
}

// fitWant is what the page must show of r's answers, written from calc's values by the test's
// own code: "group/mode/col" to "kind value largest" (value: attempts, ms or factor, exact;
// "pending" for a sampled answer not in yet).
func fitWant(r calc.Report) map[string]string {
	out := map[string]string{}
	put := func(key, kind, value string, largest bool) {
		out[key] = kind + " " + value + " " + yesNo(largest)
	}
	for _, s := range r.Solutions {
		m := "/" + s.Jitter.String() + "/"
		count := func(col string, f policy.Fit[int], sampled bool) {
			if sampled && !s.Sampled {
				out["attempts"+m+col] = "pending"
				return
			}
			put("attempts"+m+col, f.Kind.String(), strconv.Itoa(f.Value), f.Largest)
		}
		count("always", s.Always, false)
		count("can", s.Can, false)
		count("p50", s.P50, true)
		count("p99", s.P99, true)
		for _, l := range []struct {
			col     string
			limits  policy.Limits
			sampled bool
		}{{"worst", s.Worst, false}, {"p99", s.Sampled99, true}} {
			if l.sampled && !s.Sampled {
				out["base"+m+l.col], out["factor"+m+l.col], out["cap"+m+l.col] = "pending", "pending", "pending"
				continue
			}
			dur := func(group string, f policy.Fit[time.Duration]) {
				v := policy.Millis(f.Value)
				if f.Kind == policy.FitUnused {
					v = ""
				}
				put(group+m+l.col, f.Kind.String(), v, f.Largest)
			}
			dur("base", l.limits.Base)
			dur("cap", l.limits.Cap)
			v := strconv.FormatFloat(l.limits.Factor.Value, 'g', -1, 64)
			if l.limits.Factor.Kind == policy.FitUnused {
				v = ""
			}
			put("factor"+m+l.col, l.limits.Factor.Kind.String(), v, l.limits.Factor.Largest)
		}
	}
	return out
}

// fitGot reads the answers out of the groups' HTML, in fitWant's form; and the apply buttons,
// "group/col" to the value they type.
func fitGot(t *testing.T, r calc.Report) (map[string]string, map[string]string) {
	t.Helper()
	got, buttons := map[string]string{}, map[string]string{}
	for _, g := range fitGroups {
		html := app.HTMLString(renderFitGroup(r, g))
		for _, row := range strings.Split(html, "<tr")[2:] { // the table's head, then its rows
			mode := elements("<tr"+row, "tr")[0]["data-mode"]
			for _, td := range elements(row, "td") {
				key := g.key + "/" + mode + "/" + td["data-col"]
				if td["data-pending"] == "samples" {
					got[key] = "pending"
					continue
				}
				// Factors are compared as numbers: the page writes the shortest decimal.
				v := td["data-value"]
				if g.key == "factor" && v != "" {
					f, err := strconv.ParseFloat(v, 64)
					if err != nil {
						t.Errorf("%s: data-value %q is no number", key, v)
					}
					v = strconv.FormatFloat(f, 'g', -1, 64)
				}
				got[key] = td["data-kind"] + " " + v + " " + td["data-largest"]
			}
			for _, b := range elements(row, "button") {
				if mode != r.Params.Jitter.String() {
					t.Errorf("%s: an apply button in the row of %s, not the policy's mode", g.key, mode)
				}
				buttons[strings.TrimPrefix(b["id"], "fit-apply-")] = b["data-value"]
			}
		}
	}
	return got, buttons
}

func compareMaps(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s %s: page shows %q, calc says %q", what, k, g, w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %s: on the page, not in calc's", what, k)
		}
	}
}

// The groups show calc's answers for every mode, "computing…" for the sampled ones until they
// are in, and apply buttons in the policy's row only, typing what docs/fit-and-compare.md says.
func TestFitGroups(t *testing.T) {
	r := solvedReport(t, fitQuery)
	got, buttons := fitGot(t, r)
	compareMaps(t, "answer", got, fitWant(r))
	// Hand-worked (docs/fit-and-compare.md): 6 attempts on every path; a base up to 157142857 ns.
	if got["base/none/worst"] != "found 157.142857 yes" || got["attempts/none/always"] != "found 6 yes" {
		t.Errorf("hand-worked answers: base %q, attempts %q", got["base/none/worst"], got["attempts/none/always"])
	}
	// The buttons type the answers as a person would: rounded down, in the field's units.
	wantButtons := map[string]string{
		"attempts-always": "6", "attempts-can": "6", "attempts-p50": "6", "attempts-p99": "6",
		"base-worst": "157ms", "base-p99": "157ms",
		"factor-worst": "2.701", "factor-p99": "2.701",
		"cap-worst": "1.59s", "cap-p99": "1.59s",
	}
	compareMaps(t, "button", buttons, wantButtons)

	bounds := r
	bounds.Solutions = r.Params.Solutions() // before the sampled answers are in
	got, _ = fitGot(t, bounds)
	compareMaps(t, "unsampled answer", got, fitWant(bounds))
	if html := app.HTMLString(renderFitGroup(bounds, fitGroups[1])); !strings.Contains(html, "computing…") {
		t.Errorf("an unsampled answer does not say it is being computed: %s", html)
	}
}

// Every applied answer types a value that the link reads back as exactly calc's typed answer,
// with which the policy's attempts still fit: on every path, or on 99% of the sampled paths.
func TestFitApplyRoundTrips(t *testing.T) {
	for _, q := range []string{
		fitQuery,
		"base=100ms&factor=2&cap=1s&jitter=full&budget=3.1s&samples=500",
		"base=37ms&factor=1.7&cap=2s&attempts=7&jitter=proportional&ratio=0.3&budget=2.9s&call=15ms&samples=500",
		"preset=aws-go-v2&budget=1.5s&samples=300",
		// Every count fits on the best path: 1000 attempts, over the sampling limit at the
		// default samples, has no button (TestFitRefusedAnswerHasNoButton).
		"base=100ms&factor=2&cap=1s&jitter=full&budget=3.1s",
	} {
		r := solvedReport(t, q)
		base, err := libs.DecodeLink(q)
		if err != nil {
			t.Fatal(err)
		}
		_, buttons := fitGot(t, r)
		if len(buttons) == 0 {
			t.Errorf("%s: no answer to apply", q)
		}
		for id, typed := range buttons {
			key := id[:strings.Index(id, "-")]
			v := base.Values()
			v.Set(key, typed)
			v.Del("preset")
			p, err := calc.DecodeValues(v)
			if err != nil {
				t.Errorf("%s: applying %s=%s: %v", q, key, typed, err)
				continue
			}
			if key == "attempts" {
				continue // its answers are counts, checked against calc's above
			}
			own := r.Solutions[0]
			for _, s := range r.Solutions {
				if s.Jitter == r.Params.Jitter {
					own = s
				}
			}
			l := own.Worst
			if strings.HasSuffix(id, "-p99") {
				l = own.Sampled99
			}
			switch key {
			case "base":
				if p.Base != l.Base.Typed {
					t.Errorf("%s: %s types %q, read back as %v, calc's typed answer %v", q, id, typed, p.Base, l.Base.Typed)
				}
			case "cap":
				if p.Cap != l.Cap.Typed {
					t.Errorf("%s: %s types %q, read back as %v, calc's typed answer %v", q, id, typed, p.Cap, l.Cap.Typed)
				}
			case "factor":
				if math.Float64bits(p.Factor) != math.Float64bits(l.Factor.Typed) {
					t.Errorf("%s: %s types %q, read back as %v, calc's typed answer %v", q, id, typed, p.Factor, l.Factor.Typed)
				}
			}
			if !strings.HasSuffix(id, "-p99") && p.Schedule().Rows[p.Attempts-1].Latest >= p.Budget {
				t.Errorf("%s: with %s=%s the last attempt's latest start is past the budget", q, key, typed)
			}
			if st := p.Sample().Starts; strings.HasSuffix(id, "-p99") && st[len(st)-1].Reached*100 < 99*p.Samples {
				t.Errorf("%s: with %s=%s fewer than 99%% of the paths make every attempt", q, key, typed)
			}
		}
	}
}

// An answer whose link would be refused on another input's limit has no apply button: the
// cell says on which input and value. Full jitter's best path fits every count, 1000 attempts,
// which with a budget and 10000 samples is over the sampling's work limit.
func TestFitRefusedAnswerHasNoButton(t *testing.T) {
	r := solvedReport(t, "base=100ms&factor=2&cap=1s&jitter=full&budget=3.1s")
	_, buttons := fitGot(t, r)
	if v, ok := buttons["attempts-can"]; ok {
		t.Errorf("an apply button for attempts %s on the best path", v)
	}
	// Latest starts 0, 0.1, 0.3, 0.7, 1.5, 2.5 and 3.5 s: 6 attempts on every path.
	if buttons["attempts-always"] != "6" {
		t.Errorf("every path's answer: button %q, want 6", buttons["attempts-always"])
	}
	html := app.HTMLString(renderFitGroup(r, fitGroups[0]))
	if !strings.Contains(html, `(a link with it is refused on samples &#34;10000&#34;)`) {
		t.Errorf("the best path's cell does not say why it has no button:\n%s", html)
	}
}

// The link's solve key opens its groups and no other; without a budget the block is empty,
// which hides it (app.css); opening a group puts it in the link.
func TestFitSolveKey(t *testing.T) {
	p, d := navPage(t, fitQuery+"&solve=cap,base")
	html := app.HTMLString(p)
	for _, dt := range elements(html, "details") {
		key := dt["data-solve"]
		if key == "" {
			continue
		}
		_, open := dt["open"]
		if want := key == "base" || key == "cap"; open != want {
			t.Errorf("group %s: open %v, want %v", key, open, want)
		}
	}
	if !strings.Contains(html, "What fits in the 3.1 s budget") {
		t.Error("no title with the budget")
	}
	if len(p.report.Solutions) == 0 || !fitSampled(*p.report) {
		t.Error("the sampled answers are not in once the work is done")
	}
	d.Dispatch(app.Dispatch{Source: p, Function: func(ctx app.Context) { p.chooseSolve(ctx, calc.SolveAttempts, true) }})
	d.Dispatch(app.Dispatch{Source: p, Function: func(ctx app.Context) { p.chooseSolve(ctx, calc.SolveCap, false) }})
	d.Consume()
	q, _ := url.ParseQuery(p.queryText())
	if got := q.Get("solve"); got != "attempts,base" {
		t.Errorf("after opening attempts and closing cap the link has solve=%q, want attempts,base (%s)", got, p.queryText())
	}
	for _, g := range []calc.SolveSet{calc.SolveAttempts, calc.SolveBase} {
		d.Dispatch(app.Dispatch{Source: p, Function: func(ctx app.Context) { p.chooseSolve(ctx, g, false) }})
	}
	d.Consume()
	if q, _ := url.ParseQuery(p.queryText()); q.Has("solve") {
		t.Errorf("no group open, yet the link has solve=%q", q.Get("solve"))
	}

	p, _ = navPage(t, "base=100ms")
	if html := app.HTMLString(p.fit.head); !strings.Contains(html, `<div id="fit-head" class="numbers"></div>`) {
		t.Errorf("without a budget the block's head is not empty: %s", html)
	}
}

// BenchmarkFitRender is what an edit with a budget adds to the input's task on the page: the
// four groups' HTML (the answers themselves are calc's BenchmarkReportBoundsBudget).
func BenchmarkFitRender(b *testing.B) {
	p, err := libs.Decode("budget=30s")
	if err != nil {
		b.Fatal(err)
	}
	r := p.ReportBounds()
	for b.Loop() {
		app.HTMLString(renderFitHead(r))
		for _, g := range fitGroups {
			app.HTMLString(renderFitGroup(r, g))
		}
	}
}
