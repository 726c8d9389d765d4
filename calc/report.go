package calc

import (
	"math/big"
	"slices"

	"backoffcalc/calc/policy"
)

// ModeReport compares one jitter mode on the same base, factor, cap and attempts.
type ModeReport struct {
	Jitter policy.Jitter
	Total  policy.Totals    // best-case, expected and worst-case total wait, ignoring any budget
	Sample policy.Quantiles // sampled percentiles of the total wait (following the budget, if any)
	// Sampled says whether Sample is in (see Report.AddSamples).
	Sampled bool
	Within  policy.WithinBudget // with a budget, the total wait within it; zero without one
}

// Report is everything the calculator shows for one policy.
type Report struct {
	Params            Params
	Schedule          policy.Schedule
	Sample            policy.Sample
	Modes             []ModeReport // the five of Jitters, and the policy's own mode if it is another
	WorstCaseAttempts *big.Int     // see Params.WorstCaseAttempts
	// Within is, with a budget, the total wait within it (Schedule.Total ignores the budget;
	// Sample.Total follows it); zero without one.
	Within policy.WithinBudget
	// Solutions are, with a budget, what fits in it for each mode of Modes, in their order
	// (Params.Solutions; the sampled answers come with AddSolveSamples); nil without one.
	Solutions []policy.Solution
}

// Report computes the schedule, the sampled percentiles, the comparison of jitter modes and the
// layer amplification of p. p must be valid.
func (p Params) Report() Report {
	r := p.ReportBounds()
	r.AddSamples(nil)
	return r
}

// ReportBounds is Report without what sampling gives (Sample, the modes' Sample, and the mean
// within a budget): the bounds, means and totals, which take microseconds where sampling can
// take seconds.
func (p Params) ReportBounds() Report {
	r := Report{Params: p, Schedule: p.Schedule(), WorstCaseAttempts: p.WorstCaseAttempts(), Within: p.WithinBudget(),
		Solutions: p.Solutions()}
	for _, j := range p.ComparedJitters() {
		m := ModeReport{Jitter: j, Total: r.Schedule.Total, Within: r.Within}
		if j != p.Jitter {
			m.Total = p.WithJitter(j).Schedule().Total
			m.Within = p.WithJitter(j).WithinBudget()
		}
		r.Modes = append(r.Modes, m)
	}
	return r
}

// AddSamples fills in what ReportBounds leaves out, calling pause as SamplePausing does; it
// reports whether it finished (a stopped report keeps what it had). It is AddPolicySample, then
// AddModeSamples.
func (r *Report) AddSamples(pause func() bool) bool {
	return r.AddPolicySample(pause) && r.AddModeSamples(pause)
}

// AddPolicySample samples the policy's own paths: the percentiles of the schedule and of its
// total wait, and its own row of the comparison. A page shows these first.
func (r *Report) AddPolicySample(pause func() bool) bool {
	if r.PolicySampled() {
		return true
	}
	sample, done := r.Params.SamplePausing(pause)
	if !done {
		return false
	}
	// A copy of a Report shares Modes with the original: write a new slice.
	modes := slices.Clone(r.Modes)
	for i := range modes {
		if modes[i].Jitter == r.Params.Jitter {
			modes[i].Sample, modes[i].Sampled = sample.Total, true
			modes[i].Within = r.Params.withSample(modes[i].Within, sample)
		}
	}
	r.Sample, r.Modes = sample, modes
	r.Within = r.Params.withSample(r.Within, sample)
	return true
}

// AddModeSamples samples the other modes of the comparison.
func (r *Report) AddModeSamples(pause func() bool) bool {
	modes := slices.Clone(r.Modes)
	for i, m := range modes {
		if m.Sampled {
			continue
		}
		s, done := r.Params.WithJitter(m.Jitter).SamplePausing(pause)
		if !done {
			return false
		}
		modes[i].Sample, modes[i].Sampled = s.Total, true
		modes[i].Within = r.Params.withSample(modes[i].Within, s)
		r.Modes = modes
	}
	return true
}

// withSample fills in what sampling gives w, with a budget: the mean, and the least and most
// where they are not exact.
func (p Params) withSample(w policy.WithinBudget, s policy.Sample) policy.WithinBudget {
	if p.Budget <= 0 {
		return w
	}
	w.Mean = s.TotalMean
	if !w.Exact {
		w.Min, w.Max = s.TotalMin, s.TotalMax
	}
	return w
}

// AddSolveSamples fills in the sampled answers of Solutions (see Params.SolveSample), calling pause as
// SamplePausing does; it reports whether it finished. It is not part of AddSamples: a page runs
// it after the percentiles, and only when it shows the answers.
func (r *Report) AddSolveSamples(pause func() bool) bool {
	sols, done := r.Params.SolveSample(r.Sample, r.Solutions, pause)
	r.Solutions = sols
	return done
}

// PolicySampled reports whether the policy's own samples are in (see AddPolicySample).
func (r Report) PolicySampled() bool { return r.Sample.Starts != nil }

// Sampled reports whether every sample is in: the policy's and every mode's.
func (r Report) Sampled() bool {
	if !r.PolicySampled() {
		return false
	}
	for _, m := range r.Modes {
		if !m.Sampled {
			return false
		}
	}
	return true
}
