package calc

import (
	"math/bits"
	"math/rand/v2"
	"time"
)

// herdClient is one client's state between attempts.
type herdClient struct {
	rng   rand.PCG
	start time.Duration // when its first attempt arrives
	state float64       // what its next wait grows from, as Params.Wait takes it
	made  int32         // attempts made so far
}

// clientStart is when client i (0-based) makes its first attempt: floor(i*Spread/Clients), so
// the clients start evenly over [0, Spread).
func (p Params) clientStart(i int) time.Duration {
	hi, lo := bits.Mul64(uint64(i), uint64(p.Spread))
	q, _ := bits.Div64(hi, lo, uint64(p.Clients)) // hi < Clients because i < Clients
	return time.Duration(q)
}
