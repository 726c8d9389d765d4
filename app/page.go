package main

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// page is the calculator: it owns the inputs (as typed), decodes them with calc, and shows the
// report of the last valid inputs. The sections are components that keep their own state
// (part.go), fed from here; the form and the first screen are the page's own render functions.
type page struct {
	app.Compo
	self app.Context // the page's own context, from OnMount: see own

	raw      url.Values // each key's input as typed, one value each
	errs     []*policy.FieldError
	report   *calc.Report   // of the last valid inputs; nil before the first
	loaded   string         // the link's query as loaded: a repeated load is skipped, guard.js compares it
	query    string         // the query the address shows, or will once queryDue is done (queryText): canonical, sorted
	status   string         // what the last copy did
	export   string         // the text last copied, shown for copying by hand
	copies   int            // copies asked for: a copy's status, box and clipboard are the last's
	guard    string         // URL of guard.js, resolved under the site's prefix
	update   bool           // a newer version of the page is installed and waits (see OnAppUpdate)
	moreOpen bool           // the group of inputs one step away is open (renderForm)
	fit      fitView        // what fits in the budget (fit.go)
	imp      *importControl // the Import control, the form's (import.go)

	parts []part // the sections' components, by sections' index (part.go)

	// presetSet is what the last preset chosen set that its library does not say, changing an
	// input (presetDefaults), shown while the inputs are still that preset's.
	presetSet []string

	lib        string // the library the export panel shows (libs.ExportKey)
	copiedFrom string // the id of the part whose button made the last copy, which shows status

	// The parts that only show numbers, written whole and replaced at once (see island).
	summary, results, chart *island
	queryDue                bool // the address bar does not show query yet
	// queryLink is the link, with the fit's answers queryOpen, whose query query becomes when
	// it is first read (queryText); nil when query is written.
	queryLink *libs.Link
	queryOpen calc.SolveSet

	kept       bool // the first render shows the server's sampled numbers (keepServerNumbers)
	inInput    bool // refreshInInput is showing an input's numbers
	prewritten bool // prewrite wrote the first screen into HTML made for another query
	rest       bool // the sections after the schedule are rendered (see later)

	keptSections []string     // by sections' index, the server's markup of a section that later shows until rest
	workGen      atomic.Int64 // the current work off the input path; a newer report stops older work
	workDone     atomic.Int64 // the last workGen that finished, for tests

	vsReport *calc.Report // policy B's schedule, beside report's (bounds, not sampled: Compare needs no more); nil without B

	unknown []*policy.FieldError // the link's keys that no input reads, named until a valid edit replaces the link

	edited map[string]bool // the inputs the person edited since the link was loaded (shownFields)
	typing typingState     // an edit in progress in a text field (typing.go)
}

func newPage() *page {
	p := &page{rest: !app.IsClient}
	p.summary = p.reportIsland("summary", renderSummary)
	p.results = p.reportIsland("tables", renderTables)
	p.chart = p.reportIsland("chart-numbers", renderChart).waitsOffScreen() // under the table
	p.fit = newFitView(p)
	p.parts, p.imp = p.newParts()
	return p
}

// reportIsland is an island of the report's numbers, which content writes; empty before the
// first valid inputs.
func (p *page) reportIsland(id string, content func(r calc.Report) app.UI) *island {
	return newIsland(id, p.guarded(func() app.UI {
		if p.report == nil {
			return app.Text("")
		}
		return content(*p.report)
	})).patched()
}

// refresh shows the report's numbers now. What follows the paint (the export panel, long and
// below the table: onInputs) is marked as being updated, as is the herd (startWork).
func (p *page) refresh() {
	p.showReport()
	eachPart(p, func(c inputser) { c.onInputs() })
}

// refreshInInput is refresh in an input's task: what is off the screen waits for the paint
// (catchUp).
func (p *page) refreshInInput() {
	p.inInput = true
	defer func() { p.inInput = false }()
	p.refresh()
}

// catchUp shows what refreshInInput left for after the paint.
func (p *page) catchUp() {
	p.chart.catchUp()
	eachPart(p, func(c catcher) { c.catchUp() })
}

// showReport shows the report's numbers now: the policy in words and every table.
func (p *page) showReport() {
	for i, s := range sections {
		if s.onReport != nil {
			s.onReport(p)
		}
		if c, ok := p.parts[i].(reporter); ok {
			c.onReport()
		}
	}
}

