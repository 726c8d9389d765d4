package engine

import (
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/app/internal/imported"
	"backoffcalc/app/internal/report"
	"backoffcalc/app/internal/work"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/sim"
)

// An import's reply is what importcfg read, its lists cut to imported.Shown lines with how many
// more, through JSON as it crosses to the page.
func TestImportReply(t *testing.T) {
	for _, c := range []struct {
		text        string
		moreIgnored int
	}{
		{"retry_policy:\n  num_retries: 3\n  per_try_timeout: 2s\n", 0},
		{"[default]\nretry_mode = standard\n" + strings.Repeat("k=1\n", 16300), 16100},
		{"retry_policy:\n  num_retries: x\n", 0},
	} {
		var got imported.Reply
		if err := json.Unmarshal([]byte(first(Handle(work.Import, c.text, nil))), &got); err != nil {
			t.Fatal(err)
		}
		r, err := importcfg.Read(c.text)
		if err != nil {
			if got.Err != err.Error() || got.Format != "" {
				t.Errorf("%.30q: reply %+v, want the error %q", c.text, got, err)
			}
			continue
		}
		if got.Err != "" || got.Format != r.Format || !reflect.DeepEqual(got.Values, r.Values) || !reflect.DeepEqual(got.Defaults, r.Defaults) ||
			!reflect.DeepEqual(got.Read, r.Read) || got.MoreIgnored != c.moreIgnored || len(got.Ignored) != len(r.Ignored)-c.moreIgnored ||
			(len(got.Ignored) > 0 && got.Ignored[len(got.Ignored)-1] != r.Ignored[len(got.Ignored)-1]) {
			t.Errorf("%.30q: reply %+v\nread %+v", c.text, got, r)
		}
		if len(got.Ignored) > imported.Shown {
			t.Errorf("%d ignored lines cross, at most %d", len(got.Ignored), imported.Shown)
		}
	}
}

// Work of a kind the engine does not know is refused by name, in the reply's error.
func TestUnknownKind(t *testing.T) {
	var got struct{ Err string }
	if err := json.Unmarshal([]byte(first(Handle("nope", "", nil))), &got); err != nil || got.Err != `engine: no work of kind "nope"` {
		t.Errorf("%v, %q", err, got.Err)
	}
}

func first(reply string, _ []byte, _ bool) string { return reply }

// simQueries are links whose simulations cross to the engine: herds of classic and library
// modes, open systems with every kind of limiter and breaker, latency that grows with load, and
// the contention experiment.
var simQueries = []string{
	"clients=500&attempts=8&outage=2s&window=50ms&capacity=40&spread=100ms&jitter=decorrelatedv2&seed=3",
	"growth=polynomial0&factor=4&base=1s&cap=168h&attempts=26&jitter=sidekiq&offset=15s&samples=1000&clients=50&outage=1h&window=1h&capacity=10",
	"rate=200&run=2s&arrivals=poisson&failrate=0.3&queue=10&timeout=300ms&outage=500ms&limiter=adaptive&processes=2&clients=20&capacity=30&seed=3",
	"rate=100&run=3s&arrivals=poisson&failrate=0.2&timeout=300ms&outage=1s&breaker=gobreaker&processes=2&clients=20&capacity=40&window=50ms&seed=5",
	"rate=150&run=3s&failrate=0.4&queue=10&timeout=200ms&outage=700ms&breaker=sre&breakerat=call&breakers=shared&limiter=aws&clients=30&capacity=20&window=50ms&seed=9",
	"rate=60&run=20s&arrivals=poisson&attempts=3&capacity=0&window=500ms&timeout=3s&latency=1s&slope=10ms&limiter=adaptive",
	"contenders=20&runs=5&jitter=full&seed=2",
	// Over the simulation's limits: the herd's expected counts (work.Fluid).
	"clients=1000000&outage=2s&capacity=5000",
	"clients=1000000000&capacity=0&jitter=decorrelatedv2",
}

// The params cross as JSON whole: every preset's, and every link's above, decode to the same
// params on the other side.
func TestParamsCrossWhole(t *testing.T) {
	queries := slices.Clone(simQueries)
	for _, pr := range libs.Presets() {
		queries = append(queries, "preset="+pr.Name+"&clients=30&limiter=grpc&breaker=resilience4j")
	}
	for _, q := range queries {
		p, err := libs.Decode(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		b, err := json.Marshal(work.HerdIn{Params: p})
		if err != nil {
			t.Fatal(err)
		}
		var back work.HerdIn
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Params, p) {
			t.Errorf("%s: %v\n got %+v\nwant %+v", q, err, back.Params, p)
		}
	}
}

