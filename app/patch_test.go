package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"backoffcalc/calc"
)

// markupPatch is the patch that turns the DOM the browser built of old into the DOM it
// would build of new, as island.patch makes it, and false when it cannot.
func markupPatch(old, new string) (string, bool) {
	var a, b markupTokens
	if !a.read(old) || !b.read(new) {
		return "", false
	}
	return a.patchTo(&b)
}

// entries reads a patch back: its node count, then one line per change.
func entries(patch string) []string {
	return strings.Split(strings.ReplaceAll(patch, "\x1f", "|"), "\x1e")
}

func TestMarkupPatch(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           []string // nil: no patch, the island is written whole
	}{
		{"a text", `<p id="a">1 s</p>`, `<p id="a">2 s</p>`, []string{"1", "0.0|#text|t|2 s"}},
		{"nothing changed", `<p>x</p>`, `<p>x</p>`, []string{"1"}},
		// go-app writes attributes in a map's order: the same ones in another order are no change.
		{"attributes in another order", `<td data-col="min" data-ms="1">x</td>`, `<td data-ms="2" data-col="min">x</td>`,
			[]string{"1", "0|td|s|data-ms|2"}},
		{"an attribute added and one removed", `<td data-pending="samples" data-col="p50">…</td>`, `<td data-col="p50" data-ms="75">75 ms</td>`,
			[]string{"1", "0|td|s|data-ms|75", "0|td|r|data-pending", "0.0|#text|t|75 ms"}},
		{"nodes counted in document order", "<dl>\n<dt>a</dt><dd>1</dd></dl>", "<dl>\n<dt>a</dt><dd>2</dd></dl>",
			[]string{"3", "2.0|#text|t|2"}},
		{"entities decoded", `<p title="a &amp; b">x &lt; 1</p>`, `<p title="a &#34; b">x &gt; 1 &#x2264;&nbsp;&#39;</p>`,
			[]string{"1", `0|p|s|title|a " b`, "0.0|#text|t|x > 1 ≤\u00a0'"}},
		{"a boolean attribute", `<div hidden>x</div>`, `<div>x</div>`, []string{"1", "0|div|r|hidden"}},
		{"self-closing SVG and its title", `<svg viewBox="0 0 1 1"><rect x="1"/><title>a</title></svg>`,
			`<svg viewBox="0 0 2 1"><rect x="2"/><title>b</title></svg>`,
			[]string{"3", "0|svg|s|viewBox|0 0 2 1", "1|rect|s|x|2", "2.0|#text|t|b"}},
		{"void elements", `<p>a<br>b</p>`, `<p>a<br>c</p>`, []string{"2", "0.2|#text|t|c"}},
		{"whitespace between rows", "<table><tbody>\n<tr><td>1</td></tr>\n</tbody></table>", "<table><tbody>\n<tr><td>2</td></tr>\n</tbody></table>",
			[]string{"4", "3.0|#text|t|2"}},

		// Written whole.
		{"another element", `<p>1</p>`, `<div>1</div>`, nil},
		{"one more row", `<ul><li>1</li></ul>`, `<ul><li>1</li><li>2</li></ul>`, nil},
		{"a text gone", `<p>1</p>`, `<p></p>`, nil},
		{"a blank text made a word", "<div>\n<p>1</p></div>", "<div>x<p>1</p></div>", nil},
		{"a text the parser moves out of a table", `<table>1<tbody></tbody></table>`, `<table>2<tbody></tbody></table>`, nil},
		{"a comment", `<p>1</p><!-- x -->`, `<p>2</p><!-- x -->`, nil},
		{"pre drops its first newline", "<pre>\n1</pre>", "<pre>\n2</pre>", nil},
		{"script", `<script>1</script>`, `<script>2</script>`, nil},
		{"an ampersand that starts no entity", `<p>a & b</p>`, `<p>a & c</p>`, nil},
		{"an entity without its semicolon", `<p>&amp b</p>`, `<p>&amp c</p>`, nil},
		{"an entity the page does not write", `<p>&copy; 1</p>`, `<p>&copy; 2</p>`, nil},
		{"a number the parser replaces", `<p>&#128; 1</p>`, `<p>&#128; 2</p>`, nil},
		{"an unquoted value", `<p class=a>1</p>`, `<p class=a>2</p>`, nil},
		{"a repeated attribute", `<p class="a" class="b">1</p>`, `<p class="a" class="b">2</p>`, nil},
		{"misnested end tags", `<b><i>1</b></i>`, `<b><i>2</b></i>`, nil},
		{"an end tag with nothing open", `<p>1</p></div>`, `<p>2</p></div>`, nil},
		{"a carriage return", "<p>1\r\n</p>", "<p>2\r\n</p>", nil},
		{"a separator of the patch", "<p>1\x1e</p>", "<p>2\x1e</p>", nil},
		{"an unclosed tag", `<p class="a"`, `<p class="b"`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch, ok := markupPatch(c.old, c.new)
			if c.want == nil {
				if ok {
					t.Fatalf("patched %q to %q with %q; want it written whole", c.old, c.new, entries(patch))
				}
				return
			}
			if !ok {
				t.Fatalf("%q to %q: not patched", c.old, c.new)
			}
			if got := entries(patch); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("%q to %q:\ngot  %q\nwant %q", c.old, c.new, got, c.want)
			}
		})
	}
}

