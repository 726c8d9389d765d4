package policy

import (
	"fmt"

	"slices"
)

// The work of sampling a link: the page and table sample the policy's paths and, for the
// comparison, every mode of it (calc's Report.AddSamples: the five of Jitters and the policy's own if it
// is another), each Samples paths of up to Attempts attempts; with a budget they then fit the
// inputs to it (calc's Report.AddSolveSamples), which walks each mode's paths again, once for the most
// attempts and once per step of a bisection over base, factor and cap. Each input is in its
// range, and together they can still ask for minutes of work (200000 samples × 1000 attempts ×
// 6 modes is 1.2 billion path-steps: 46 s natively, 152 s on the page), so the product is
// bounded too, as the herd's clients × attempts is (MaxHerdWork).

const (
	// MaxSampleWork bounds SampleWork, so that the heaviest link accepted samples in about 3 s
	// natively on a 2-core machine (docs/security.md): 200000 samples × 125 attempts, or 25000
	// samples × 1000 attempts, of decorrelatedv2's six modes without a budget. At 100000000 it
	// refused a real configuration: Dapr's exponential policy (40 attempts within 15 minutes)
	// exported to Envoy or Polly and imported back, whose 10000 samples take 1.3 s.
	MaxSampleWork = 150000000
	// FitPasses is what SampleWork counts for the fit to the budget, in walks of every path of
	// every mode: its bisections walked a mode's paths 17 to 100 times in the links measured
	// (300 walks for 6 modes at 1000 samples × 6 attempts and a 3s budget), each step costing
	// about half a sampling step, as it keeps no quantiles.
	FitPasses = 32
)

// sampleSteps is the path-steps that sampling p costs: Samples × Attempts × the modes sampled
// (SampledModes), and with a budget, for the fit to it, FitPasses times that again, and Samples
// × budgetAttempts. With the defaults, 10000 × 6 × 5 = 300000; with a budget of 3s too, 300000
// × 33 + 10000 × 91 (the 5 modes hold 15 to 22 attempts in 3s) = 10810000. p must be valid.
func (p Params) sampleSteps() int {
	n := p.SampledModes()
	w := p.Samples * p.Attempts * n
	if p.Budget > 0 {
		w += p.Samples * (p.Attempts*n*FitPasses + p.budgetAttempts())
	}
	return w
}

// budgetAttempts is the most attempts the budget holds in each mode of the comparison, summed:
// the fit walks each mode's paths that far once, for the most attempts 50% and 99% of them make
// (Report.SolveSample), whatever the policy's attempts.
func (p Params) budgetAttempts() int {
	n := 0
	for _, j := range p.ComparedJitters() {
		_, can := p.WithJitter(j).mostAttempts()
		n += can.Value
	}
	return n
}

// SampledModes is how many modes the comparison samples: the five of Jitters, and the policy's
// own if it is another.
func (p Params) SampledModes() int { return len(p.ComparedJitters()) }

// ComparedJitters are the jitter modes calc's report compares: the classic five, and the
// policy's own mode if it is another.
func (p Params) ComparedJitters() []Jitter {
	js := Jitters()
	if !slices.Contains(js, p.Jitter) {
		js = append(js, p.Jitter)
	}
	return js
}

// SampleWork refuses sampling of more than MaxSampleWork path-steps (sampleSteps). p's inputs
// must each be in their range (calc's Validate calls it only then).
func (p Params) SampleWork() error {
	n := p.SampledModes()
	// Without the budget's walks, which take a walk over each mode's retries to count, when
	// every one of them could hold MaxAttempts attempts and stay within the limit.
	if p.Samples*n*(p.Attempts*(1+FitPasses)+MaxAttempts) <= MaxSampleWork {
		return nil
	}
	w := p.sampleSteps()
	if w <= MaxSampleWork {
		return nil
	}
	if p.Budget <= 0 {
		return fmt.Errorf("%d samples × %d attempts × %d modes is %d path-steps, over the limit of %d; lower samples or attempts",
			p.Samples, p.Attempts, n, w, MaxSampleWork)
	}
	return fmt.Errorf("%d samples × (%d attempts × %d modes × %d walks, the percentiles' and %d of the fit to the budget, "+
		"+ %d attempts, the most that %s holds in the %d modes together) is %d path-steps, over the limit of %d; "+
		"lower samples, attempts or the budget",
		p.Samples, p.Attempts, n, 1+FitPasses, FitPasses, p.budgetAttempts(), FormatDuration(p.Budget), n, w, MaxSampleWork)
}
