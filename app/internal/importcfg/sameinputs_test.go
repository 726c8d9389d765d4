package importcfg

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"backoffcalc/calc"
)

// corpus is every text of the tests that imports, by its format, with one export of each
// library and language an import reads back.
func corpus(t *testing.T) map[string][]Result {
	t.Helper()
	var texts []string
	for _, cases := range [][]readCase{grpcCases, envoyCases, awsCases, r4jCases, dotnetCases} {
		for _, c := range cases {
			if c.err == "" {
				texts = append(texts, c.text)
			}
		}
	}
	for _, cases := range [][]importCase{temporalCases, stepFunctionsCases, istioCases, springCases, goCodeCases, tenacityCases, pollyCodeCases, r4jCodeCases} {
		for _, c := range cases {
			texts = append(texts, c.text)
		}
	}
	seen := map[string]bool{}
	for _, g := range readGoldens(t) {
		for _, lang := range roundTrips[g.lib] {
			if code := g.blocks[lang]; code != "" && !seen[g.lib+lang] {
				seen[g.lib+lang] = true
				texts = append(texts, code)
			}
		}
	}
	out := map[string][]Result{}
	for _, text := range texts {
		r, err := Read(text)
		if err != nil {
			t.Fatalf("%.60q: %v", text, err)
		}
		out[r.Format] = append(out[r.Format], r)
	}
	if len(out) != len(formats) {
		t.Fatalf("the corpus has %d formats of %d", len(out), len(formats))
	}
	return out
}

// person is a link a person made by hand before importing: inputs of every model an import
// speaks for (a timeout, a limiter, a breaker and their parameters, a ratio, a preset), and
// of the models none does (the herd, the call, the stream).
var person = url.Values{"preset": {"grpc-retry"}, "ratio": {"0.7"}, "add": {"50ms"}, "timeout": {"3s"},
	"limiter": {"finagle"}, "ttl": {"20s"}, "budgetpct": {"40"}, "maxtokens": {"50"},
	"breaker": {"gobreaker"}, "breakerat": {"call"}, "gbfailures": {"9"}, "pollyratio": {"0.5"},
	"clients": {"30"}, "call": {"20ms"}, "rate": {"50"}, "run": {"10s"}, "breakers": {"shared"}}

// Importing B gives the same link whatever came before it: a fresh page, a page where a person
// set inputs of every model by hand, or either after importing A, for every A and B of the
// corpus. The person's keys of the models no configuration speaks for stay as they were.
// (Before, an Envoy route's per_try_timeout stayed through a gRPC import that has none.)
func TestImportGivesTheSameInputsWhateverCameBefore(t *testing.T) {
	all := corpus(t)
	for fb, bs := range all {
		for _, b := range bs {
			for _, start := range []url.Values{{}, person} {
				want := b.Link(start).Encode()
				for fa, as := range all {
					for _, a := range as {
						if got := b.Link(a.Link(start)).Encode(); got != want {
							t.Fatalf("%s after %s (from %s):\n got %s\nwant %s\n(%s)", fb, fa, start.Encode(), got, want, diff(got, want))
						}
					}
				}
			}
			for _, k := range []string{"clients", "call", "rate", "run", "breakers"} {
				if got := b.Link(person).Get(k); got != person.Get(k) {
					t.Errorf("%s: %s=%s, the person's %s", fb, k, got, person.Get(k))
				}
			}
			if b.Link(person).Has("preset") {
				t.Errorf("%s keeps the preset", fb)
			}
		}
	}
}

// diff is the pairs of a that b has not.
func diff(a, b string) string {
	var out []string
	bs := strings.Split(b, "&")
	for _, kv := range strings.Split(a, "&") {
		if !slices.Contains(bs, kv) {
			out = append(out, kv)
		}
	}
	return strings.Join(out, "&")
}

// personsKeys are the keys no configuration of a client's retries says: the call, the herd,
// the server, the stream, the samples, the contention experiment, the fit's answers.
var personsKeys = []string{"call", "layers", "samples", "seed", "clients", "outage", "window", "capacity", "spread",
	"rate", "run", "arrivals", "queue", "processes", "failrate", "latency", "slope", "breakers", "contenders", "runs", "solve"}

