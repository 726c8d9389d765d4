package main

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The overload view: when the inputs make the herd an open system (calc.Params.Open),
// the herd section shows every case of calc's OverloadCases side by side, the policy's own run
// window by window, and in words what the stream would ask of the server if every attempt
// failed and what each limiter bounds it to. Every number is calc's, written down here.

const (
	overloadLegend  = "Overload"
	overloadSummary = "overload (stream, queue, timeout, limiter)"
)

// overloadFields are the overload model's inputs, a fieldset of the form. Each limiter's and
// each breaker's parameters say which one reads them: the others ignore them.
var overloadFields = []formField{
	{key: "rate", label: "Rate", unit: "requests per second", inputMode: "decimal", hint: "new requests keep arriving at this rate while the stream runs; 0 = no stream"},
	{key: "run", label: "Stream runs", unit: "ms, or a duration", hint: "how long new requests keep arriving, from the start; 0 = no stream"},
	{key: "arrivals", label: "Arrivals", options: []string{"even", "poisson"}, hint: "even: evenly spaced; poisson: random gaps, drawn from the seed"},
	{key: "queue", label: "Queue", unit: "attempts; 0 = none", inputMode: "numeric", hint: "attempts that may wait for a slot when a window is full; the rest fail at once"},
	{key: "timeout", label: "Timeout", unit: "ms, or a duration; 0 = none", hint: "a client stops waiting for an attempt after this; if the server serves it later, that work is wasted"},
	{key: "failrate", label: "Error rate", unit: "fraction: 0.1 = 10%", inputMode: "decimal", hint: "outside the outage the server fails each attempt it serves with this probability, drawn from the seed; 0 = none"},
	{key: "latency", label: "Latency", unit: "ms, or a duration; 0 = none", hint: "the server's time in service of an attempt at no load, added to the call; 0 = the call alone"},
	{key: "slope", label: "Slope", unit: "ms per attempt in service; 0 = none", hint: "added to an attempt's time in service for each attempt in service at its start, itself counted, fixed then (Brooker's collapse simulation: 1 s + 10 ms each, timeout 3 s)"},
	{key: "processes", label: "Processes", unit: "client processes", inputMode: "numeric", hint: "the requests are sent by these in turn, each with its own limiter"},
	{key: "limiter", label: "Limiter", options: limiterOptions(), hint: "what each process puts between a failure and its retry; the sources are under the herd"},
	{key: "breaker", label: "Circuit breaker", options: breakerOptions(), hint: "what each client asks before a call, which fails at once while it is open; the sources are under the herd"},
	{key: "breakerat", label: "Breaker placement", options: []string{"attempt", "call"}, hint: "attempt: inside the retries, every attempt asks and counts; call: around them, a call asks once and counts once"},
	{key: "breakers", label: "Breakers", options: []string{"client", "shared"}, hint: "client: one breaker per client process; shared: one for all"},
	{key: "maxtokens", label: "Max tokens", unit: "tokens", inputMode: "decimal", hint: "grpc reads this: retryThrottling's maxTokens"},
	{key: "tokenratio", label: "Token ratio", unit: "tokens per success", inputMode: "decimal", hint: "grpc reads this: retryThrottling's tokenRatio"},
	{key: "ttl", label: "Budget TTL", unit: "whole seconds", hint: "finagle reads this: how long deposits and withdrawals count"},
	{key: "minretries", label: "Min retries", unit: "per second", inputMode: "numeric", hint: "finagle reads this: retries allowed per process however few requests"},
	{key: "retrypct", label: "Retry share", unit: "fraction: 0.2 = 20%", inputMode: "decimal", hint: "finagle reads this: retries each request pays for"},
	{key: "budgetpct", label: "Budget percent", unit: "%", inputMode: "decimal", hint: "envoy reads this: retries in flight, as a share of the requests in flight"},
	{key: "minconcurrency", label: "Min concurrency", unit: "retries", inputMode: "numeric", hint: "envoy reads this: retries in flight always allowed"},
	{key: "fsmaxrate", label: "failsafe max rate", unit: "fraction: 0.2 = 20%", inputMode: "decimal", hint: "failsafe reads this: its budget's WithMaxRate, retries in flight as a share of the requests under way plus those retries"},
	{key: "fsminconcurrency", label: "failsafe min concurrency", unit: "retries", inputMode: "numeric", hint: "failsafe reads this: its budget's WithMinConcurrency, retries in flight always allowed"},
	{key: "gbfailures", label: "gobreaker failures", unit: "in a row", inputMode: "numeric", hint: "gobreaker reads this: ReadyToTrip opens once consecutive failures exceed it"},
	{key: "gbhalfopen", label: "gobreaker half-open calls", unit: "calls", inputMode: "numeric", hint: "gobreaker reads this: MaxRequests, the calls let through while half-open, all of which must succeed to close"},
	{key: "gbopen", label: "gobreaker open", unit: "ms, or a duration", hint: "gobreaker reads this: Timeout, how long it stays open"},
	{key: "r4jrate", label: "resilience4j failure rate", unit: "%", inputMode: "decimal", hint: "resilience4j reads this: failureRateThreshold, the share of failed calls in the window that opens it"},
	{key: "r4jslowrate", label: "resilience4j slow rate", unit: "%", inputMode: "decimal", hint: "resilience4j reads this: slowCallRateThreshold, the share of slow calls in the window that opens it"},
	{key: "r4jslowafter", label: "resilience4j slow after", unit: "ms, or a duration", hint: "resilience4j reads this: slowCallDurationThreshold, a call slower than this is slow"},
	{key: "r4jwindow", label: "resilience4j window", unit: "calls", inputMode: "numeric", hint: "resilience4j reads this: slidingWindowSize, the last calls the rates are of"},
	{key: "r4jmincalls", label: "resilience4j minimum calls", unit: "calls", inputMode: "numeric", hint: "resilience4j reads this: minimumNumberOfCalls before a rate counts (at most the window)"},
	{key: "r4jopen", label: "resilience4j open", unit: "ms, or a duration", hint: "resilience4j reads this: waitDurationInOpenState, how long it stays open"},
	{key: "r4jhalfopen", label: "resilience4j half-open calls", unit: "calls", inputMode: "numeric", hint: "resilience4j reads this: permittedNumberOfCallsInHalfOpenState, the calls whose rates decide"},
	{key: "pollyratio", label: "Polly failure ratio", unit: "fraction: 0.1 = 10%", inputMode: "decimal", hint: "polly reads this: FailureRatio, the share of failed calls in the sampling duration that opens it"},
	{key: "pollythroughput", label: "Polly minimum throughput", unit: "calls", inputMode: "numeric", hint: "polly reads this: MinimumThroughput, the calls the sampling duration must see first"},
	{key: "pollysampling", label: "Polly sampling", unit: "ms, or a duration", hint: "polly reads this: SamplingDuration, the time the ratio is over"},
	{key: "pollyopen", label: "Polly break", unit: "ms, or a duration", hint: "polly reads this: BreakDuration, how long it stays open"},
	{key: "fsof", label: "failsafe of", unit: "last results", inputMode: "numeric", hint: "failsafe reads this: WithFailureThresholdRatio's capacity, the last results the failures are counted in"},
	{key: "fsfailures", label: "failsafe failures", unit: "results", inputMode: "numeric", hint: "failsafe reads this: WithFailureThresholdRatio's threshold, the failures that open it (at most of)"},
	{key: "fssuccessof", label: "failsafe successes of", unit: "probes; 0 = none", inputMode: "numeric", hint: "failsafe reads this: WithSuccessThresholdRatio's capacity, the calls let through while half-open"},
	{key: "fssuccesses", label: "failsafe successes", unit: "probes; 0 = none", inputMode: "numeric", hint: "failsafe reads this: WithSuccessThresholdRatio's threshold, the successes that close it (at most successes of)"},
	{key: "fsopen", label: "failsafe open", unit: "ms, or a duration", hint: "failsafe reads this: WithDelay, how long it stays open"},
	{key: "fsperiod", label: "failsafe period", unit: "ms, or a duration; 0 = count-based", hint: "failsafe reads this: the thresholding period of WithFailureThresholdPeriod and WithFailureRateThreshold, results counted in 10 buckets"},
	{key: "fsexecutions", label: "failsafe executions", unit: "results; 0 = none", inputMode: "numeric", hint: "failsafe reads this: the executions needed before it decides"},
	{key: "fsrate", label: "failsafe failure rate", unit: "fraction; 0 = none", inputMode: "decimal", hint: "failsafe reads this: WithFailureRateThreshold's rate, which decides in place of the failure count"},
}

