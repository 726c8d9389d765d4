package main

import (
	"encoding/json"
	"fmt"

	"backoffcalc/app/internal/imported"
	"backoffcalc/app/internal/work"
	"backoffcalc/calc"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// importView is the Import control's state: a configuration pasted in sets the inputs, through
// the link, so that an import is shared as its link.
type importView struct {
	open    bool            // the control is open
	pasted  string          // what the server's page held when the wasm took over: the textarea's first content (takeOverImport)
	result  *imported.Reply // the last import that was read; nil before one
	err     string          // why the last import was refused; "" when it was read
	applied []string        // the defaults the last import read applied that changed an input (Result.Applied)
	set     calc.Params     // the inputs the last import set: once they are edited, the status says so
	// held says the last import's inputs went into the form, but an input it does not set was
	// invalid, so the results and the link stayed heldFrom's, those before it.
	held     bool
	heldFrom calc.Params
	// clicked: Import was clicked in the server's page, before the wasm ran; pasted is imported
	// once the wasm's page has painted (importClickedBefore).
	clicked bool
}

// importControl is the Import control's component: its state (importView) and its behaviour. It
// is the form's, not a section of the results: the form renders it (renderForm), with the page
// as its host.
type importControl struct {
	importView
	h *host
}

// renderImport is the control, one step away under the preset picker: a closed summary line
// on the first screen, the textarea and what the last import read once opened. It is outside
// the preset's fieldset, whose hint shows while the focus is in it (on a phone): a tap on the
// summary would move the summary away under the finger.
func (c *importControl) renderImport() app.UI {
	var format string
	var r imported.Reply
	if c.result != nil {
		r = *c.result
		// What the inputs are now, and the link with them: the import's, or edited since.
		rep := c.h.report()
		edited := rep != nil && rep.Params != c.set
		switch {
		case c.err == "" && c.held && rep != nil && rep.Params == c.heldFrom:
			format = "Read as " + r.Format + ". Its inputs are in the form, but a marked input is not valid: the results and the link are still those from before it, until that input is fixed."
		case c.err == "" && !edited:
			format = "Read as " + r.Format + ". The link now has its inputs: share it to share this import."
		case c.err == "":
			format = "Read as " + r.Format + ". The inputs have been edited since: the link has the edits, not this import alone."
		case !edited:
			format = "The inputs are still the last import's, read as " + r.Format + "."
		default:
			format = "The inputs are as they were: the last import's, read as " + r.Format + ", edited since."
		}
	}
	d := app.Details().ID("import").Body(
		app.Summary().Text("Import a configuration"),
		app.Label().For("import-text").Text("Paste a retry configuration: a gRPC service config, an Envoy retry_policy, ~/.aws/config, resilience4j or Polly options, a Temporal RetryPolicy, a Step Functions Retry, an Istio VirtualService, a Spring @Retryable, or the Export panel's code"),
		app.Textarea().ID("import-text").Rows(6).Spellcheck(false).Attr("autocomplete", "off").
			Aria("describedby", "import-error import-said").Text(c.pasted),
		app.Button().ID("import-button").Type("button").Text("Import").OnClick(c.h.recovering(c.importClicked)),
		// Announced as it changes, but not role="alert": that is the page's one alert, the
		// inputs' errors, which a person (and a test) finds as the first [role="alert"].
		app.P().ID("import-error").Class("field-error").Aria("live", "assertive").Text(c.err),
		app.Div().ID("import-said").Role("status").Body(
			app.P().Text(format),
			saidList("What it read:", r.Read, r.MoreRead),
			saidList("What it set that the configuration does not say, changing the inputs the page had:", c.applied, 0),
			saidList("What it ignored, and why:", r.Ignored, r.MoreIgnored),
		),
	).On("toggle", c.h.recovering(func(ctx app.Context, e app.Event) {
		c.open = ctx.JSSrc().Get("open").Bool()
	}))
	if c.open {
		d = d.Open(true) // only then: pre-rendered HTML writes open="false" as open
	}
	return d
}

// saidList is one list of what an import said, under its title, and how many more lines it
// had (imported.Shown: table -import prints them all); nothing when empty.
func saidList(title string, lines []string, more int) app.UI {
	if len(lines) == 0 {
		return app.Div()
	}
	return app.Div().Body(
		app.P().Text(title),
		app.Ul().Body(app.Range(lines).Slice(func(i int) app.UI { return app.Li().Text(lines[i]) })),
		app.If(more > 0, app.P().Text(fmt.Sprintf("… and %d more (table -import lists them all)", more))),
	)
}

// importClicked imports the textarea's text. The engine worker reads it (a 64 KB AWS file
// took 120 ms of the page's thread, an Envoy route of 9,000 keys 450 ms: YAML's parser); the
// page's thread has the click and the showing of what it read, with the import's numbers. The
// marks import-start, import-read and import-shown end each (TestImportHandsTheThreadBack).
// The textarea's value is the text: Go never writes it back (go-app would write it whole, cut of
// its spaces at both ends, and Chromium would lay 16,000 lines out again for hundreds of ms).
func (c *importControl) importClicked(ctx app.Context, e app.Event) {
	text := app.Window().GetElementByID("import-text").Get("value").String()
	mark("import-start")
	c.importText(ctx, text)
}

// importText has the engine read text as a configuration and shows what it read (showImport):
// natively at once, in the browser when the worker's reply comes.
func (c *importControl) importText(ctx app.Context, text string) {
	c.h.callEngine(ctx, work.Import, text, func(ctx app.Context, reply string, err error) {
		mark("import-read")
		var r imported.Reply
		if err == nil {
			err = json.Unmarshal([]byte(reply), &r)
		}
		if err != nil {
			r = imported.Reply{Err: "import: " + err.Error()}
		}
		c.showImport(ctx, r)
		mark("import-shown")
	})
}

// showImport shows an import read as r, or refused with err. Read, its inputs replace the
// link's (Result.Link) as an edit's would, whatever the link had of them before, and the page
// shows their numbers and the defaults it applied that changed an input; refused, the message
// names the line, key and value, and the inputs and the numbers stay. The text stays in the
// textarea either way.
func (c *importControl) showImport(ctx app.Context, r imported.Reply) {
	if r.Err != "" {
		c.err = r.Err
		return
	}
	c.err, c.result = "", &r
	var before calc.Params
	if rep := c.h.report(); rep != nil {
		before = rep.Params
	}
	var ok bool
	c.applied, ok = c.h.importInputs(ctx, r)
	// Held back by another input's error, the status must not say that the link has the import:
	// it said so while the link and the numbers were those from before it.
	c.held, c.heldFrom, c.set = !ok, before, calc.Params{}
	if rep := c.h.report(); rep != nil && ok {
		c.set = rep.Params
	}
}

// importInputs sets the inputs an import read, r, as an edit (host.importInputs), and returns
// the defaults it applied that changed an input (Reply.Applied), and whether the inputs were
// valid (edit): an input the import does not set may not be.
func (p *page) importInputs(ctx app.Context, r imported.Reply) ([]string, bool) {
	applied := r.Applied(p.raw)
	p.raw = r.Link(p.raw)                        // every input of the policy and of the models it speaks for, its preset gone
	ok := p.edit(ctx, "base", p.raw.Get("base")) // an input the import sets: the link is read again whole
	return applied, ok
}

// takeOver keeps what was pasted into the server's page before the wasm ran: its first render
// replaces that page (see the page's takeOver).
func (c *importControl) takeOver() {
	el := app.Window().Get("document").Call("querySelector", `#app[data-render="server"] #import-text`)
	if el.Truthy() {
		c.pasted = el.Get("value").String()
		c.open = el.Call("closest", "details").Get("open").Bool()
		if took := app.Window().Get("backoffcalcTakeImportClick"); took.Type() == app.TypeFunction {
			c.clicked = took.Invoke().Bool()
		}
	}
}

// importClickedBefore imports what was pasted into the server's page, if its Import was clicked
// there: the click is the person's, and the wasm's page, which replaced that page, would lose it.
func (c *importControl) importClickedBefore(ctx app.Context) {
	if c.clicked {
		c.clicked = false
		mark("import-start")
		c.importText(ctx, c.pasted)
	}
}