// Each simulation's reply is calc's own result, whole, through JSON.
func TestSimulationReplies(t *testing.T) {
	for _, q := range simQueries {
		p, err := libs.Decode(q)
		if err != nil {
			t.Fatal(err)
		}
		if p.Open() {
			for _, c := range p.OverloadCases()[:2] {
				want, _, err := sim.OverloadPausing(p, c, nil)
				cut, _ := work.CutOverload(want)
				got, bytes := checkReply(t, q, work.Overload, work.OverloadIn{Params: p, Case: c}, cut, err)
				w, into := work.Windows(got.Windows)
				copy(into, bytes)
				if got.Run.Windows = w; len(bytes) != len(into) || got.Layout != work.WindowLayout || !reflect.DeepEqual(got.Run, want) {
					t.Errorf("%s: the run whole again differs: %d bytes for %d windows", q, len(bytes), got.Windows)
				}
			}
			continue
		}
		if p.Contenders > 0 && p.Clients == calc.Default().Clients {
			modes := contention.ModesOf(p.Params)
			want, _, err := contention.RunPausing(p.Params, p.Contenders, p.Runs, modes, nil)
			checkReply(t, q, work.Contention, work.ContentionIn{Params: p, Clients: p.Contenders, Runs: p.Runs, Modes: modes}, want, err)
		}
		for _, m := range p.HerdModes() {
			if !p.HerdSimulated() {
				want, err := fluid.Mode(p, m)
				checkReply(t, q, work.Fluid, work.HerdIn{Params: p, Mode: m}, want, err)
				continue
			}
			want, _, err := sim.HerdModePausing(p, m, nil)
			checkReply(t, q, work.Herd, work.HerdIn{Params: p, Mode: m}, want, err)
		}
	}
}

func checkReply[In, Out any](t *testing.T, q, kind string, in In, want Out, wantErr error) (Out, []byte) {
	t.Helper()
	b, _ := json.Marshal(in)
	reply, bytes, done := Handle(kind, string(b), nil)
	var got work.Reply[Out]
	if err := json.Unmarshal([]byte(reply), &got); err != nil || !done {
		t.Fatalf("%s %s: %v, done %v", q, kind, err, done)
	}
	if wantErr != nil {
		if got.Err != wantErr.Error() {
			t.Errorf("%s %s: error %q, want %q", q, kind, got.Err, wantErr)
		}
		return got.Out, bytes
	}
	if got.Err != "" || got.Panic != "" || !reflect.DeepEqual(got.Out, want) {
		t.Errorf("%s %s: reply %+v\nwant %+v", q, kind, got, want)
	}
	return got.Out, bytes
}

// A simulation that its pause stops has no reply, done false: the worker says cancelled.
func TestSimulationStops(t *testing.T) {
	p, err := libs.Decode("clients=20000&attempts=8&outage=2s&capacity=40")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(work.HerdIn{Params: p, Mode: p.HerdModes()[1]})
	calls := 0
	reply, _, done := Handle(work.Herd, string(b), func() bool { calls++; return false })
	if done || reply != "" || calls == 0 {
		t.Errorf("reply %.40q, done %v after %d pauses", reply, done, calls)
	}
}

// An overload window crosses as its memory: it must hold whole numbers only, no pointer (a
// string, a slice), whose bytes would mean nothing in the page's wasm.
func TestWindowsAreNumbers(t *testing.T) {
	typ := reflect.TypeFor[sim.OverloadWindow]()
	for i := range typ.NumField() {
		switch f := typ.Field(i); f.Type.Kind() {
		case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint8, reflect.Bool:
		default:
			t.Errorf("sim.OverloadWindow.%s is a %s: it cannot cross as bytes (work.WindowBytes)", f.Name, f.Type)
		}
	}
}

// exportQueries are policies the Export panel writes: the defaults, edges of every exporter (one
// attempt, no jitter, the cap after the jitter, a budget, decorrelated jitter, linear growth,
// sub-millisecond values, the overflow row), a call time, and links with other models' keys,
// which the panel does not read; every preset is added.
var exportQueries = []string{
	"",
	"attempts=1",
	"jitter=none&cap=1s&attempts=8",
	"jitter=proportional&ratio=0.5&cap=1s&capat=after&attempts=8",
	"budget=2s&attempts=10&cap=1s&call=150ms",
	"jitter=decorrelated&cap=1s&attempts=8",
	"growth=linear&jitter=proportional&ratio=0.25&attempts=5&cap=168h",
	"base=150us&factor=3&cap=20ms&jitter=full&attempts=5",
	"factor=100&attempts=1000&cap=168h&jitter=none",
	"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12&budget=5s",
	"jitter=additive&add=1s&base=1s&cap=30s&attempts=6&offset=2s",
	"clients=500&outage=2s&capacity=40&samples=1000&seed=7&layers=3",
	"rate=200&run=2s&failrate=0.3&limiter=adaptive&breaker=gobreaker&base=50ms",
}

