// Package policy is the policy core of the calculator: a retry policy (Policy, its jitter
// modes, growth and cap placement), the calls it retries and the paths it samples (Params),
// and what is computed of them: the schedule, the budget, the sampled percentiles, the fit to a
// budget, the wait laws, and the formatting of durations and numbers for the page; and the
// policy's query keys (Keys), made with the builders every key of a link is made with
// (DurationKey, FloatKey, IntKey, WordKey), which read durations and decimals as a link writes
// them. It imports nothing of the project but calc's internal packages (the draws every model
// shares, lazy values: the parser's regexps are built at their first use).
//
// calc, the link's front, embeds Params in calc.Params, so that a link's p.Schedule() is this
// package's; calc reads and writes the link (its key table, which begins with Keys, Decode,
// Encode, Validate), and calc/doc.go says what the model computes and how exactly.
package policy
