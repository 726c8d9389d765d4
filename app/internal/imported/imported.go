// Package imported is what an import of a configuration read (app/internal/importcfg reads it),
// and how it changes a link: the page's side of the import. The page receives a Result from the
// engine worker, which reads the text, so that the page's wasm holds no parser; this package
// holds nothing that reads.
package imported

import (
	"fmt"
	"net/url"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
)

// Result is what an import read.
type Result struct {
	Format string // the format it was read as, in words: "gRPC service config (JSON)"
	// Values are the link's inputs the configuration sets, as query keys: every key of
	// policy.Policy (a configuration says the whole policy, its library's defaults filling what it
	// leaves out) and of the models a retry configuration speaks for, the attempt timeout, the
	// retry limiter and the circuit breaker (importcfg's modelKeys), at their defaults where the
	// configuration does not say them.
	Values  url.Values
	Read    []string // what it read, one line each, naming the key and the input it set
	Ignored []string // what it did not read, one line each, naming the key and why
	// Defaults are the inputs it set that the configuration does not say, and that a number
	// reads: no attempt timeout, no limiter, a ratio that the library's jitter has not. Applied
	// says which of them changed what a link had.
	Defaults []Default
}

// Default is an input an import set that its configuration does not say.
type Default struct {
	Key, Value string
	Why        string // "the configuration sets no attempt timeout"
}

// Link is the link's query after the import: the current link's keys that the import does not
// set, but its preset (the import says the whole policy), and the import's. Whatever current
// had of the import's keys, the import's replace them: importing a configuration gives the same
// link on a fresh page as after any other import.
func (r Result) Link(current url.Values) url.Values {
	out := url.Values{}
	for k, v := range current {
		if _, set := r.Values[k]; !set && k != "preset" {
			out[k] = v
		}
	}
	for k, v := range r.Values {
		out[k] = v
	}
	return out
}

// Query is Link written as the page writes its link (libs.Link.Values, calc.SolveSet.SetIn):
// the keys no number reads left out at their defaults. A link with a value calc refuses is
// Link as it is, for its decoder to name the value.
func (r Result) Query(current url.Values) string {
	v := r.Link(current)
	l, err := libs.DecodeLinkValues(v)
	if err != nil {
		return v.Encode()
	}
	open, _ := calc.DecodeSolveValues(v)
	out := l.Values()
	open.SetIn(out)
	return out.Encode()
}

// Applied are the Defaults that change what current (the link before the import) had, one
// line each: "timeout=0 (was 2s): the configuration sets no attempt timeout". A key current
// leaves out, or has a value calc refuses, is at its default.
func (r Result) Applied(current url.Values) []string {
	p, _ := libs.DecodeValues(current)
	before := p.AllValues()
	var out []string
	for _, d := range r.Defaults {
		if was := before.Get(d.Key); was != d.Value {
			out = append(out, fmt.Sprintf("%s=%s (was %s): %s", d.Key, d.Value, was, d.Why))
		}
	}
	return out
}

// Shown is how many lines of each list of what an import said cross to the page: a valid 64 KB
// file can have 16,000 keys it ignores, and as many items would freeze the page for seconds
// (table -import prints them all).
const Shown = 200

// Reply is an import as the engine worker sends it to the page: what it read, its lists cut to
// Shown lines each and how many lines each left out, or why it was refused.
type Reply struct {
	Result
	MoreRead, MoreIgnored int    // lines past Shown
	Err                   string // why the import was refused; "" when it was read
}

// Answer is the Reply of an import that read r, or was refused with err.
func Answer(r Result, err error) Reply {
	if err != nil {
		return Reply{Err: err.Error()}
	}
	out := Reply{Result: r}
	out.Read, out.MoreRead = shown(r.Read)
	out.Ignored, out.MoreIgnored = shown(r.Ignored)
	return out
}

func shown(lines []string) ([]string, int) {
	if len(lines) <= Shown {
		return lines, 0
	}
	return lines[:Shown], len(lines) - Shown
}
