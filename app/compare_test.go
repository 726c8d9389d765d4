//go:build !js

package main

import (
	"net/url"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// compareLink compares a jittered policy with a budget against the AWS SDK's default, which
// makes fewer attempts: rows only A makes, and differences of every sign.
const compareLink = "base=200ms&factor=2&cap=5s&attempts=6&jitter=equal&budget=4s&vs=preset%3Daws-go-v2"

// compareCellsIn maps "attempt/col" to data-ms for every cell of the comparison's table.
func compareCellsIn(html string) map[string]string {
	return tableCells(html, `id="compare-table"`, "data-attempt", "data-ms")
}

// wantCompareCells is what calc says each cell of the comparison of a and b holds, in the
// page's columns: "" where a policy makes no such attempt, and for the first attempt's waits.
func wantCompareCells(a, b calc.Params) map[string]string {
	c := calc.Compare(a.ReportBounds(), b.ReportBounds())
	out := map[string]string{}
	for i := range c.Rows {
		cells := report.CompareCells(c, i) // the CSV's: milliseconds to the nanosecond
		// The page's means are calc's floats, which the CSV rounds to the nanosecond.
		if row := c.Rows[i]; row.InA && row.InB {
			cells[2], cells[5], cells[8] = policy.MillisFloat(row.A.Mean), policy.MillisFloat(row.B.Mean), policy.MillisFloat(row.Diff.Mean)
		} else if row.InA {
			cells[2] = policy.MillisFloat(row.A.Mean)
		} else {
			cells[5] = policy.MillisFloat(row.B.Mean)
		}
		for j, col := range []string{"a-min", "a-mean", "a-max", "b-min", "b-mean", "b-max", "d-min", "d-mean", "d-max",
			"a-earliest", "a-latest", "b-earliest", "b-latest", "d-earliest", "d-latest"} {
			v := cells[j+1]
			if i == 0 && j < 9 {
				v = "" // no wait before the first call: the page writes "–"
			}
			out[cells[0]+"/"+col] = v
		}
	}
	return out
}

func sameCells(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d cells, want %d", what, len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: cell %s is %q, want %q", what, k, got[k], v)
		}
	}
}

// A link with B shows both schedules side by side, cell for cell calc's, with B − A; the
// totals too; and Copy as CSV carries the comparison.
func TestPageCompareLink(t *testing.T) {
	p, _ := navPage(t, compareLink)
	l, err := libs.DecodeLink(compareLink)
	if err != nil || !l.HasB() {
		t.Fatal(err)
	}
	html := app.HTMLString(p)
	sameCells(t, "compare", compareCellsIn(html), wantCompareCells(l.Params, l.B))
	c := calc.Compare(l.Params.ReportBounds(), l.B.ReportBounds())
	want := map[string]string{"compare-a-total-max": policy.Millis(c.A.Schedule.Total.Max),
		"compare-b-total-mean": policy.MillisFloat(c.B.Schedule.Total.Mean), "compare-d-total-min": policy.Millis(c.Total.Min)}
	for _, dd := range elements(html, "dd") {
		if w, ok := want[dd["id"]]; ok && dd["data-ms"] != w {
			t.Errorf("#%s: data-ms %q, want %q", dd["id"], dd["data-ms"], w)
		}
	}
	if !strings.Contains(html, "A: budget 4 s: ") || !strings.Contains(html, "B: no budget.") {
		t.Error("the budgets are not both said")
	}
	if !strings.Contains(p.queryText(), "vs=preset%3Daws-go-v2") {
		t.Errorf("the link lost B: %q", p.queryText())
	}
	var b strings.Builder
	report.WriteCSV(&b, p.exported().Results)
	csv := b.String()
	if !strings.Contains(csv, strings.Join(report.Keys(report.CompareCols), ",")) || !strings.Contains(csv, "\nb,preset=aws-go-v2,") {
		t.Errorf("the CSV does not carry B:\n%s", csv)
	}
}

