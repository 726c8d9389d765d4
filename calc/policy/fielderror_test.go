package policy

import (
	"regexp"
	"strings"
	"testing"
)

// plainKey is the regexp ^[A-Za-z0-9_.-]{1,40}$ that FieldError's words used before it left calc,
// written as a loop so that the core links no regexp.
func TestPlainKeyIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,40}$`)
	for _, key := range []string{"", "base", "fsmaxrate", "utm_source", "a.b-c_D9", "bse\n", "\nbse", `"><img src`,
		"k ey", "ké", "ключ", "a/b", "a+b", strings.Repeat("k", 40), strings.Repeat("k", 41), "\x00", "-", "."} {
		if got, want := plainKey(key), re.MatchString(key); got != want {
			t.Errorf("plainKey(%q) = %v, the regexp says %v", key, got, want)
		}
	}
}