// overloadCrowd says, at the top of the overload inputs, that the herd's crowd arrives too: with
// a stream its clients retry through the outage beside the new requests, which a link that sets
// only rate and run would otherwise hide. The count is the last valid one, the one computed.
func (p *page) overloadCrowd() app.UI {
	params := calc.Default()
	if p.report != nil {
		params = p.report.Params
	}
	n := params.Clients
	clients := fmt.Sprintf("%d %s", n, policy.Plural(n, "client", "clients"))
	var before, after string
	if params.HasStream() {
		before, after = "Beside this stream, the herd's ", " also retry through the outage (Clients, in Herd above; 1 at least)."
	} else {
		before, after = "With a stream (rate and run over 0), the herd's ", " would retry through the outage beside it (Clients, in Herd above); without one they are all that arrives."
	}
	return app.P().ID("stream-crowd").Class("hint").Body(
		app.Text(before),
		app.A().Href("#in-clients").Text(clients),
		app.Text(after),
	)
}

func breakerOptions() []string {
	var names []string
	for _, k := range breaker.Kinds() {
		names = append(names, k.String())
	}
	return names
}

func limiterOptions() []string {
	var names []string
	for _, k := range limiter.Kinds() {
		names = append(names, k.String())
	}
	return names
}

// maxWindowRows bounds the windows the page's table lists: past it, the markup would hold the
// thread for long; the chart and table -format json have every window.
const maxWindowRows = 1000

