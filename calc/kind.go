package calc

// kind is one entry of a table of kinds: of retry limiters (limiter.go) and of whatever else a
// client puts between a failure and its retry, each kind named in links and following one
// library's rule. The table, indexed by its kind type, is the only place that tells the kinds
// apart; a completeness test checks every entry and that no code elsewhere branches on a kind
// (see kind_test.go). P is the parameters the kinds read theirs from, T what a kind makes.
type kind[P, T any] struct {
	name   string // in links, the form and the tables
	source string // where its rule is read from: the library, its file and version
	// fresh returns a new one from the parameters; nil for the kind that does nothing, the
	// zero value of its kind type.
	fresh func(P) T
	// words says in one sentence what the kind bounds the load to when every attempt fails,
	// starting with its name and a colon.
	words func(p Params) string
	// errorBound is the most retries per request, in the long run, the kind allows when each
	// attempt fails with probability p.FailRate and nothing else fails; ok is false where it
	// puts no bound on them. nil: no bound.
	errorBound func(p Params) (retries float64, ok bool)
	// errorsOnly says the kind is shown beside the others only with an error rate (Params.Shown).
	errorsOnly bool
	// gate is a breaker's threshold and open period as its parameters set them
	// (Params.BreakerFacts); nil for every other kind, and for no breaker.
	gate func(P) breakerGate
	// bulky says one of the kind per client process no longer fits the processor's cache in
	// more than wideProcesses processes, so that a run with it costs more (caseWeight).
	bulky bool
}

// kindNames are the names of a table's kinds, in its order.
func kindNames[P, T any](table []kind[P, T]) []string {
	names := make([]string, len(table))
	for i, k := range table {
		names[i] = k.name
	}
	return names
}
