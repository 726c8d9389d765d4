package libs

import (
	"backoffcalc/calc"
)

// The Export panel: for the current policy, the configuration or code of every retry library
// that can express it, and precisely what each library will do differently. Each exporter models
// what its library does as calc.Params in the policy's own terms (its lib), so the numbers of a
// difference come from calc, and "no differences" means calc computes the same attempts and the
// same bounds and mean of every wait for the library as for the policy. Where a library's own
// arithmetic is finer than that model (Envoy's integer doubling, resilience4j's milliseconds),
// the numbers come from that arithmetic. Differences within a nanosecond (and 1e-9 relative:
// integer durations, float rounding) are not counted.

// Snippet is one block of code or configuration.
type Snippet struct {
	Lang string // java, properties, go, json, …: what the block is written in
	Code string
}

// Export is one library's rendering of a policy.
type Export struct {
	Lib      string    // the block's data-lib name: grpc, cenkalti, client-go, polly, …
	Title    string    // the heading: the library and the form of the snippet
	Presets  []string  // the calc presets this library is the home of: their export is exact
	Snippets []Snippet // none when the library cannot express the policy at all
	Diffs    []string  // what the library does differently, with numbers; none when exact
	// Model is what the library does with the snippet, in calc's terms: the policy itself when
	// Diffs is empty, else the waits and attempts whose numbers Diffs quotes. Set for the Go
	// libraries, whose tests draw from the real modules and compare.
	Model calc.Params
	// Config is the typed configuration the snippet is written from, in the library's own
	// names and units: GRPCRetryPolicy, CenkaltiConfig, WaitBackoff, PollyRetry, TenacityRetry,
	// Resilience4jRetry, EnvoyRetryPolicy or AWSRetryConfig; nil when there is no snippet.
	Config any
}

// renderSnippets is the Export panel for p: per library, a heading, the code, and the list of
// differences (empty when the library does exactly what the policy says). It reports; it does

// Exports renders p for every library, in a fixed order.
func Exports(p calc.Params) []Export {
	s := &libSubject{p: p}
	return []Export{
		exportGRPC(s), exportCenkalti(s), exportClientGo(s), exportPolly(s), exportTenacity(s),
		exportResilience4j(s), exportEnvoy(s), exportAWS(s, "aws-botocore"), exportAWS(s, "aws-botocore-2026"),
		exportAWS(s, "aws-go-v2-2026"), exportAWS(s, "aws-go-v2"),
	}
}

// libSubject is the policy being exported, with its schedule computed once.
type libSubject struct {
	p     calc.Params
	sched *calc.Schedule
}

func (s *libSubject) schedule() calc.Schedule {
	if s.sched == nil {
		sc := s.p.Schedule()
		s.sched = &sc
	}
	return *s.sched
}

// libNoCap stands for "the library applies no cap": calc's largest cap.
const libNoCap = calc.MaxCap
