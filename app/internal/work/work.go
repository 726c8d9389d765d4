// Package work names the kinds of work that the page hands its Web Workers (app/engine, through
// app/internal/engine), with their inputs and replies: what the page's wasm and the worker's both
// know of their messages, and nothing that does the work, which the page's wasm must not link.
// Inputs and replies cross as JSON.
package work

import (
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// The kinds of work, each with its input and its reply.
const (
	Import     = "import"     // a configuration's text in; an imported.Reply out
	Herd       = "herd"       // a HerdIn in; a Reply[sim.HerdRun] out
	Fluid      = "fluid"      // a HerdIn in; a Reply[fluid.Run] (calc/fluid) out: the herd's expected counts
	Overload   = "overload"   // an OverloadIn in; a Reply[OverloadOut] out
	Contention = "contention" // a ContentionIn in; a Reply[[]contention.Result] out
	Export     = "export"     // an ExportIn in; a Reply[ExportOut] out: the Export panel's library for the policy
	Copy       = "copy"       // a CopyIn in; a Reply[string] out: the page's report as a copy button copies it
)

// CopyIn is what a copy button copies: the page's results, in a Format, "csv" or "md", as table
// -format writes them. The page's wasm links no report writer: the worker writes the text.
type CopyIn struct {
	Results report.Results
	Format  string
}

// HerdIn is one mode's herd: calc/sim's HerdModePausing.
type HerdIn struct {
	Params calc.Params
	Mode   calc.HerdMode
}

// OverloadIn is one case of the overload view: calc/sim's OverloadPausing.
type OverloadIn struct {
	Params calc.Params
	Case   calc.OverloadCase
}

// ContentionIn is one point of the contention experiment: contention.RunPausing.
type ContentionIn struct {
	Params  calc.Params
	Clients int
	Runs    int
	Modes   []contention.Mode
}

// ExportIn is what the Export panel shows, libs.ExportOf of Params for Lib: the inputs the
// panel reads (the policy, the calls' time in the schedule's starts, the preset's name, and the
// client's attempt timeout, retry limiter and circuit breaker, which an export writes or names
// as not written; not the herd, the sampling, the layers, the stream or the breakers'
// parameters, whose edits leave the panel as it is) and the library. It is comparable: the page
// knows by it whether a reply is for what it shows.
type ExportIn struct {
	Policy  policy.Policy
	Call    time.Duration
	Preset  string
	Timeout time.Duration
	Limiter limiter.Kind
	Limits  limiter.Params
	Breaker breaker.Kind
	Lib     string // a libs.Library's Lib
}

// ExportOf is the panel's input for params and lib.
func ExportOf(params calc.Params, lib string) ExportIn {
	return ExportIn{Policy: params.Policy, Call: params.Call, Preset: params.Preset, Timeout: params.Timeout,
		Limiter: params.Limiter, Limits: params.Limits, Breaker: params.Breaker, Lib: lib}
}

// Params are the inputs the panel is written for: the defaults with in's.
func (in ExportIn) Params() calc.Params {
	p := calc.Default()
	p.Policy, p.Call, p.Preset = in.Policy, in.Call, in.Preset
	p.Timeout, p.Limiter, p.Limits, p.Breaker = in.Timeout, in.Limiter, in.Limits, in.Breaker
	return p
}

// ExportOut is what the panel shows of a libs.Export: the library, its code and its
// differences; not its Model or Config, which only the tests of calc/libs and the import read.
type ExportOut struct {
	libs.Library
	Snippets []libs.Snippet `json:",omitempty"`
	Diffs    []string       `json:",omitempty"`
}

// Shown is what the panel shows of e.
func Shown(e libs.Export) ExportOut {
	return ExportOut{Library: e.Library, Snippets: e.Snippets, Diffs: e.Diffs}
}

// Reply is a simulation's answer: its result, or the error calc returned, or the panic the work
// recovered from (a bug: the page panics with it in turn, so that it asks for the link to be
// reported as for its own).
type Reply[T any] struct {
	Out   T
	Err   string `json:",omitempty"`
	Panic string `json:",omitempty"`
}

// OverloadOut is an overload run as it crosses: its Windows, up to thousands, cross apart from
// the JSON, as their memory (WindowBytes), which the page copies into windows of its own with
// no decoding and no garbage. Decoded from JSON, the work limit's 2,290 windows took 68 ms of the
// page's thread, and the garbage of a view's 17 runs brought a collection of 60 ms (gc_js.go).
type OverloadOut struct {
	Run     sim.OverloadRun // without its Windows
	Windows int             // how many windows the bytes hold
	Layout  string          // WindowLayout of the build that wrote them
}

// CutOverload is run as it crosses: the JSON's part, and the windows' bytes.
func CutOverload(run sim.OverloadRun) (OverloadOut, []byte) {
	out := OverloadOut{Run: run, Windows: len(run.Windows), Layout: WindowLayout}
	out.Run.Windows = nil
	return out, WindowBytes(run.Windows)
}

// WindowBytes is the memory of w, not a copy.
func WindowBytes(w []sim.OverloadWindow) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*int(unsafe.Sizeof(w[0])))
}

// Windows are n new windows, and their memory to copy bytes written by WindowBytes into. An
// OverloadWindow holds whole numbers only (TestWindowsAreNumbers): its bytes are its value.
func Windows(n int) ([]sim.OverloadWindow, []byte) {
	w := make([]sim.OverloadWindow, n)
	return w, WindowBytes(w)
}

// WindowLayout names the layout of sim.OverloadWindow, field by field: the page refuses
// windows written by a build whose layout is another (a worker's wasm from an older deploy).
var WindowLayout = func() string {
	t := reflect.TypeFor[sim.OverloadWindow]()
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", t.Size())
	for i := range t.NumField() {
		f := t.Field(i)
		fmt.Fprintf(&b, "%s %s %d;", f.Name, f.Type, f.Offset)
	}
	return b.String()
}()
