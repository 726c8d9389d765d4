//go:build !js

package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// fakeOverload stands in for calc/sim's simulation: each case gets numbers of its own, so that a
// cell showing another case's number, or a number of its own making, is caught.
func fakeOverload(p calc.Params, c calc.OverloadCase, pause func() bool) (sim.OverloadRun, bool, error) {
	n := 10*int(c.Mode) + int(c.Limiter)
	r := sim.OverloadRun{Limiter: c.Limiter, Requests: 1000 + n, OutOfAttempts: n, Refused: 2 * n, OutOfBudget: 3,
		Served: 900, Wasted: n + 1, Recovered: -1}
	r.Mode, r.Accepted, r.MeanPerClient = c.Mode, 900-n, 1+float64(n)/8
	if n%2 == 0 {
		r.Recovered, r.RecoveredInStream = time.Duration(n)*100*time.Millisecond, n%4 == 0
	}
	r.Windows = []sim.OverloadWindow{{New: 5, Failed: 5}, {New: 5, Retries: 4 + n, Served: 3, Queue: 6}, {New: 5, Served: 9, Wasted: 1}}
	return r, true, nil
}

func useFakeOverload(t *testing.T) {
	old := overloadPausing
	overloadPausing = fakeOverload
	t.Cleanup(func() { overloadPausing = old })
}

// cellsOf maps "row/col" to data-value for the rows of the table with the given id, where row
// is the row's attributes rowKeys, joined with "+".
func cellsOf(html, id string, rowKeys ...string) map[string]string {
	html = html[strings.Index(html, `id="`+id+`"`):]
	html = html[:strings.Index(html, "</table>")]
	out, row := map[string]string{}, ""
	for _, m := range tagRE.FindAllStringSubmatch(html, -1) {
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(m[2], -1) {
			attrs[a[1]] = a[2]
		}
		if m[1] == "tr" {
			var key []string
			for _, k := range rowKeys {
				key = append(key, attrs[k])
			}
			row = strings.Join(key, "+")
		}
		if m[1] == "td" && row != "" {
			out[row+"/"+attrs["data-col"]] = attrs["data-value"]
		}
	}
	return out
}

const overloadLink = "rate=50&run=2s&timeout=300ms&queue=10&limiter=grpc&clients=20&seed=4"

// The overload view shows every case of calc's OverloadCases, in its order, with the run's own
// numbers; the policy's own case window by window; the words and every limiter's source.
func TestPageOverloadView(t *testing.T) {
	useFakeOverload(t)
	p, _ := navPage(t, overloadLink)
	params, err := libs.Decode(overloadLink)
	if err != nil || !params.Open() {
		t.Fatal(err)
	}
	html := app.HTMLString(p)
	if strings.Contains(html, `id="herd"`) || strings.Contains(html, `id="arrivals"`) {
		t.Error("the closed herd's table is shown for an open system")
	}
	var rows []string
	for _, tr := range elements(html, "tr") {
		if tr["data-limiter"] != "" {
			rows = append(rows, tr["data-mode"]+"+"+tr["data-limiter"])
		}
	}
	cases := params.OverloadCases()
	if len(rows) != len(cases) {
		t.Fatalf("%d rows %q, want %d", len(rows), rows, len(cases))
	}
	cells := cellsOf(html, "overload", "data-mode", "data-limiter")
	for i, c := range cases {
		if rows[i] != c.Mode.String()+"+"+c.Limiter.String() {
			t.Errorf("row %d is %s, want %v", i, rows[i], c)
		}
		run, _, _ := fakeOverload(params, c, nil)
		recovered := ""
		if run.Recovered >= 0 {
			recovered = policy.Millis(run.Recovered)
		}
		for col, want := range map[string]string{"requests": strconv.Itoa(run.Requests), "succeeded": strconv.Itoa(run.Accepted),
			"out_of_attempts": strconv.Itoa(run.OutOfAttempts), "refused": strconv.Itoa(run.Refused), "out_of_budget": "3",
			"per_request": strconv.FormatFloat(run.MeanPerClient, 'f', -1, 64), "wasted_share": strconv.FormatFloat(run.WastedShare(), 'f', -1, 64),
			"recovered": recovered} {
			if got := cells[rows[i]+"/"+col]; got != want {
				t.Errorf("%v %s: %q, want %q", c, col, got, want)
			}
		}
	}
	for _, s := range report.WindowSeries {
		if !strings.Contains(html, s[1]+" per 100 ms window") || !strings.Contains(html, `data-name="`+s[0]+`"`) {
			t.Errorf("the chart has no strip %q", s[1])
		}
	}
	if n := strings.Count(html, `<tr data-window=`); n != 3 {
		t.Errorf("%d window rows, want 3", n)
	}
	for _, k := range params.Shown() {
		if !strings.Contains(html, attrEscape(sim.LimiterBoundWords(params, k))) || !strings.Contains(html, attrEscape(report.SourceWords(k))) {
			t.Errorf("no words or source for %s", k)
		}
	}
	if !strings.Contains(html, attrEscape(sim.FailingLoadWords(params))) || herdOf(p).status() != "" {
		t.Errorf("no load in words, or status %q", herdOf(p).status())
	}
	if herdOf(p).runsDone() != nil {
		t.Error("an open system's runs offered for copying as the herd's")
	}
}

