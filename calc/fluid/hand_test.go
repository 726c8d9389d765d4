package fluid

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// Without jitter every client makes attempt k at the same time: at the defaults (1s outage,
// 100ms base doubling, 6 attempts) at 0, 100ms, 300ms, 700ms, 1.5s and 3.1s. Every one of 10^9
// clients fails the first four and comes back at 1.5s, where 20 a window get through; the rest
// come back at 3.1s, where 20 more do and the others have no attempt left. The counts are whole
// and certain: each window is exact and its deviation 0, as a mode that draws nothing has.
func TestNoJitterHandCounts(t *testing.T) {
	p := calc.Default()
	p.Clients = 1000000000
	r, err := Mode(p, calc.Backoff(policy.None))
	if err != nil {
		t.Fatal(err)
	}
	n := float64(p.Clients)
	want := map[int]float64{0: n, 1: n, 3: n, 7: n, 15: n, 31: n - 20}
	if len(r.Arrivals) != 32 {
		t.Fatalf("%d windows, want 32 (to 3.1s)", len(r.Arrivals))
	}
	for w, got := range r.Arrivals {
		if got != want[w] || r.SD[w] != 0 {
			t.Errorf("window %d: %v ± %v, want %v ± 0", w, got, r.SD[w], want[w])
		}
	}
	if r.Accepted != 40 || r.GaveUp != n-40 || r.Attempts != 6*n-20 {
		t.Errorf("accepted %v, gave up %v, attempts %v; want 40, %v, %v", r.Accepted, r.GaveUp, r.Attempts, n-40, 6*n-20)
	}
	if r.PeakBack != n || r.PeakBackAt != 1500*time.Millisecond || r.PeakDown != n || r.PeakDownAt != 0 {
		t.Errorf("peaks back %v at %v, down %v at %v", r.PeakBack, r.PeakBackAt, r.PeakDown, r.PeakDownAt)
	}
	// The 40th client gets through in [3.1s, 3.2s); the model puts it where the window's
	// mass, taken as even over the first cell, leaves half a client.
	if r.LastAccepted < 3100*time.Millisecond || r.LastAccepted >= 3200*time.Millisecond {
		t.Errorf("last accepted at %v, want in [3.1s, 3.2s)", r.LastAccepted)
	}
}

// Full jitter, base 100ms doubling, 4 attempts, a 150ms outage, no capacity: attempt k+1 is made
// when attempt k failed, that is when S_(k−1), the sum of the first k−1 waits, is before 150ms.
// W1 is uniform on [0, 100ms], W2 on [0, 200ms], W3 on [0, 400ms], so
//
//	P(S_0 < 150) = 1, P(S_1 < 150) = 1,
//	P(S_2 < 150) = ∫_0^100 (150−x) dx / (100·200) = 10000/20000 = 1/2,
//	P(S_3 < 150) = ∫_0^100 (150−x)²/2 dx / (100·200·400) = (150³−50³)/6 / 8e6 = 65/960,
//
// and a client makes 1 + 1 + 1 + 1/2 = 3.5 attempts on average, and gives up (its fourth
// attempt fails too) with probability 65/960.
func TestFullJitterHandExpectation(t *testing.T) {
	p := calc.Default()
	p.Attempts, p.Outage, p.Capacity, p.Clients = 4, 150*time.Millisecond, 0, 1000000
	r, err := Mode(p, calc.Backoff(policy.Full))
	if err != nil {
		t.Fatal(err)
	}
	gaveUp := 65.0 / 960
	if math.Abs(r.MeanPerClient-3.5) > 1e-4 {
		t.Errorf("%.6f attempts per client, want 3.5", r.MeanPerClient)
	}
	if got := r.GaveUp / float64(p.Clients); math.Abs(got-gaveUp) > 1e-4 {
		t.Errorf("gave up %.6f of the clients, want 65/960 = %.6f", got, gaveUp)
	}
	if math.Abs(r.Accepted+r.GaveUp-float64(p.Clients)) > 1e-6*float64(p.Clients) {
		t.Errorf("accepted %v + gave up %v is not the %d clients", r.Accepted, r.GaveUp, p.Clients)
	}
	t.Logf("%.6f attempts per client, %.6f gave up", r.MeanPerClient, r.GaveUp/float64(p.Clients))
}
