package calc

import "math/rand/v2"

// normal draws from the standard normal distribution with the ratio-of-uniforms method (Knuth,
// TAOCP vol. 2, 3.4.1, Algorithm R): for U in (0, 1] and V in [0, 1), X = √(8/e)·(V − ½)/U is
// normal when U² ≤ e^(−X²/2), and two cheap bounds settle most draws without the exponential.
// rand.Rand.NormFloat64 would do, but its rare tail steps call math.Exp and math.Log, assembly
// on amd64 and pure Go in wasm, which may differ in the last bit; this uses exp of mathx.go, so
// the hops are the same bits natively and in the page. It takes 2.7 uniform draws on average.
func normal(r *rand.PCG) float64 {
	const (
		sqrt8e = 1.7155277699214135 // √(8/e)
		e14    = 1.2840254166877414 // e^(1/4): X² ≤ 5 − 4·e^(1/4)·U is always in
		reject = 1.036961042583566  // 4·e^(−1.35): X² ≥ 4·e^(−1.35)/U + 1.4 is always out
	)
	for {
		u := 1 - unit(r) // in (0, 1]
		x := sqrt8e * (unit(r) - 0.5) / u
		xx := float64(x * x)
		if xx <= 5-float64(4*e14*u) {
			return x
		}
		if xx >= reject/u+1.4 {
			continue
		}
		if float64(u*u) <= exp(-xx/2) {
			return x
		}
	}
}
