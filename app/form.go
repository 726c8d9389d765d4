package main

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// formField is one input of the form; its name is the query key.
type formField struct {
	key, label, unit, hint string
	options                []string // a select's choices; none for a text input
	inputMode              string   // the keyboard a phone shows: "numeric", "decimal", or "" for text
}

// formGroups are the form's fieldsets. The first is always shown: the inputs that set the
// answer of most policies. The others are one step away, in a group that opens by itself when
// one of them is set or wrong (moreOpen), in the order a person reaches for them: the policy's
// details, the herd, the overload, then what only some libraries do and the rest.
var formGroups = []struct {
	legend string
	fields []formField
}{
	{"Policy", []formField{
		{key: "base", label: "Base delay", unit: "ms, or 250ms, 1.5s, 2m", hint: "nominal wait before the first retry"},
		{key: "factor", label: "Factor", unit: "×, or a power", inputMode: "decimal", hint: "growth per retry (" + modeList(func(j policy.Jitter) bool { return !j.UsesFactor() }, policy.Jitter.String) + " ignore it)"},
		{key: "cap", label: "Cap", unit: "ms, or a duration", hint: "ceiling of the nominal delay, or of the drawn wait"},
		{key: "attempts", label: "Attempts", unit: "calls", inputMode: "numeric", hint: ""}, // hint from the schedule, see attemptsHint
		{key: "jitter", label: "Jitter", options: jitterOptions(), hint: modeList(libraryMode, policy.Jitter.String) + " are what " + modeList(libraryMode, policy.Jitter.Library) + " do"},
		{key: "budget", label: "Budget", unit: "ms, or a duration; 0 = none", hint: "an attempt is made only if it starts before this"},
	}},
	{"Policy details", []formField{
		{key: "ratio", label: "Ratio", unit: "± fraction", inputMode: "decimal", hint: modeList(policy.Jitter.UsesRatio, policy.Jitter.String) + " jitter: 0.2 is 20%"},
		{key: "capat", label: "Cap applies", options: []string{"before", "after", "fixed"}, hint: "before: cap the nominal delay; after: clamp the drawn wait; fixed: exactly cap, unjittered, once over it (" + fromPrevious + " always clamp the drawn wait)"},
		{key: "call", label: "Call duration", unit: "ms, or a duration", hint: "how long a failing attempt takes before its error is known"},
	}},
	{"Herd", herdFields},
	{overloadLegend, overloadFields},
	{"What some libraries do", []formField{
		{key: "growth", label: "Growth", options: []string{"exponential", "linear", "polynomial", "polynomial0"}, hint: "exponential: base × factor^(k−1); linear: base × k; polynomial: base × k^factor; polynomial0: base × (k−1)^factor (factor whole)"},
		{key: "first", label: "First retry", options: []string{"jittered", "exact"}, hint: "exact: the first retry waits exactly base (gRPC reconnects); " + fromPrevious + " jitter it"},
		{key: "add", label: "Added jitter", unit: "ms, or a duration", hint: modeList(policy.Jitter.UsesAdd, policy.Jitter.String) + " jitter only: waits in [d, d + this]"},
		{key: "offset", label: "Offset", unit: "ms, or a duration", hint: "added to every wait, after the draw and the cap (Sidekiq's 15 s); " + fromPrevious + " ignore it"},
	}},
	{"Contention", experimentFields},
	{"More", []formField{
		{key: "layers", label: "Layers", unit: "stacked", inputMode: "numeric", hint: "services in a chain, each retrying with this policy"},
		{key: "samples", label: "Samples", unit: "paths", inputMode: "numeric", hint: "simulated paths for the percentiles"},
		{key: "seed", label: "Seed", unit: "", inputMode: "numeric", hint: "the same seed gives the same percentiles"},
	}},
}

// fromPrevious names the jitter modes whose wait depends on the previous one.
var fromPrevious = modeList(policy.Jitter.FromPrevious, policy.Jitter.String)