// attrEscape is how go-app writes text into HTML.
func attrEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// The form shows every overload key that no single limiter or breaker reads (those show with
// it: TestFormShowsChosenParams), at its default when the link leaves it out, and what was
// typed round-trips through the link; a bad value is named with its key.
func TestPageOverloadForm(t *testing.T) {
	useFakeOverload(t)
	p, d := navPage(t, "")
	html := app.HTMLString(p)
	defaults := calc.DefaultValues()
	for _, f := range overloadFields {
		if _, ok := chooserOf[f.key]; f.options != nil || ok {
			continue
		}
		var found bool
		for _, in := range elements(html, "input") {
			if in["id"] == "in-"+f.key {
				found = true
				if in["value"] != defaults.Get(f.key) {
					t.Errorf("%s shows %q, want the default %q", f.key, in["value"], defaults.Get(f.key))
				}
			}
		}
		if !found {
			t.Errorf("no input for %s", f.key)
		}
	}
	if strings.Contains(p.queryText(), "rate=") || strings.Contains(p.queryText(), "limiter=") {
		t.Errorf("the defaults' link %q has the overload keys, though it uses no stream", p.queryText())
	}
	typeInto(p, d, "maxtokens", "12.5")
	typeInto(p, d, "limiter", "finagle")
	if !strings.Contains(p.queryText(), "maxtokens=12.5") || !strings.Contains(p.queryText(), "limiter=finagle") {
		t.Errorf("the link %q does not carry what was typed", p.queryText())
	}
	typeInto(p, d, "ttl", "1.5s")
	if fe := p.fieldError("ttl"); fe == nil || !strings.Contains(fieldMessage(fe), `ttl "1.5s"`) {
		t.Errorf("ttl=1.5s: %v", fe)
	}
	if set, _ := p.moreInputs(); !strings.Contains(strings.Join(set, ","), "max tokens 12.5") {
		t.Errorf("the summary of what is set: %q", set)
	}
}

// A closed herd's link shows the herd as before, not the overload view.
func TestPageClosedHerdUnchanged(t *testing.T) {
	useFakeOverload(t)
	p, _ := navPage(t, "clients=60&attempts=6&outage=500ms&capacity=10&seed=2")
	html := app.HTMLString(p)
	if !strings.Contains(html, `id="herd"`) || strings.Contains(html, `id="overload`) || strings.Contains(html, "The server fails everything until the outage ends") {
		t.Error("a closed herd shows the overload view")
	}
}

