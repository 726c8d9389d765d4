package importcfg

import (
	"fmt"
	"strconv"
	"time"
)

// literal is one value as the text writes it, with its name and line: a field or an argument in
// pasted code (Go, C#, Java, Python, which are no YAML), or a YAML value the reader has checked
// is a single one. Its messages name the line, the name and the text:
// `line 4: maximumAttempts "-1": must be 0 (unlimited) or more`.
type literal struct {
	line       int
	name, text string
}

// bad is the error of l: why it is refused.
func (l literal) bad(why string) error {
	return fmt.Errorf("line %d: %s %s: %s", l.line, l.name, quoteShort(l.text), why)
}

// valueLine is a line of Read or Ignored about l: "line 3: MaximumAttempts 5: read".
func (l literal) valueLine(what string) string {
	return fmt.Sprintf("line %d: %s %s: %s", l.line, l.name, shorten(l.text), what)
}

// keyLine is a line of Read or Ignored about l's name alone.
func (l literal) keyLine(what string) string {
	return fmt.Sprintf("line %d: %s: %s", l.line, l.name, what)
}

// number reads a decimal within [lo, hi]; why says what is expected. The decimal is JSON's
// form, as the engine's numbers are: ParseFloat alone would also take hex ("0x1p3"), "Inf" and
// "NaN".
func (l literal) number(lo, hi float64, why string) (float64, error) {
	x, err := strconv.ParseFloat(l.text, 64)
	if err != nil || !decimalNumber.MatchString(l.text) || x < lo || x > hi {
		return 0, l.bad(why)
	}
	return x, nil
}

// whole reads a whole number within [lo, hi].
func (l literal) whole(lo, hi int64, why string) (int64, error) {
	n, err := strconv.ParseInt(l.text, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, l.bad(why)
	}
	return n, nil
}

// duration reads a duration as Go and protobuf's JSON write it ("1.5s", "100ms", "2m"),
// within [lo, hi].
func (l literal) duration(lo, hi time.Duration, why string) (time.Duration, error) {
	d, err := time.ParseDuration(l.text)
	if err != nil || d < lo || d > hi {
		return 0, l.bad(why)
	}
	return d, nil
}

// shorten keeps a value short: a pasted value can be kilobytes long.
func shorten(v string) string {
	if r := []rune(v); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return v
}