func libraryMode(j policy.Jitter) bool { return j.Library() != "" }

// modeList writes name of each jitter mode for which has is true, in the form's order: "a, b
// and c". The hints take the modes a field applies to from calc's table of modes, so that a new
// mode needs no edit here.
func modeList(has func(policy.Jitter) bool, name func(policy.Jitter) string) string {
	var names []string
	for _, j := range policy.AllJitters() {
		if has(j) {
			names = append(names, name(j))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func jitterOptions() []string {
	var names []string
	for _, j := range policy.AllJitters() {
		names = append(names, j.String())
	}
	return names
}

// renderForm is the inputs: the preset, the Import control, and the essential ones, then the
// others in a group that is one step away.
func (p *page) renderForm() app.UI {
	essential, more := formGroups[0], formGroups[1:]
	set, wrong := p.moreInputs()
	// On a phone an open group would push the totals out of the first screen: there its summary
	// names what the link set, and only an error opens it.
	p.moreOpen = p.moreOpen || wrong || len(set) > 0 && wideScreen()
	summary, class := moreSummary(), "hint"
	if len(set) > 0 {
		summary, class = "set by this link: "+strings.Join(set, ", "), "hint set"
	}
	details := app.Details().ID("more-inputs").Body(
		app.Summary().Body(app.Text("More inputs"), app.Span().ID("more-inputs-set").Class(class).Text(summary)),
		// Closed, its fields (three in four of the form's elements) follow the first paint, with
		// the sections below the first screen (later).
		app.If(p.rest || p.moreOpen, app.Range(more).Slice(func(i int) app.UI { return p.renderGroup(more[i].legend, more[i].fields) })),
	).On("toggle", p.recovering(func(ctx app.Context, e app.Event) {
		p.moreOpen = ctx.JSSrc().Get("open").Bool() // the person's choice stands until a link or an error opens it
	}))
	if p.moreOpen {
		details = details.Open(true) // only then: pre-rendered HTML writes open="false" as open
	}
	return app.Form().ID("inputs").Aria("label", "Inputs").Body(
		p.renderPreset(),
		p.renderGroup(essential.legend, essential.fields),
		// After the policy, not before it: its summary line would push budget, the first
		// screen's last input, below a 1280×720 window once a preset's hint shows.
		p.imp.renderImport(),
		details,
	)
}

// wideScreen reports whether the page has room for the group one step away open beside the
// results: in the browser, wider than app.css's phone layout. The server's HTML is for any
// screen, so it keeps the group closed (its summary names what is set); a variable for tests.
var wideScreen = func() bool {
	return app.IsClient && !app.Window().Call("matchMedia", "(max-width: 40rem)").Get("matches").Bool()
}

func (p *page) renderGroup(legend string, fields []formField) app.UI {
	fields = p.shownFields(fields)
	return app.FieldSet().Body(
		app.Legend().Text(legend),
		app.If(legend == overloadLegend, p.overloadCrowd()), // who else arrives: the herd's clients
		app.Range(fields).Slice(func(j int) app.UI { return p.renderField(fields[j]) }),
	)
}

// chosenParams are the keys that only one limiter or breaker reads, by the select that chooses
// it (chooser) and its name there (choice; "" for every choice but none). The form shows them
// right after their select while that one is chosen: every limiter's and breaker's parameters
// at once were three in five of the form's inputs, most of them read by nothing.
var chosenParams = []chosenParam{
	{"limiter", "grpc", []string{"maxtokens", "tokenratio"}},
	{"limiter", "finagle", []string{"ttl", "minretries", "retrypct"}},
	{"limiter", "envoy", []string{"budgetpct", "minconcurrency"}},
	{"limiter", "failsafe", []string{"fsmaxrate", "fsminconcurrency"}},
	{"breaker", "", []string{"breakerat", "breakers"}},
	{"breaker", "gobreaker", []string{"gbfailures", "gbhalfopen", "gbopen"}},
	{"breaker", "resilience4j", []string{"r4jrate", "r4jslowrate", "r4jslowafter", "r4jwindow", "r4jmincalls", "r4jopen", "r4jhalfopen"}},
	{"breaker", "polly", []string{"pollyratio", "pollythroughput", "pollysampling", "pollyopen"}},
	{"breaker", "failsafe", []string{"fsof", "fsfailures", "fssuccessof", "fssuccesses", "fsopen", "fsperiod", "fsexecutions", "fsrate"}},
}

// chosenParam is one entry of chosenParams.
type chosenParam struct {
	chooser, choice string
	keys            []string
}

// chosenBy reports whether the select's value choice chooses c's keys.
func (c chosenParam) chosenBy(choice string) bool {
	return c.choice == choice || c.choice == "" && choice != defaultValues.Get(c.chooser)
}

// chooserOf is the select of each of chosenParams' keys.
var chooserOf = func() map[string]string {
	m := map[string]string{}
	for _, c := range chosenParams {
		for _, k := range c.keys {
			m[k] = c.chooser
		}
	}
	return m
}()

// shownFields are the fields of a group the form shows, in order: each chooser's chosen
// parameters follow it. A parameter of a limiter or breaker that is not chosen still shows when
// its value is not the default (a link sets it), when it is wrong, or once the person edited it
// (it would otherwise vanish under their hands as they type its default), so that nothing that
// was set is out of sight.
func (p *page) shownFields(fields []formField) []formField {
	shown := make([]formField, 0, len(fields))
	for _, f := range fields {
		if _, ok := chooserOf[f.key]; ok {
			continue // placed after its chooser
		}
		shown = append(shown, f)
		for _, c := range chosenParams {
			if c.chooser != f.key {
				continue
			}
			chosen := c.chosenBy(p.value(f.key))
			for _, g := range fields {
				if slices.Contains(c.keys, g.key) && (chosen || p.paramInUse(g.key)) {
					shown = append(shown, g)
				}
			}
		}
	}
	return shown
}

// markEdited notes that the person edited the input of key: it stays in the form (shownFields).
func (p *page) markEdited(key string) {
	if p.edited == nil {
		p.edited = map[string]bool{}
	}
	p.edited[key] = true
}

// paramInUse reports whether the input of key is set away from its default, wrong, or edited
// by the person since the link was loaded.
func (p *page) paramInUse(key string) bool {
	return p.value(key) != defaultValues.Get(key) || p.fieldError(key) != nil || p.edited[key]
}

// moreInputs returns the inputs of the group one step away that differ from their defaults, as
// typed ("label value"), and whether one of them is wrong: the group then opens by itself, or
// says what is set, so that nothing that shapes the numbers is out of sight.
func (p *page) moreInputs() (set []string, wrong bool) {
	if p.raw == nil {
		return nil, false // no link read yet
	}
	for _, g := range formGroups[1:] {
		for _, f := range g.fields {
			wrong = wrong || p.fieldError(f.key) != nil
			if v := p.value(f.key); v != defaultValues.Get(f.key) {
				if calc.BareMillis(f.key, v) {
					v += " ms" // as typed, with the unit it is read in
				}
				set = append(set, strings.ToLower(f.label)+" "+shortValue(v))
			}
		}
	}
	return set, wrong
}

// defaultValues are every input's default, the keys a link leaves out at their default included.
var defaultValues = calc.DefaultValues()

// value is the input of key as typed, or its default when the link leaves the key out (the
// overload model's keys are left out of a link at their defaults).
func (p *page) value(key string) string {
	if vs, ok := p.raw[key]; ok && len(vs) > 0 {
		return vs[0]
	}
	return defaultValues.Get(key)
}

// shortValue is a value as the summary shows it: a pasted value can be kilobytes long.
func shortValue(v string) string {
	if r := []rune(v); len(r) > 24 {
		return string(r[:24]) + "…"
	}
	return v
}

// moreSummary names the inputs of the group one step away, so that a reader knows what it holds
// before opening it.
func moreSummary() string {
	var labels []string
	for _, g := range formGroups[1:] {
		if g.legend == overloadLegend {
			labels = append(labels, overloadSummary) // its fifteen labels would crowd a phone's first screen
			continue
		}
		for _, f := range g.fields {
			labels = append(labels, strings.ToLower(f.label))
		}
	}
	return strings.Join(labels, ", ")
}

func (p *page) renderField(f formField) app.UI {
	id := "in-" + f.key
	hint, hintClass := f.hint, "hint"
	if f.key == "attempts" {
		hint, hintClass = p.attemptsHint(), "hint numbers" // numbers: see island
	}
	fe := p.fieldError(f.key)
	if v := p.value(f.key); fe == nil && calc.BareMillis(f.key, v) && v != "0" {
		// budget=20 is 20 ms, where many mean seconds: the field says how it read the number.
		hint = "read as " + v + " ms: a bare number is milliseconds (" + v + "s is seconds); " + hint
	}
	invalid := fmt.Sprint(fe != nil) // aria-invalid takes the words true and false
	var input app.UI
	if f.options != nil {
		input = app.Select().ID(id).Name(f.key).Aria("invalid", invalid).
			Aria("describedby", id+"-hint "+id+"-error").OnChange(p.onEdit(f.key)).Body(selectOptions(f.options, f.options, p.value(f.key))...)
	} else {
		in := app.Input().Type("text").ID(id).Name(f.key).Value(attrText(p.value(f.key))).
			AutoComplete(false).Spellcheck(false).Aria("invalid", invalid).
			Aria("describedby", id+"-hint "+id+"-error").OnInput(p.onType(f.key)).OnChange(p.onSettle())
		if f.inputMode != "" {
			in = in.Attr("inputmode", f.inputMode)
		}
		input = in
	}
	errText := ""
	if fe != nil {
		errText = fieldMessage(fe)
	}
	class := "field"
	if fe != nil {
		class += " invalid" // go-app pre-renders aria-invalid="true" as a bare attribute, which means false
	}
	return app.Div().Class(class).DataSet("key", f.key).Body(
		app.Label().For(id).Body(
			app.Span().Class("label").Text(f.label),
			app.If(f.unit != "", app.Span().Class("unit").Text(f.unit)),
		),
		input,
		app.Span().ID(id+"-hint").Class(hintClass).Text(hint),
		app.Span().ID(id+"-error").Class("field-error").Text(errText),
	)
}

// selectOptions are a select's options, values with their labels, and value selected. A value
// that is none of them (a link's jitter=fulll) gets an option of its own, selected and disabled:
// the field shows what was given, beside its message, and never a value that the results do not
// use. It comes last, so that the options that can be chosen keep their places when it goes.
func selectOptions(values, labels []string, value string) []app.UI {
	options := make([]app.UI, 0, len(values)+1)
	for i, v := range values {
		o := app.Option().Value(v).Text(labels[i])
		if v == value {
			o = o.Selected(true) // only then: pre-rendered HTML writes selected="false" as selected
		}
		options = append(options, o)
	}
	if !slices.Contains(values, value) {
		shown := shortValue(value)
		if shown == "" {
			shown = `""` // an empty value is shown as given, not as nothing
		}
		options = append(options, app.Option().Class("bad-value").Text(shown+" (not valid)").Selected(true).Disabled(true))
	}
	return options
}

// attemptsHint answers the most asked question: does the count include the first call?
func (p *page) attemptsHint() string {
	if p.report == nil {
		return "calls in total, the first one included"
	}
	rows := p.report.Schedule.Rows
	retries := rows[len(rows)-1].Retry
	return fmt.Sprintf("%d %s = first call + %d %s", len(rows), policy.Plural(len(rows), "attempt", "attempts"), retries, policy.Plural(retries, "retry", "retries"))
}

func (p *page) onEdit(key string) app.EventHandler {
	return p.recovering(func(ctx app.Context, e app.Event) {
		if p.edit(ctx, key, ctx.JSSrc().Get("value").String()) {
			// The new numbers are on the page; the rest of it (hints, marks) is rendered after
			// they are painted (startWork). Under wasm, Go runs every goroutine it can before it
			// returns to the browser: once a handler outlasts go-app's 8 ms frame tick, that
			// frame's render of the whole page would hold the new numbers off the screen.
			ctx.PreventUpdate()
		}
	})
}

// attrText makes a string the user gave safe for an attribute. go-app's server pre-render quotes
// attribute values with strconv.Quote, which does not escape HTML: `"><img onerror=...>` in a
// link would otherwise become markup. In the browser go-app sets attributes through the DOM,
// which needs no escaping.
func attrText(s string) string {
	if app.IsServer {
		return html.EscapeString(s)
	}
	return s
}

// renderPreset is the library picker, and what the chosen preset is: the library, when its
// behaviour was read, its own parameters next to ours, and where its docs and code disagree.
func (p *page) renderPreset() app.UI {
	current, ok := libs.PresetByName(p.raw.Get("preset"))
	values, labels := []string{""}, []string{"custom (no preset)"}
	for _, pr := range libs.Presets() {
		values, labels = append(values, pr.Name), append(labels, pr.Short)
	}
	fe, problem := p.fieldError("preset"), ""
	if fe != nil {
		problem = fieldMessage(fe)
	}
	hint := "sets every input to a library's values (the chosen preset says which); editing any input leaves the preset"
	var info app.UI = app.Div().ID("preset-info")
	var set app.UI = app.Div()
	if ok && p.report != nil && p.report.Params.Preset == current.Name && len(p.presetSet) > 0 {
		// Said as an import says it: a person's budget must not go silently.
		set = app.P().ID("preset-set").Class("preset-set").Text("It set, where its library does not say them, changing the inputs the page had: " +
			strings.Join(p.presetSet, "; ") + ".")
	}
	if ok {
		hint = "sets every input to " + current.BasisWords() + "; editing any input leaves the preset"
		// For the inputs shown: the last valid ones, which are still the preset's.
		var checks []string
		if p.report != nil && p.report.Params.Preset == current.Name {
			checks = libs.StartupChecks(p.report.Params)
		}
		// One line in view, the rest one step away: the notes run to a screen of text, and the
		// results' first sentence names the library and its version already.
		info = app.Details().ID("preset-info").Body(
			app.Summary().Text("About this preset"),
			app.P().Body(app.Strong().Text(current.Library), app.Text(" — "+current.Version+".")),
			app.P().Text("Its parameters: "+current.Theirs+"."),
			app.P().Text("Its code: "+current.Source+"."),
			app.If(len(checks) > 0,
				app.P().Text(libs.StartupChecksIntro),
				app.Ul().ID("preset-checks").Body(app.Range(checks).Slice(func(i int) app.UI { return app.Li().Text(checks[i]) })),
			),
			app.Ul().Body(app.Range(current.Notes).Slice(func(i int) app.UI { return app.Li().Text(current.Notes[i]) })),
		)
	}
	class := "preset-pick"
	if fe != nil {
		class += " invalid"
	}
	return app.FieldSet().ID("preset").Class(class).Body(
		app.Legend().Text("Start from a library"),
		app.Label().For("in-preset").Text("Preset"),
		app.Select().ID("in-preset").Name("preset").Aria("invalid", fmt.Sprint(fe != nil)).
			Aria("describedby", "in-preset-hint in-preset-error").OnChange(p.recovering(func(ctx app.Context, e app.Event) {
			p.choosePreset(ctx, ctx.JSSrc().Get("value").String())
		})).Body(selectOptions(values, labels, p.raw.Get("preset"))...),
		app.Span().ID("in-preset-hint").Class("hint").Text(hint),
		app.Span().ID("in-preset-error").Class("field-error").Text(problem),
		set,
		info,
	)
}
