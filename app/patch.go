package main

import (
	"strconv"
	"strings"
)

// An island's markup at one edit and the next differ mostly in their numbers: the schedule has
// the same rows, the chart the same bars. markupTokens.patchTo finds when two pieces of markup
// build the same elements and lists the texts and attribute values that changed, so that the
// browser sets those rather than parse the whole markup again (innerHTML was half of an edit's time at the
// defaults: docs/performance.md). It reads markup the way the browser's parser does for what
// this page writes, and gives up, so that the island is written whole, at anything else.

// markupToken is a start tag or a text of a piece of markup; end tags only close elements.
type markupToken struct {
	name  string // the tag's name as written, "" for a text
	text  string // a text's characters, entities decoded
	attrs int    // a start tag's attributes: markupTokens.attrs[attrs : attrs+n]
	n     int
	// Where the browser has the node: an element's index among the elements in document order;
	// a text's parent's index (-1 for the island itself) and its own among the parent's nodes.
	at, child int
}

// markupTokens is markup's start tags and texts in document order.
type markupTokens struct {
	of       string // the markup read
	ok       bool   // read could read it
	tokens   []markupToken
	attrs    [][2]string // name, value (decoded), sorted by name within each tag
	elements int
	open     []openElement // while reading
}

// openElement is an element whose end tag is still to come.
type openElement struct {
	name         string // lower case
	at, children int
}

// patchTo returns the patch that turns the DOM the browser built of m's markup into the DOM
// it would build of n's, as backoffcalcPatch (app.js) reads it: the number of elements, then
// for each change the node (an element's index, or a text's parent's index, ".", and the
// text's index among the parent's nodes), its name, and what to do: "t" and its new text, "s"
// and an attribute's name and value, "r" and the name of one to remove; "\x1e" between
// entries, "\x1f" between fields. It reports false when the two do not build the same nodes.
func (m *markupTokens) patchTo(n *markupTokens) (string, bool) {
	if len(m.tokens) != len(n.tokens) {
		return "", false
	}
	var out strings.Builder
	out.WriteString(strconv.Itoa(n.elements))
	for i, t := range n.tokens {
		s := m.tokens[i]
		if s.name != t.name {
			return "", false
		}
		if t.name == "" {
			// Whether a text is blank decides where the parser puts it in a table: keep it.
			if blank(s.text) != blank(t.text) {
				return "", false
			}
			if s.text != t.text {
				writeEntry(&out, strconv.Itoa(t.at)+"."+strconv.Itoa(t.child), "#text", "t", t.text)
			}
			continue
		}
		// Both lists are in order of name: walk them together.
		node, name := strconv.Itoa(t.at), strings.ToLower(t.name)
		was, is := m.attrs[s.attrs:s.attrs+s.n], n.attrs[t.attrs:t.attrs+t.n]
		for len(was) > 0 || len(is) > 0 {
			switch {
			case len(is) == 0 || len(was) > 0 && was[0][0] < is[0][0]:
				writeEntry(&out, node, name, "r", was[0][0])
				was = was[1:]
			case len(was) == 0 || is[0][0] < was[0][0]:
				writeEntry(&out, node, name, "s", is[0][0], is[0][1])
				is = is[1:]
			default:
				if was[0][1] != is[0][1] {
					writeEntry(&out, node, name, "s", is[0][0], is[0][1])
				}
				was, is = was[1:], is[1:]
			}
		}
	}
	return out.String(), true
}

func writeEntry(b *strings.Builder, fields ...string) {
	b.WriteString("\x1e")
	for i, f := range fields {
		if i > 0 {
			b.WriteString("\x1f")
		}
		b.WriteString(f)
	}
}

// tableRows reports whether the element holds a table's rows, where only blanks are texts.
func tableRows(name string) bool {
	switch name {
	case "table", "thead", "tbody", "tfoot", "tr":
		return true
	}
	return false
}

// blank reports whether s is only the whitespace the HTML parser skips between table rows.
func blank(s string) bool {
	for i := range len(s) {
		if !isSpace(s[i]) && s[i] != '\r' {
			return false
		}
	}
	return true
}

// read reads markup into m, reusing m's memory, as this page writes markup: tags with
// double-quoted attribute values or none, texts, entities that end in ";". It reports false at
// anything the browser's parser treats otherwise: a comment, an HTML element whose content is
// not markup (script, style, pre and textarea, whose first newline the parser drops; in an SVG,
// a title is markup), a text that the parser moves out of a table, an end tag that is not the
// last open element's, a repeated attribute, a carriage return or NUL.
func (m *markupTokens) read(markup string) bool {
	m.of, m.ok = markup, m.readTokens(markup)
	return m.ok
}