// The Export panel's reply is libs.ExportOf's export of the whole link's params, for every
// library, through JSON as it crosses: its library, every block of code and every difference
// (not its Model and Config, which the panel does not show).
func TestExportReplies(t *testing.T) {
	queries := slices.Clone(exportQueries)
	for _, pr := range libs.Presets() {
		queries = append(queries, "preset="+pr.Name)
	}
	for _, q := range queries {
		p, err := libs.Decode(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		for _, l := range libs.Libraries() {
			want, ok := libs.ExportOf(p, l.Lib)
			got := replyTo[work.ExportOut](t, work.Export, work.ExportOf(p, l.Lib))
			if !ok || got.Err != "" || got.Panic != "" {
				t.Fatalf("%q %s: ok %v, reply %+v", q, l.Lib, ok, got)
			}
			if e := got.Out; e.Lib != l.Lib || e.Title != want.Title || !slices.Equal(e.Presets, want.Presets) ||
				!slices.Equal(e.Snippets, want.Snippets) || !slices.Equal(e.Diffs, want.Diffs) {
				t.Errorf("%q %s: reply %+v\nwant %+v", q, l.Lib, e, want)
			}
		}
	}
	// A name that is no library's is refused by name.
	if got := replyTo[work.ExportOut](t, work.Export, work.ExportOf(calc.Default(), "nope")); got.Err != `engine: no library "nope"` || got.Out.Lib != "" {
		t.Errorf("%+v", got)
	}
}

// replyTo is the engine's reply to in, of kind, decoded as the page decodes it.
func replyTo[Out any](t *testing.T, kind string, in any) work.Reply[Out] {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	reply, bytes, done := Handle(kind, string(b), nil)
	var got work.Reply[Out]
	if err := json.Unmarshal([]byte(reply), &got); err != nil || !done || bytes != nil {
		t.Fatalf("%s %+v: %v, done %v, %d bytes", kind, in, err, done, len(bytes))
	}
	return got
}

// A copy's results cross to the worker whole: what the worker writes of them after their JSON
// is what the writers write of them as they are, in both formats, for every kind of result (the
// report with its sampled fit, herds simulated and expected, overload runs with limiters and
// breakers, the contention experiment) and B beside A. An unknown format is refused by name.
func TestCopyReplies(t *testing.T) {
	for _, q := range append(slices.Clone(simQueries), exportQueries...) {
		link, err := libs.DecodeLink(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		p := link.Params
		r := p.Report()
		r.AddSolveSamples(nil)
		res := report.Results{Report: r, Cont: report.Contention{Params: p}}
		switch {
		case p.Open():
			res.Over = runsOf(p.OverloadCases(), func(c calc.OverloadCase) (sim.OverloadRun, error) { return sim.Overload(p, c) })
		case p.HerdSimulated():
			res.Herd = runsOf(p.HerdModes(), func(m calc.HerdMode) (sim.HerdRun, error) { return sim.HerdMode(p, m) })
		default:
			res.Fluid = runsOf(p.HerdModes(), func(m calc.HerdMode) (fluid.Run, error) { return fluid.Mode(p, m) })
		}
		if strings.Contains(q, "contenders=") {
			if res.Cont.Table, err = contention.Run(p.Params, p.Contenders, p.Runs, contention.ModesOf(p.Params)...); err != nil {
				t.Fatalf("%q: %v", q, err)
			}
		}
		if q == "budget=2s&attempts=10&cap=1s&call=150ms" {
			b := calc.Default()
			b.Base *= 2
			res.Cmp = &report.Compared{Comparison: calc.Compare(r, b.ReportBounds()), Vs: "base=200ms"}
		}
		for format, write := range map[string]func(io.Writer, report.Results) error{"csv": report.WriteCSV, "md": report.WriteMarkdown} {
			var want strings.Builder
			if err := write(&want, res); err != nil {
				t.Fatalf("%q %s: %v", q, format, err)
			}
			if got := replyTo[string](t, work.Copy, work.CopyIn{Results: res, Format: format}); got.Err != "" || got.Panic != "" || got.Out != want.String() {
				t.Errorf("%q %s: the worker writes\n%s\n(%q %q), not\n%s", q, format, got.Out, got.Err, got.Panic, want.String())
			}
		}
	}
	if got := replyTo[string](t, work.Copy, work.CopyIn{Results: report.Results{Report: calc.Default().Report()}, Format: "text"}); got.Err != `engine: no copy in the format "text"` || got.Out != "" {
		t.Errorf("%+v", got)
	}
}

// runsOf is run of each of xs, or nil when one fails: past its model's limits, the page shows
// and copies none of them.
func runsOf[X, R any](xs []X, run func(X) (R, error)) []R {
	var out []R
	for _, x := range xs {
		r, err := run(x)
		if err != nil {
			return nil
		}
		out = append(out, r)
	}
	return out
}