// OnInit reads the link before the first render in the browser, so that no frame shows numbers
// for other inputs than the link's.
func (p *page) OnInit() {
	if app.IsClient {
		p.load(app.Window().URL().RawQuery)
		p.imp.takeOver()
		// What was typed into the server's page, before it is replaced; else its numbers stay.
		if p.kept = !p.takeOver() && p.keepServerNumbers(); !p.kept && p.sampleSmall() {
			// The schedule's percentiles are part of the first screen's answer; the other
			// modes' samples follow the paint (startWork).
			p.report.AddPolicySample(nil)
		}
	}
}

// sampleSmall reports whether sampling is quick enough to do in place, as the server's
// pre-render does.
func (p *page) sampleSmall() bool {
	return p.report != nil && p.report.Params.Attempts*p.report.Params.Samples <= samplePreRenderWork
}

// OnPreRender reads the link on the server: its HTML carries the link's own numbers.
func (p *page) OnPreRender(ctx app.Context) {
	p.guard = ctx.ResolveStaticResource("/web/guard.js")
	p.load(ctx.Page().URL().RawQuery)
	if p.report == nil {
		return
	}
	// The server's HTML carries the sampled numbers too, unless that would hold up the answer:
	// then the browser samples.
	if p.sampleSmall() {
		p.report.AddSamples(nil)
	}
	if params := p.report.Params; herdRequests(params)*float64(params.Attempts) <= herdPreRenderWork {
		partOf[*herdSection](p).runHerdNow(params)
	}
}

// OnMount starts the sampling and the herd of the loaded inputs, off the first render.
func (p *page) OnMount(ctx app.Context) {
	p.self = ctx
	guardNav() // go-app has set goappNav by now
	p.keepTypedLink()
	restoreFocus() // the first render replaced the server's page, and its focus with it
	// A newer version installed before the wasm started (app.js): go-app did not see it.
	p.update = app.IsClient && app.Window().Get("backoffcalcUpdateReady").Truthy()
	p.knowEngine(ctx)
	p.startWork(ctx)
	if p.report == nil {
		p.showRest(ctx) // no work follows the paint to do it
	}
}

// OnNav covers navigations after the first load (and the component tests' Nav).
func (p *page) OnNav(ctx app.Context) {
	if p.load(ctx.Page().URL().RawQuery) {
		p.refresh()
		p.startWork(ctx)
	}
}

// load takes inputs from a link. Bad keys are reported and the table shows the defaults in
// their place; a bad link itself is left as it is until the user makes a valid change. It
// reports whether the inputs changed.
func (p *page) load(query string) bool {
	if p.raw != nil && (query == p.loaded || query == p.queryText()) {
		return false
	}
	p.loaded, p.edited = query, nil
	p.setQuery(query)
	link, err := libs.DecodeLink(query)
	params := link.Params
	p.raw, p.lib = link.Values(), link.Export
	open, _ := calc.DecodeSolve(query) // a bad one is among err's
	open.SetIn(p.raw)
	p.errs, p.unknown = policy.FieldErrors(err), nil
	for _, fe := range p.errs {
		switch {
		case calc.IsUnknownKey(fe) && !ofB(fe): // B's are the vs input's, named while B's query holds them
			p.unknown = append(p.unknown, fe) // no input shows it: an edit's link leaves it out
		case slices.Contains(inputKeys, fe.Key): // not B's own keys (vs.base), which are in vs
			p.raw.Set(fe.Key, fe.Value) // the field shows the bad value, with its message
		}
	}
	if len(p.errs) == 0 {
		// A valid link is rewritten canonical (calc.Params.Values: every key of the models it uses),
		// sorted, after the paint (startWork), so that it no longer depends on today's defaults. A bad one stays as it is, for its author.
		if canonical := linkQuery(link, open); canonical != query {
			p.setQuery(canonical)
			p.queryDue = true
		}
	}
	if p.compute(params) {
		p.fit.open = open
	}
	p.setCompare(link)
	return true
}

// linkQuery is link's canonical query with the answers the page shows opened, its solve key.
func linkQuery(link libs.Link, open calc.SolveSet) string {
	v := link.Values()
	open.SetIn(v)
	return v.Encode()
}

// queryText is the query the address shows, or will once queryDue is done.
func (p *page) queryText() string {
	if p.queryLink != nil {
		p.query, p.queryLink = linkQuery(*p.queryLink, p.queryOpen), nil
	}
	return p.query
}

// setQuery makes q the query the address shows, or will.
func (p *page) setQuery(q string) { p.query, p.queryLink = q, nil }

