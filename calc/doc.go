// Package calc computes retry backoff schedules: for a policy (base delay, growth factor, cap,
// attempts, jitter mode) it gives each attempt's nominal, minimum, mean and maximum wait, the
// earliest and latest start of every attempt, the best-case, expected and worst-case total wait,
// how the policy fits a time budget, sampled percentiles, and how retries multiply across layers.
//
// # Words
//
// Attempt n is the n-th call; attempt 1 is the first call and has no wait before it. Retry k is
// attempt k+1, so "6 attempts" is the first call and 5 retries. The nominal delay of retry k is
// min(cap, base*factor^(k-1)): the first retry waits around base.
//
// # Exactness
//
// Times are whole nanoseconds. Every wait bound is rounded to the nearest nanosecond (ties away
// from zero) and starts are sums of bounds and call durations, so a start is compared with the
// budget exactly: attempt n is made only if its start is strictly before the budget. Means and
// percentiles of sampled quantities may be fractional or depend on the seed; bounds never do.
//
// The package uses only IEEE arithmetic that Go computes the same way on every platform
// (+, -, *, /, math.Round, and math.Pow with whole exponents, which is exact repeated squaring);
// it never calls math.Exp or math.Log, whose amd64 assembly can differ from the pure-Go code used
// under GOOS=js in the last bit. Results are bit-identical natively and in WebAssembly.
//
// # Sampling
//
// Percentiles are estimated from Params.Samples simulated paths. Path i (0-based) draws from its
// own generator, math/rand/v2's PCG seeded with (Params.Seed, i), and turns each 64-bit output x
// into u = (x<<11>>11) / 2^53, exactly as rand.Rand.Float64 does. A path draws one u per retry,
// in order, except for retries whose wait is fixed (minimum equals maximum), which draw nothing.
// A path stops before an attempt whose start would reach the budget. Percentiles use the nearest
// rank: the p-th percentile of n values is the ceil(p*n/100)-th smallest.
//
// # Decorrelated jitter
//
// Its mean follows m_k = (base + 3*m_(k-1))/2 exactly while 3^k*base <= cap; past that, the clamp
// at cap makes the distribution lopsided and the mean is computed numerically on a grid (see
// decorrelated.go), not by sampling.
package calc
