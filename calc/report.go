package calc

import "math/big"

// ModeReport compares one jitter mode on the same base, factor, cap and attempts.
type ModeReport struct {
	Jitter Jitter
	Total  Totals    // best-case, expected and worst-case total wait
	Sample Quantiles // sampled percentiles of the total wait (following the budget, if any)
}

// Report is everything the calculator shows for one policy.
type Report struct {
	Params            Params
	Schedule          Schedule
	Sample            Sample
	Modes             []ModeReport // every jitter mode, in the order of Jitters
	WorstCaseAttempts *big.Int     // see Params.WorstCaseAttempts
}

// Report computes the schedule, the sampled percentiles, the comparison of jitter modes and the
// layer amplification of p. p must be valid.
func (p Params) Report() Report {
	r := Report{Params: p, Schedule: p.Schedule(), Sample: p.Sample(), WorstCaseAttempts: p.WorstCaseAttempts()}
	for _, j := range Jitters() {
		m := ModeReport{Jitter: j, Total: r.Schedule.Total, Sample: r.Sample.Total}
		if j != p.Jitter {
			q := p.WithJitter(j)
			m.Total, m.Sample = q.Schedule().Total, q.Sample().Total
		}
		r.Modes = append(r.Modes, m)
	}
	return r
}
