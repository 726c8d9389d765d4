package policy

import (
	"math"
	"testing"
)

// While 3^k*base <= cap the grid must reproduce the recurrence m_k = (base + 3*m_(k-1))/2 on its
// own: there the next mean is linear in the previous wait, so bins lose nothing.
func TestGridExactWhileUncapped(t *testing.T) {
	base, cap := 1e6, 1e6*math.Pow(3, 30)
	means, atCap := gridMeans(base, cap, 30, gridPerOctave)
	m := base
	for k := range 30 {
		m = (base + 3*m) / 2
		if !near(means[k], m, 1e-12) || atCap[k] != 0 {
			t.Fatalf("retry %d: grid %v (at cap %v), recurrence %v", k+1, means[k], atCap[k], m)
		}
	}
}

// The first capped step has a closed form: with cap c in (base, 3*base), the wait is uniform on
// [base, 3*base] clamped at c, so P(at cap) = (3b-c)/(2b) and the mean is c - (c-b)^2/(4b).
func TestGridFirstCappedStep(t *testing.T) {
	b, c := 100.0, 250.0
	means, atCap := decorrelatedMeans(b, c, 1)
	if !near(atCap[0], (3*b-c)/(2*b), 1e-12) || !near(means[0], c-(c-b)*(c-b)/(4*b), 1e-12) {
		t.Errorf("mean %v, at cap %v", means[0], atCap[0])
	}
	// base == cap: every wait is the cap.
	means, atCap = decorrelatedMeans(b, b, 3)
	if means[2] != b || atCap[2] != 1 {
		t.Errorf("base == cap: mean %v, at cap %v", means[2], atCap[2])
	}
}

// Where rare long paths dominate the mean (1 ms to 168 h, over 1000 retries), the grid must be
// within 0.5% of the true mean; a grid 16 times finer stands in for the truth, and the two must
// agree far more closely than that.
func TestGridConverges(t *testing.T) {
	if testing.Short() {
		t.Skip("fine grid takes a few seconds")
	}
	base, cap := 1e6, 168*3600e9
	coarse, _ := decorrelatedMeans(base, cap, 1000)
	fine, _ := gridMeans(base, cap, 1000, 16*gridPerOctave)
	worst := 0.0
	for k := range coarse {
		worst = math.Max(worst, math.Abs(coarse[k]-fine[k])/fine[k])
	}
	if worst > 0.001 {
		t.Errorf("grid differs from a 16x finer one by %.4f%%", 100*worst)
	}
	t.Logf("largest relative difference to a 16x finer grid: %.2e", worst)
}
