package main

import (
	"maps"
	"net/url"
	"sync/atomic"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// startWork runs what can take long for the report's inputs, the sampling and then the herd,
// in one goroutine off the input path. It first lets the browser paint what the input handler
// wrote, then hands the thread back every workSlice (see yieldToBrowser). A newer call makes it
// stop. It commits the inputs: an edit in progress ends (typing.go).
func (p *page) startWork(ctx app.Context) {
	ctx = p.own(ctx)
	p.endTyping()
	if p.report == nil {
		return
	}
	gen := p.workGen.Add(1)
	r := *p.report
	herd := partOf[*herdSection](p)
	runHerd := herd.startRuns(r.Params)
	eachPart(p, func(c starter) { c.start(r.Params) })
	kept := p.kept && p.sampleSmall() // the server sampled what it shows
	p.kept = false
	compare := partOf[*compareSection](p)
	vs := compare.vsHerdDue()
	var warm url.Values // the form's values, for warmEdit after the page's first work
	if gen == 1 {
		warm = maps.Clone(p.raw)
	}
	ctx.Async(func() {
		defer ctx.Dispatch(func(ctx app.Context) {
			if gen > p.workDone.Load() {
				p.workDone.Store(gen)
			}
		})
		defer p.survive(&r.Params, func(fe *policy.FieldError) {
			ctx.Dispatch(func(ctx app.Context) { p.addError(fe) })
		})
		// Under wasm this goroutine holds the thread until it pauses: let the browser paint the
		// numbers the input handler wrote first, then do what it left for later.
		afterPaint()
		ctx.Dispatch(func(ctx app.Context) { p.showLeftForLater(ctx, gen) })
		yieldToBrowser() // that in a task of its own, not with the first slice of sampling
		pause := yielder(&p.workGen, gen)
		if p.sample(ctx, &r, gen, pause, kept) && p.sampleFit(ctx, &r, gen, pause) {
			if runHerd {
				herd.runHerd(ctx, r.Params, gen, pause)
			}
			if vs != nil && pause() {
				compare.runVsHerd(ctx, *vs, gen, pause) // B's herd headline, after A's herd (compare_runs.go)
			}
		}
		if warm != nil && pause() {
			warmEdit(warm)
		}
		ctx.Defer(func(ctx app.Context) { p.workReady(ctx, gen) }) // after the herd's last Defer
		if warm != nil && pause() {
			ctx.Defer(func(ctx app.Context) { p.warmCode(ctx, gen) })
		}
		if warm != nil {
			// The engine worker fetches and compiles its wasm on its own thread, once the
			// load's work no longer shares the network and the cores with it: a first import
			// then does not wait for it.
			ctx.Defer(p.startEngine)
		}
	})
}

// workReady tells the sections that the rest of gen's work is done (readier), while gen is the
// current work.
func (p *page) workReady(ctx app.Context, gen int64) {
	eachPart(p, func(c readier) { c.ready(ctx, gen) })
}

// warmEdit decodes the form's values as an edit does, and drops the result. V8 compiles a wasm
// function on its first call, on the main thread, and a link decodes only the keys it has: the
// first edit's handler decoded every key for the first time, most of the 96 functions compiled
// in it (about 25 ms in the bench's traces). Run once the load's work is done, that compiling
// takes a task of its own rather than the first keystroke's.
func warmEdit(raw url.Values) { libs.DecodeLinkValues(raw) }

// showLeftForLater shows what an input handler, or the first render, leaves for after the paint:
// the numbers that were off the screen (catchUp); while gen is the current work, the link
// (replacing it takes 1–7 ms), the export panel, and the rest of the page (hints, marks, and
// after the first render the sections below the first screen), which go-app renders on its
// next frame after this dispatch.
func (p *page) showLeftForLater(ctx app.Context, gen int64) {
	p.catchUp()
	p.showRest(ctx)
	p.imp.importClickedBefore(ctx)
	if p.workGen.Load() != gen {
		return
	}
	if p.queryDue {
		p.showQuery(ctx)
	}
	eachPart(p, func(c laterer) { c.later(ctx) })
}

// showRest has go-app render, on its next frame, the parts that the first render leaves for after
// the paint (later); then what needs their elements follows: the focus the server's page had in
// one of them, the section a link's fragment names, which the shorter first render may have
// scrolled away from, the skipping of the sections far from it, and the sections' waits for the
// reader to come near (a part's near).
func (p *page) showRest(ctx app.Context) {
	if p.rest {
		return // done, or rendered whole from the start (not in a browser)
	}
	p.rest, p.keptSections = true, nil
	ctx.Defer(func(ctx app.Context) {
		restoreFocus()
		if hash := app.Window().Get("location").Get("hash").String(); len(hash) > 1 {
			pinFragment(p.fragment(hash[1:]))
		}
		skipFarSections()
		for i := range sections {
			if c, ok := p.parts[i].(nearer); ok {
				whenNear(ctx, p.shown(i).id, c.near)
			}
		}
	})
}

// showQuery puts p.query in the address bar, keeping the rest of the URL.
func (p *page) showQuery(ctx app.Context) {
	p.queryDue = false
	u := *ctx.Page().URL()
	u.RawQuery = p.queryText()
	// A fragment naming the herd's section follows it to the overload model's id and back, so
	// that the link, copied or shared, opens where it points.
	u.Fragment = p.fragment(u.Fragment)
	ctx.Page().ReplaceURL(&u)
}

// sample adds r's sampled numbers, the policy's own paths first (the schedule's percentiles),
// then the other modes', showing each as it is done. It reports false if newer work took over.
// When kept, the page shows the server's numbers (keepServerNumbers), with every mode's samples:
// showing the policy's alone would blank the others' until they are sampled; or prewrite's,
// which are the policy's already.
func (p *page) sample(ctx app.Context, r *calc.Report, gen int64, pause func() bool, kept bool) bool {
	for i, add := range []func(*calc.Report, func() bool) bool{(*calc.Report).AddPolicySample, (*calc.Report).AddModeSamples} {
		if r.Sampled() {
			break
		}
		if !add(r, pause) {
			return false
		}
		if i == 0 && kept {
			continue
		}
		shown := *r
		ctx.Dispatch(func(ctx app.Context) {
			if p.workGen.Load() == gen {
				p.report = &shown
				p.showReport()
			}
		})
	}
	return true
}

// working reports whether work started by startWork is still running.
func (p *page) working() bool { return p.workDone.Load() != p.workGen.Load() }

// yielder returns the pause of a long run: under wasm it hands the thread back to the browser
// (to paint and take input) whenever the run has held it for a slice, and it says whether gen is
// still the current run.
func yielder(current *atomic.Int64, gen int64) func() bool {
	last := time.Now()
	return func() bool {
		if time.Since(last) > workSlice {
			yieldToBrowser()
			last = time.Now()
		}
		return current.Load() == gen
	}
}

// workSlice is how long a run may hold the browser's thread: a keystroke waits at most this
// long, well under the 50 ms of a long task.
const workSlice = 10 * time.Millisecond
