package calc

import (
	"slices"
	"testing"

	"backoffcalc/calc/policy"
)

// A page samples the policy first and the other modes after; the result must be the one-step
// report's, and a copy taken between the steps must not see the second step.
func TestReportInSteps(t *testing.T) {
	p := mustDecode(t, "jitter=equal&samples=1000")
	want := p.Report()
	r := p.ReportBounds()
	if !r.AddPolicySample(nil) || !r.PolicySampled() || r.Sampled() {
		t.Fatal("after the policy's sample: policy sampled, not everything")
	}
	for _, m := range r.Modes {
		if m.Sampled != (m.Jitter == policy.Equal) {
			t.Errorf("mode %v sampled %v after the policy's sample only", m.Jitter, m.Sampled)
		}
	}
	half := r
	if !r.AddModeSamples(nil) || !r.Sampled() || !slices.Equal(r.Modes, want.Modes) || r.Sample.Total != want.Sample.Total {
		t.Errorf("two steps differ from one:\n%+v\n%+v", r.Modes, want.Modes)
	}
	if half.Sampled() || half.Modes[0].Sampled {
		t.Error("the copy taken between the steps changed")
	}
	stopped := mustDecode(t, "samples=20000").ReportBounds()
	if stopped.AddPolicySample(func() bool { return false }) || stopped.PolicySampled() {
		t.Error("a stopped sample finished, or kept part of its paths")
	}
}