// renderOverload is the overload view, filled in as the runs come in: the shown case's headline
// first, then every case side by side, then the shown case window by window.
func (h *herdView) renderOverload(params calc.Params) app.UI {
	return app.Div().ID("overload-view").Body(
		app.Raw(h.overloadHeadline(params)),
		app.Raw(errorRateHTML(params)),
		app.Raw(collapseHTML(params)),
		app.Raw(overloadTable(params, h.cases, h.over)),
		app.Raw(overloadPickHTML(params, h.cases, h.shownCase(params), h.shared)),
		app.Raw(h.overloadWindows(params)),
	)
}

// overloadHeadline is the markup of the shown case's headline (calc's HeadlineWords) once its
// run is in; before, that it is being computed.
func (h *herdView) overloadHeadline(params calc.Params) string {
	shown := h.shownCase(params)
	name := report.CaseName(params, shown)
	if shown == params.OwnCase() {
		name += ", the policy's own"
	}
	words := "being computed."
	for i, c := range h.cases {
		if c == shown && i < len(h.over) {
			words = h.over[i].HeadlineWords(params.StreamEnd())
		}
	}
	return `<p id="overload-headline"><strong>` + html.EscapeString(name) + `:</strong> ` + html.EscapeString(words) + `</p>`
}

// renderOverloadRules is what the overload view models, one step away under its headline and
// runs: the model in words, the stream's load if every attempt failed, and each limiter's rule.
// It is outside the island, which rewrites itself as runs come in: it stays open once opened.
func renderOverloadRules(params calc.Params) app.UI {
	summary, facts := "The model, the load if every attempt failed, and each limiter's rule", app.UI(nil)
	if params.Breaker != breaker.None {
		summary, facts = "The model, the load if every attempt failed, each limiter's rule and the circuit breaker's", breakerFactsUI(params)
	}
	return app.Details().ID("overload-rules").Body(
		app.Summary().Text(summary),
		app.P().Text(report.OverloadModelWords(params)),
		app.P().ID("overload-load").Text(sim.FailingLoadWords(params)),
		app.P().Text("Under total failure, what each limiter's rule bounds that to (from its parameters, not the simulation), and where the rule is read from:"),
		app.Ul().ID("overload-limiters").Body(app.Range(params.Shown()).Slice(func(i int) app.UI {
			k := params.Shown()[i]
			return app.Li().DataSet("limiter", k.String()).Body(
				app.Text(sim.LimiterBoundWords(params, k)+" "),
				app.Span().Class("source").Text(report.SourceWords(k)),
			)
		})),
		facts,
	)
}

