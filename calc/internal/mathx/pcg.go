package mathx

import "math/bits"

// PCG is math/rand/v2's PCG, step for step: the same state, seeded the same way, gives the same
// outputs (TestPCGAsTheStandardLibrary). Its Uint64 is short enough to inline, where the
// standard library's is two calls per draw, which the sampling of the paths makes 50,000 times
// an edit in wasm.
type PCG struct{ hi, lo uint64 }

// Seed sets p's state as rand.PCG's Seed(seed1, seed2) does.
func (p *PCG) Seed(seed1, seed2 uint64) { p.hi, p.lo = seed1, seed2 }

// Uint64 moves the state on (a 128-bit LCG) and returns its DXSM output, as rand.PCG.Uint64.
func (p *PCG) Uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}
