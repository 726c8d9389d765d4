//go:build !js

package main

// The first screen written before go-app starts, on HTML made for another query (prewrite): the
// static site's page of a link shows the link's numbers, the terminal table's, from the frame the
// wasm wrote them in, never another link's; the sections below stay hidden until the wasm's
// render; what is typed into it is kept; a bad link stays hidden as before.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// terminalCells is what `backoffcalc table -format json QUERY` prints for the schedule and the
// totals, keyed as prewriteWatch reads the page: "attempt/column" (data-ms, "" where the page
// shows none) and the totals' ids.
func terminalCells(t *testing.T, query string) map[string]string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := runCommand([]string{"table", "-format", "json", query}, &out, &errOut); code != 0 {
		t.Fatalf("table -format json %q: exit %d: %s", query, code, errOut.String())
	}
	var table struct {
		Attempts []map[string]any       `json:"attempts"`
		Total    map[string]json.Number `json:"total_wait"`
	}
	dec := json.NewDecoder(&out)
	dec.UseNumber()
	if err := dec.Decode(&table); err != nil {
		t.Fatal(err)
	}
	cells := map[string]string{}
	cols := map[string]string{"nominal": "nominal_ms", "min": "min_ms", "mean": "mean_ms", "max": "max_ms",
		"earliest": "earliest_start_ms", "latest": "latest_start_ms", "p50": "p50_start_ms", "p99": "p99_start_ms"}
	for _, a := range table.Attempts {
		for col, key := range cols {
			v := fmt.Sprint(a[key])
			if a["retry"] == json.Number("0") && !strings.Contains(key, "start") {
				v = "" // the first call waits for nothing: the page shows a dash
			}
			cells[fmt.Sprint(a["attempt"])+"/"+col] = v
		}
	}
	for _, k := range []string{"min", "mean", "max", "p50", "p90", "p99"} {
		cells["total-"+k] = table.Total[k+"_ms"].String()
	}
	return cells
}

// prewriteWatch is a script for every new document: at each animation frame until the wasm has
// rendered, it reads the numbers the page shows (visible ones only) and compares them with
// window.prewriteWant, and it keeps the first frame of the HTML the wasm wrote into
// (#app[data-prewritten]): its numbers, which parts show, the form's values.
const prewriteWatch = `(() => {
	const w = window.prewriteWatch = { frames: 0, wrong: [], at: null };
	const shown = (e) => !!e && e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
	const read = () => {
		const out = {};
		for (const td of document.querySelectorAll("#schedule tr[data-attempt] td[data-col][data-ms]")) {
			if (shown(td)) out[td.closest("tr").dataset.attempt + "/" + td.dataset.col] = td.dataset.ms;
		}
		for (const dd of document.querySelectorAll("#totals dd[id]")) if (shown(dd)) out[dd.id] = dd.dataset.ms;
		return out;
	};
	const frame = () => {
		if (document.querySelector('#app[data-render="wasm"]')) return;
		const want = window.prewriteWant;
		if (want && document.querySelector("#app footer")) {
			w.frames++;
			const now = read();
			for (const k in now) if (now[k] !== want[k] && w.wrong.length < 10) w.wrong.push(k + ": " + now[k] + ", want " + want[k]);
			const page = document.querySelector('#app[data-render="server"][data-prewritten]');
			if (page && !w.at) {
				const value = (id) => document.getElementById(id).value;
				w.at = { numbers: now, schedule: shown(document.getElementById("schedule")),
					below: ["modes-numbers", "layers-numbers", "compare-numbers", "herd-results"].filter((id) => shown(document.getElementById(id))),
					loading: shown(page.querySelector(".loading")), inputs: shown(document.getElementById("in-base")),
					base: value("in-base"), attempts: value("in-attempts"), jitter: value("in-jitter"),
					defaults: document.getElementById("in-attempts").defaultValue,
					hint: document.getElementById("in-attempts-hint").textContent };
			}
		}
		requestAnimationFrame(frame);
	};
	requestAnimationFrame(frame);
})()`

// staticTab opens query on the static site in a new profile, with prewriteWatch and the
// numbers it must see.
func staticTab(t *testing.T, query string, scripts ...string) *tab {
	t.Helper()
	srv := startStatic(t, "")
	tb := newTab(t, chromedp.WithNewBrowserContext())
	want, err := json.Marshal(terminalCells(t, query))
	if err != nil {
		t.Fatal(err)
	}
	tb.addScript(`window.prewriteWant = ` + string(want) + `;`)
	tb.addScript(prewriteWatch)
	for _, s := range scripts {
		tb.addScript(s)
	}
	tb.navigate(srv.URL + "/?" + query)
	return tb
}

