// Package importcfg reads the retry configuration people already have (a gRPC service config, an
// Envoy route, ~/.aws/config, resilience4j's properties, …) and turns it into the link's inputs,
// saying what it read, what it ignored and why. It only reads: the numbers are calc's, from the
// link the import makes, so an import is shareable as that link.
package importcfg

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"backoffcalc/app/internal/imported"
)

// Limits on what an import reads: a configuration is a few kilobytes, and the page must stay
// responsive whatever is pasted into it.
const (
	MaxSize  = 64 << 10 // bytes of text
	MaxDepth = 32       // nesting of objects, arrays and mappings
)

// Result is what an import read (imported.Result): the page receives it from the engine worker,
// which reads with this package, so that the page's wasm carries no parser.
type Result = imported.Result

// Default is an input an import set that its configuration does not say.
type Default = imported.Default

// format is one kind of configuration: its name in words and its reader, which says ok=false,
// with no error, when the text is not of its kind.
type format struct {
	name string
	read func(text string) (r Result, ok bool, err error)
}

// formats are tried in order; the first that recognises the text reads it.
// Step Functions' array and Temporal's retryPolicy come before the AWS file and Envoy, which would
// take them for a section header and a retry_policy; cenkalti's and client-go's Go before
// Temporal's, whose reader would take their InitialInterval.
var formats = []format{grpcFormat, temporalJSON, stepFunctions, envoyFormat, awsFormat, r4jYAMLFormat, r4jPropertiesFormat,
	dotnetFormat, cenkaltiGo, clientGo, temporalGo, istio, spring, tenacity, pollyCode, r4jCode}

// Read reads text as the first format that recognises it. An error names the line or key that
// was wrong and the value found there.
func Read(text string) (Result, error) {
	if len(text) > MaxSize {
		return Result{}, fmt.Errorf("import: %d bytes: at most %d", len(text), MaxSize)
	}
	// Windows editors start a UTF-8 file with a byte order mark, which no reader expects.
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.TrimSpace(text) == "" {
		return Result{}, errors.New("import: the text is empty: paste a configuration")
	}
	readMu.Lock()
	defer readMu.Unlock()
	defer forgetParse()
	text, jsonComment = blankJSONComments(text)
	defer func() { jsonComment = 0 }()
	for _, f := range formats {
		r, ok, err := f.read(text)
		if err != nil {
			head := "import (" + f.name + "): "
			if te := (*textError)(nil); errors.As(err, &te) {
				head = "import: "
			}
			return Result{}, errors.New(cut(printable(head+reasonFirst(err.Error())), maxMessage))
		}
		if ok {
			r.Format = f.name
			for _, lines := range [][]string{r.Read, r.Ignored} {
				for i, l := range lines {
					lines[i] = cut(printable(l), maxLine)
				}
			}
			return r, nil
		}
	}
	if msg := yamlError(text); msg != "" && looksStructured(text) {
		return Result{}, errors.New(cut(printable("import: not YAML or JSON: "+reasonFirst(msg)), maxMessage))
	}
	return Result{}, errors.New("import: not a configuration this calculator reads: " + names())
}

// reasonFirst writes each refusal in msg, one a line, that a reader wrote "line N: WHERE: REASON"
// as "REASON (line N, WHERE)": the reason is what a person reads first, and a key path of
// hundreds of bytes before it pushed it past the page's width, or past the message's limit.
// WHERE (a key, a key and its value, a function) ends at the first ": " outside quotes,
// parentheses and brackets: a key that has one is quoted (quoteKey). A refusal without one is
// its reason, "REASON (line N)". The readers write every refusal that way, so that this is the
// one place that orders it (TestRefusalsPutTheReasonFirst).
func reasonFirst(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "line ")
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if !ok || digits == 0 || !strings.HasPrefix(rest[digits:], ": ") {
			continue
		}
		line, rest := rest[:digits], rest[digits+2:]
		if at := whereEnds(rest); at >= 0 {
			lines[i] = rest[at+2:] + " (line " + line + ", " + rest[:at] + ")"
		} else {
			lines[i] = rest + " (line " + line + ")"
		}
	}
	return strings.Join(lines, "\n")
}

// whereEnds is the index of the first ": " of s outside quotes, parentheses and brackets; -1
// if none.
func whereEnds(s string) int {
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case c == ':' && depth == 0 && i+1 < len(s) && s[i+1] == ' ':
			return i
		}
	}
	return -1
}

// names lists the formats in words, for the message that none matched.
func names() string {
	n := make([]string, len(formats))
	for i, f := range formats {
		n[i] = f.name
	}
	return strings.Join(n, ", ")
}

// Lengths of what an import says: a key or value pasted 60 KB long is named, not repeated.
const (
	maxLine    = 300
	maxMessage = 2000
)

// printable is s with what a terminal or the page would not show as it is escaped as Go
// quotes it: a control character (an escape sequence's ESC, which sets a terminal's title or
// clears it), a format character (U+202E turns the text after it around), a byte that is not
// UTF-8. Every message quotes the text of a configuration it names (quoteKey, quoteShort); this
// holds for any it names as it is.
func printable(s string) string { return Printable(s, false) }

// Printable is printable, keeping line breaks and tabs when lines is set: a message of several
// lines for a terminal (the command line's stderr).
func Printable(s string, lines bool) string {
	shown := func(r rune) bool {
		return lines && (r == '\n' || r == '\t') || r != utf8.RuneError && unicode.IsPrint(r)
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return !shown(r) }) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch q := strconv.QuoteRune(r); {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case !shown(r):
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// cut is s cut to at most n bytes, on a rune's start, with an ellipsis when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// looksStructured says whether text starts as JSON or YAML would: a { or [, or a key and a
// colon. Its parser's message then says what is wrong, where another format's text would get
// a message about YAML it never meant to be.
func looksStructured(text string) bool {
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || t == "---" {
			continue
		}
		return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") || yamlKey.MatchString(t)
	}
	return false
}

var yamlKey = regexp.MustCompile(`^["']?[A-Za-z_][A-Za-z0-9_.-]*["']?\s*:(\s|$)`)