func (m *markupTokens) readTokens(markup string) bool {
	m.tokens, m.attrs, m.elements = m.tokens[:0], m.attrs[:0], 0
	m.open = append(m.open[:0], openElement{at: -1}) // the island
	svg := 0                                         // open svg elements
	for i := 0; i < len(markup); {
		top := &m.open[len(m.open)-1]
		if markup[i] != '<' {
			end := strings.IndexByte(markup[i:], '<')
			if end < 0 {
				end = len(markup) - i
			}
			raw := markup[i : i+end]
			i += end
			text, ok := decode(raw)
			switch {
			case !ok:
				return false
			case tableRows(top.name) && !blank(text):
				return false // foster-parented: the parser puts it before the table
			}
			m.tokens = append(m.tokens, markupToken{text: text, at: top.at, child: top.children})
			top.children++
			continue
		}
		if strings.HasPrefix(markup[i:], "</") {
			end := strings.IndexByte(markup[i:], '>')
			if end < 0 || len(m.open) == 1 || top.name != strings.ToLower(markup[i+2:i+end]) {
				return false // the parser would close other elements, or make one
			}
			if top.name == "svg" {
				svg--
			}
			m.open, i = m.open[:len(m.open)-1], i+end+1
			continue
		}
		t, next, self, ok := m.startTag(markup, i+1)
		if !ok {
			return false
		}
		lower := strings.ToLower(t.name)
		if svg == 0 { // SVG's elements, its title among them, hold markup like any other
			switch lower {
			case "script", "style", "textarea", "title", "pre", "listing", "xmp", "iframe", "noembed",
				"noframes", "noscript", "plaintext", "template", "select":
				return false
			case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
				self = true
			}
		}
		t.at = m.elements
		m.elements++
		top.children++
		m.tokens = append(m.tokens, t)
		if !self {
			m.open = append(m.open, openElement{name: lower, at: t.at})
			if lower == "svg" {
				svg++
			}
		}
		i = next
	}
	return true
}

// startTag reads the tag that starts at markup[i] (just after its "<"): its token, where the
// markup goes on, and whether it closed itself ("/>").
func (m *markupTokens) startTag(markup string, i int) (t markupToken, next int, self, ok bool) {
	name := i
	for i < len(markup) && (isAlnum(markup[i]) || markup[i] == '-') {
		i++
	}
	if i == name || !isLetter(markup[name]) {
		return t, 0, false, false
	}
	t = markupToken{name: markup[name:i], attrs: len(m.attrs)}
	for {
		for i < len(markup) && isSpace(markup[i]) {
			i++
		}
		switch {
		case i >= len(markup):
			return t, 0, false, false
		case markup[i] == '>':
			return t, i + 1, self, m.sortAttrs(&t)
		case strings.HasPrefix(markup[i:], "/>"):
			return t, i + 2, true, m.sortAttrs(&t)
		}
		key := i
		for i < len(markup) && (isAlnum(markup[i]) || markup[i] == '-' || markup[i] == ':' || markup[i] == '_') {
			i++
		}
		if i == key {
			return t, 0, false, false
		}
		attr := [2]string{markup[key:i], ""}
		if i < len(markup) && markup[i] == '=' {
			if i+1 >= len(markup) || markup[i+1] != '"' {
				return t, 0, false, false
			}
			end := strings.IndexByte(markup[i+2:], '"')
			if end < 0 {
				return t, 0, false, false
			}
			value, ok := decode(markup[i+2 : i+2+end])
			if !ok {
				return t, 0, false, false
			}
			attr[1], i = value, i+2+end+1
		}
		m.attrs = append(m.attrs, attr)
		t.n++
	}
}

// sortAttrs puts t's attributes in order of name, as go-app writes them in a map's order, and
// reports false for a repeated one, which the parser drops.
func (m *markupTokens) sortAttrs(t *markupToken) bool {
	attrs := m.attrs[t.attrs : t.attrs+t.n]
	// An insertion sort: a tag has a few attributes.
	for j := 1; j < len(attrs); j++ {
		for k := j; k > 0 && attrs[k][0] <= attrs[k-1][0]; k-- {
			if attrs[k][0] == attrs[k-1][0] {
				return false
			}
			attrs[k], attrs[k-1] = attrs[k-1], attrs[k]
		}
	}
	return true
}

// decode is raw's characters with its entities decoded, and false when raw holds an "&" that
// starts none of the entities this page writes (a few names, numbers of characters that mean
// themselves: the parser's rules for the others differ in texts and attributes), a carriage
// return, NUL or a separator of the patch. Not html.UnescapeString: its table of every entity
// made the page's wasm 20 KB larger, gzipped.
func decode(raw string) (string, bool) {
	amp := false
	for i := range len(raw) {
		switch raw[i] {
		case '\r', 0, 0x1e, 0x1f:
			return "", false
		case '&':
			amp = true
		}
	}
	if !amp {
		return raw, true
	}
	var b strings.Builder
	for rest := raw; ; {
		i := strings.IndexByte(rest, '&')
		if i < 0 {
			b.WriteString(rest)
			return b.String(), true
		}
		b.WriteString(rest[:i])
		rest = rest[i+1:]
		end := strings.IndexByte(rest, ';')
		if end < 1 {
			return "", false
		}
		r, ok := entity(rest[:end])
		if !ok {
			return "", false
		}
		b.WriteRune(r)
		rest = rest[end+1:]
	}
}

// entity is the character that "&" name ";" stands for, among those decode reads.
func entity(name string) (rune, bool) {
	switch name {
	case "amp":
		return '&', true
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	case "nbsp":
		return '\u00a0', true
	}
	if name[0] != '#' {
		return 0, false
	}
	base, digits := 10, name[1:]
	if digits != "" && digits[0]|0x20 == 'x' {
		base, digits = 16, digits[1:]
	}
	c, err := strconv.ParseUint(digits, base, 32)
	// Characters that mean themselves: not a control, a surrogate or a noncharacter, which the
	// parser replaces (&#128; is the euro sign there).
	ok := err == nil && (c == '\t' || c == '\n' || c >= 0x20 && c < 0x7f ||
		c >= 0xa0 && c <= 0x10ffff && (c < 0xd800 || c > 0xdfff) && (c < 0xfdd0 || c > 0xfdef) && c&0xfffe != 0xfffe)
	return rune(c), ok
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool  { return isLetter(c) || c >= '0' && c <= '9' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\f' }
