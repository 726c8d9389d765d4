package calc

import (
	"fmt"
	"math"
	"time"

	"backoffcalc/calc/policy"
)

// The stream of new requests (docs/overload-model.md, "Requests"): evenly spaced or a seeded
// Poisson process, from t = 0 while the start is before Run. Its count bounds the work of an
// open run, so Validate must know it without running the stream: exactly for even spacing,
// and for poisson as a cap the stream is stopped at.

// StreamRequests is how many requests the stream sends, 0 when it is off or its rate or run is
// out of range (Validate reports those on their own keys). For even spacing it is exact: the k
// with start k*1e9/Rate ns before Run. For poisson it is a cap that the simulation stops the
// stream at: ceil(λ + 8√λ + 8) with λ = Rate × Run in seconds, the mean count. A Poisson count
// passes λ + 8√λ + 8 with a probability below 1e-12 for every λ (the Chernoff bound), so the cap
// changes no run anyone will see, and the work bound holds for every seed.
func (p Params) StreamRequests() int {
	if !(p.Rate > 0 && p.Rate <= MaxRate) || p.Run <= 0 || p.Run > MaxRun {
		return 0
	}
	lambda := float64(p.Run) / 1e9 * p.Rate
	if p.Arrivals == Poisson {
		return int(math.Ceil(lambda + 8*math.Sqrt(lambda) + 8))
	}
	// The starts grow with k (float division by a constant is monotonic), so the count is the
	// first k whose start is not before Run; λ is within a step or two of it.
	n := int(math.Ceil(lambda))
	for n > 0 && p.EvenStart(n-1) >= p.Run {
		n--
	}
	for p.EvenStart(n) < p.Run {
		n++
	}
	return n
}

// EvenStart is when stream request k starts with even spacing.
func (p Params) EvenStart(k int) time.Duration {
	return time.Duration(float64(k) * 1e9 / p.Rate)
}

// lastStreamStart is a time no stream request starts after: exact for even spacing, Run less
// 1ns for poisson; -1 with no stream.
func (p Params) lastStreamStart() time.Duration {
	n := p.StreamRequests()
	switch {
	case n == 0:
		return -1
	case p.Arrivals == Poisson:
		return p.Run - 1
	}
	return p.EvenStart(n - 1)
}

// OverloadWork refuses an open system of more than MaxHerdWork request-attempts, counting the
// crowd's clients and the stream's requests (StreamRequests, the poisson cap included). With no
// stream, or a crowd already over the limit, or an input out of its own range, it says nothing:
// herdWork and the range checks report those.
func OverloadWork(p Params) error {
	n := p.StreamRequests()
	if n == 0 || p.Attempts < 1 || p.Attempts > policy.MaxAttempts || p.Clients < 1 || p.Clients > MaxClients ||
		herdWork(p.Clients, p.Attempts) != nil {
		return nil
	}
	if (p.Clients+n)*p.Attempts <= MaxHerdWork {
		return nil
	}
	of := fmt.Sprintf("%d of the stream", n)
	if p.Arrivals == Poisson {
		of = fmt.Sprintf("at most %d of the stream", n)
	}
	return fmt.Errorf("%d requests (%d clients + %s) × %d attempts is over the limit of %d request-attempts",
		p.Clients+n, p.Clients, of, p.Attempts, MaxHerdWork)
}
