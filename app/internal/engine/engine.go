// Package engine is the work that the page hands its Web Worker (app/engine), as messages that
// cross between them: a kind of work and its input in, a reply out, both text. The page's own
// wasm then holds none of what the work needs (the import's parser), and its thread none of the
// time the work takes. Natively, the page's component tests call Handle directly, so that they
// go through the same replies.
package engine

import (
	"encoding/json"
	"fmt"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/app/internal/imported"
	"backoffcalc/app/internal/work"
)

// Handle does one piece of work of kind (app/internal/work) on input and returns its reply as JSON. It never
// panics: a panic of the work's is its reply's error, so that the worker stays up for the next.
func Handle(kind, input string) (reply string) {
	defer func() {
		if v := recover(); v != nil {
			reply = encode(failed{Err: fmt.Sprintf("engine: the %s failed: %v", kind, v)})
		}
	}()
	switch kind {
	case work.Import:
		return encode(imported.Answer(importcfg.Read(input)))
	}
	return encode(failed{Err: fmt.Sprintf("engine: no work of kind %q", kind)})
}

// failed is a reply that carries only its error, in the field every reply has.
type failed struct{ Err string }

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil { // a reply is strings and numbers: it cannot fail
		panic(err)
	}
	return string(b)
}