// The islands that an edit of the policy writes keep their elements from one base to the next,
// with the samples to come and with them in: each edit is a patch, not a parse, and the patch
// makes the new markup's elements. The chart keeps them while its axis keeps its ticks.
func TestIslandsPatchOnEdit(t *testing.T) {
	islands := map[string]func(calc.Report) app.UI{
		"summary": renderSummary, "tables": renderTables, "chart": renderChart, "modes": renderModes,
	}
	render := func(query string, samples int) map[string]string {
		p, err := calc.Decode(query)
		if err != nil {
			t.Fatal(err)
		}
		r := p.Report()
		switch samples {
		case 1:
			r.AddPolicySample(nil)
		case 2:
			r.AddSamples(nil)
		}
		out := map[string]string{}
		for name, f := range islands {
			out[name] = app.HTMLString(f(r))
		}
		return out
	}
	for _, link := range []string{"", "jitter=equal&budget=2s", "jitter=decorrelated&attempts=9", "jitter=none&cap=300ms"} {
		sep := "&"
		if link == "" {
			sep = ""
		}
		// The handler's edit: from a page with every sample to the next base with the policy's.
		before, typed, after := render(link, 2), render(link+sep+"base=101ms", 1), render(link+sep+"base=101ms", 2)
		for name := range islands {
			for _, step := range []struct {
				what     string
				old, new string
			}{{"the edit", before[name], typed[name]}, {"the samples after the paint", typed[name], after[name]}} {
				patch, ok := markupPatch(step.old, step.new)
				switch {
				case !ok && (name != "chart" || link == "" || step.what != "the edit"):
					t.Errorf("%q, %s, %s: written whole", link, name, step.what)
					continue
				case !ok:
					continue // the chart's axis has other ticks: other elements
				}
				if got, want := applyPatch(t, step.old, patch), canonical(t, step.new); got != want {
					t.Errorf("%q, %s, %s: the patch %q makes\n%s\nwant\n%s", link, name, step.what, entries(patch), got, want)
				}
				if step.what == "the edit" && len(entries(patch)) < 2 {
					t.Errorf("%q, %s: the edit changes nothing", link, name)
				}
			}
		}
	}
}

// applyPatch does to old's tokens what backoffcalcPatch does to the DOM, and writes them as
// canonical does.
func applyPatch(t *testing.T, old, patch string) string {
	t.Helper()
	m, attrs := readAttrs(t, old)
	for _, e := range strings.Split(patch, "\x1e")[1:] {
		f := strings.Split(e, "\x1f")
		i := slices.IndexFunc(m.tokens, func(tok markupToken) bool {
			if tok.name == "" {
				return f[1] == "#text" && f[0] == strconv.Itoa(tok.at)+"."+strconv.Itoa(tok.child)
			}
			return f[0] == strconv.Itoa(tok.at) && f[1] == strings.ToLower(tok.name)
		})
		if i < 0 {
			t.Fatalf("entry %q of %q: no such node", e, patch)
		}
		switch f[2] {
		case "t":
			m.tokens[i].text = f[3]
		case "s":
			attrs[i][f[3]] = f[4]
		case "r":
			delete(attrs[i], f[3])
		}
	}
	return writeCanonical(m, attrs)
}

// canonical writes markup's tokens one per line, each tag's attributes in order of name.
func canonical(t *testing.T, markup string) string {
	t.Helper()
	return writeCanonical(readAttrs(t, markup))
}

// readAttrs reads markup, with each token's attributes by name.
func readAttrs(t *testing.T, markup string) (markupTokens, []map[string]string) {
	t.Helper()
	var m markupTokens
	if !m.read(markup) {
		t.Fatalf("%q: not read", markup)
	}
	attrs := make([]map[string]string, len(m.tokens))
	for i, tok := range m.tokens {
		attrs[i] = map[string]string{}
		for _, kv := range m.attrs[tok.attrs : tok.attrs+tok.n] {
			attrs[i][kv[0]] = kv[1]
		}
	}
	return m, attrs
}

func writeCanonical(m markupTokens, attrs []map[string]string) string {
	var b strings.Builder
	for i, tok := range m.tokens {
		if tok.name == "" {
			fmt.Fprintf(&b, "%q\n", tok.text)
			continue
		}
		b.WriteString("<" + tok.name)
		for _, k := range slices.Sorted(maps.Keys(attrs[i])) {
			fmt.Fprintf(&b, " %s=%q", k, attrs[i][k])
		}
		b.WriteString(">\n")
	}
	return b.String()
}