// edit takes one typed value; a valid set of inputs replaces the report and the link's query,
// and edit reports that it did.
func (p *page) edit(ctx app.Context, key, value string) bool {
	p.settle(ctx) // typing in progress ends first, as leaving its field does
	p.markEdited(key)
	if !p.apply(key, value) {
		return false
	}
	p.startWork(ctx)
	return true
}

// apply is edit without the work that follows the paint: the hand-over (handover.go) applies
// what was typed before the wasm ran, before there is any.
func (p *page) apply(key, value string) bool {
	p.raw.Set(key, value)
	link, err := libs.DecodeLinkValues(p.raw)
	params := link.Params
	if !p.formErrors(err) {
		return false // keep the last valid report on screen
	}
	if params.Preset == "" {
		p.raw.Del("preset") // an edit that changes the policy leaves the preset
	}
	if p.compute(params) {
		p.fit.open, _ = calc.DecodeSolveValues(p.raw) // valid, as every key is
		if params.Attempts*params.Samples <= sampleInHandlerWork {
			p.report.AddPolicySample(nil)
		}
		p.lib = link.Export
		p.setCompare(link)
		p.refreshInInput()
		// Its text is written when first read: encoding some 25 keys was a tenth of a
		// keystroke's handler in wasm, and only leaving the page or the typing's pause read it.
		p.queryLink, p.queryOpen, p.queryDue = &link, p.fit.open, true
		return true
	}
	return false
}

// formErrors shows the errors of the form's inputs, err as DecodeLinkValues returns it, and
// reports whether there are none. The link's unknown keys are named with them while the link
// stays as it is; a valid form replaces the link, without them, and their messages go too.
func (p *page) formErrors(err error) bool {
	p.errs = policy.FieldErrors(err)
	if len(p.errs) > 0 {
		p.errs = append(p.errs, p.unknown...)
		return false
	}
	p.unknown = nil
	return true
}

// choosePreset sets every input to a library's preset, or, for "", just leaves the preset.
func (p *page) choosePreset(ctx app.Context, name string) {
	if p.applyPreset(name) {
		p.startWork(ctx)
	}
}

// applyPreset is choosePreset without the work that follows the paint (see apply).
func (p *page) applyPreset(name string) bool {
	pr, ok := libs.PresetByName(name)
	if !ok {
		p.raw.Del("preset")
		if p.fieldError("preset") != nil {
			// A bad preset's message goes with it: the inputs are read again without it.
			return p.apply("base", p.value("base"))
		}
		return false
	}
	params := calc.Default()
	if p.report != nil {
		params = p.report.Params
	}
	next := params.WithPreset(pr.Named())
	values, was, all := next.Values(), params.AllValues(), next.AllValues()
	for key, v := range values {
		p.raw[key] = v
	}
	// A key that a link leaves out at its default (offset) and that the preset sets back to it
	// goes, or the previous preset's value would stay on top of this one.
	for key := range all {
		if !values.Has(key) && all.Get(key) != was.Get(key) {
			p.raw.Del(key)
		}
	}
	// The export panel shows the preset's own library, or for a preset without one the default,
	// as a link to the preset does: not the library of the preset before it.
	p.raw.Set(libs.ExportKey, libs.DefaultExport(next))
	if !p.apply("preset", pr.Name) {
		return false
	}
	p.presetSet = presetDefaults(was, next)
	return true
}

// presetDefaults lists what a preset, next, set that its library does not say, where that
// changed an input the page had, was, as an import lists them: the budget of a library without
// a time limit on its retries (a person's deadline went silently), and the ratio or factor its
// jitter does not read but the modes table's other rows do.
func presetDefaults(was url.Values, next calc.Params) []string {
	all := next.AllValues()
	var out []string
	say := func(key, why string) {
		if all.Get(key) != was.Get(key) {
			out = append(out, key+"="+all.Get(key)+" (was "+was.Get(key)+"): "+why)
		}
	}
	if next.Budget == 0 {
		say("budget", "the preset sets no time limit on the retries")
	}
	keys, whys := next.ForOtherModes()
	for i, k := range keys {
		say(k, whys[i])
	}
	return out
}

// compute replaces the report. A panic here would kill the wasm and the page with it, so it
// becomes an error shown for these inputs and the page keeps working.
func (p *page) compute(params calc.Params) (ok bool) {
	defer p.survive(&params, func(fe *policy.FieldError) {
		p.addError(fe)
		ok = false
	})
	r := computeReport(params)
	p.report = &r
	return true
}

// computeReport is a variable so that a test can force a panic.
var computeReport = func(params calc.Params) calc.Report { return params.ReportBounds() }

