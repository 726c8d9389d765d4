package main

import (
	"fmt"
	"runtime"

	"backoffcalc/app/internal/importcfg"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// importView is the Import control's state: a configuration pasted in sets the inputs, through
// the link, so that an import is shared as its link.
type importView struct {
	open    bool              // the control is open
	pasted  string            // what the server's page held when the wasm took over: the textarea's first content (takeOverImport)
	result  *importcfg.Result // the last import that was read; nil before one
	err     string            // why the last import was refused; "" when it was read
	applied []string          // the defaults the last import read applied that changed an input (Result.Applied)
}

// renderImport is the control, one step away under the preset picker: a closed summary line
// on the first screen, the textarea and what the last import read once opened. It is outside
// the preset's fieldset, whose hint shows while the focus is in it (on a phone): a tap on the
// summary would move the summary away under the finger.
func (p *page) renderImport() app.UI {
	var format string
	var read, ignored, applied []string
	if r := p.imp.result; r != nil {
		format, read, ignored, applied = "Read as "+r.Format+". The link now has its inputs: share it to share this import.", r.Read, r.Ignored, p.imp.applied
		if p.imp.err != "" {
			format = "The inputs are still the last import's, read as " + r.Format + "."
		}
	}
	d := app.Details().ID("import").Body(
		app.Summary().Text("Import a configuration"),
		app.Label().For("import-text").Text("Paste a retry configuration: a gRPC service config, an Envoy retry_policy, ~/.aws/config, resilience4j or Polly options, a Temporal RetryPolicy, a Step Functions Retry, an Istio VirtualService, a Spring @Retryable, or the Export panel's code"),
		app.Textarea().ID("import-text").Rows(6).Spellcheck(false).Attr("autocomplete", "off").
			Aria("describedby", "import-error import-said").Text(p.imp.pasted),
		app.Button().ID("import-button").Type("button").Text("Import").OnClick(p.recovering(p.importClicked)),
		// Announced as it changes, but not role="alert": that is the page's one alert, the
		// inputs' errors, which a person (and a test) finds as the first [role="alert"].
		app.P().ID("import-error").Class("field-error").Aria("live", "assertive").Text(p.imp.err),
		app.Div().ID("import-said").Role("status").Body(
			app.P().Text(format),
			saidList("What it read:", read),
			saidList("What it set that the configuration does not say, changing the inputs the page had:", applied),
			saidList("What it ignored, and why:", ignored),
		),
	).On("toggle", p.recovering(func(ctx app.Context, e app.Event) {
		p.imp.open = ctx.JSSrc().Get("open").Bool()
	}))
	if p.imp.open {
		d = d.Open(true) // only then: pre-rendered HTML writes open="false" as open
	}
	return d
}

// maxSaid is how many lines of a list of what an import said the page shows: a valid 64 KB
// file can have 16,000 keys it ignores, and as many items would freeze the page for seconds.
const maxSaid = 200

// saidList is one list of what an import said, under its title, its first maxSaid lines and how
// many more (table -import prints them all); nothing when empty.
func saidList(title string, lines []string) app.UI {
	if len(lines) == 0 {
		return app.Div()
	}
	more := ""
	if len(lines) > maxSaid {
		more = fmt.Sprintf("… and %d more (table -import lists them all)", len(lines)-maxSaid)
		lines = lines[:maxSaid]
	}
	return app.Div().Body(
		app.P().Text(title),
		app.Ul().Body(app.Range(lines).Slice(func(i int) app.UI { return app.Li().Text(lines[i]) })),
		app.If(more != "", app.P().Text(more)),
	)
}

// importClicked imports the textarea's text in four tasks, each of which hands the thread back
// to the browser (yieldToBrowser) before the next: this one, the reading (about 120 ms of a
// 64 KB AWS file in wasm, 450 ms of an Envoy route of 9,000 keys: YAML's parser), a collection
// of the reading's garbage, and the showing of what it read with the import's numbers. The marks
// import-start, import-read, import-collected and import-shown end each (TestImportHandsTheThreadBack).
// The textarea's value is the text: Go never writes it back (go-app would write it whole, cut of
// its spaces at both ends, and Chromium would lay 16,000 lines out again for hundreds of ms).
func (p *page) importClicked(ctx app.Context, e app.Event) {
	text := app.Window().GetElementByID("import-text").Get("value").String()
	mark("import-start")
	// Not Async: nothing waits for it natively, where the click never happens.
	go func() {
		yieldToBrowser()
		var r importcfg.Result
		var err error
		var crash any // a panic of Read's, shown as the page shows its own, from the page's goroutine
		func() {
			defer func() { crash = recover() }()
			r, err = importcfg.Read(text)
		}()
		mark("import-read")
		yieldToBrowser()
		runtime.GC() // the reading's garbage, in a task of its own: the showing had it after an Envoy read (620 ms)
		mark("import-collected")
		yieldToBrowser()
		ctx.Dispatch(func(ctx app.Context) {
			defer p.survive(nil, p.addError)
			if crash != nil {
				panic(crash)
			}
			p.showImport(ctx, r, err)
			mark("import-shown")
		})
	}()
}

// importText reads text as a configuration and shows it (showImport), in one go: the native
// tests' import.
func (p *page) importText(ctx app.Context, text string) {
	r, err := importcfg.Read(text)
	p.showImport(ctx, r, err)
}

// showImport shows an import read as r, or refused with err. Read, its inputs replace the
// link's (Result.Link) as an edit's would, whatever the link had of them before, and the page
// shows their numbers and the defaults it applied that changed an input; refused, the message
// names the line, key and value, and the inputs and the numbers stay. The text stays in the
// textarea either way.
func (p *page) showImport(ctx app.Context, r importcfg.Result, err error) {
	if err != nil {
		p.imp.err = err.Error()
		return
	}
	p.imp.err, p.imp.result, p.imp.applied = "", &r, r.Applied(p.raw)
	p.raw = r.Link(p.raw)                  // every input of the policy and of the models it speaks for, its preset gone
	p.edit(ctx, "base", p.raw.Get("base")) // an input the import sets: the link is read again whole
}

// takeOverImport keeps what was pasted into the server's page before the wasm ran: its first
// render replaces that page (see takeOver).
func (p *page) takeOverImport() {
	el := app.Window().Get("document").Call("querySelector", `#app[data-render="server"] #import-text`)
	if el.Truthy() {
		p.imp.pasted = el.Get("value").String()
		p.imp.open = el.Call("closest", "details").Get("open").Bool()
	}
}
