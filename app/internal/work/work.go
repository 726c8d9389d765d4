// Package work names the kinds of work that the page hands its Web Workers (app/engine, through
// app/internal/engine), with their inputs and replies: what the page's wasm and the worker's both
// know of their messages, and nothing that does the work, which the page's wasm must not link.
// Inputs and replies cross as JSON.
package work

import (
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
)

// The kinds of work, each with its input and its reply.
const (
	Import     = "import"     // a configuration's text in; an imported.Reply out
	Herd       = "herd"       // a HerdIn in; a Reply[calc.HerdRun] out
	Fluid      = "fluid"      // a HerdIn in; a Reply[fluid.Run] (calc/fluid) out: the herd's expected counts
	Overload   = "overload"   // an OverloadIn in; a Reply[calc.OverloadRun] out
	Contention = "contention" // a ContentionIn in; a Reply[[]contention.Result] out
)

// HerdIn is one mode's herd: calc.Params.HerdModePausing.
type HerdIn struct {
	Params calc.Params
	Mode   calc.HerdMode
}

// OverloadIn is one case of the overload view: calc.Params.OverloadPausing.
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

// Reply is a simulation's answer: its result, or the error calc returned, or the panic the work
// recovered from (a bug: the page panics with it in turn, so that it asks for the link to be
// reported as for its own).
type Reply[T any] struct {
	Out   T
	Err   string `json:",omitempty"`
	Panic string `json:",omitempty"`
}
