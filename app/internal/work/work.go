// Package work names the kinds of work that the page hands its Web Worker (app/engine, through
// app/internal/engine): what the page's wasm and the worker's both know of their messages, and
// nothing that does the work, which the page's wasm must not link.
package work

// The kinds of work, each with its input and its reply.
const (
	Import = "import" // a configuration's text in; an imported.Reply out
)