// Every key of a link is the import's (the policy's and its models') or the person's, not both:
// a key calc adds must be given to one of them.
func TestEveryKeyIsTheImportsOrThePersons(t *testing.T) {
	var imports []string
	imports = append(imports, policyKeys...)
	for _, m := range modelKeys {
		imports = append(imports, m.key)
	}
	for _, k := range calc.Keys() {
		if in, mine := slices.Contains(imports, k), slices.Contains(personsKeys, k); in == mine {
			t.Errorf("%s: the import's %v, the person's %v", k, in, mine)
		}
	}
	for _, k := range append(imports, personsKeys...) {
		if !slices.Contains(calc.Keys(), k) {
			t.Errorf("%s is no key of calc", k)
		}
	}
	for _, text := range []string{grpcCases[0].text, envoyCases[0].text} {
		r, _ := Read(text)
		for _, k := range imports {
			if !r.Values.Has(k) {
				t.Errorf("%s: sets no %s", r.Format, k)
			}
		}
	}
}

// An import says the defaults it applied where they change what the page had: the Envoy
// route's ratio 0, which its jitter does not read but the modes table's proportional row does;
// no attempt timeout, no limiter, no breaker after a configuration that had them. A default
// equal to what the page had is not said.
func TestImportSaysTheDefaultsItApplied(t *testing.T) {
	read := func(text string) Result {
		t.Helper()
		r, err := Read(text)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	envoy := read(envoyCases[0].text) // per_try_timeout 0.5s
	grpc := read(grpcCases[0].text)   // no timeout, no throttling
	throttling := read(`{"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`)
	handler := read(dotnetCases[0].text) // breaker polly, AttemptTimeout 5s
	budget := read("retry_budget: {}\n") // limiter envoy, Envoy's 20% and 3
	fresh := url.Values{}
	for _, c := range []struct {
		name    string
		r       Result
		before  url.Values
		want    []string
		notWant []string
	}{
		{"envoy on a fresh page", envoy, fresh, []string{
			"ratio=0 (was 0.2): jitter fullms reads no ratio; the modes table's proportional row does",
		}, []string{"timeout=", "limiter=", "breaker="}},
		{"grpc on a fresh page", grpc, fresh, nil, []string{"timeout=", "ratio=", "limiter="}},
		{"grpc after envoy", grpc, envoy.Link(fresh), []string{
			"timeout=0 (was 500ms): the configuration sets no attempt timeout",
		}, []string{"ratio="}},
		{"envoy after grpc", envoy, grpc.Link(fresh), []string{"ratio=0 (was 0.2)"}, []string{"timeout="}},
		{"envoy after the .NET handler", envoy, handler.Link(fresh), []string{
			"breaker=none (was polly): the configuration sets no circuit breaker",
		}, []string{"breakerat=", "pollyratio="}},
		{"grpc after throttling", grpc, throttling.Link(fresh), []string{
			"limiter=none (was grpc): the configuration sets no retry limiter",
		}, []string{"maxtokens="}},
		{"a retry budget after a person's envoy limiter", budget, url.Values{"limiter": {"envoy"}, "budgetpct": {"40"}}, nil,
			[]string{"budgetpct=", "limiter="}},
		{"the person's inputs", grpc, person, []string{
			"timeout=0 (was 3s)", "limiter=none (was finagle)", "breaker=none (was gobreaker)",
		}, []string{"ttl=", "gbfailures=", "ratio=", "add="}},
		// The person's deadline goes: gRPC's retry policy has no time limit.
		{"grpc after a budget", grpc, url.Values{"budget": {"5s"}}, []string{
			"budget=0 (was 5s): the configuration sets no time limit on the retries",
		}, nil},
	} {
		got := strings.Join(c.r.Applied(c.before), "\n")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, got)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q in\n%s", c.name, w, got)
			}
		}
	}
}

// Over the corpus, every default an import applied that differs from what the page had after
// another import is said, and none that does not.
func TestAppliedIsEveryChangedDefault(t *testing.T) {
	all := corpus(t)
	for _, as := range all {
		for _, a := range as {
			before := a.Link(url.Values{})
			for fb, bs := range all {
				for _, b := range bs {
					said := strings.Join(b.Applied(before), "\n")
					for _, d := range b.Defaults {
						changed := before.Get(d.Key) != d.Value && canonical(t, before, d.Key) != d.Value
						if line := d.Key + "=" + d.Value + " (was "; changed != strings.Contains(said, line) {
							t.Fatalf("%s after %s: %s=%s, was %s: said %v\n%s", fb, a.Format, d.Key, d.Value, before.Get(d.Key), !changed, said)
						}
					}
				}
			}
		}
	}
}

// canonical is v's value at key as a link writes it.
func canonical(t *testing.T, v url.Values, key string) string {
	p, err := calc.DecodeValues(v)
	if err != nil {
		t.Fatal(err)
	}
	return p.AllValues().Get(key)
}
