//go:build !js

package main

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

var (
	tagRE  = regexp.MustCompile(`<(\w+)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*>`)
	attrRE = regexp.MustCompile(`([\w-]+)(?:="([^"]*)")?`)
)

// elements lists the attributes of every tag named name in the HTML, in document order (go-app
// writes attributes in no fixed order, so tests read them as maps).
func elements(html, name string) []map[string]string {
	var out []map[string]string
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		if m[1] != name {
			continue
		}
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(m[2], -1) {
			attrs[a[1]] = a[2]
		}
		out = append(out, attrs)
	}
	return out
}

// navPage mounts the page in go-app's client tester and opens the link's query.
func navPage(t *testing.T, query string) (*page, app.ClientDispatcher) {
	t.Helper()
	p := newPage()
	d := app.NewClientTester(p)
	t.Cleanup(d.Close)
	d.Nav(&url.URL{Path: "/", RawQuery: query})
	settle(t, p, d)
	return p, d
}

// settle lets the page's work off the input path (sampling) finish and be shown.
func settle(t *testing.T, p *page, d app.ClientDispatcher) {
	t.Helper()
	if settleIn(p, d); p.working() {
		t.Fatal("the work off the input path did not finish")
	}
}

// scheduleCells maps "attempt/col" to data-ms for every schedule cell with a number in the page's
// HTML (the modes' table after it has cells of the same columns).
func scheduleCells(html string) map[string]string {
	out := tableCells(html, `id="schedule"`, "data-attempt", "data-ms")
	for k, v := range out {
		if v == "" {
			delete(out, k)
		}
	}
	return out
}

// tableCells maps "row/col" to the attribute value of every cell (td with data-col) of the first
// table from marker on, row being the rowAttr of its tr; nil when marker is not in html.
func tableCells(html, marker, rowAttr, value string) map[string]string {
	start := strings.Index(html, marker)
	if start < 0 {
		return nil
	}
	html = html[start:]
	html = html[:strings.Index(html, "</table>")]
	out := map[string]string{}
	row := ""
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(m[2], -1) {
			attrs[a[1]] = a[2]
		}
		if m[1] == "tr" && attrs[rowAttr] != "" {
			row = attrs[rowAttr]
		}
		if m[1] == "td" && attrs["data-col"] != "" {
			out[row+"/"+attrs["data-col"]] = attrs[value]
		}
	}
	return out
}

// typeInto does what the input's event handler does: edit, then render.
func typeInto(p *page, d app.ClientDispatcher, key, value string) {
	p.edit(d.Context(), key, value)
	p.Update()
	d.Consume()
	settleIn(p, d)
}

// settleIn waits for the work off the input path (sampling, herd), for helpers without a
// *testing.T: up to a minute, which only a hang reaches (the test then fails on what the page
// shows).
func settleIn(p *page, d app.ClientDispatcher) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		d.Consume()
		if !p.working() {
			d.Consume()
			return
		}
	}
}

func TestPageRendersLink(t *testing.T) {
	p, _ := navPage(t, "base=100ms&factor=2&cap=1s&attempts=6&jitter=equal")
	html := app.HTMLString(p)
	got := scheduleCells(html)
	// Hand-worked: equal jitter waits in [d/2, d] for d = 100, 200, 400, 800, 1000 ms.
	want := map[string]string{
		"2/min": "50", "2/max": "100", "2/mean": "75", "3/nominal": "200", "6/min": "500", "6/max": "1000",
		"6/earliest": "1250", "6/latest": "2500", "1/earliest": "0", "1/p50": "0",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("cell %s: data-ms %q, want %q", k, got[k], v)
		}
	}
	for _, id := range []string{"total-min", "total-mean", "total-max"} {
		if !regexp.MustCompile(`id="` + id + `"`).MatchString(html) {
			t.Errorf("no #%s", id)
		}
	}
	for _, dd := range elements(html, "dd") {
		if (dd["id"] == "total-min" && dd["data-ms"] != "1250") || (dd["id"] == "total-max" && dd["data-ms"] != "2500") ||
			(dd["id"] == "total-mean" && dd["data-ms"] != "1875") {
			t.Errorf("totals: %v", dd)
		}
	}
	if n := len(elements(html, "tr")); n < 6+1+5 {
		t.Errorf("%d rows", n)
	}
	if !strings.Contains(html, "6 attempts = first call + 5 retries") {
		t.Error("the attempts hint is missing")
	}
}

// Every data-ms cell is calc's own number for the link: the page does no arithmetic.
func TestPageCellsAreCalcs(t *testing.T) {
	q := "base=1s&factor=1.6&cap=120s&attempts=9&jitter=proportional&budget=20s&seed=4&samples=500"
	p, _ := navPage(t, q)
	got := scheduleCells(app.HTMLString(p))
	params, _ := libs.Decode(q)
	r := params.Report()
	for i, row := range r.Schedule.Rows {
		n := app.FormatString("%d/", row.Attempt)
		for col, want := range map[string]string{"earliest": policy.Millis(row.Earliest), "latest": policy.Millis(row.Latest)} {
			if got[n+col] != want {
				t.Errorf("%s%s = %q, want %q", n, col, got[n+col], want)
			}
		}
		if st := r.Sample.Starts[i]; st.Reached > 0 && got[n+"p99"] != policy.Millis(st.Start.P99) {
			t.Errorf("%sp99 = %q, want %q", n, got[n+"p99"], policy.Millis(st.Start.P99))
		}
	}
}

