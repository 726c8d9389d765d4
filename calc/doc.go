// Package calc computes retry backoff schedules: for a policy (base delay, growth factor, cap,
// attempts, jitter mode) it gives each attempt's nominal, minimum, mean and maximum wait, the
// earliest and latest start of every attempt, the best-case, expected and worst-case total wait,
// how the policy fits a time budget, sampled percentiles, how retries multiply across layers, and
// what a server recovering from an outage receives from many clients following the policy.
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
// (+, -, *, /, math.Round, math.Sqrt, math.Ldexp, and math.Pow with whole exponents, which is
// exact repeated squaring); its own code never calls math.Exp or math.Log, whose amd64 assembly
// can differ from the pure-Go code used under GOOS=js in the last bit. Polly's jitter needs 2^t
// and tanh: it uses its own pure-Go ports of Go's exp2 and tanh (calc/internal/mathx). One draw
// is not ported: an open system's seeded Poisson arrivals take their gaps from math/rand/v2's
// ExpFloat64, whose ziggurat calls math.Exp in a rare wedge test and math.Log in its rarer tail,
// so a gap could in principle differ in its last bit between the two. The golden file's open
// systems with Poisson arrivals (thousands of gaps) give the same numbers natively and in
// WebAssembly, as every other result of the package does.
//
// # Sampling
//
// Percentiles are estimated from Params.Samples simulated paths. Path i (0-based) draws from its
// own generator, math/rand/v2's PCG seeded with (Params.Seed, i), and turns each 64-bit output x
// into u = (x<<11>>11) / 2^53, exactly as rand.Rand.Float64 does. A path draws one u per retry,
// in order, except for retries whose wait is fixed (minimum equals maximum), which draw nothing;
// decorrelatedv2 draws at every retry, as Polly does, because the next wait depends on the draw.
// A path stops before an attempt whose start would reach the budget. Percentiles use the nearest
// rank: the p-th percentile of n values is the ceil(p*n/100)-th smallest.
//
// # Herd
//
// calc/sim's Herd simulates Params.Clients clients following the policy through an outage, once
// per mode of Params.HerdModes: Immediate (no wait at all; only the call separates attempts), then
// the backoff of each of the five classic jitter modes, then the policy's own mode when it is a
// library's (one not in Jitters; calc/sim's HerdMode runs any mode), all on
// the same base, factor, cap, attempts, ratio, cap placement, call and budget.
//
//   - Client i (0-based) makes attempt 1 at floor(i*Spread/Clients): all at 0 without a spread,
//     evenly over [0, Spread) with one. From there it follows the schedule: a failed attempt is
//     known after Call, then the client waits as Params.Wait says and tries again. It gives up
//     after Attempts attempts, or before an attempt whose start, measured from its own first
//     attempt, would be at or past the budget.
//   - The server fails every attempt that arrives before Outage (t < Outage). After that it
//     accepts at most Capacity attempts in each fixed window [k*Window, (k+1)*Window), first come
//     first served, and fails the rest like outage failures; Capacity 0 accepts everything. An
//     accepted client makes no more attempts.
//   - Attempts are handled in order of time, and attempts at the same time in order of client
//     index, as a heap keyed by (time, client) would give them.
//   - Client i draws from its own generator, PCG seeded with (Params.Seed, i), the same
//     derivation as sampled path i, with the same rule: one u per retry, except for retries whose
//     wait is fixed. So a client's draws never depend on another client, and a client that is
//     never accepted makes exactly the attempts of path i, shifted by its start; every mode uses
//     the same streams.
//
// Each run counts the attempts, the accepted clients and those that gave up, the peak number of
// attempts in any sliding window [t, t+Window) and the earliest arrival t that starts one, the
// attempts per client, when the last accepted attempt arrived, and the attempts in each fixed
// window for a chart. The numbers show what the model does; none is a verdict on a mode. With
// every client failing at 0, no jitter spreads the first wave, and full jitter pulls retries
// earlier, so its peak can be above un-jittered backoff's; with the defaults (100 clients, 1s
// outage, 20 attempts per 100ms), un-jittered backoff gets 40 clients through, in two waves at
// 1.5s and 3.1s, and the jittered modes most of them.
//
// The simulation runs at most MaxClients clients and MaxHerdWork client-attempts
// (Params.HerdSimulated); a herd of up to MaxHerdClients clients beyond that is counted by its
// expected counts, the mean over many herds computed from the distributions of the waits, in the
// package calc/fluid, which imports calc. calc holds the herd's inputs and limits; the
// simulation is calc/sim's, above calc. Params.ValidateHerd bounds the arrivals series to
// MaxHerdWindows windows. Validate also bounds the work of sampling (MaxSampleWork
// path-steps: samples × attempts × the modes sampled, more with a budget's fit) and of the
// overload view (MaxOverloadWork: requests × attempts × the weights of its runs).
//
// # Decorrelated jitter
//
// Its mean follows m_k = (base + 3*m_(k-1))/2 exactly while 3^k*base <= cap; past that, the clamp
// at cap makes the distribution lopsided and the mean is computed numerically on a grid (see
// decorrelated.go), not by sampling.
//
// # Polly's jitter
//
// Decorrelatedv2 is Polly v8's exponential backoff with UseJitter (DecorrelatedJitterBackoffV2):
// retry k draws t = k-1 + U and waits (g(t) - g(previous t)) × base/1.4 with g(t) =
// 2^t·tanh(√(4t)), truncated to whole 100 ns ticks and clamped to cap (Polly's MaxDelay); factor
// and cap placement do not apply. Params.Wait carries g from one retry to the next. Retry k waits
// from 0 up to (g(k) - g(k-2)) × base/1.4; its mean, and the share of waits at cap, come from a
// quadrature over the two draws (see pollyv2.go), within about 1e-5 of a brute-force integral,
// and are those of the untruncated wait: the truncated one's mean is lower by under 100 ns.
// These ranges do not add up, as one draw ends a wait and starts the next: without the clamp the
// first k waits total g(t_k) × base/1.4, from g(k-1) to g(k) × base/1.4 (less the truncation),
// and the earliest and latest starts and the totals are these exact ranges (pollyV2.sums).
//
// # Packages
//
// calc is the link's front; the policy core is calc/policy, at the bottom: the policy, its
// modes, schedule, budget, sampling, fit, wait laws and formatting, importing nothing of the
// project but calc's internal packages. Params embeds the core's policy.Params, so that
// p.Schedule() and the rest of its methods are a link's, with each model's inputs; calc reads
// and writes the link (the key table, Decode, Encode, Validate), whose policy keys are the
// core's (policy.Keys), and assembles a link's Report.
// The libraries' retry limiters and circuit breakers are packages of their own, calc/limiter
// and calc/breaker, which hold only each library's rules and import nothing of the project;
// the herd and overload simulations are calc/sim, above calc, with what the overload model says
// of each limiter and breaker (its bound in words, its bound under an error rate, what a breaker
// needs before it opens): calc keeps the inputs, their limits and the view's cases, whose cost
// Validate bounds. The AWS post's contention experiment is calc/contention, which reads the core,
// and whose inputs and keys calc embeds and makes rows of. calc builds its key table, and the
// core the regexps of the query's parser, at their first use, so that a program that only
// computes schedules links neither. docs/layout.md draws the packages and what each may import.
package calc
