package importcfg

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestReadRefusesEmptyAndOversize(t *testing.T) {
	for _, text := range []string{"", " \n\t", strings.Repeat("x", MaxSize+1)} {
		if _, err := Read(text); err == nil {
			t.Errorf("Read(%d bytes) gave no error", len(text))
		}
	}
}

func TestLinkKeepsWhatTheImportDoesNotSet(t *testing.T) {
	r := Result{Values: url.Values{"base": {"2s"}, "attempts": {"4"}}}
	got := r.Link(url.Values{"base": {"1s"}, "clients": {"50"}}).Encode()
	if want := "attempts=4&base=2s&clients=50"; got != want {
		t.Errorf("Link = %s, want %s", got, want)
	}
}

// A file saved on Windows, with a byte order mark and CRLF line ends, reads as the same file
// saved elsewhere.
func TestReadWindowsText(t *testing.T) {
	for _, cases := range [][]readCase{grpcCases, envoyCases, awsCases, r4jCases, dotnetCases} {
		c := cases[0]
		want, err := Read(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := Read("\ufeff" + strings.ReplaceAll(c.text, "\n", "\r\n"))
		if err != nil || got.Format != want.Format || got.Link(nil).Encode() != want.Link(nil).Encode() {
			t.Errorf("%s with a BOM and CRLF: %v, %v; want %v", c.name, err, got.Values, want.Values)
		}
	}
}

// A tab that indents a line of any YAML format is named as that, on its line, not as the
// parser's "found character that cannot start any token" (whose line is the one before, where
// the parser says the tab "violates indentation"); an Envoy route with a tab is not named
// Istio's. A tab after a key, and in JSON, is no error.
func TestReadSaysTabsIndent(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"apiVersion: networking.istio.io/v1\nkind: VirtualService\nspec:\n\thttp:\n\t- retries:\n\t\tattempts: 3\n",
			"import (Istio VirtualService retries (YAML)): a tab indents it, and YAML indents with spaces, not tabs (line 4)"},
		{"route:\n  retry_policy:\n\tnum_retries: 3\n", "import: not YAML or JSON: a tab indents it, and YAML indents with spaces, not tabs (line 3)"},
		{"resilience4j:\n  retry:\n    instances:\n      a:\n        max-attempts: 3\n\twait-duration: 1s\n",
			"import: not YAML or JSON: a tab indents it, and YAML indents with spaces, not tabs (line 6)"},
		{"retryPolicy:\n  initialInterval: 1s\n\t\n", "a tab indents it, and YAML indents with spaces, not tabs (line 3)"},
		{"kind: VirtualService\nspec:\n  http:\n  - retries:\n  \t  attempts: 3\n", "a tab indents it, and YAML indents with spaces, not tabs (line 5)"},
	} {
		if _, err := Read(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	for _, text := range []string{"retry_policy:\t{num_retries: 3}\n", "{\n\t\"retryThrottling\": {\n\t\t\"maxTokens\": 10,\n\t\t\"tokenRatio\": 0.1\n\t}\n}\n"} {
		if _, err := Read(text); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// Reads at the same time of the same text, which share its parse, each say what they read
// (go test -race checks that they do not share it at once).
func TestReadConcurrently(t *testing.T) {
	text := grpcCases[0].text
	want, err := Read(text)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := Read(text)
			if err == nil && strings.Join(got.Read, "\n") != strings.Join(want.Read, "\n") {
				err = errors.New("another Read: " + strings.Join(got.Read, "\n"))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// importCase is a configuration that imports: want is the keys it must set, as a query, and
// ignored the words each of which must start or be in one line of Ignored.
type importCase struct {
	name, text, format, want string
	ignored                  []string
}

// badCase is a configuration refused with a message that has each of want: the line, the key
// and the value.
type badCase struct {
	name, text string
	want       []string
}

func checkImports(t *testing.T, cases []importCase) {
	t.Helper()
	for _, c := range cases {
		r, err := Read(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if r.Format != c.format {
			t.Errorf("%s: read as %q, want %q", c.name, r.Format, c.format)
		}
		for _, kv := range strings.Split(c.want, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if got := r.Values.Get(k); got != v {
				t.Errorf("%s: %s = %q, want %q (all: %s)", c.name, k, got, v, r.Values.Encode())
			}
		}
		for _, k := range policyKeys {
			if _, ok := r.Values[k]; !ok {
				t.Errorf("%s: sets no %s: an import sets every key of the policy", c.name, k)
			}
		}
		all := strings.Join(r.Ignored, "\n")
		for _, w := range c.ignored {
			if !strings.Contains(all, w) {
				t.Errorf("%s: Ignored has no %q:\n%s", c.name, w, all)
			}
		}
		if len(r.Ignored) != len(c.ignored) {
			t.Errorf("%s: Ignored has %d lines, want %d:\n%s", c.name, len(r.Ignored), len(c.ignored), all)
		}
		if len(r.Read) == 0 {
			t.Errorf("%s: Read says nothing", c.name)
		}
	}
}

func checkRefuses(t *testing.T, cases []badCase) {
	t.Helper()
	for _, c := range cases {
		r, err := Read(c.text)
		if err == nil {
			t.Errorf("%s: no error; read %s as %s", c.name, r.Values.Encode(), r.Format)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}

// Every refusal puts its reason first and its line and key after it, in parentheses: a key path
// of hundreds of bytes before the reason pushed it past the page's width or cut it off. The
// readers write "line N: WHERE: REASON"; reasonFirst alone reorders it.
func TestRefusalsPutTheReasonFirst(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{`line 3: maxBackoff "1s": must be at least base (2s)`, `must be at least base (2s) (line 3, maxBackoff "1s")`},
		{`line 2: a "b: c" (d: e)[f: g]: why: more`, `why: more (line 2, a "b: c" (d: e)[f: g])`},
		{`line 2: "a\"b: c": why`, `why (line 2, "a\"b: c")`},
		{`line 7: not JSON (x: y), and grpc-go refuses it`, `not JSON (x: y), and grpc-go refuses it (line 7)`},
		{"line 1: a: one\nline 2: b: two", "one (line 1, a)\ntwo (line 2, b)"},
		{`the library's default → samples=10: too many`, `the library's default → samples=10: too many`},
		{`line x: a: b`, `line x: a: b`},
	} {
		if got := reasonFirst(c.msg); got != c.want {
			t.Errorf("reasonFirst(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
	// The case: long keys nested deep, their path hundreds of bytes.
	long := strings.Repeat("k", 100)
	text, indent := "", ""
	for i := range 14 {
		text += indent + long + strconv.Itoa(i) + ":\n"
		indent += "  "
	}
	text += indent + "retry_policy:\n" + indent + "  num_retries: x\n"
	_, err := Read(text)
	if err == nil || !strings.HasPrefix(err.Error(), "import (Envoy route retry_policy (YAML)): not a whole number (line 16, ") {
		t.Errorf("the reason is not first: %v", err)
	}
}
