package mathx

import (
	"math"
	"math/rand/v2"
	"time"
)

// Unit turns one PCG output into [0, 1) exactly as rand.Rand.Float64 does: every draw of calc
// and of its simulations goes through it, so that they follow one another's streams bit for bit.
func Unit(r *rand.PCG) float64 { return Unit53(r.Uint64()) }

// Unit53 is Unit of the PCG output x.
func Unit53(x uint64) float64 { return float64(x<<11>>11) / (1 << 53) }

// RoundNs rounds x nanoseconds to the nearest, ties away from zero, saturating.
func RoundNs(x float64) time.Duration {
	r := math.Round(x)
	if r >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(r)
}