// windowCells are the numbers of the window table in html, row by row, in report.WindowSeries' order.
func windowCells(html string) [][8]string {
	html = html[strings.Index(html, `id="overload-windows-table"`):]
	html = html[:strings.Index(html, "</table>")]
	var rows [][8]string
	for _, tr := range strings.Split(html, "<tr data-window=")[1:] {
		var row [8]string
		for i, s := range report.WindowSeries {
			cell := tr[strings.Index(tr, `data-col="`+s[0]+`">`)+len(`data-col="`+s[0]+`">`):]
			row[i] = cell[:strings.Index(cell, "<")]
		}
		rows = append(rows, row)
	}
	return rows
}

// scaleEnd is the top of the window chart's count axis, as its caption states it.
func scaleEnd(t *testing.T, html string) string {
	t.Helper()
	for _, s := range elements(html, "span") {
		if s["id"] == "overload-scale" {
			return s["data-end"]
		}
	}
	t.Fatal("the chart's caption does not state its scale")
	return ""
}

// Picking another case shows that case's windows, as calc has them, with nothing run again;
// the shared scale's top is calc's over every case's windows, and the caption says which scale.
func TestPageOverloadPick(t *testing.T) {
	p, d := navPage(t, overloadLink)
	params, err := libs.Decode(overloadLink)
	if err != nil {
		t.Fatal(err)
	}
	cases := params.OverloadCases()
	runs := make([]sim.OverloadRun, len(cases))
	for i, c := range cases {
		if runs[i], err = sim.Overload(params, c); err != nil {
			t.Fatal(err)
		}
	}
	want := func(r sim.OverloadRun) [][8]string {
		var rows [][8]string
		for _, w := range r.Windows[:min(len(r.Windows), maxWindowRows)] {
			var row [8]string
			for i, n := range w.Counts() {
				row[i] = strconv.Itoa(n)
			}
			rows = append(rows, row)
		}
		return rows
	}
	own := slices.Index(cases, params.OwnCase())
	html := app.HTMLString(p)
	if got := windowCells(html); !slices.Equal(got, want(runs[own])) {
		t.Fatalf("at first the windows are not the policy's own case's")
	}
	ran := 0
	old := overloadPausing
	overloadPausing = func(p calc.Params, c calc.OverloadCase, pause func() bool) (sim.OverloadRun, bool, error) {
		ran++
		return old(p, c, pause)
	}
	t.Cleanup(func() { overloadPausing = old })

	_, shared := sim.OverloadSharedAxes(params, runs)
	for i, c := range cases {
		herdOf(p).pickOverloadCase(strconv.Itoa(i))
		d.Consume()
		html := app.HTMLString(p)
		if got := windowCells(html); !slices.Equal(got, want(runs[i])) {
			t.Errorf("%v picked: the window table is not its windows", c)
		}
		if !strings.Contains(html, `<option value="`+strconv.Itoa(i)+`" selected="">`) {
			t.Errorf("%v picked: the list does not show it chosen", c)
		}
		_, axis := sim.OverloadAxes(params, runs[i])
		if got := scaleEnd(t, html); got != strconv.Itoa(axis.End) || !strings.Contains(html, "this case&#39;s own scale") {
			t.Errorf("%v on its own scale: top %s, calc %d", c, got, axis.End)
		}
		herdOf(p).shareOverloadScale(true)
		d.Consume()
		html = app.HTMLString(p)
		if got := scaleEnd(t, html); got != strconv.Itoa(shared.End) || !strings.Contains(html, "the scale shared by every case") {
			t.Errorf("%v on the shared scale: top %s, calc %d", c, got, shared.End)
		}
		if !strings.Contains(html, `id="overload-same-scale" checked=""`) {
			t.Errorf("%v on the shared scale: the box is not checked", c)
		}
		herdOf(p).shareOverloadScale(false)
		d.Consume()
	}
	// A value that is no case's changes nothing.
	herdOf(p).pickOverloadCase("99")
	d.Consume()
	if got := windowCells(app.HTMLString(p)); !slices.Equal(got, want(runs[len(runs)-1])) {
		t.Error("a bad value changed the case shown")
	}
	if ran != 0 {
		t.Errorf("picking ran %d simulations", ran)
	}
}

