package libs

import (
	"slices"
	"strings"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
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

// Library is one library of the Export panel, known before any policy: the value of the link's
// export key that picks it, its heading, and the presets it is the home of.
type Library struct {
	Lib     string   // the export key's value and the block's data-lib name: grpc, cenkalti, client-go, polly, …
	Title   string   // the heading: the library and the form of the snippet
	Presets []string // the calc presets this library is the home of: their export is exact
}

// Export is one library's rendering of a policy.
type Export struct {
	Library
	Snippets []Snippet // none when the library cannot express the policy at all
	Diffs    []string  // what the library does differently, with numbers; none when exact
	// Model is what the library does with the snippet, in calc's terms: the policy itself when
	// Diffs is empty, else the waits and attempts whose numbers Diffs quotes. Set for the Go
	// libraries, whose tests draw from the real modules and compare, and for those whose Config
	// has a Policy method, the same model from the configuration alone (what an import reads);
	// zero for tenacity.
	Model calc.Params
	// Config is the typed configuration the snippet is written from, in the library's own
	// names and units: GRPCRetryPolicy, CenkaltiConfig, WaitBackoff, PollyRetry, TenacityRetry,
	// Resilience4jRetry, EnvoyRetryPolicy, AWSRetryConfig, TemporalRetryPolicy or
	// StepFunctionsRetrier; nil when there is no snippet.
	Config any
}

// libraries are the Export panel's libraries, in its order; exporterOf has the function that
// renders a policy for each. Apart from the exporters, so that a program that only lists the
// libraries or reads a link's export key (the page: its picker, HomeOf, DefaultExport) links
// none of them: the page's wasm has no exporter, the engine's worker writes the panel's export
// (docs/layout.md).
var libraries = []Library{
	grpcLibrary, cenkaltiLibrary, clientGoLibrary, pollyLibrary, tenacityLibrary, resilience4jLibrary, envoyLibrary,
	awsLibrary("aws-botocore"), awsLibrary("aws-botocore-2026"), awsLibrary("aws-go-v2-2026"), awsLibrary("aws-go-v2"),
	temporalLibrary, stepFunctionsLibrary,
}

// exporterOf is the function that renders a policy for the library named lib (all but the
// Library, which exportOne sets); nil for a name that is no library's. A switch, not a table of
// functions: a package variable that holds them is built at the package's init, which links
// them into every program that imports the package.
func exporterOf(lib string) func(*subject) Export {
	switch lib {
	case grpcLibrary.Lib:
		return exportGRPC
	case cenkaltiLibrary.Lib:
		return exportCenkalti
	case clientGoLibrary.Lib:
		return exportClientGo
	case pollyLibrary.Lib:
		return exportPolly
	case tenacityLibrary.Lib:
		return exportTenacity
	case resilience4jLibrary.Lib:
		return exportResilience4j
	case envoyLibrary.Lib:
		return exportEnvoy
	case temporalLibrary.Lib:
		return exportTemporal
	case stepFunctionsLibrary.Lib:
		return exportStepFunctions
	}
	if _, ok := awsExports[lib]; ok {
		return awsExporter(lib)
	}
	return nil
}

// Exports renders p for every library, in the panel's order.
func Exports(p calc.Params) []Export {
	s := &subject{p: p}
	out := make([]Export, len(libraries))
	for i, l := range libraries {
		out[i] = exportOne(exporterOf(l.Lib), s, l)
	}
	return out
}

// ExportOf renders p for the library named lib (a Library's Lib) alone: what the panel shows.
func ExportOf(p calc.Params, lib string) (Export, bool) {
	for _, l := range libraries {
		if l.Lib == lib {
			return exportOne(exporterOf(lib), &subject{p: p}, l), true
		}
	}
	return Export{}, false
}

// exportOne renders s for one library, unless the policy is beyond every exporter. A library
// without its case in exporterOf (a programmer's error, which TestEveryLibraryHasAnExporter
// names) says so in its differences rather than calling nil, which would kill the engine's
// worker and, in the package's tests, stop them all at the first export before that test runs.
func exportOne(export func(*subject) Export, s *subject, l Library) Export {
	var e Export
	switch why := beyondExports(s.p, l.Title); {
	case why != "":
		e.Diffs = []string{why}
	case export == nil:
		e.Diffs = []string{"No exporter for " + l.Lib + " (its case in exporterOf is missing)."}
	default:
		e = export(s)
		if why := unwritten(s.p, l.Lib); why != "" {
			e.Diffs = append(e.Diffs, why)
		}
	}
	e.Library = l
	return e
}

// writes are, by library, what its export says of a link's client beyond the policy, as the
// import reads it back: its own retry limiter (gRPC's retryThrottling and Envoy's retry_budget,
// written when the link's limiter is theirs; the AWS SDKs' retry quota, which their shared
// config cannot turn off) and whether it writes the attempt timeout (Envoy's per_try_timeout).
var writes = map[string]struct {
	limiter limiter.Kind
	timeout bool
}{
	"grpc": {limiter: limiter.GRPC}, "envoy": {limiter: limiter.Envoy, timeout: true},
	"aws-botocore": {limiter: limiter.AWS}, "aws-go-v2": {limiter: limiter.AWS},
	"aws-botocore-2026": {limiter: limiter.AWS2026}, "aws-go-v2-2026": {limiter: limiter.AWS2026},
}

// unwritten says what of p's client beyond its policy (the retry limiter, the attempt timeout,
// the circuit breaker: what an import sets) the export for lib does not carry: the models of the
// link then answer for a client this configuration alone does not make. "" when it carries it
// all, or the link sets none of them: a link that does not ask for the overload model hears
// nothing of it here (the AWS SDKs' quota is not mentioned without a limiter).
func unwritten(p calc.Params, lib string) string {
	w := writes[lib]
	var not []string
	if p.Limiter != limiter.None && p.Limiter != w.limiter {
		not = append(not, "retry limiter ("+p.Limiter.String()+")")
	}
	if p.Timeout > 0 && !w.timeout {
		not = append(not, "attempt timeout ("+dur(p.Timeout)+")")
	}
	if p.Breaker != breaker.None {
		not = append(not, "circuit breaker ("+p.Breaker.String()+")")
	}
	if len(not) == 0 {
		return ""
	}
	list := not[0]
	if n := len(not); n > 1 {
		list = strings.Join(not[:n-1], ", ") + " or " + not[n-1]
	}
	them := "it"
	if len(not) > 1 {
		them = "them"
	}
	return "This configuration does not set the link's " + list + ": the overload view's numbers are for a client with " + them + "."
}

// Libraries lists the Export panel's libraries in its order, without rendering any policy.
func Libraries() []Library {
	return slices.Clone(libraries)
}

// HomeOf names the library whose export of the preset named preset is exact (the one that lists
// it in Presets): cenkalti for cenkalti-v5. ok is false for a preset that no library exports as
// its own (grpc-connect, google-api-core) and for "".
func HomeOf(preset string) (lib string, ok bool) {
	for _, l := range libraries {
		if preset != "" && slices.Contains(l.Presets, preset) {
			return l.Lib, true
		}
	}
	return "", false
}

// subject is the policy being exported, with its schedule computed once.
type subject struct {
	p     calc.Params
	sched *policy.Schedule
}

func (s *subject) schedule() policy.Schedule {
	if s.sched == nil {
		sc := s.p.Schedule()
		s.sched = &sc
	}
	return *s.sched
}

// capNone stands for "the library applies no cap": calc's largest cap.
const capNone = policy.MaxCap
