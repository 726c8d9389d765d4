package contention

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// awsRuns is how many runs our side of TestContentionMatchesSimulator makes: its standard
// errors are then about 2.2 times the simulator's (2000 runs).
const awsRuns = 400

// Our experiment against the published simulator's own figures (testdata/contention-aws-
// simulator.json: its code run at N = 50, 100 and 200 for each of its five modes, 2000 runs
// each). Both sides are means over independent runs, so their difference has the standard error
// √(se_ours² + se_theirs²); the test allows 4 of them, for calls and for time, in each of the 15
// cases. Were the two models the same, all 30 would pass with probability 1 − 30 × 6.3e-5
// (about 99.8%); a model off by the numbering of the waits (exponential's time halves) or by
// counting reads as calls is off by hundreds of standard errors.
func TestContentionMatchesSimulator(t *testing.T) {
	var sim struct {
		Runs int
		Rows []struct {
			Clients   int
			Algorithm string
			Calls     struct{ Mean, SE float64 }
			Time      struct{ Mean, SE float64 } `json:"time_ms"`
		}
	}
	b, err := os.ReadFile("testdata/contention-aws-simulator.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sim); err != nil || len(sim.Rows) != 15 {
		t.Fatalf("%d rows, %v", len(sim.Rows), err)
	}
	modes := map[string]Mode{"None": None, "Exponential": Exponential,
		"FullJitter": Full, "EqualJitter": Equal, "Decorr": Decorrelated}
	p := postSetup()
	for _, row := range sim.Rows {
		m, ok := modes[row.Algorithm]
		if !ok {
			t.Fatalf("mode %q", row.Algorithm)
		}
		rs, err := Run(p, row.Clients, awsRuns, m)
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		for _, c := range []struct {
			what             string
			ours, oursSE     float64
			theirs, theirsSE float64
		}{
			{"calls", r.Calls.Mean, r.Calls.StdErr(awsRuns), row.Calls.Mean, row.Calls.SE},
			{"time (ms)", r.Time.Mean / 1e6, r.Time.StdErr(awsRuns) / 1e6, row.Time.Mean, row.Time.SE},
		} {
			se := math.Hypot(c.oursSE, c.theirsSE)
			z := (c.ours - c.theirs) / se
			if math.Abs(z) > 4 {
				t.Errorf("%d clients, %v: %s %.2f, the simulator's %.2f: %.1f standard errors apart", row.Clients, m, c.what, c.ours, c.theirs, z)
			} else if testing.Verbose() {
				t.Logf("%d clients, %-18v %-9s ours %10.2f ± %6.2f, the simulator's %10.2f ± %6.2f, z %+.1f", row.Clients, m, c.what, c.ours, c.oursSE, c.theirs, c.theirsSE, z)
			}
		}
	}
}
