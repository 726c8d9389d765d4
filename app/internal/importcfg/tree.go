package importcfg

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Limits on a YAML or JSON text beyond MaxSize and MaxDepth: aliases (*name) repeat what their
// anchor holds, so a few of them nested can stand for billions of values (the "billion laughs");
// a configuration needs few of them, and its values stay far under maxValues.
// maxBytes bounds the bytes of keys and scalars built, aliases expanded: the work and memory of a
// text, counted as it is built so that a text beyond it stops there. A text without aliases
// has at most MaxSize of them; 16 aliases of a 16 KB anchor are within it.
const (
	maxAliases = 16
	maxValues  = 1 << 15
	maxBytes   = 256 << 10
)

// value is one value of a YAML or JSON text, with the line it is on: a scalar, a sequence or a
// mapping, aliases expanded and merge keys (<<) merged. Readers mark what they read, so that
// what is left can be listed as ignored.
type value struct {
	line int
	key  string // its key in its mapping; "" in a sequence and at the top
	// Where it is, for messages (path): the mapping or sequence it is in, nil at the top, and
	// its index in a sequence. A path is written only for a message, so that a text of long
	// keys nested deep costs its values, not each value its whole path.
	parent *value
	index  int
	kind   yaml.Kind // ScalarNode, SequenceNode or MappingNode
	text   string    // a scalar's text
	quoted bool      // a scalar written as a string: "5", not 5
	null   bool      // a scalar that is null: ~, null or nothing
	items  []*value  // a sequence's items, or a mapping's values in order (each with its key)
	used   bool
}

// maxDocs is how many YAML documents (--- between them) parseDocs reads: Istio's reader looks
// through a manifest's documents for its VirtualService.
const maxDocs = 64

// parseTree reads text's first YAML document (JSON is YAML) within the limits. ok is false when
// text is not YAML or is a lone scalar (no configuration is), with no error; err is set when it
// is YAML beyond a limit.
func parseTree(text string) (root *value, ok bool, err error) {
	doc, perr := parseYAML(text)
	if parsed.built {
		clearUsed(parsed.root)
	} else {
		parsed.built = true
		parsed.root, parsed.ok, parsed.buildErr = parsed.b.document(doc, perr)
		if parsed.buildErr != nil {
			parsed.buildErr = &textError{parsed.buildErr}
		}
	}
	return parsed.root, parsed.ok, parsed.buildErr
}

// textError is a fault of the text itself, found as it is parsed, whatever its format (a limit,
// an alias to nothing): Read names no format with it, as the format that met it first is only
// the first one tried.
type textError struct{ err error }

func (e *textError) Error() string { return e.err.Error() }

func (e *textError) Unwrap() error { return e.err }

// parseDocs is every document of text, at most maxDocs, as parseTree reads the first: nil for one
// that is no mapping or sequence. The limits count over them all. err is a document's parse
// error or a limit passed.
func parseDocs(text string) ([]*value, error) {
	first, _, err := parseTree(text)
	if err != nil {
		return nil, err
	}
	if parsed.err != nil {
		return nil, errors.New(yamlError(text))
	}
	if parsed.docs == nil {
		parsed.docs = []*value{first}
		for len(parsed.docs) < maxDocs {
			var doc yaml.Node
			if err := parsed.dec.Decode(&doc); err != nil {
				if !errors.Is(err, io.EOF) {
					parsed.docsErr = errors.New(yamlMessage(text, err))
				}
				break
			}
			v, _, err := parsed.b.document(&doc, nil)
			if err != nil {
				parsed.docsErr = &textError{err}
				break
			}
			parsed.docs = append(parsed.docs, v)
		}
	}
	return parsed.docs, parsed.docsErr
}

// notYAML is the parser's message for a text that is not YAML and mentions one of words, a
// format's keys: that format's, badly written. It is nil for any other text.
func notYAML(text string, words ...string) error {
	if msg := yamlError(text); msg != "" && mentions(text, words...) {
		return errors.New(msg)
	}
	return nil
}