// A bad key of B's is named as B's; A's numbers stand, B shows the default in its place.
func TestPageCompareBadKey(t *testing.T) {
	p, _ := navPage(t, "base=300ms&jitter=none&vs=base%3Dabc%26jitter%3Dnone")
	html := app.HTMLString(p)
	if !strings.Contains(html, `data-key="vs.base"`) || !strings.Contains(html, `vs.base &#34;abc&#34;: not a duration`) {
		t.Errorf("no error named vs.base:\n%.2000s", html[strings.Index(html, `id="errors"`):])
	}
	if got := scheduleCells(html)["2/max"]; got != "300" {
		t.Errorf("A's 2/max = %q, want its own 300", got)
	}
	if got := compareCellsIn(html)["2/b-max"]; got != "100" {
		t.Errorf("B's 2/max = %q, want the default base's 100", got)
	}
	for _, in := range elements(html, "input") {
		// go-app writes aria-invalid="true" as the bare attribute.
		if inv, ok := in["aria-invalid"]; in["id"] == "in-vs" && (in["value"] != "base=abc&amp;jitter=none" || !ok || inv == "false") {
			t.Errorf("B's input %v", in)
		}
	}
}

// The copy control fills B with A's canonical query (no difference anywhere), and the link says so;
// removing B takes vs out of the link.
func TestPageCompareCopyAndRemove(t *testing.T) {
	p, d := navPage(t, "base=150ms&factor=3&attempts=5&jitter=full&budget=2s&solve=base")
	if strings.Contains(app.HTMLString(p), `id="compare-table"`) {
		t.Fatal("a comparison without B")
	}
	// "A copy of this policy" is A's policy and models, not the fit answers A's page opens.
	if q := compareOf(p).h.linkOf(p.report.Params); strings.Contains(q, "solve=") {
		t.Errorf("A's copy for B carries A's open answers: %q", q)
	}
	compareOf(p).setVs(d.Context(), p.report.Params.Encode())
	p.Update()
	settle(t, p, d)
	got := compareCellsIn(app.HTMLString(p))
	if len(got) != 5*15 {
		t.Fatalf("%d cells after copying A to B", len(got))
	}
	for k, v := range got {
		if strings.Contains(k, "/d-") && v != "0" && v != "" {
			t.Errorf("A copied to B, yet %s differs by %s ms", k, v)
		}
	}
	v, _ := url.ParseQuery(p.queryText())
	if b, err := libs.Decode(v.Get(libs.VsKey)); err != nil || b != p.report.Params {
		t.Errorf("the link's B %q is not A (%v)", v.Get(libs.VsKey), err)
	}
	compareOf(p).setVs(d.Context(), "")
	p.Update()
	settle(t, p, d)
	if html := app.HTMLString(p); strings.Contains(html, `id="compare-table"`) || strings.Contains(p.queryText(), "vs=") {
		t.Errorf("B is still there after removing it: %q", p.queryText())
	}
}

// B's inputs that differ from A's are named only where A or B reads them: the overload model's
// when one of them is an open system, a limiter's own when one of them chose that limiter.
func TestInheritWordsNameWhatIsRead(t *testing.T) {
	decode := func(q string) calc.Params {
		t.Helper()
		l, err := libs.DecodeLink(q)
		if err != nil {
			t.Fatal(q, err)
		}
		return l.Params
	}
	b := decode("preset=aws-go-v2")
	for _, c := range []struct {
		a           string
		want, never []string
	}{
		// Closed systems: neither reads a limiter's parameters, nor the overload model.
		{"retrypct=0.5&maxtokens=50", nil, []string{"retry share", "max tokens", "overload"}},
		{"retrypct=0.5&maxtokens=50&budget=2s", []string{"budget: none (A's: 2s)"}, []string{"retry share", "max tokens", "overload"}},
		// A chose finagle: its retry share is read, grpc's max tokens still not.
		{"limiter=finagle&retrypct=0.5&maxtokens=50", []string{"limiter: none (A's: finagle)", "retry share: 0.2 (A's: 0.5)"}, []string{"max tokens"}},
		// An open system with no limiter: the stream's inputs, no limiter's parameter.
		{"rate=100&run=10s&retrypct=0.5", []string{"rate: 0 (A's: 100)"}, []string{"retry share"}},
	} {
		words := inheritWords(decode(c.a), b)
		for _, w := range c.want {
			if !strings.Contains(words, w) {
				t.Errorf("A %s: %q does not say %q", c.a, words, w)
			}
		}
		for _, w := range c.never {
			if strings.Contains(strings.ToLower(words), w) {
				t.Errorf("A %s: %q speaks of %q, which neither policy reads", c.a, words, w)
			}
		}
	}
}
