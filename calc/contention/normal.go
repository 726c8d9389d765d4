package contention

import (
	"math"
	"math/rand/v2"

	"backoffcalc/calc/internal/mathx"
)

// normal draws from the standard normal distribution with Leva's ratio-of-uniforms method (J. L.
// Leva, "A fast normal random number generator", ACM TOMS 18(4), 1992): for U in (0, 1] and V
// uniform in [−0.8578, 0.8578), X = V/U is normal when V² ≤ −4·U²·ln U, that is when
// U ≤ e^(−X²/4); two quadratic bounds settle all but about 1% of the pairs without the
// exponential. rand.Rand.NormFloat64 would do, but its rare tail steps call math.Exp and
// math.Log, assembly on amd64 and pure Go in wasm, which may differ in the last bit; this uses
// mathx.Exp, so that the hops are the same bits natively and in the page. U and V are the
// two 32-bit halves of one draw (the largest |X| is over 10^9: no hop is cut short), and a
// normal takes 1.37 draws on average.
func normal(r *rand.PCG) float64 {
	const (
		s, t   = 0.449871, -0.386595 // the centre of the bounding ellipses
		a, b   = 0.19600, 0.25472
		r1, r2 = 0.27597, 0.27846 // inside r1 always in, outside r2 always out
	)
	for {
		bits := r.Uint64()
		u := float64(bits>>32+1) / (1 << 32) // in (0, 1]
		v := 1.7156 * (float64(bits&(1<<32-1))/(1<<32) - 0.5)
		x, y := u-s, math.Abs(v)-t
		q := float64(x*x) + float64(y*(float64(a*y)-float64(b*x)))
		if q < r1 {
			return v / u
		}
		if q > r2 {
			continue
		}
		if z := v / u; u <= mathx.Exp(-float64(z*z)/4) {
			return z
		}
	}
}