// prewriteSeen is what prewriteWatch kept.
type prewriteSeen struct {
	Frames int      `json:"frames"`
	Wrong  []string `json:"wrong"`
	At     *struct {
		Numbers                                map[string]string `json:"numbers"`
		Schedule, Loading, Inputs              bool
		Below                                  []string
		Base, Attempts, Jitter, Defaults, Hint string
	} `json:"at"`
}

func TestStaticPrewritesFirstScreen(t *testing.T) {
	const query = "base=300ms&attempts=4&jitter=equal"
	tb := staticTab(t, query)
	tb.waitWasm()
	w := evalJS[prewriteSeen](tb, `window.prewriteWatch`)
	if w.At == nil {
		t.Fatalf("in %d frames before the wasm's render, none showed the HTML the wasm wrote into", w.Frames)
	}
	t.Logf("%d frames before the wasm's render", w.Frames)
	if len(w.Wrong) > 0 {
		t.Errorf("numbers on screen before the wasm's render that are not the table's: %q", w.Wrong)
	}
	want := terminalCells(t, query)
	for k, v := range want {
		if g, ok := w.At.Numbers[k]; !ok || g != v {
			t.Errorf("written before go-app: %s shows %q (on screen: %v), table says %q", k, g, ok, v)
		}
	}
	if !w.At.Schedule || !w.At.Inputs || w.At.Loading || len(w.At.Below) > 0 {
		t.Errorf("written before go-app: schedule shown %v, inputs shown %v, loading line shown %v, shown below the first screen %q; want the first two only",
			w.At.Schedule, w.At.Inputs, w.At.Loading, w.At.Below)
	}
	if w.At.Base != "300ms" || w.At.Attempts != "4" || w.At.Defaults != "4" || w.At.Jitter != "equal" || !strings.HasPrefix(w.At.Hint, "4 attempts") {
		t.Errorf("the form written before go-app: base %q, attempts %q (default %q), jitter %q, hint %q", w.At.Base, w.At.Attempts, w.At.Defaults, w.At.Jitter, w.At.Hint)
	}
	compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
	tb.requireNoConsoleProblems()
}

// TestStaticPrewriteKeepsTyping types into the written page in the task that wrote it, before
// go-app's first render (a person has a frame for it, and keys pressed during that render reach
// the wasm's page): the typed value is applied, the focus and caret come back, keys after it
// go on in the same field.
func TestStaticPrewriteKeepsTyping(t *testing.T) {
	const query = "base=2s&attempts=4"
	tb := staticTab(t, query, `document.addEventListener("DOMContentLoaded", () => {
	const write = window.backoffcalcPrewrite;
	window.backoffcalcPrewrite = (...args) => {
		const written = write(...args);
		const f = document.getElementById("in-attempts");
		if (written) {
			f.focus();
			f.value = "12";
			f.dispatchEvent(new Event("input", { bubbles: true }));
			f.setSelectionRange(1, 1);
			window.typedIntoPrewrite = true;
		}
		return written;
	};
});`)
	tb.waitWasm()
	if !evalJS[bool](tb, `window.typedIntoPrewrite === true`) {
		t.Fatal("the wasm wrote no first screen to type into")
	}
	typedKept(t, tb)
}

// TestStaticPrewriteBadLink opens a link with a bad value on the static site: nothing is written
// before go-app, the other query's numbers and inputs stay hidden in every frame, and the wasm's
// page names the bad value.
func TestStaticPrewriteBadLink(t *testing.T) {
	const query = "base=oops&attempts=4"
	dir := staticSite(t, "")
	srv, release := holdWasm(t, http.FileServer(http.Dir(dir)))
	tb := watchTab(t, firstScreens[0], sampler(`() => document.querySelector("#app[data-prewritten]") ? ["written before go-app"] : (`+staleCheck+`)()`))
	tb.navigate(srv.URL + "/?" + query)
	w := watchUntilWasm(tb, release)
	if len(w.Problems) > 0 {
		t.Errorf("in %d samples from the first paint: %q", w.Samples, w.Problems)
	}
	if msg := evalJS[string](tb, `document.querySelector('#errors li[data-key="base"]')?.textContent ?? ""`); !strings.Contains(msg, "oops") {
		t.Errorf("the wasm's page names the bad base as %q", msg)
	}
	tb.requireNoConsoleProblems()
}
