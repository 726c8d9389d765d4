package calc

import (
	"errors"
	"net/url"
	"strconv"
	"testing"

	"backoffcalc/calc/policy"
)

// sampleWorkTests are links at the sampling work limit and one step over it. Their path-steps
// are worked out by hand: samples × attempts × the modes sampled (the classic five, and the
// policy's own if it is another), and with a budget also FitPasses (32) times that and samples ×
// the most attempts the budget holds in each mode, summed.
var sampleWorkTests = []struct {
	name, query string
	want        string // the message on samples; "" for accepted
}{
	{"five modes at the limit", "samples=200000&attempts=150", ""}, // 200000 × 150 × 5 = 150000000
	{"five modes one attempt over", "samples=200000&attempts=151",
		`calc: samples "200000": 200000 samples × 151 attempts × 5 modes is 151000000 path-steps, over the limit of 150000000; lower samples or attempts`},
	// decorrelatedv2 is a sixth mode: 25000 × 1000 × 6 = 150000000; 25001 gives 150006000.
	{"six modes at the limit", "samples=25000&attempts=1000&jitter=decorrelatedv2", ""},
	{"six modes one sample over", "samples=25001&attempts=1000&jitter=decorrelatedv2",
		`calc: samples "25001": 25001 samples × 1000 attempts × 6 modes is 150006000 path-steps, over the limit of 150000000; lower samples or attempts`},
	// Every attempt of the budget's walks takes at least call (1s) plus the mode's shortest wait
	// of base = cap = 1s: 1s for none and decorrelated, 0 for full, 500ms for equal and 800ms for
	// proportional (ratio 0.2), so attempt n starts at (n-1) × 2s, 1s, 1.5s, 2s and 1.8s at the
	// earliest, before the budget of 10s for n up to 5, 10, 7, 5 and 6: 33 attempts. Each sample
	// costs 10 × 5 × 33 + 33 = 1683 path-steps: 89126 samples are 149999058 of them, 89127 are
	// 150000741.
	{"budget at the limit", "samples=89126&attempts=10&base=1s&cap=1s&call=1s&budget=10s", ""},
	{"budget one sample over", "samples=89127&attempts=10&base=1s&cap=1s&call=1s&budget=10s",
		`calc: samples "89127": 89127 samples × (10 attempts × 5 modes × 33 walks, the percentiles' and 32 of the fit to the budget, ` +
			`+ 33 attempts, the most that 10s holds in the 5 modes together) is 150000741 path-steps, over the limit of 150000000; ` +
			`lower samples, attempts or the budget`},
	// The reproducer of issue 38: 46 s natively, 152 s on the page.
	{"every key in range", "samples=200000&attempts=1000&jitter=decorrelatedv2&base=1ns&cap=168h",
		`calc: samples "200000": 200000 samples × 1000 attempts × 6 modes is 1200000000 path-steps, over the limit of 150000000; lower samples or attempts`},
}

func TestSampleWork(t *testing.T) {
	for _, tt := range sampleWorkTests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(tt.query)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("Decode(%q):\n got %s\nwant %s", tt.query, got, tt.want)
			}
			if err != nil {
				// The link's other keys stay; samples falls back to its default, within the limit.
				if p.Samples != Default().Samples || p.Validate() != nil {
					t.Errorf("Decode(%q) left samples %d, Validate %v; want the default, valid", tt.query, p.Samples, p.Validate())
				}
				// Params built in code are refused with the same words, on samples.
				v, _ := url.ParseQuery(tt.query)
				q := p
				q.Samples, _ = strconv.Atoi(v.Get("samples"))
				var fe *policy.FieldError
				if err := q.Validate(); !errors.As(err, &fe) || fe.Key != "samples" || err.Error() != tt.want {
					t.Errorf("Validate: %v, want %s", err, tt.want)
				}
				return
			}
			if err := p.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

// With samples and attempts at their limits the default samples are over the limit too: samples
// falls back to the fewest.
func TestSampleWorkFallsBackToFewest(t *testing.T) {
	p, err := Decode("samples=200000&attempts=1000&budget=720h")
	if fe := policy.FieldErrors(err); len(fe) != 1 || fe[0].Key != "samples" {
		t.Fatalf("errors %v, want one on samples", err)
	}
	if p.Samples != policy.MinSamples || p.Attempts != 1000 || p.Validate() != nil {
		t.Errorf("samples %d, attempts %d, Validate %v; want %d, 1000, valid", p.Samples, p.Attempts, p.Validate(), policy.MinSamples)
	}
}

// The herd, overload and fluid models sample none of the policy's paths: ValidateUnsampled leaves
// the sampling limit out, and only it.
func TestValidateUnsampled(t *testing.T) {
	p := Default()
	p.Attempts, p.Samples = 1000, 200000
	var fe *policy.FieldError
	if err := p.Validate(); !errors.As(err, &fe) || fe.Key != "samples" {
		t.Errorf("Validate: %v, want an error on samples", err)
	}
	if err := p.ValidateUnsampled(); err != nil {
		t.Errorf("ValidateUnsampled: %v, want none", err)
	}
	p.Factor = 0
	if err := p.ValidateUnsampled(); !errors.As(err, &fe) || fe.Key != "factor" {
		t.Errorf("ValidateUnsampled with factor 0: %v, want an error on factor", err)
	}
}
