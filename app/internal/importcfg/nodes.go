package importcfg

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"

	"go.yaml.in/yaml/v3"
)

// The readers of Temporal, Step Functions and Istio share what is below: the pasted text as
// YAML's node tree (JSON is YAML), whose nodes know their line, and one key's value read with a
// message that names the line, the key and the value.

// parseDocs parses text as YAML (JSON included) and returns each document's root, at most max
// of them. It refuses aliases, which would let a few bytes stand for a large tree, nesting
// deeper than MaxDepth, and a key given twice in one mapping, whose second value YAML readers
// differ on.
func parseDocs(text string, max int) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var roots []*yaml.Node
	for len(roots) < max {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if len(doc.Content) == 0 {
			continue
		}
		if err := checkTree(doc.Content[0], 1); err != nil {
			return nil, err
		}
		roots = append(roots, doc.Content[0])
	}
	return roots, nil
}

func checkTree(n *yaml.Node, depth int) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fmt.Errorf("line %d: an anchor or alias (&, *): write the values out", n.Line)
	}
	if depth > MaxDepth {
		return fmt.Errorf("line %d: nested more than %d deep", n.Line, MaxDepth)
	}
	seen := map[string]int{}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind == yaml.ScalarNode {
			if line, twice := seen[c.Value]; twice {
				return fmt.Errorf("line %d: %s given twice (also line %d): give it once", c.Line, shorten(c.Value), line)
			}
			seen[c.Value] = c.Line
		}
		if err := checkTree(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// kv is one key of a mapping with its value.
type kv struct{ key, val *yaml.Node }

// entries are a mapping's keys in order; none for any other node.
func entries(m *yaml.Node) []kv {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	es := make([]kv, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		es = append(es, kv{m.Content[i], m.Content[i+1]})
	}
	return es
}

// pick returns the value of the key of m named one of names; a key given twice under two of
// its names (initialInterval and initial_interval) is an error.
func pick(m *yaml.Node, names ...string) (kv, bool, error) {
	var found kv
	for _, e := range entries(m) {
		if !oneOf(e.key.Value, names) {
			continue
		}
		if found.key != nil {
			return kv{}, false, fmt.Errorf("line %d: %s given twice (also line %d): give it once", e.key.Line, e.key.Value, found.key.Line)
		}
		found = e
	}
	return found, found.key != nil, nil
}

func oneOf(s string, names []string) bool {
	for _, n := range names {
		if s == n {
			return true
		}
	}
	return false
}

// hasKey reports whether m is a mapping with one of names.
func hasKey(m *yaml.Node, names ...string) bool {
	for _, e := range entries(m) {
		if oneOf(e.key.Value, names) {
			return true
		}
	}
	return false
}

// bad is the error of a value: `line 4: maximumAttempts "-1": must be 0 (unlimited) or more`.
func (e kv) bad(why string) error {
	v := e.val.Value
	if e.val.Kind != yaml.ScalarNode {
		v = map[yaml.Kind]string{yaml.MappingNode: "{…}", yaml.SequenceNode: "[…]"}[e.val.Kind]
	}
	return fmt.Errorf("line %d: %s %q: %s", e.val.Line, e.key.Value, shorten(v), why)
}

// shorten keeps a quoted value short: a pasted value can be kilobytes long.
func shorten(v string) string {
	if r := []rune(v); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return v
}

// line is a line of Read or Ignored about e: "line 3: maximumAttempts 5: …".
func (e kv) line(what string) string {
	return fmt.Sprintf("line %d: %s %s: %s", e.key.Line, e.key.Value, shorten(e.val.Value), what)
}

// keyLine is a line of Ignored about a key whose value is not a scalar.
func (e kv) keyLine(what string) string {
	return fmt.Sprintf("line %d: %s: %s", e.key.Line, e.key.Value, what)
}

func (e kv) scalar() error {
	if e.val.Kind != yaml.ScalarNode || e.val.Tag == "!!null" {
		return e.bad("must be a value")
	}
	return nil
}

// number reads a decimal within [lo, hi]; hiWhy says why hi.
func (e kv) number(lo, hi float64, why string) (float64, error) {
	if err := e.scalar(); err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(e.val.Value, 64)
	if err != nil || x != x || x < lo || x > hi {
		return 0, e.bad(why)
	}
	return x, nil
}

// whole reads a whole number within [lo, hi].
func (e kv) whole(lo, hi int64, why string) (int64, error) {
	if err := e.scalar(); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(e.val.Value, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, e.bad(why)
	}
	return n, nil
}

// duration reads a duration as Go and protobuf's JSON write it ("1.5s", "100ms", "2m"),
// within [lo, hi].
func (e kv) duration(lo, hi time.Duration, why string) (time.Duration, error) {
	if err := e.scalar(); err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(e.val.Value)
	if err != nil || d < lo || d > hi {
		return 0, e.bad(why)
	}
	return d, nil
}

// policyValues are pol's keys as the link writes them. calc checks pol as it checks a link: a
// reader names its own key for what it refuses, so that an error here is the reader's bug.
func policyValues(pol calc.Policy) (url.Values, error) {
	p := calc.Default()
	p.Policy = pol
	all := p.AllValues()
	v := url.Values{}
	for _, k := range policyKeys {
		v[k] = all[k]
	}
	if _, err := calc.DecodeValues(v); err != nil {
		return nil, err
	}
	return v, nil
}

// presetPolicy is the policy of the preset named name, which an import of its library starts
// from, so that the import and the preset read the library alike.
func presetPolicy(name string) calc.Policy {
	pr, _ := libs.PresetByName(name)
	return pr.Params.Policy
}

// secs writes d for a Read line.
func secs(d time.Duration) string { return calc.FormatDuration(d) }

// attemptsWhy is why an attempts count is refused past the calculator's table.
var attemptsWhy = "the calculator shows at most " + strconv.Itoa(calc.MaxAttempts) + " attempts"