func (p *page) fieldError(key string) *policy.FieldError {
	for _, fe := range p.errs {
		if fe.Key == key {
			return fe
		}
	}
	return nil
}

func (p *page) Render() app.UI {
	render := "server"
	if app.IsClient {
		render = "wasm"
	}
	var guard, noscript app.UI = app.Text(""), app.Text("")
	if app.IsServer {
		// Shown only with JavaScript off (web/noscript.css), when the server's numbers are all
		// there is; the static site's are for the default inputs, whatever the link.
		noscript = app.Div().Class("noscript").Body(
			app.P().Class("noscript-serve").Text("JavaScript is off in this browser: the numbers below were computed by the server for this link, and the inputs cannot change them."),
			app.P().Class("noscript-static").Text("JavaScript is off in this browser: this calculator computes in the page, so it needs JavaScript to show the numbers of this link."),
		)
		// The HTML a static host or the service worker returns was rendered for another query;
		// guard.js hides its numbers when the link's query is not the one they were made for.
		search := ""
		if p.loaded != "" {
			search = "?" + p.loaded
		}
		guard = app.Script().Src(p.guard).DataSet("for", attrText(search))
	}
	main := app.Main().ID("app").DataSet("render", render)
	if app.IsClient && build != "" {
		main = main.DataSet("build", build)
	}
	return main.Body(
		guard,
		noscript,
		app.A().Class("skip").Href("#results").Text("Skip to the results").OnClick(p.focusTarget("results")),
		app.Header().Body(
			app.H1().Text("backoffcalc"),
			app.P().Class("tagline").Text("How long a retry policy waits, attempt by attempt, for every jitter mode. Computed in this page; nothing leaves it."),
			p.renderUpdate(),
		),
		app.P().Class("loading").Text("Computing the table for this link…"),
		app.Div().Class("layout").Body(
			app.Div().ID("controls").Body(p.renderForm()),
			p.renderResults(),
		),
		app.Footer().Body(
			app.P().Text("Attempt n is the n-th call; retry k is attempt k+1. Times are from the start of the first call. Every number is computed by the calculator's Go code, in this page."),
		),
	)
}

func (p *page) renderErrors() app.UI {
	if len(p.errs) == 0 {
		return app.Div().ID("errors").Role("alert")
	}
	intro := "Some inputs are not valid; the results below are for the last valid inputs:"
	if len(p.unknown) == len(p.errs) {
		intro = "This link has keys that no input reads; the results below leave them out:"
	}
	return app.Div().ID("errors").Role("alert").Body(
		app.P().Text(intro),
		app.Ul().Body(app.Range(p.errs).Slice(func(i int) app.UI {
			fe := p.errs[i]
			return app.Li().DataSet("key", attrText(fe.Key)).Text(fieldMessage(fe)) // an unknown key is the link's text
		})),
	)
}

// renderResults is the answer: the table of contents and the copy buttons, then one section per
// idea. Its structure is the same whatever the inputs: go-app matches children by position, and
// the islands must keep theirs.
func (p *page) renderResults() app.UI {
	class := "results"
	if len(p.errs) > len(p.unknown) { // results that leave out unknown keys are still the fields'
		class += " stale"
	}
	body := []app.UI{
		p.renderErrors(),
		app.Div().Class("bar").Body(
			app.Nav().ID("toc").Aria("label", "Sections").Body(app.Ul().Body(app.Range(sections).Slice(func(i int) app.UI {
				s := p.shown(i)
				return app.Li().Body(app.A().Href("#" + s.id).Text(s.toc).OnClick(p.focusTarget(s.id + "-h")))
			}))),
			p.renderExport(),
		),
	}
	for i := range sections {
		body = append(body, p.renderSection(i))
	}
	return app.Div().ID("results").Class(class).TabIndex(-1).Aria("label", "Results").Body(body...)
}

// renderScheduleSection is the first screen's section: the answer for these inputs.
func (p *page) renderScheduleSection() []app.UI {
	return []app.UI{
		app.Div().Body(app.If(len(p.errs) > len(p.unknown), app.P().ID("stale-note").Class("stale-note").Text(p.staleNote()))),
		p.results,
		p.renderFit(),
		p.summary,
		p.chart,
	}
}