// breakerFactsUI is what params' breaker answers from its inputs alone (calc's BreakerFacts): its
// rule and source, the answers in words, and their numbers one per row, narrow enough for a phone.
func breakerFactsUI(params calc.Params) app.UI {
	f := sim.BreakerFactsOf(params)
	cells := report.BreakerFactsCells(params, f)
	return app.Div().ID("overload-breaker").Body(
		app.P().ID("breaker-rule").Body(
			app.Text(report.BreakerIntro(f)+" "),
			app.Span().Class("source").Text(report.BreakerSourceWords(f)),
		),
		app.P().ID("breaker-facts").Text(f.Words),
		app.Div().Class("scroll").TabIndex(0).Attr("role", "region").Aria("label", "The breaker's answers from the inputs alone").Body(
			app.Table().ID("breaker-facts-table").Body(
				app.Caption().Text("From the inputs alone, not the simulation"),
				app.TBody().Body(app.Range(cells).Slice(func(i int) app.UI {
					return app.Tr().DataSet("col", report.BreakerFactsColumns[i][0]).Body(
						app.Th().Scope("row").Text(report.BreakerFactsColumns[i][1]),
						app.Td().DataSet("value", cells[i][0]).Text(cells[i][1]),
					)
				})),
			),
		),
	)
}

// errorRateHTML is the closed form of the error rate (calc's ErrorRate, in report's words and
// cells): what the policy alone makes of it, and what each shown limiter's rule bounds the
// retries to; "" without an error rate.
func errorRateHTML(params calc.Params) string {
	words := report.ErrorRateWords(params)
	if words == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<div id="error-rate"><p id="error-rate-words">` + html.EscapeString(words) + `</p><div class="scroll" tabindex="0" role="region" aria-label="The error rate's closed form, by limiter"><table id="error-rate-table"><caption>` + html.EscapeString(report.ErrorRateCaption) + `</caption><thead><tr>`)
	for _, c := range report.ErrorRateColumns {
		b.WriteString(`<th scope="col">` + html.EscapeString(c[1]) + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for _, eb := range sim.ErrorRateOf(params).Limiters {
		cells := report.ErrorRateCells(eb, params.HasStream())
		fmt.Fprintf(&b, `<tr data-limiter="%s"><th scope="row">%s</th>`, eb.Limiter, eb.Limiter)
		for j, cell := range cells[1:] {
			fmt.Fprintf(&b, `<td data-col="%s" data-value="%s">%s</td>`, report.ErrorRateColumns[j+1][0], cell[0], html.EscapeString(cell[1]))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div></div>`)
	return b.String()
}

// collapseHTML is the closed form of the load-dependent latency (calc's Collapse, in report's
// words), with what the model leaves out; "" without latency or slope.
func collapseHTML(params calc.Params) string {
	words := report.CollapseWords(params)
	if words == "" {
		return ""
	}
	c := params.Collapse()
	steady, threshold := "none", "none"
	if c.Bounded {
		steady = policy.Human(c.Steady * 1e9)
	}
	if c.HasThreshold {
		threshold = report.Short(c.Threshold)
	}
	return `<div id="collapse"><p id="collapse-words">` + html.EscapeString(words) + `</p>` +
		fmt.Sprintf(`<p class="hint">From the inputs alone, not the simulation: steady time in service <span id="collapse-steady" data-value="%s">%s</span>; within the timeout up to <span id="collapse-threshold" data-value="%s">%s</span> requests per second.</p></div>`,
			report.Float(c.Steady), html.EscapeString(steady), report.Float(c.Threshold), html.EscapeString(threshold))
}

