package main

import (
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Typing into a text field. Every keystroke is an input event: typing 5000 into Attempts passes
// through 5, 50 and 500, which are valid, on its way to 5000, which is not. Each keystroke's
// numbers show at once when they are cheap (apply: the schedule's bounds, the policy's samples
// when small), but the link and the long work (sampling, herd, overload, contention: startWork)
// follow only once the typing pauses for typingPause, or the field is left or Enter pressed
// (the change event): otherwise 500's link would be written and 500 × 10,000 paths sampled for
// a value nobody meant. When the field ends invalid, the page keeps what it showed before the
// edit began (committed): that link, that report and its long results, never a value typed on
// the way; the message names the field and the value typed.

// typingPause is how long the typing must pause, from the paint of the last keystroke's numbers,
// for its inputs to be committed.
const typingPause = 500 * time.Millisecond

// typingPaused returns, for a test, the channel that says the typing has paused after the
// keystroke being handled; nil for the real pause, typingPause.
var typingPaused = func() <-chan time.Time { return nil }

// typingState is an edit in progress in a text field.
type typingState struct {
	before *committed    // what the page showed when the edit began; nil when no edit is in progress
	key    string        // the field being typed into
	valid  bool          // the inputs as typed are valid, and their numbers show
	shown  bool          // the numbers of a keystroke show in place of before's
	pause  chan struct{} // closed when the last keystroke's pause timer is no longer wanted
}

// committed is what a keystroke may change and an edit that ends invalid gives back: the
// numbers, B's, the link and the parts that follow them, as the last committed inputs left them.
type committed struct {
	report, vsReport *calc.Report
	lib              string
	open             calc.SolveSet
	query            string
	queryDue         bool
	unknown          []*policy.FieldError
	parts            []func() // the sections' own (committer), each of which shows its part again
	done             bool     // their work (startWork) had finished; a keystroke stops it otherwise
}

// onType is a text field's input handler.
func (p *page) onType(key string) app.EventHandler {
	return p.recovering(func(ctx app.Context, e app.Event) {
		if p.typed(ctx, key, ctx.JSSrc().Get("value").String()) {
			// The new numbers are on the page; the rest of it (hints, marks) is rendered after
			// they are painted (typed's Async). Under wasm, Go runs every goroutine it can before
			// it returns to the browser: once a handler outlasts go-app's 8 ms frame tick, that
			// frame's render of the whole page would hold the new numbers off the screen.
			ctx.PreventUpdate()
		}
	})
}

// onSettle is a text field's change handler: leaving the field, or Enter, ends the typing at once.
func (p *page) onSettle() app.EventHandler {
	return p.recovering(func(ctx app.Context, e app.Event) {
		p.settle(ctx)
		ctx.PreventUpdate() // what follows is rendered after the paint (startWork), as for an edit
	})
}

// typed takes one keystroke's value of key: its numbers show now when the inputs are valid, and
// else the committed ones; the link and the long work wait for the typing to pause (settle). It
// reports whether the inputs are valid.
func (p *page) typed(ctx app.Context, key, value string) bool {
	ctx = p.own(ctx)  // its pause outlives the keystroke's event
	p.markEdited(key) // it stays in the form while its default is typed back in (shownFields)
	t := &p.typing
	if t.before != nil && t.key != key {
		// A keystroke in another field ends the last field's edit, as leaving that field does
		// (its change event, which a browser may not send first): else giving this edit back
		// would give that field's value back too, while its field still shows it.
		p.settle(ctx)
	}
	if t.before == nil {
		t.before, t.key = p.commitment(), key
		// The committed inputs' work stops: its results would replace a keystroke's numbers.
		p.workGen.Add(1)
		markBusy(true)
	}
	p.unknown = t.before.unknown // each keystroke is an edit of the committed link
	t.valid = p.apply(key, value)
	switch {
	case t.valid:
		t.shown = true
		p.longResultsWait()
	case t.shown:
		t.shown = false
		p.restore(t.before)
	}
	p.stopPause()
	t.pause = make(chan struct{})
	pause, paused := t.pause, typingPaused()
	// Not Async: go-app's Consume waits for those, and the client tests use it.
	go func() {
		afterPaint()
		ctx.Dispatch(func(ctx app.Context) { p.catchUp() }) // and go-app renders the rest of the page: hints, marks
		if paused == nil {
			paused = time.After(typingPause) // from the paint: a slow keystroke's own work is no pause
		}
		select {
		case <-paused:
			// A keystroke the browser holds while Go ran gets its turn first: its input event
			// is then handled before this, and replaces the pause.
			yieldToBrowser()
			ctx.Dispatch(func(ctx app.Context) {
				if p.typing.pause == pause {
					p.settle(ctx)
				}
			})
		case <-pause: // another keystroke, or the edit ended
		}
	}()
	return t.valid
}

// settle ends the edit in progress: valid inputs are committed (startWork writes their link and
// starts their work); invalid ones leave the committed numbers and link, and their work goes on.
func (p *page) settle(ctx app.Context) {
	before := p.typing.before
	switch {
	case before == nil:
	case p.typing.valid || !before.done:
		p.startWork(ctx) // ends the edit
	default:
		p.endTyping()
		// Nothing of before's work is left but what waits for it to be done (the contention
		// experiment), which resumes where the keystroke stopped it.
		gen := p.workGen.Load()
		p.workDone.Store(gen)
		p.workReady(ctx, gen)
	}
}

// endTyping forgets the edit in progress, as committing inputs does.
func (p *page) endTyping() {
	if p.typing.before != nil {
		markBusy(false)
	}
	p.typing.before, p.typing.shown = nil, false
	p.stopPause()
}

// markBusy marks the results as still changing while an edit is in progress (aria-busy): a
// screen reader may wait for the typing to end before it reads them out, and a test can tell
// when it has. Set by hand, as go-app renders nothing during the edit (onType).
func markBusy(busy bool) {
	if !app.IsClient {
		return
	}
	if el := app.Window().GetElementByID("results"); !el.Truthy() {
		return
	} else if busy {
		el.Call("setAttribute", "aria-busy", "true")
	} else {
		el.Call("removeAttribute", "aria-busy")
	}
}

// stopPause stops the pause timer of the last keystroke.
func (p *page) stopPause() {
	if p.typing.pause != nil {
		close(p.typing.pause)
		p.typing.pause = nil
	}
}

// commitment is what the page shows for the committed inputs, for restore.
func (p *page) commitment() *committed {
	var parts []func()
	eachPart(p, func(c committer) { parts = append(parts, c.commitment()) })
	return &committed{
		report: p.report, vsReport: p.vsReport, lib: p.lib, open: p.fit.open,
		query: p.queryText(), queryDue: p.queryDue, unknown: p.unknown,
		parts: parts,
		done:  !p.working(),
	}
}

// restore shows c again, as it was, in place of a keystroke's numbers.
func (p *page) restore(c *committed) {
	p.report, p.vsReport, p.lib, p.fit.open = c.report, c.vsReport, c.lib, c.open
	p.setQuery(c.query)
	p.queryDue, p.unknown = c.queryDue, c.unknown
	p.showReport()
	for _, restore := range c.parts {
		restore()
	}
	eachPart(p, func(c restorer) { c.restore() })
}

// longResultsWait hides the results of the long work that are not the keystroke's inputs', as
// startWork would, without starting it: the runs stay for restore.
func (p *page) longResultsWait() {
	eachPart(p, func(c waiter) { c.wait(p.report.Params) })
}