// mentions reports whether text has one of words.
func mentions(text string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// clearUsed marks nothing under v read, for the next format.
func clearUsed(v *value) {
	if v == nil {
		return
	}
	v.used = false
	for _, item := range v.items {
		clearUsed(item)
	}
}

// document is doc's values; ok is false when doc is not YAML (perr) or is a lone scalar.
func (b *builder) document(doc *yaml.Node, perr error) (root *value, ok bool, err error) {
	if perr != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, false, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode && top.Kind != yaml.SequenceNode {
		return nil, false, nil
	}
	if err := b.countAliases(top, 0); err != nil {
		return nil, true, err
	}
	root, err = b.build(top, nil, "", 0, 0)
	return root, true, err
}

// yamlError is the parser's message of a text that is not YAML, for the message that no
// format read it: "line 3: did not find expected key".
func yamlError(text string) string {
	_, err := parseYAML(text)
	if err == nil {
		return ""
	}
	return yamlMessage(text, err)
}

// yamlMessage is the parser's message of err about text, but where a tab indents a line: the
// parser then says "found character that cannot start any token", or that a tab "violates
// indentation" on the line before, where a person needs to read that YAML indents with spaces.
func yamlMessage(text string, err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return unplaced(text, msg)
	}
	if !strings.Contains(msg, "cannot start any token") && !strings.Contains(msg, "tab character") {
		return msg
	}
	n, _ := strconv.Atoi(m[1])
	i := 0
	for line := range strings.Lines(text) {
		if i++; i > n+1 {
			break
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if i >= n && strings.Contains(indent, "\t") {
			return fmt.Sprintf("line %d: a tab indents it, and YAML indents with spaces, not tabs", i)
		}
	}
	return msg
}

var yamlLine = regexp.MustCompile(`^line ([0-9]+): `)

// unplaced is the parser's message msg, which names no line, with its line and the key before
// it there: a byte that is not UTF-8, a control character and an unknown anchor are found in
// text; any other message the parser gives without a line is about the first (its lines count
// from 0, and it writes none for 0).
func unplaced(text, msg string) string {
	at := -1
	switch {
	case strings.Contains(msg, "UTF-8") || strings.Contains(msg, "Unicode"):
		for i, r := range text {
			if _, size := utf8.DecodeRuneInString(text[i:]); r == utf8.RuneError && size == 1 {
				at, msg = i, fmt.Sprintf("%s (byte %#02x): YAML and JSON are UTF-8 text", msg, text[i])
				break
			}
		}
	case strings.Contains(msg, "control characters"):
		if i := strings.IndexFunc(text, yamlControl); i >= 0 {
			r, _ := utf8.DecodeRuneInString(text[i:])
			at, msg = i, fmt.Sprintf("%s (%U)", msg, r)
		}
	case yamlAnchor.MatchString(msg):
		name := yamlAnchor.FindStringSubmatch(msg)[1]
		for i := strings.Index(text, "*"+name); i >= 0; {
			if end := i + 1 + len(name); end == len(text) || !yamlAnchorChar(text[end]) {
				at, msg = i, fmt.Sprintf("alias *%s: no anchor &%s before it", quoteKey(name), quoteKey(name))
				break
			}
			next := strings.Index(text[i+1:], "*"+name)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	if at < 0 {
		return "line 1: " + msg
	}
	line := strings.Count(text[:at], "\n") + 1
	start := strings.LastIndexByte(text[:at], '\n') + 1
	if keys := keyBefore.FindAllStringSubmatch(text[start:at], -1); keys != nil {
		return fmt.Sprintf("line %d: %s: %s", line, quoteKey(keys[len(keys)-1][1]), msg)
	}
	return fmt.Sprintf("line %d: %s", line, msg)
}

var (
	yamlAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
	// keyBefore is a key and its colon, quoted or not, as JSON and YAML write them.
	keyBefore = regexp.MustCompile(`["']?([A-Za-z_][A-Za-z0-9_.-]*)["']?\s*:`)
)

// yamlControl is a character YAML does not allow in a text: a control character but tab, line
// feed, carriage return and next line.
func yamlControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r >= 0x80 && r <= 0x9f && r != 0x85 || r == 0xfffe || r == 0xffff
}

// yamlAnchorChar is a byte an anchor's name may go on with.
func yamlAnchorChar(c byte) bool {
	return !strings.ContainsRune(" \t\r\n,[]{}", rune(c))
}

// parsed is the last text parsed and its YAML: every format of a Read parses the same text, and
// the parse is most of their time. Read holds readMu while it uses it, and forgets it when done;
// nothing changes a parsed node.
var parsed parse

type parse struct {
	text string
	dec  *yaml.Decoder // it has read the first document; parseDocs reads on
	doc  *yaml.Node
	err  error
	b    builder // counts over every document built
	// The values built from doc, when built: readers mark them, and parseTree clears the marks.
	built    bool
	root     *value
	ok       bool
	buildErr error
	// Every document's, once parseDocs has built them.
	docs    []*value
	docsErr error
}

// readMu makes one Read at a time use parsed, whose values its readers mark.
var readMu sync.Mutex

// parseYAML is text's first YAML document, parsed once per Read.
func parseYAML(text string) (*yaml.Node, error) {
	if parsed.doc == nil || parsed.text != text {
		forgetParse()
		var doc yaml.Node
		parsed.dec = yaml.NewDecoder(strings.NewReader(text))
		if err := parsed.dec.Decode(&doc); !errors.Is(err, io.EOF) {
			parsed.err = err
		}
		parsed.text, parsed.doc = text, &doc
	}
	return parsed.doc, parsed.err
}

// forgetParse lets the last parse go.
func forgetParse() { parsed = parse{} }

// builder counts what build has made: the aliases met, the values built and their bytes.
// via is the line of the alias whose anchor is being built, 0 outside any: a limit passed
// there names the alias's line.
type builder struct{ aliases, values, bytes, via int }

// countAliases refuses more than maxAliases aliases, before any is expanded, and nesting
// beyond MaxDepth.
func (b *builder) countAliases(n *yaml.Node, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("line %d: nested more than %d deep", n.Line, MaxDepth)
	}
	if n.Kind == yaml.AliasNode {
		b.aliases++
		if b.aliases > maxAliases {
			return fmt.Errorf("line %d: *%s: more than %d aliases: a configuration needs few, and each repeats what its anchor holds", n.Line, n.Value, maxAliases)
		}
	}
	for _, c := range n.Content {
		if err := b.countAliases(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// build converts n, the value at key or index in parent, following aliases, within MaxDepth,
// maxValues and maxBytes.
func (b *builder) build(n *yaml.Node, parent *value, key string, index, depth int) (*value, error) {
	v := &value{key: key, parent: parent, index: index}
	for hops := 0; n.Kind == yaml.AliasNode; hops++ {
		if n.Alias == nil || hops > maxAliases {
			return nil, fmt.Errorf("line %d: %s: alias *%s refers to nothing", n.Line, orTop(v.path()), quoteKey(n.Value))
		}
		if b.via == 0 {
			b.via = n.Line
			defer func() { b.via = 0 }()
		}
		n = n.Alias
	}
	at := n.Line
	if b.via != 0 {
		at = b.via // where the text repeats its anchor, not the anchor
	}
	v.line, v.kind = n.Line, n.Kind
	if depth > MaxDepth {
		return nil, fmt.Errorf("line %d: %s: nested more than %d deep", n.Line, orTop(v.path()), MaxDepth)
	}
	b.values++
	if b.values > maxValues {
		return nil, fmt.Errorf("line %d: %s: more than %d values: aliases (*name) repeat too much", at, orTop(v.path()), maxValues)
	}
	b.bytes += len(key) + len(n.Value)
	if b.bytes > maxBytes {
		return nil, fmt.Errorf("line %d: %s: %d bytes of keys and values with aliases (*name) expanded, past the limit of %d", at, orTop(v.path()), b.bytes, maxBytes)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		v.text = n.Value
		v.quoted = n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
		v.null = !v.quoted && n.ShortTag() == "!!null"
	case yaml.SequenceNode:
		for i, c := range n.Content {
			item, err := b.build(c, v, "", i, depth+1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
		}
	case yaml.MappingNode:
		if err := b.mapping(v, n, depth); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("line %d: %s: not a value", n.Line, orTop(v.path()))
	}
	return v, nil
}

// mapping fills v with n's pairs; a merge key (<<) adds its mappings' keys that n does not
// have itself.
func (b *builder) mapping(v *value, n *yaml.Node, depth int) error {
	var merged []*value
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, c := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: %s: a key must be a word, not a list or mapping", k.Line, orTop(v.path()))
		}
		item, err := b.build(c, v, k.Value, 0, depth+1)
		if err != nil {
			return err
		}
		if k.Value == "<<" && k.Style == 0 {
			merged = append(merged, item)
			continue
		}
		v.items = append(v.items, item)
	}
	if len(merged) == 0 {
		return nil
	}
	has := make(map[string]bool, len(v.items))
	for _, item := range v.items {
		has[item.key] = true
	}
	for _, m := range merged {
		sources := []*value{m}
		if m.kind == yaml.SequenceNode {
			sources = m.items
		}
		for _, s := range sources {
			if s.kind != yaml.MappingNode {
				return fmt.Errorf("line %d: %s: a merge (<<) must name mappings", s.line, orTop(v.path()))
			}
			for _, item := range s.items {
				if !has[item.key] {
					has[item.key] = true
					moved := *item
					moved.parent = v
					v.items = append(v.items, &moved)
				}
			}
		}
	}
	return nil
}

func orTop(path string) string {
	if path == "" {
		return "the top"
	}
	return path
}

// get is v's value at the last key that match says is its, marking every such key read when
// mark is set; nil when there is none or v is no mapping. The last one wins, as with
// encoding/json and YAML decoders that allow a key twice.
func (v *value) get(match func(string) bool, mark bool) *value {
	if v == nil || v.kind != yaml.MappingNode {
		return nil
	}
	var found *value
	for _, item := range v.items {
		if match(item.key) {
			found = item
			if mark {
				item.used = true
			}
		}
	}
	return found
}

// at is v's value at one of keys, nil when there is none or v is no mapping.
func (v *value) at(keys ...string) *value {
	return v.get(func(k string) bool { return slices.Contains(keys, k) }, false)
}

// twice refuses a key given twice in a mapping under v: YAML forbids it, and readers differ on
// which value counts (gRPC's and Envoy's take the last, as their libraries do). The Temporal,
// Step Functions and Istio readers refuse it in a text they recognise as theirs.
func (v *value) twice() error {
	if v == nil {
		return nil
	}
	var lines map[string]int
	if v.kind == yaml.MappingNode {
		lines = make(map[string]int, len(v.items))
	}
	for _, item := range v.items {
		if line, ok := lines[item.key]; ok {
			return fmt.Errorf("line %d: %s: given twice (also line %d): give it once", item.line, item.path(), line)
		}
		if lines != nil {
			lines[item.key] = item.line
		}
		if err := item.twice(); err != nil {
			return err
		}
	}
	return nil
}

// literal is v's text as a literal named by its path, or an error when v is no single value.
func (v *value) literal() (literal, error) {
	s, err := v.scalar()
	return literal{line: v.line, name: v.path(), text: s}, err
}

// keyLine is a line of Read or Ignored about v, by its path: "line 3: retryPolicy.jitter: …".
func (v *value) keyLine(what string) string {
	return fmt.Sprintf("line %d: %s: %s", v.line, v.path(), what)
}

// valueLine is keyLine with v's text when v is a single value: "line 3: maximumAttempts 5: …".
func (v *value) valueLine(what string) string {
	if l, err := v.literal(); err == nil {
		return l.valueLine(what)
	}
	return v.keyLine(what)
}

// errorf is a message about v: its line, its key and its text.
func (v *value) errorf(format string, args ...any) error {
	what := v.path()
	if v.kind == yaml.ScalarNode {
		what += " " + quoteShort(v.text)
	}
	return fmt.Errorf("line %d: %s: %s", v.line, what, fmt.Sprintf(format, args...))
}

// scalar is v's text when it is a scalar, or an error naming it.
func (v *value) scalar() (string, error) {
	if v.kind != yaml.ScalarNode || v.null {
		return "", fmt.Errorf("line %d: %s: must be a single value", v.line, v.path())
	}
	return v.text, nil
}

// ignored lists the keys under v that no reader marked, in the text's order, each with why's
// reason: an unread mapping is one line, a read one has its unread keys listed.
func (v *value) ignored(why func(v *value) string) []string {
	var out []string
	var walk func(v *value)
	walk = func(v *value) {
		for _, item := range v.items {
			switch {
			case v.kind == yaml.MappingNode && !item.used:
				out = append(out, fmt.Sprintf("line %d: %s: %s", item.line, item.path(), why(item)))
			case item.kind != yaml.ScalarNode:
				walk(item)
			}
		}
	}
	walk(v)
	return out
}

// quoteShort quotes s, cut to 40 bytes: a pasted 60 KB value must not become a 60 KB message.
func quoteShort(s string) string {
	const most = 40
	if len(s) > most {
		cut := most
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Lengths of a path in a message: each key cut to maxKey bytes, and a path longer than maxPath
// keeps its first key and its last ones, how many are left out between ("a.(13 more).b.c"), so
// that the message's reason stays whole.
const (
	maxKey  = 64
	maxPath = 200
)

// path is where v is, for a message: methodConfig[0].retryPolicy.maxAttempts, each key as
// quoteKey writes it; "" at the top. It is written only when a message needs it.
func (v *value) path() string {
	var segs []string // from v up
	for ; v != nil; v = v.parent {
		switch {
		case v.parent != nil && v.parent.kind == yaml.SequenceNode:
			segs = append(segs, "["+strconv.Itoa(v.index)+"]")
		case v.parent != nil || v.key != "":
			segs = append(segs, "."+quoteKey(v.key))
		}
	}
	if len(segs) == 0 {
		return ""
	}
	slices.Reverse(segs)
	segs[0] = strings.TrimPrefix(segs[0], ".")
	n := 0
	for _, s := range segs {
		n += len(s)
	}
	if n <= maxPath {
		return strings.Join(segs, "")
	}
	// The first key, then as many of the last as fit.
	tail := len(segs)
	for n = len(segs[0]); tail > 1 && n+len(segs[tail-1]) <= maxPath; tail-- {
		n += len(segs[tail-1])
	}
	return segs[0] + fmt.Sprintf(".(%d more)", tail-1) + strings.Join(segs[tail:], "")
}

// quoteKey is a key of a configuration as a message writes it: as it is when it is a word of
// printable characters, else quoted as Go quotes a string (its control characters escaped,
// never written to a terminal or the page as they are), cut to maxKey bytes with "…".
func quoteKey(k string) string { return quoteWord(k, false) }

// quoteName is quoteKey for a name that may have spaces: an AWS profile's, "profile prod".
func quoteName(k string) string { return quoteWord(k, true) }

func quoteWord(k string, spaces bool) string {
	word := k != ""
	for _, r := range k {
		if r == utf8.RuneError || !unicode.IsPrint(r) || unicode.IsSpace(r) && !(spaces && r == ' ') || r == '"' || r == '\\' {
			word = false
			break
		}
	}
	if word {
		return cut(k, maxKey)
	}
	if len(k) > maxKey {
		return strconv.Quote(strings.TrimSuffix(cut(k, maxKey), "…")) + "…"
	}
	return strconv.Quote(k)
}
