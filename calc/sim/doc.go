// Package sim runs the herd and the overload model: many clients following a policy of
// package calc through an outage, client by client (Herd, HerdMode, HerdModePausing), and the
// same herd as an open system with a stream, a queue, timeouts, a failing or slowing server, a
// retry limiter of calc/limiter and a circuit breaker of calc/breaker (Overload,
// OverloadPausing). It also holds what the simulation says of each limiter and breaker: their
// bounds and rules in words (LimiterBoundWords, BreakerWords), the closed form of an error rate
// (ErrorRateOf) and what the inputs say of a breaker before any run (BreakerFactsOf).
//
// calc's package documentation states the herd's rules and docs/overload-model.md the open
// system's. calc keeps the inputs (calc.HerdInputs, calc.OverloadInputs), their limits, the
// windows of a run (calc.Params.ValidateHerd), the view's cases (calc.Params.OverloadCases),
// whose cost calc.Params.Validate bounds, and the closed form of load-dependent latency
// (calc.Params.Collapse); calc does not import sim, so that a program that computes only a
// schedule or reads a link links no simulation. Every function takes a calc.Params and, as
// calc's, returns a *policy.FieldError for an input out of range.
package sim
