package policy

import (
	"slices"
	"testing"
)

// TestModesComplete fails for a Jitter constant without a complete entry in the table of modes:
// the table has one entry for each value below jitterCount, and a missing one is all zero.
// calc's TestEveryJitterIsValid holds that each is valid with the defaults.
func TestModesComplete(t *testing.T) {
	seen := map[string]bool{}
	for j := range jitterCount {
		m := modes[j]
		if m.name == "" || m.title == "" || m.words == nil {
			t.Errorf("Jitter(%d): no name, title or words: %+v", j, m)
		}
		if seen[m.name] {
			t.Errorf("Jitter(%d): name %q twice", j, m.name)
		}
		seen[m.name] = true
		if (m.bounds == nil) == (m.chain == nil) {
			t.Errorf("%s: needs exactly one of bounds and chain", m.name)
		}
		if m.step != nil && (m.bounds == nil || m.step(1) <= 0) {
			t.Errorf("%s: a step needs bounds and a length", m.name)
		}
		if m.byRetry && m.bounds == nil {
			t.Errorf("%s: a range by retry needs bounds", m.name)
		}
		if m.chain != nil && m.factor {
			t.Errorf("%s: a chain reads only base and cap, not factor", m.name)
		}
		if m.classic != (m.library == "") {
			t.Errorf("%s: classic %v, library %q: a mode is either classic or a library's", m.name, m.classic, m.library)
		}
		if got := j.String(); got != m.name {
			t.Errorf("Jitter(%d).String() = %q, want %q", j, got, m.name)
		}
	}
	want := []Jitter{None, Full, Equal, Decorrelated, Proportional}
	if got := Jitters(); !slices.Equal(got, want) {
		t.Errorf("Jitters() = %v, want %v", got, want)
	}
	if got := AllJitters(); len(got) != int(jitterCount) || !slices.Equal(got[:5], want) || got[len(got)-1] != jitterCount-1 {
		t.Errorf("AllJitters() = %v", got)
	}
}