func TestPageEditRewritesURL(t *testing.T) {
	p, d := navPage(t, "base=100ms")
	typeInto(p, d, "base", "300")
	link, _ := libs.DecodeLink("base=300ms")
	if got := d.Context().Page().URL().RawQuery; got != link.Encode() {
		t.Errorf("URL query %q, want %q", got, link.Encode())
	}
	if got := scheduleCells(app.HTMLString(p))["2/max"]; got != "300" {
		t.Errorf("after the edit, retry 1's max is %q ms", got)
	}
}

func TestPageBadEditKeepsLastResult(t *testing.T) {
	p, d := navPage(t, "base=100ms&attempts=4")
	before := d.Context().Page().URL().RawQuery
	typeInto(p, d, "attempts", "0")
	html := app.HTMLString(p)
	if !strings.Contains(html, `role="alert"`) || !strings.Contains(html, `attempts &#34;0&#34;: must be between 1 and 1000`) {
		t.Errorf("no alert naming attempts:\n%s", html[:min(len(html), 3000)])
	}
	if got := scheduleCells(html)["4/max"]; got != "400" {
		t.Errorf("the last valid table is gone: 4/max = %q", got)
	}
	if !strings.Contains(html, "last valid inputs") {
		t.Error("the kept result is not marked as the last valid inputs'")
	}
	if d.Context().Page().URL().RawQuery != before {
		t.Error("a bad edit rewrote the URL")
	}
	// A good edit after it computes again.
	typeInto(p, d, "attempts", "5")
	if html := app.HTMLString(p); strings.Contains(html, "last valid inputs") || scheduleCells(html)["5/max"] != "800" {
		t.Error("a valid edit after a bad one did not recompute")
	}
}

func TestPageBadLinkShowsDefaults(t *testing.T) {
	p, _ := navPage(t, "base=abc&jitter=none")
	html := app.HTMLString(p)
	if !strings.Contains(html, `data-key="base"`) || !strings.Contains(html, "not a duration") {
		t.Error("no error for base")
	}
	// The rest of the link is kept: jitter none on the default 100ms base.
	if got := scheduleCells(html)["3/min"]; got != "200" {
		t.Errorf("3/min = %q, want the default base's 200", got)
	}
	for _, in := range elements(html, "input") {
		if in["name"] == "base" && in["value"] != "abc" {
			t.Errorf("base input %v", in)
		}
	}
	for _, div := range elements(html, "div") {
		if div["data-key"] == "base" && div["class"] != "field invalid" {
			t.Errorf("base field %v is not marked invalid", div)
		}
	}
}

func TestPagePanicBecomesError(t *testing.T) {
	p, d := navPage(t, "")
	orig := computeReport
	computeReport = func(calc.Params) calc.Report { panic("boom") }
	typeInto(p, d, "base", "200ms")
	computeReport = orig
	html := app.HTMLString(p)
	if !strings.Contains(html, "internal error") || !strings.Contains(html, "boom") {
		t.Error("a panic while computing is not shown as an error")
	}
	typeInto(p, d, "base", "300ms")
	if got := scheduleCells(app.HTMLString(p))["2/max"]; got != "300" {
		t.Errorf("the page did not recover: 2/max = %q", got)
	}
}

// go-app's pre-render quotes attributes with strconv.Quote, not HTML escaping: a link's value
// must not become markup in the server's HTML.
func TestPreRenderEscapesLinkValues(t *testing.T) {
	p := newPage()
	d := app.NewServerTester(p)
	defer d.Close()
	p.load("base=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&jitter=%22%3E%3Cb%3E")
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	if strings.Contains(html, "<img") || strings.Contains(html, "<b>") {
		t.Errorf("a link's value became markup:\n%s", html)
	}
	if !strings.Contains(html, "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;") {
		t.Error("the bad value is not shown back escaped")
	}
}

func TestPagePreset(t *testing.T) {
	p, d := navPage(t, "")
	p.choosePreset(d.Context(), "envoy")
	p.Update()
	d.Consume()
	html := app.HTMLString(p)
	// Envoy's code: retry 1 draws 0..24 whole ms (base 25 ms, 2 attempts).
	if got := scheduleCells(html); got["2/max"] != "24" || got["2/min"] != "0" {
		t.Errorf("envoy: %v", got)
	}
	if !strings.Contains(d.Context().Page().URL().RawQuery, "preset=envoy") || !strings.Contains(html, "Envoy router retry_policy") {
		t.Error("the preset is not in the link or not described")
	}
	if !strings.Contains(html, "0..74 ms") {
		t.Error("the page does not say where Envoy's documentation disagrees with its code")
	}
	// Editing an input leaves the preset; the link then carries the plain keys.
	typeInto(p, d, "attempts", "3")
	if q := d.Context().Page().URL().RawQuery; strings.Contains(q, "preset=") || !strings.Contains(q, "jitter=fullms") {
		t.Errorf("after an edit the link is %q", q)
	}
}

