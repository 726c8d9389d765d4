package importcfg

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A gRPC service config, a Temporal RetryPolicy in protobuf's JSON and a Step Functions state
// are JSON, which their libraries read strictly (encoding/json, protojson, the States
// Language's parser). The YAML parser every format is read with takes more, which they refuse:
// a comma before } or ], # comments, unquoted keys and strings. .NET's configuration reader
// takes trailing commas and comments (System.Text.Json with AllowTrailingCommas and
// CommentHandling.Skip), and YAML's formats are YAML.

// strictJSON refuses text when it starts as JSON (a { or a [) and is not JSON, naming the line
// and saying who refuses it: `line 3: remove the trailing comma before }; JSON has none, and
// grpc-go refuses the whole service config`.
func strictJSON(text, who string) error {
	t := strings.TrimLeft(text, " \t\r\n")
	if t == "" || t[0] != '{' && t[0] != '[' {
		return nil
	}
	if jsonComment > 0 {
		return fmt.Errorf("line %d: remove the comment; JSON has none, and %s", jsonComment, who)
	}
	if json.Valid([]byte(text)) {
		return nil
	}
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal([]byte(text), &v); !errors.As(err, &se) {
		return nil
	}
	at := min(int(se.Offset), len(text)) - 1 // the byte it stopped at
	if at >= 0 && (text[at] == '}' || text[at] == ']') {
		comma := strings.TrimRight(text[:at], " \t\r\n")
		if strings.HasSuffix(comma, ",") {
			return fmt.Errorf("line %d: remove the trailing comma before %c; JSON has none, and %s", lineOf(text, len(comma)-1), text[at], who)
		}
	}
	return fmt.Errorf("line %d: not JSON (%s), and %s", lineOf(text, max(at, 0)), se.Error(), who)
}

// lineOf is the line of text that byte i is on, from 1.
func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// jsonComment is the line of the first comment that blankJSONComments took out of the text
// being read (Read holds readMu), 0 for none: strictJSON refuses it for the formats whose
// libraries do.
var jsonComment int

// blankJSONComments writes spaces over the // and /* */ comments of text outside its strings,
// when text starts as JSON (a { or a [), keeping every line and column where it was, so that the
// .NET configuration reader's JSON, which takes them, parses as YAML; line is the first's, 0
// when there is none (or a /* is never closed: the text is left to the parser's message).
func blankJSONComments(text string) (out string, line int) {
	t := strings.TrimLeft(text, " \t\r\n")
	if t == "" || t[0] != '{' && t[0] != '[' || !strings.Contains(text, "/") {
		return text, 0
	}
	b := []byte(text)
	inString := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++ // the escaped byte
		case c == '"':
			inString = !inString
		case inString || c != '/' || i+1 == len(b):
		case b[i+1] == '/':
			if line == 0 {
				line = lineOf(text, i)
			}
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return text, 0
			}
			if line == 0 {
				line = lineOf(text, i)
			}
			for j := i; j < i+2+end+2; j++ {
				if b[j] != '\n' && b[j] != '\r' {
					b[j] = ' '
				}
			}
			i += 2 + end + 1
		}
	}
	return string(b), line
}