// shownCase is the case shown window by window: the one the reader picked, while it is among
// the cases, else the policy's own.
func (h *herdView) shownCase(params calc.Params) calc.OverloadCase {
	if h.picked != nil && slices.Contains(h.cases, *h.picked) {
		return *h.picked
	}
	return params.OwnCase()
}

// overloadPickHTML is the choice of what the window by window chart and table show: which case,
// and on which scale. Its controls sit in the herd's island, which has no handlers: their
// changes come up to the herd section's wrapper (onOverloadPick). The option values are indexes into
// cases.
func overloadPickHTML(params calc.Params, cases []calc.OverloadCase, shown calc.OverloadCase, shared bool) string {
	var b strings.Builder
	b.WriteString(`<div id="overload-pick" class="field"><label for="overload-case">Case shown window by window</label><select id="overload-case">`)
	for i, c := range cases {
		selected := ""
		if c == shown {
			selected = ` selected=""`
		}
		fmt.Fprintf(&b, `<option value="%d"%s>%s</option>`, i, selected, report.CaseName(params, c))
	}
	checked := ""
	if shared {
		checked = ` checked=""`
	}
	b.WriteString(`</select><label><input type="checkbox" id="overload-same-scale"` + checked + `> Same scale for every case</label></div>`)
	return b.String()
}

// overloadWindows is the markup of what the reader chose to see window by window, as far as the
// runs are in: an empty spot until the chosen case's run is.
func (h *herdView) overloadWindows(params calc.Params) string {
	shown := h.shownCase(params)
	for i, c := range h.cases {
		if c == shown && i < len(h.over) {
			if h.shared {
				return overloadWindowsHTML(params, h.over[i], h.over, len(h.cases))
			}
			return overloadWindowsHTML(params, h.over[i], nil, 0)
		}
	}
	return `<div id="overload-windows"></div>`
}

// onOverloadPick takes a change of overloadPickHTML's controls: another case, or the scale.
func (s *herdSection) onOverloadPick(ctx app.Context, e app.Event) {
	switch target := e.Get("target"); target.Get("id").String() {
	case "overload-case":
		s.pickOverloadCase(target.Get("value").String())
	case "overload-same-scale":
		s.shareOverloadScale(target.Get("checked").Bool())
	}
}

// pickOverloadCase shows the case at index i (as the select's value) window by window. A value
// that is no case's index changes nothing.
func (s *herdSection) pickOverloadCase(i string) {
	if k, err := strconv.Atoi(i); err == nil && k >= 0 && k < len(s.cases) {
		c := s.cases[k]
		s.picked = &c
		s.showOverloadWindows()
	}
}

// shareOverloadScale draws the chart on the scale shared by every case, or on the case's own.
func (s *herdSection) shareOverloadScale(shared bool) {
	s.shared = shared
	s.showOverloadWindows()
}

// showOverloadWindows redraws the window by window part alone: the runs are in s already,
// nothing is computed again but the markup. Elsewhere than the browser, the island is rendered.
func (s *herdSection) showOverloadWindows() {
	r := s.h.report()
	if r == nil || !r.Params.Open() {
		return
	}
	if app.IsClient && s.results.Mounted() {
		view := s.results.JSValue()
		spot, head := view.Call("querySelector", "#overload-windows"), view.Call("querySelector", "#overload-headline")
		if spot.Truthy() && head.Truthy() {
			spot.Set("outerHTML", s.overloadWindows(r.Params))
			head.Set("outerHTML", s.overloadHeadline(r.Params))
			return
		}
	}
	s.results.refresh()
}

