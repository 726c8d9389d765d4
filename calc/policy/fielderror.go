package policy

import (
	"errors"
	"fmt"
	"strconv"
)

// FieldError reports one bad input. Key is the query key, Value what was given. Every model
// reports a bad input with it (calc's Validate and Decode, calc/sim's, calc/fluid's and
// calc/contention's checks), so it is the bottom package's.
type FieldError struct {
	Key   string
	Value string
	Err   error
}

// maxQuoted bounds how much of a value an error repeats: a pasted 100 KB value must not become a
// 100 KB message.
const maxQuoted = 40

func (e *FieldError) Error() string {
	key := e.Key
	if !plainKey(key) {
		key = quoteShort(key) // an unknown key, as given (UnknownKeys)
	}
	return fmt.Sprintf("calc: %s %s: %v", key, quoteShort(e.Value), e.Err)
}

// quoteShort quotes s, or its first maxQuoted bytes and its length.
func quoteShort(s string) string {
	if len(s) > maxQuoted {
		return fmt.Sprintf("%s (%d bytes)", strconv.Quote(s[:maxQuoted]+"…"), len(s))
	}
	return strconv.Quote(s)
}

func (e *FieldError) Unwrap() error { return e.Err }

// AgainstError is a key's refusal that compares its value with another key's, Key's (cap below
// base): where Key's own value was refused, the comparison was with a value nobody gave, its
// default, and calc's Decode drops it rather than name that value.
type AgainstError struct {
	Key string
	Err error
}

func (e *AgainstError) Error() string { return e.Err.Error() }

func (e *AgainstError) Unwrap() error { return e.Err }

// FieldErrors returns the FieldErrors inside err (as returned by calc's Validate or Decode), in order.
func FieldErrors(err error) []*FieldError {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*FieldError
		for _, e := range j.Unwrap() {
			out = append(out, FieldErrors(e)...)
		}
		return out
	}
	// A loop of Unwrap rather than errors.As: As brings reflection into the wasm (11 KB gzip).
	for ; err != nil; err = errors.Unwrap(err) {
		if fe, ok := err.(*FieldError); ok {
			return []*FieldError{fe}
		}
	}
	return nil
}

// plainKey reports whether key is written as calc's keys are, [A-Za-z0-9_.-]{1,40}: an unknown
// key that is not one is quoted in a message, so that `"><img src` or a newline reads as what
// was given.
func plainKey(key string) bool {
	if len(key) < 1 || len(key) > 40 {
		return false
	}
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}
