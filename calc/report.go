package calc

import (
	"math/big"
	"slices"
)

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
	Modes             []ModeReport // the five of Jitters, and the policy's own mode if it is another
	WorstCaseAttempts *big.Int     // see Params.WorstCaseAttempts
}

// Report computes the schedule, the sampled percentiles, the comparison of jitter modes and the
// layer amplification of p. p must be valid.
func (p Params) Report() Report {
	r := p.ReportBounds()
	r.AddSamples(nil)
	return r
}

// ReportBounds is Report without what sampling gives (Sample and the modes' Sample): the
// bounds, means and totals, which take microseconds where sampling can take seconds.
func (p Params) ReportBounds() Report {
	r := Report{Params: p, Schedule: p.Schedule(), WorstCaseAttempts: p.WorstCaseAttempts()}
	for _, j := range p.comparedJitters() {
		m := ModeReport{Jitter: j, Total: r.Schedule.Total}
		if j != p.Jitter {
			m.Total = p.WithJitter(j).Schedule().Total
		}
		r.Modes = append(r.Modes, m)
	}
	return r
}

// comparedJitters are the classic five, and the policy's own mode if it is another.
func (p Params) comparedJitters() []Jitter {
	js := Jitters()
	if !slices.Contains(js, p.Jitter) {
		js = append(js, p.Jitter)
	}
	return js
}

// AddSamples fills in what ReportBounds leaves out, calling pause as SamplePausing does; it
// reports whether it finished (a stopped report is left without its samples).
func (r *Report) AddSamples(pause func() bool) bool {
	sample, done := r.Params.SamplePausing(pause)
	if !done {
		return false
	}
	modes := slices.Clone(r.Modes)
	for i, m := range modes {
		s := sample
		if m.Jitter != r.Params.Jitter {
			if s, done = r.Params.WithJitter(m.Jitter).SamplePausing(pause); !done {
				return false
			}
		}
		modes[i].Sample = s.Total
	}
	r.Sample, r.Modes = sample, modes
	return true
}

// Sampled reports whether the report has its samples (see ReportBounds).
func (r Report) Sampled() bool { return r.Sample.Starts != nil }