// overloadTable writes the side by side table as markup, one row per run that is in, under its
// caption: which cases it has (params.OverloadCases' order).
func overloadTable(params calc.Params, cases []calc.OverloadCase, runs []sim.OverloadRun) string {
	var b strings.Builder
	brk := params.Breaker != breaker.None
	caption := fmt.Sprintf("Every mode with limiter %s, then %s with every other limiter", params.Limiter, calc.Backoff(params.Jitter))
	if brk {
		caption = fmt.Sprintf("Every mode with limiter %s and breaker %s, then %s with every other limiter, then with every other breaker", params.Limiter, params.Breaker, calc.Backoff(params.Jitter))
	}
	// What the runs answer, beside the closed forms above them, which answer other questions.
	caption = report.SimulationWords(params) + " " + caption
	b.WriteString(`<div id="overload-box" class="scroll" tabindex="0" role="region" aria-label="The overload runs, side by side"><table id="overload"><caption>` +
		html.EscapeString(caption) + `</caption><thead><tr><th scope="col" rowspan="2">mode</th><th scope="col" rowspan="2">limiter</th>`)
	if brk {
		b.WriteString(`<th scope="col" rowspan="2">breaker</th>`)
	}
	// The recovery first after the case, the runs' answer: in view on a phone before the table
	// scrolls. It is the last of report's columns.
	last := len(report.OverloadColumns) - 1
	b.WriteString(`<th scope="col" rowspan="2">` + report.OverloadColumns[last][1] + `</th>`)
	stream := params.HasStream()
	if stream {
		b.WriteString(`<th scope="col" rowspan="2">stream then</th>`)
	}
	var gaveUp strings.Builder
	for _, c := range report.OverloadColumns[:last] {
		switch c[0] {
		case "out_of_attempts":
			b.WriteString(`<th scope="colgroup" colspan="3">gave up</th>`)
			fallthrough
		case "refused", "out_of_budget":
			gaveUp.WriteString(`<th scope="col">` + c[1] + `</th>`)
		default:
			b.WriteString(`<th scope="col" rowspan="2">` + c[1] + `</th>`)
		}
	}
	slow := params.Slow()
	if slow {
		for _, c := range report.LatencyColumns {
			b.WriteString(`<th scope="col" rowspan="2">` + c[1] + `</th>`)
		}
	}
	if brk {
		fmt.Fprintf(&b, `<th scope="colgroup" colspan="%d">circuit breaker</th>`, len(report.BreakerColumns))
		for _, c := range report.BreakerColumns {
			gaveUp.WriteString(`<th scope="col">` + c[1] + `</th>`)
		}
	}
	b.WriteString(`</tr><tr>` + gaveUp.String() + `</tr></thead><tbody>`)
	for i, r := range runs {
		writeOverloadRow(&b, params, cases[i], r)
	}
	b.WriteString(`</tbody></table></div><p class="hint" id="overload-recovered-note">Wasted, of served: of the attempts the server served, the share served for a client that had stopped waiting; attempts that failed at once or with an error, or were refused, are not in it ("none served": it served none). Recovered at: the start of the first window, at or after the outage's end, from which every attempt was served at once until the last arrival; idle: no attempt arrived after the outage, so nothing kept the server from recovering when it ended.`)
	if stream {
		b.WriteString(` Stream then: whether new requests still arrived at that time (running) or no longer (ended).`)
	}
	if brk {
		b.WriteString(` Circuit breaker: attempts rejected failed at once without reaching the server; calls blocked are the requests whose call it rejected (at call placement), which gave up; probes are the calls let through half-open; time open is summed over the breakers.`)
	}
	b.WriteString(`</p>`)
	return b.String()
}