// staleNote says which values the results were computed from, for each marked input: the
// report's own, as the link writes them (durations with their unit), since the fields show what
// was typed. B's keys (vs.KEY) are the compare section's to say.
func (p *page) staleNote() string {
	if p.report == nil {
		return "There are no results yet: no inputs were valid."
	}
	used := p.report.Params.AllValues() // a key the link leaves out at its default is still used
	p.fit.open.SetIn(used)
	used.Set(libs.ExportKey, p.lib)
	usedText := func(key string) string {
		if v := used.Get(key); v != "" {
			return key + " " + v
		}
		return key + " none" // an optional key at its default: no preset, solve's empty set
	}
	var parts, others []string
	marked := map[string]bool{}
	for _, fe := range p.errs {
		if calc.IsUnknownKey(fe) || fe.Key == libs.VsKey || !slices.Contains(inputKeys, fe.Key) {
			continue
		}
		marked[fe.Key] = true
		parts = append(parts, usedText(fe.Key))
	}
	// A valid value typed beside an invalid one is in its field but not in the results: they
	// said only the marked field's value, beside a field showing 3 attempts over a table of 6.
	for _, key := range inputKeys {
		if key != libs.VsKey && !marked[key] && !p.showsUsed(key, used) {
			others = append(others, usedText(key))
		}
	}
	switch {
	case len(parts) == 0 && len(others) == 0:
		return "These results belong to the last valid inputs, not to the marked fields."
	case len(others) == 0:
		return "These results use " + strings.Join(slices.Compact(parts), ", ") + " in place of the marked values."
	case len(parts) == 0:
		return "These results use " + strings.Join(others, ", ") + " in place of what the fields show."
	}
	return "These results use " + strings.Join(slices.Compact(parts), ", ") + " in place of the marked values, and " +
		strings.Join(others, ", ") + " in place of what the other fields show."
}

// showsUsed reports whether the field of key shows the value the results used (used, as
// staleNote has them): the same text, or other words for the same inputs (0.25s for 250ms).
func (p *page) showsUsed(key string, used url.Values) bool {
	shown := p.value(key)
	if shown == used.Get(key) {
		return true
	}
	if key == libs.ExportKey || !slices.Contains(calc.Keys(), key) && key != "preset" {
		return false // a choice of the page's (the export, the fit's answers): its text is its value
	}
	trial := maps.Clone(used)
	trial.Set(key, shown)
	link, err := libs.DecodeLinkValues(trial)
	return err == nil && link.Params == p.report.Params
}

// inputKeys are the keys that an input of the page shows.
var inputKeys = append(calc.Keys(), "preset", libs.ExportKey, libs.VsKey)

// focusTarget moves the keyboard's focus to the element a skip link or the table of contents
// points to: go-app takes over in-page links and only scrolls to them, which would leave the
// next Tab where it was. Its section is then held in view while the sections above it fill in
// (pinFragment), as a link's fragment's is.
func (p *page) focusTarget(id string) app.EventHandler {
	return p.recovering(func(ctx app.Context, e app.Event) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus", map[string]any{"preventScroll": true})
			pinFragment(id)
		}
	})
}

// scrollBox holds a table wider or longer than the screen: it scrolls, never the page, and a
// keyboard can reach and scroll it.
func scrollBox(id, label string, table app.UI) app.UI {
	return app.Div().ID(id).Class("scroll").TabIndex(0).Role("region").Aria("label", label).Body(table)
}

// OnAppUpdate is go-app's call when the service worker has installed a newer version of the
// page, which waits until it is asked for (app.js) or the next visit.
func (p *page) OnAppUpdate(ctx app.Context) { p.update = true }

// renderUpdate offers the newer version, in words; switching reloads the page under it with the
// link's inputs. The element is always there, so that the page's children keep their places.
func (p *page) renderUpdate() app.UI {
	update := app.Div().ID("update").Role("status")
	if !p.update {
		return update
	}
	return update.Body(
		app.Text("A newer version of this calculator is ready. "),
		app.Button().ID("update-switch").Type("button").Text("Switch to it").OnClick(p.recovering(func(ctx app.Context, e app.Event) {
			app.Window().Call("backoffcalcSwitchVersion")
		})),
		app.Text(" (the page reloads with the inputs in its link)"),
	)
}

// fieldMessage is an error as the page shows it: the key, the value and what is wrong.
func fieldMessage(fe *policy.FieldError) string { return strings.TrimPrefix(fe.Error(), "calc: ") }

// own is the page's own context in place of ctx, an event's, for what outlives the event: go-app
// drops a Dispatch or a Defer whose source is no longer mounted, and the element whose event
// started an edit can go with the edit ("Remove B" goes with B): the herd's runs of that edit
// were then never shown, its status "Computing the herd: 0 of 6 modes done…" until the next one.
func (p *page) own(ctx app.Context) app.Context {
	if p.self != nil {
		return p.self
	}
	return ctx
}