// An edit shows the bounds at once, with the policy's own percentiles when they are quick to
// sample, and the rest when it is in. The sampling comes back through a dispatch, which waits
// for Consume, so the state right after the edit is the handler's own.
func TestPageSamplesOffTheInputPath(t *testing.T) {
	for _, c := range []struct {
		query     string
		inHandler bool // the handler samples the policy's own paths
		max2      string
	}{
		{"", true, "200"},
		{"samples=20000", false, "200"},
	} {
		p, d := navPage(t, c.query)
		p.edit(d.Context(), "base", "200ms")
		if p.report.Sampled() || p.report.PolicySampled() != c.inHandler {
			t.Fatalf("%q: the input handler sampled everything, or the policy's paths %v (want %v)", c.query, p.report.PolicySampled(), c.inHandler)
		}
		html := app.HTMLString(p.results.content()) + app.HTMLString(partNamed(p, "modes-section").(*reportSection).island.content()) // the islands an edit writes
		cells := scheduleCells(html)
		if cells["2/max"] != c.max2 || (cells["2/p50"] != "") != c.inHandler {
			t.Errorf("%q before sampling: %v", c.query, cells)
		}
		if !strings.Contains(html, `data-pending="samples"`) || !strings.Contains(html, `data-sampling="pending"`) {
			t.Errorf("%q: nothing is marked as still to come", c.query)
		}
		p.Update()
		settle(t, p, d)
		if !p.report.Sampled() {
			t.Errorf("%q: the samples never came", c.query)
		}
		if html := app.HTMLString(p); strings.Contains(html, `data-pending`) || scheduleCells(html)["2/p50"] == "" {
			t.Errorf("%q: the page still shows pending numbers after sampling", c.query)
		}
	}
}

// A policy with a library's jitter (here Polly's) runs the six modes of every herd and then its
// own: the herd's table has a row for each, in calc's order and with calc's numbers.
func TestPageHerdLibraryMode(t *testing.T) {
	const q = "jitter=decorrelatedv2&clients=60&attempts=6&outage=500ms&capacity=10&seed=2"
	p, _ := navPage(t, q)
	params, _ := libs.Decode(q)
	want, err := sim.Herd(params)
	if err != nil || len(want) != len(calc.HerdModes())+1 {
		t.Fatalf("calc's herd: %d runs, %v", len(want), err)
	}
	html := app.HTMLString(p)
	herd := html[strings.Index(html, `id="herd"`):]
	herd = herd[:strings.Index(herd, "</table>")]
	var modes []string
	for _, tr := range elements(herd, "tr") {
		if m := tr["data-mode"]; m != "" {
			modes = append(modes, m)
		}
	}
	if len(modes) != len(want) || modes[len(modes)-1] != "decorrelatedv2" {
		t.Fatalf("the herd's rows are %q, want %d ending with decorrelatedv2", modes, len(want))
	}
	for i, r := range want {
		if modes[i] != r.Mode.String() || herdOf(p).runs[i].Attempts != r.Attempts || herdOf(p).runs[i].Accepted != r.Accepted {
			t.Errorf("row %d: %s with %+v, want calc's %+v", i, modes[i], herdOf(p).runs[i], r)
		}
	}
	if herdOf(p).err != nil || herdOf(p).status() != "" || len(herdOf(p).runsDone()) != len(want) {
		t.Errorf("the herd's status: %q, %v; %d runs ready to copy", herdOf(p).status(), herdOf(p).err, len(herdOf(p).runsDone()))
	}
}

// What was typed before the wasm ran is applied to any input, also to one of a model that the
// link leaves out at its defaults (the overload model's, the contention experiment's).
func TestTypedInputsIncludeLeftOutKeys(t *testing.T) {
	p, _ := navPage(t, "base=1s")
	for _, key := range []string{"base", "rate", "limiter", "contenders", "runs", "seed"} {
		if !p.isInput(key) {
			t.Errorf("%s typed before the wasm would be dropped", key)
		}
	}
	if p.isInput("nope") || p.isInput("wasm") {
		t.Error("a field that is no input of the calculator's is applied")
	}
}

// herdOf is p's herd section.
func herdOf(p *page) *herdSection { return partOf[*herdSection](p) }

// compareOf is p's compare section.
func compareOf(p *page) *compareSection { return partOf[*compareSection](p) }

// partNamed is p's component of the section whose id is id; nil when it has none.
func partNamed(p *page, id string) part {
	for i, s := range sections {
		if s.id == id {
			return p.parts[i]
		}
	}
	return nil
}
