//go:build !js

package main

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TestFormHintsNameModes checks the hints that name jitter modes, which the form takes from
// calc's table of modes, against the words written by hand.
func TestFormHintsNameModes(t *testing.T) {
	want := map[string]string{
		"factor": "growth per retry (decorrelated and decorrelatedv2 ignore it)",
		"jitter": "upward, fullms, additive, decorrelatedv2, sidekiq, sidekiq7 and fullsec are what k8s, Envoy, tenacity, Polly, Sidekiq, Sidekiq 7 and Celery do",
		"ratio":  "proportional and upward jitter: 0.2 is 20%",
		"capat":  "before: cap the nominal delay; after: clamp the drawn wait; fixed: exactly cap, unjittered, once over it (decorrelated and decorrelatedv2 always clamp the drawn wait)",
		"first":  "exact: the first retry waits exactly base (gRPC reconnects); decorrelated and decorrelatedv2 jitter it",
		"add":    "additive jitter only: waits in [d, d + this]",
		"offset": "added to every wait, after the draw and the cap (Sidekiq's 15 s); decorrelated and decorrelatedv2 ignore it",
	}
	for _, g := range formGroups {
		for _, f := range g.fields {
			if w, ok := want[f.key]; ok {
				if f.hint != w {
					t.Errorf("%s:\n got %s\nwant %s", f.key, f.hint, w)
				}
				delete(want, f.key)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no field for %v", want)
	}
}

// moreOpen reports whether the page's group of inputs one step away is open.
func moreOpen(t *testing.T, p *page) bool {
	t.Helper()
	for _, d := range elements(app.HTMLString(p), "details") {
		if d["id"] == "more-inputs" {
			_, open := d["open"]
			return open
		}
	}
	t.Fatal("no group of inputs one step away")
	return false
}

// TestMoreInputsOpen: on a wide screen the group one step away opens by itself when the link
// sets one of its inputs or one of them is wrong, and stays open while the person edits in it.
// On a phone only an error opens it; its summary names what the link set.
func TestMoreInputsOpen(t *testing.T) {
	for _, wide := range []bool{true, false} {
		wideScreen = func() bool { return wide }
		for _, c := range []struct {
			query     string
			set, open bool // set: the link sets an input of the group
			summary   string
		}{
			{"", false, false, "ratio, cap applies"},
			{"base=250ms&attempts=8&jitter=equal&budget=20s", false, false, "ratio, cap applies"},
			{"ratio=0.3&jitter=proportional", true, false, "set by this link: ratio 0.3"},
			{"seed=7", true, false, "set by this link: seed 7"},
			{"clients=500&layers=2", true, false, "set by this link: clients 500, layers 2"},
			{"call=abc", true, true, "set by this link: call duration abc"},             // an error
			{"samples=-1", true, true, "set by this link: samples -1"},                  // an error
			{"preset=grpc-connect", true, false, "set by this link: first retry exact"}, // the preset sets inputs of the group
		} {
			p, _ := navPage(t, c.query)
			want := c.open || c.set && wide
			if got := moreOpen(t, p); got != want {
				t.Errorf("wide %v, %q: open %v, want %v", wide, c.query, got, want)
			}
			if html := app.HTMLString(p); !strings.Contains(html, c.summary) {
				t.Errorf("wide %v, %q: the summary does not say %q", wide, c.query, c.summary)
			}
		}
	}
	wideScreen = func() bool { return true }
	defer func() { wideScreen = func() bool { return false } }()
	p, d := navPage(t, "seed=7")
	typeInto(p, d, "seed", "1") // back to the default, typed in the open group
	if !moreOpen(t, p) {
		t.Error("the group closed under the person's hands when a value went back to its default")
	}
}

// formInputs are the names of the form's inputs in the page's HTML, in order.
func formInputs(p *page) []string {
	var names []string
	form, _, _ := strings.Cut(app.HTMLString(p), "</form>")
	for _, m := range regexp.MustCompile(`<(?:input|select)[^>]* name="([^"]*)"`).FindAllStringSubmatch(form, -1) {
		names = append(names, m[1])
	}
	return names
}

// TestFormShowsChosenParams: a limiter's or breaker's parameters show, right after its select,
// only while it is chosen, or when the link sets them, or once the person edited them: the form
// shows 35 inputs by default (11 of the overload's 44) where it showed all 68.
func TestFormShowsChosenParams(t *testing.T) {
	wideScreen = func() bool { return true }
	defer func() { wideScreen = func() bool { return false } }()
	after := func(names []string, key string, want ...string) bool {
		i := slices.Index(names, key)
		return i >= 0 && i+len(want) < len(names) && slices.Equal(names[i+1:i+1+len(want)], want)
	}
	for _, c := range []struct {
		query      string
		after      string   // this input's select
		want, none []string // shown after it; not shown anywhere
	}{
		{"", "limiter", []string{"breaker"}, []string{"maxtokens", "ttl", "breakerat", "gbfailures", "fsof", "r4jhalfopen"}},
		{"rate=10&limiter=grpc", "limiter", []string{"maxtokens", "tokenratio", "breaker"}, []string{"ttl", "fsmaxrate", "breakerat"}},
		{"rate=10&limiter=failsafe", "limiter", []string{"fsmaxrate", "fsminconcurrency", "breaker"}, []string{"fsof", "maxtokens"}},
		{"rate=10&breaker=polly", "breaker", []string{"breakerat", "breakers", "pollyratio", "pollythroughput", "pollysampling", "pollyopen", "growth"}, []string{"gbfailures", "fsof"}},
		// A link that sets another's keys: they show, with their values.
		{"rate=10&limiter=envoy&maxtokens=50&gbopen=2s", "limiter", []string{"maxtokens", "budgetpct", "minconcurrency", "breaker", "gbopen", "growth"}, []string{"tokenratio", "gbfailures"}},
		// A wrong one shows, with its message.
		{"rate=10&ttl=1.5s", "limiter", []string{"ttl", "breaker"}, []string{"minretries"}},
	} {
		p, _ := navPage(t, c.query)
		names := formInputs(p)
		if !after(names, c.after, c.want...) {
			t.Errorf("%q: inputs %v, want %v after %s", c.query, names, c.want, c.after)
		}
		for _, k := range c.none {
			if slices.Contains(names, k) {
				t.Errorf("%q: shows %s", c.query, k)
			}
		}
	}
	p, _ := navPage(t, "")
	if n := len(formInputs(p)); n != 35 {
		t.Errorf("the default form has %d inputs, want 35: the preset, 67 fields, none of the 33 that one limiter or breaker reads", n)
	}

	// Changing the limiter shows its parameters; what was typed in another's stays, with its
	// value, even once typed back to the default.
	p, d := navPage(t, "rate=10&limiter=grpc")
	pause := pauseWhenTold(t)
	typeKeys(p, d, "maxtokens", "50", func(string) {})
	pause()
	waitTyping(t, p, d)
	typeInto(p, d, "limiter", "finagle")
	if names := formInputs(p); !after(names, "limiter", "maxtokens", "ttl", "minretries", "retrypct", "breaker") {
		t.Errorf("after choosing finagle: inputs %v", names)
	}
	if v := inputByID(t, p, "in-maxtokens")["value"]; v != "50" {
		t.Errorf("maxtokens shows %q, want the 50 typed", v)
	}
	typeKeys(p, d, "maxtokens", "10", func(string) {}) // its default, while finagle is chosen
	pause()
	waitTyping(t, p, d)
	if !slices.Contains(formInputs(p), "maxtokens") {
		t.Error("maxtokens went from under the person's hands when typed back to its default")
	}
	// A new link starts afresh.
	d.Nav(&url.URL{Path: "/", RawQuery: "rate=10&limiter=finagle"})
	settle(t, p, d)
	if slices.Contains(formInputs(p), "maxtokens") {
		t.Error("a new link still shows maxtokens, edited under the previous one")
	}
}

// TestChosenParamsMatchHints: every parameter that a hint says one limiter or breaker reads is
// shown with that one, in the group of its select, and every choice is one of its select's.
func TestChosenParamsMatchHints(t *testing.T) {
	listed := map[string]string{}
	for _, c := range chosenParams {
		for _, k := range c.keys {
			listed[k] = c.choice
		}
	}
	for _, g := range formGroups {
		options := map[string][]string{}
		for _, f := range g.fields {
			options[f.key] = f.options
		}
		for _, f := range g.fields {
			reader, _, says := strings.Cut(f.hint, " reads this:")
			if choice, ok := listed[f.key]; says && (!ok || choice != reader) {
				t.Errorf("%s: read by %s, listed with %q (%v)", f.key, reader, choice, ok)
			}
			delete(listed, f.key)
		}
		for _, c := range chosenParams {
			if opts, ok := options[c.chooser]; ok && c.choice != "" && !slices.Contains(opts, c.choice) {
				t.Errorf("%s is no choice of %s (%v)", c.choice, c.chooser, opts)
			}
		}
	}
	if len(listed) > 0 {
		t.Errorf("keys of no field: %v", listed)
	}
}

// inputByID is the attributes of the page's input whose id is id.
func inputByID(t *testing.T, p *page, id string) map[string]string {
	t.Helper()
	for _, e := range elements(app.HTMLString(p), "input") {
		if e["id"] == id {
			return e
		}
	}
	t.Fatalf("no input %s", id)
	return nil
}

// Choosing a preset says what it set that its library does not say, where that changed an
// input, as an import does: a person's 5 s budget went to 0 silently, and the modes table's
// ratio with it. Once an input is edited the preset, and what it said, go.
func TestPresetSaysWhatItSet(t *testing.T) {
	p, d := navPage(t, "budget=5s")
	p.choosePreset(d.Context(), "aws-go-v2-2026")
	p.Update()
	d.Consume()
	settleIn(p, d)
	const want = "It set, where its library does not say them, changing the inputs the page had: " +
		"budget=0 (was 5s): the preset sets no time limit on the retries; " +
		"ratio=0 (was 0.2): jitter full reads no ratio; the modes table&#39;s proportional row does."
	if html := app.HTMLString(p); !strings.Contains(html, want) {
		t.Errorf("the preset's fieldset does not say what it set:\n%s", html[strings.Index(html, `id="preset"`):][:1500])
	}
	typeInto(p, d, "attempts", "4")
	if html := app.HTMLString(p); strings.Contains(html, `id="preset-set"`) {
		t.Error("what the preset set is still said after an edit")
	}
	// A preset that changes neither says nothing.
	p, d = navPage(t, "budget=0&ratio=0")
	p.choosePreset(d.Context(), "aws-go-v2-2026")
	p.Update()
	d.Consume()
	if html := app.HTMLString(p); strings.Contains(html, `id="preset-set"`) {
		t.Error("a preset that changed no such input says it did")
	}
}