// writeOverloadRow writes run r of case c as a row of params' side by side table: first the
// recovery's time and the stream's state then, in two cells, each short enough for the table to
// fit. With latency or slope the run's most attempts in service and longest time follow; with a
// breaker, its breaker after the limiter and its figures last.
func writeOverloadRow(b *strings.Builder, params calc.Params, c calc.OverloadCase, r sim.OverloadRun) {
	brk := params.Breaker != breaker.None
	if brk {
		fmt.Fprintf(b, `<tr data-mode="%s" data-limiter="%s" data-breaker="%s"><th scope="row">%s</th><td data-col="limiter">%s</td><td data-col="breaker">%s</td>`,
			c.Mode, c.Limiter, c.Breaker, c.Mode, c.Limiter, c.Breaker)
	} else {
		fmt.Fprintf(b, `<tr data-mode="%s" data-limiter="%s"><th scope="row">%s</th><td data-col="limiter">%s</td>`, c.Mode, c.Limiter, c.Mode, c.Limiter)
	}
	cells := report.OverloadCells(r, params.StreamEnd())
	_, at, when := report.RecoveredWords(r, params.StreamEnd())
	last := len(cells) - 1 // the recovery, first (overloadTable)
	fmt.Fprintf(b, `<td data-col="%s" data-value="%s">%s</td>`, report.OverloadColumns[last][0], cells[last][0], html.EscapeString(at))
	if params.HasStream() {
		if when == "" {
			when = "–"
		}
		fmt.Fprintf(b, `<td data-col="recovered_when">%s</td>`, html.EscapeString(when))
	}
	for j, cell := range cells[:last] {
		fmt.Fprintf(b, `<td data-col="%s" data-value="%s">%s</td>`, report.OverloadColumns[j][0], cell[0], html.EscapeString(cell[1]))
	}
	if params.Slow() {
		for j, cell := range report.LatencyCells(r) {
			fmt.Fprintf(b, `<td data-col="%s" data-value="%s">%s</td>`, report.LatencyColumns[j][0], cell[0], html.EscapeString(cell[1]))
		}
	}
	if brk {
		for j, cell := range report.BreakerCells(r) {
			fmt.Fprintf(b, `<td data-col="%s" data-value="%s">%s</td>`, report.BreakerColumns[j][0], cell[0], html.EscapeString(cell[1]))
		}
	}
	b.WriteString(`</tr>`)
}

