// Package engine is the work that the page hands its Web Workers (app/engine), as messages that
// cross between them: a kind of work (app/internal/work) and its input in, a reply out, both
// text. The page's own wasm then holds none of what the work needs (the import's parser, the
// simulations, the exporters), and its thread none of the time the work takes.
package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/app/internal/imported"
	"backoffcalc/app/internal/report"
	"backoffcalc/app/internal/work"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/sim"
)

// Handle does one piece of work of kind on input and returns its reply as JSON, and for an
// overload run its windows' bytes (work.OverloadOut). pause is called between steps of a
// simulation, as calc/sim's pausing functions call it: when it returns false the work stops, and
// Handle reports done false with no reply. Handle never panics: a panic of the work's is its
// reply's (work.Reply's Panic), so that the worker stays up for the next.
func Handle(kind, input string, pause func() bool) (reply string, bytes []byte, done bool) {
	switch kind {
	case work.Import:
		var r imported.Reply
		if err := recovered(func() { r = imported.Answer(importcfg.Read(input)) }); err != nil {
			r = imported.Reply{Err: "import: " + err.Error()}
		}
		return encode(r), nil, true
	case work.Herd:
		reply, done = simulate(input, func(in work.HerdIn) (sim.HerdRun, bool, error) {
			return sim.HerdModePausing(in.Params, in.Mode, pause)
		})
	case work.Fluid:
		reply, done = simulate(input, func(in work.HerdIn) (fluid.Run, bool, error) {
			return fluid.ModePausing(in.Params, in.Mode, pause)
		})
	case work.Overload:
		reply, done = simulate(input, func(in work.OverloadIn) (out work.OverloadOut, ok bool, err error) {
			run, ok, err := sim.OverloadPausing(in.Params, in.Case, pause)
			out, bytes = work.CutOverload(run)
			return out, ok, err
		})
	case work.Contention:
		reply, done = simulate(input, func(in work.ContentionIn) ([]contention.Result, bool, error) {
			return contention.RunPausing(in.Params.Params, in.Clients, in.Runs, in.Modes, pause)
		})
	case work.Export:
		reply, done = simulate(input, func(in work.ExportIn) (work.ExportOut, bool, error) {
			out, err := Export(in)
			return out, true, err
		})
	case work.Copy:
		reply, done = simulate(input, func(in work.CopyIn) (string, bool, error) {
			text, err := Copy(in)
			return text, true, err
		})
	default:
		reply, done = encode(work.Reply[struct{}]{Err: fmt.Sprintf("engine: no work of kind %q", kind)}), true
	}
	if !done {
		return "", nil, false
	}
	return reply, bytes, true
}

// Copy is in's results as a copy button copies them: as table writes them in in's format.
func Copy(in work.CopyIn) (string, error) {
	var write func(io.Writer, report.Results) error
	switch in.Format {
	case "csv":
		write = report.WriteCSV
	case "md":
		write = report.WriteMarkdown
	default:
		return "", fmt.Errorf("engine: no copy in the format %q", in.Format)
	}
	var b strings.Builder
	err := write(&b, in.Results)
	return b.String(), err
}

// Export is the Export panel's library for in's policy (libs.ExportOf), as the panel shows it;
// an error for a name that is no library's.
func Export(in work.ExportIn) (work.ExportOut, error) {
	e, ok := libs.ExportOf(in.Params(), in.Lib)
	if !ok {
		return work.ExportOut{}, fmt.Errorf("engine: no library %q", in.Lib)
	}
	return work.Shown(e), nil
}

// simulate decodes input as In, runs it and writes its work.Reply.
func simulate[In, Out any](input string, run func(In) (Out, bool, error)) (string, bool) {
	var in In
	if err := json.Unmarshal([]byte(input), &in); err != nil {
		return encode(work.Reply[Out]{Panic: "engine: the page's input: " + err.Error()}), true
	}
	var r work.Reply[Out]
	done := true
	panicked := recovered(func() {
		out, ok, err := run(in)
		r.Out, done = out, ok || err != nil
		if err != nil {
			r.Err = err.Error()
		}
	})
	if panicked != nil {
		r, done = work.Reply[Out]{Panic: panicked.Error()}, true
	}
	if !done {
		return "", false
	}
	return encode(r), true
}

// recovered runs f and returns the panic it recovered from, as an error; nil when f returned.
func recovered(f func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = errors.New(fmt.Sprint(v))
		}
	}()
	f()
	return nil
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil { // replies are numbers and strings (calc's are finite): it cannot fail
		return fmt.Sprintf(`{"Panic":%q}`, "engine: "+err.Error())
	}
	return string(b)
}
