package breaker

import "testing"

// The words' "a success rate of at least h closes" is the code's "over 1 − Rate" for every rate
// in hundredths and every count of results a half-open breaker can hold.
func TestFailsafeClosesAtIsTheCodesRule(t *testing.T) {
	for k := 1; k <= 100; k++ {
		r := float64(k) / 100
		h := closesAt(r)
		for all := 1; all <= 100; all++ {
			for s := 0; s <= all; s++ {
				if code, words := rate(s, all) > 1-r, rate(s, all) >= h; code != words {
					t.Fatalf("rate %v, %d successes of %d: the code closes %v, the words (at least %v) say %v", r, s, all, code, h, words)
				}
			}
		}
	}
	if got := closesAt(0.07); got != 0.93 {
		t.Errorf("closesAt(0.07) = %v, want 0.93: 1 − 0.07 is under 0.93 in float64", got)
	}
}