// An error rate alone (issue 37), on the page: the section's heading names no stream, the runs
// have no "stream then" column, the closed form and the runs each say which question they
// answer, and the overload inputs say the herd's clients would join a stream. With a stream the
// inputs say that they do, linking to the Clients field.
func TestPageOverloadAnswersItsQuestion(t *testing.T) {
	p, _ := navPage(t, "failrate=0.1")
	params := p.report.Params
	html := app.HTMLString(p)
	if !strings.Contains(html, ">"+overloadNoStreamHeading+"</h2>") || strings.Contains(html, overloadSection.heading) {
		t.Error("the heading of an error rate alone speaks of a stream")
	}
	for _, no := range []string{"stream then", `data-col="recovered_when"`, "stream ended", "while the stream ran", "while the stream still ran", "From the inputs alone, not the simulation</caption>"} {
		if strings.Contains(html, no) {
			t.Errorf("the page says %q", no)
		}
	}
	for _, want := range []string{report.ErrorRateCaption, report.SimulationWords(params), report.OverloadModelWords(params),
		"With a stream (rate and run over 0), the herd's ", `<a href="#in-clients">100 clients</a>`} {
		if !strings.Contains(html, attrEscape(want)) && !strings.Contains(html, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	cells := cellsOf(html, "error-rate-table", "data-limiter")
	if cells["none/attempts_per_second"] != "0" || !strings.Contains(html, `data-col="attempts_per_second" data-value="0">no stream</td>`) {
		t.Errorf("the closed form's attempts per second without a stream: %q", cells["none/attempts_per_second"])
	}

	p, _ = navPage(t, "rate=80&run=60s")
	html = app.HTMLString(p)
	if !strings.Contains(html, "Beside this stream, the herd&#39;s \n<a href=\"#in-clients\">100 clients</a>\n also retry through the outage") {
		t.Error("the overload inputs do not say that the herd's 100 clients join the stream")
	}
	if !strings.Contains(html, ">"+overloadSection.heading+"</h2>") || !strings.Contains(html, "stream then") ||
		!strings.Contains(html, attrEscape(report.SimulationWords(p.report.Params))) {
		t.Error("a stream's overload view lost its heading, its stream column or what it simulates")
	}
}

// issue37Overload is the README's overload link: 100 ms windows past a minute.
const issue37Overload = "rate=80&run=60s&outage=2s&capacity=10&window=100ms&queue=100&timeout=500ms&clients=1"

// Window labels that must be told apart carry the digits that do (issue 37): three digits read
// "1 min" for the windows from 60 s to 60.5 s. By hand: 60.1 s is 1.00167 min, 60.3 s 1.005 min.
func TestOverloadWindowLabelsApart(t *testing.T) {
	params, err := libs.Decode(issue37Overload)
	if err != nil {
		t.Fatal(err)
	}
	labels := report.WindowLabels(params, 620)
	want := []string{"59.9 s", "1 min", "1.002 min", "1.003 min", "1.005 min", "1.007 min", "1.008 min", "1.01 min"}
	if got := labels[599:607]; !slices.Equal(got, want) {
		t.Errorf("windows 599 to 606: %q, want %q", got, want)
	}
	if labels[0] != "0" || labels[1] != "100 ms" || labels[15] != "1.5 s" {
		t.Errorf("the first windows gained digits: %q", labels[:16])
	}
	out, _, code := runTableOut(t, issue37Overload)
	if code != 0 {
		t.Fatal(out)
	}
	_, windows, _ := strings.Cut(out, "window from")
	seen := map[string]bool{}
	for _, line := range strings.Split(windows, "\n")[1:] {
		if f := strings.Fields(line); len(f) > 2 {
			label := strings.Join(f[:2], " ")
			if f[0] == "0" {
				label = "0"
			}
			if seen[label] {
				t.Errorf("two windows read %q", label)
			}
			seen[label] = true
		}
	}
	if !seen["1.002 min"] {
		t.Errorf("no window reads 1.002 min:\n%s", windows)
	}
}