// overloadWindowsHTML is run r window by window: a chart of each series on one scale, then the
// same numbers in a table. The scale is r's own, or with shared (the runs in so far of total
// cases), the one for every run of shared.
func overloadWindowsHTML(params calc.Params, r sim.OverloadRun, shared []sim.OverloadRun, total int) string {
	name := report.CaseName(params, calc.OverloadCase{Mode: r.Mode, Limiter: r.Limiter, Breaker: r.Breaker})
	var b strings.Builder
	b.WriteString(`<div id="overload-windows">`)
	timeAxis, countAxis := sim.OverloadAxes(params, r)
	scale := "all on this case's own scale"
	if shared != nil {
		timeAxis, countAxis = sim.OverloadSharedAxes(params, shared)
		scale = "all on the scale shared by every case"
		if len(shared) < total {
			scale = fmt.Sprintf("all on the scale shared by the %d of %d cases computed so far", len(shared), total)
		}
	}
	writeOverloadChart(&b, params, r, name, timeAxis, countAxis, scale)
	rows := min(len(r.Windows), maxWindowRows)
	label := "Every window of " + name
	if rows < len(r.Windows) {
		label = fmt.Sprintf("The first %d of %d windows of %s", rows, len(r.Windows), name)
	}
	b.WriteString(`<div id="overload-windows-box" class="scroll" tabindex="0" role="region" aria-label="` + html.EscapeString(label) + `"><table id="overload-windows-table"><caption>` + html.EscapeString(label) + `</caption><thead><tr><th scope="col">window from</th>`)
	for _, s := range report.WindowSeries {
		b.WriteString(`<th scope="col">` + s[1] + `</th>`)
	}
	slow, brk := params.Slow(), params.Breaker != breaker.None
	if slow {
		for _, s := range report.LatencySeries {
			b.WriteString(`<th scope="col">` + s[1] + `</th>`)
		}
	}
	if brk {
		for _, s := range report.BreakerSeries {
			b.WriteString(`<th scope="col">` + s[1] + `</th>`)
		}
	}
	b.WriteString(`</tr></thead><tbody>`)
	labels := report.WindowLabels(params, rows)
	for k, w := range r.Windows[:rows] {
		start := params.WindowStart(k)
		fmt.Fprintf(&b, `<tr data-window="%d"><th scope="row" data-ms="%s">%s</th>`, k, policy.Millis(start), html.EscapeString(labels[k]))
		for i, n := range w.Counts() {
			fmt.Fprintf(&b, `<td data-col="%s">%d</td>`, report.WindowSeries[i][0], n)
		}
		if slow {
			for i, cell := range report.LatencyWindowCells(w) {
				fmt.Fprintf(&b, `<td data-col="%s" data-value="%s">%s</td>`, report.LatencySeries[i][0], cell[0], html.EscapeString(cell[1]))
			}
		}
		if brk {
			for i, n := range report.BreakerWindowCounts(w) {
				fmt.Fprintf(&b, `<td data-col="%s">%d</td>`, report.BreakerSeries[i][0], n)
			}
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div></div>`)
	return b.String()
}

// Layout of the overload chart, in SVG user units: one strip per series, on shared axes.
const (
	stripHeight = 40.0
	stripGap    = 22.0
)

// writeOverloadChart draws each series of r as a strip of its own, named in text above it, all
// on the given axes (sim.OverloadAxes or OverloadSharedAxes, which scale says in words), with
// the end of the outage marked. Colour tells nothing apart here: each strip says what it is.
func writeOverloadChart(b *strings.Builder, params calc.Params, r sim.OverloadRun, name string, timeAxis policy.Axis, countAxis policy.CountAxis, scale string) {
	x := func(k int) float64 { return arrivalsLeft + timeAxis.X(params.WindowStart(k), arrivalsWidth) }
	bottom := stripGap + float64(len(report.WindowSeries))*(stripHeight+stripGap)
	outage := f1(arrivalsLeft + timeAxis.X(params.Outage, arrivalsWidth))
	b.WriteString(`<figure id="overload-chart">`)
	chartBoxOpen(b, "Chart of "+name+", window by window")
	fmt.Fprintf(b, `<svg viewBox="0 0 %v %s" role="img" aria-labelledby="overload-chart-caption"><g>`, chartViewWidth, f1(bottom+26))
	for i, s := range report.WindowSeries {
		top := stripGap + float64(i)*(stripHeight+stripGap)
		y := func(n int) string { return f1(top + stripHeight - countAxis.Y(n, stripHeight)) }
		var d strings.Builder
		d.WriteString("M" + f1(x(0)) + " " + y(0))
		last := -1
		for k, w := range r.Windows {
			if n := w.Counts()[i]; n != last {
				d.WriteString("H" + f1(x(k)) + "V" + y(n))
				last = n
			}
		}
		d.WriteString("H" + f1(x(len(r.Windows))) + "V" + y(0) + "Z")
		fmt.Fprintf(b, `<text x="%v" y="%s">%s per %s window</text>`, arrivalsLeft, f1(top-6), s[1], html.EscapeString(policy.Human(float64(params.Window))))
		fmt.Fprintf(b, `<line x1="%v" x2="%v" y1="%s" y2="%s"></line>`, arrivalsLeft, arrivalsLeft+arrivalsWidth, y(0), y(0))
		fmt.Fprintf(b, `<path data-series="overload" data-name="%s" d="%s"></path>`, s[0], d.String())
		fmt.Fprintf(b, `<text x="%v" y="%s" text-anchor="end">%d</text><text x="%v" y="%s" text-anchor="end">0</text>`,
			arrivalsLeft-6, f1(top+4), countAxis.End, arrivalsLeft-6, y(0))
		// The outage's end, within the strip only: across the gaps it would cross the titles.
		fmt.Fprintf(b, `<line data-series="outage" x1="%s" x2="%s" y1="%s" y2="%s"></line>`, outage, outage, f1(top), y(0))
	}
	b.WriteString(`</g><g>`)
	for _, t := range timeAxis.Ticks {
		tx := f1(arrivalsLeft + timeAxis.X(t, arrivalsWidth))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, tx, f1(bottom), html.EscapeString(policy.Human(float64(t))))
	}
	fmt.Fprintf(b, `</g><text x="%v" y="%s">time since the start</text></svg></div>`, arrivalsLeft, f1(bottom+21))
	fmt.Fprintf(b, `<figcaption id="overload-chart-caption">%s, window by window: one strip per series, each named above it, <span id="overload-scale" data-end="%d">%s, from 0 to %d per window and 0 to %s</span>; the table below has the same numbers. <span class="key key-p50">vertical line</span>: the outage ends (%s).</figcaption></figure>`,
		html.EscapeString(name), countAxis.End, html.EscapeString(scale), countAxis.End, html.EscapeString(policy.Human(float64(timeAxis.End))), html.EscapeString(policy.Human(float64(params.Outage))))
}
