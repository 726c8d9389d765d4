//go:build !js

package libs

import (
	"math"
	"testing"

	"backoffcalc/calc/policy"
)

// Each Config's Policy, what an import of the snippet gives, is the export's Model: the same
// attempts and the same bounds and mean of every wait, and the same deadline where the library
// has one. (The Model keeps the policy's fields that change no wait, such as a full jitter's
// ratio, and the policy's budget where the library has no deadline; and where it rewrites the
// jitter in the library's terms it rounds the base to the nanosecond, which the growth
// multiplies: hence a millionth's tolerance.)
func TestConfigPolicyIsTheModel(t *testing.T) {
	checked := map[string]int{}
	for _, c := range snippetCases {
		for _, e := range Exports(snippetParams(t, c.query)) {
			var pol policy.Policy
			deadline := true
			switch cfg := e.Config.(type) {
			case GRPCRetryPolicy:
				pol = cfg.Policy()
			case EnvoyRetryPolicy:
				pol = cfg.Policy()
			case PollyRetry:
				pol = cfg.Policy()
			case Resilience4jRetry:
				pol, deadline = cfg.Policy(), false
			case TemporalRetryPolicy:
				pol, deadline = cfg.Policy(), false
			case StepFunctionsRetrier:
				pol, deadline = cfg.Policy(), false
			case AWSRetryConfig:
				var ok bool
				if pol, ok = cfg.Policy(e.Lib); !ok {
					t.Fatalf("%s: AWSRetryConfig.Policy(%q) is not ok", c.name, e.Lib)
				}
				deadline = false
			default:
				continue
			}
			checked[e.Lib]++
			got, want := e.Model, e.Model
			got.Policy = pol
			if !deadline {
				got.Budget, want.Budget = 0, 0
			}
			if got.Attempts != want.Attempts || got.Budget != want.Budget || !closeWaits(got.Schedule(), want.Schedule()) {
				t.Errorf("%s %s: Config.Policy() = %+v, the Model's %+v", c.name, e.Lib, got.Policy, want.Policy)
			}
		}
	}
	for _, lib := range []string{"grpc", "envoy", "polly", "resilience4j", "aws-botocore", "aws-botocore-2026", "aws-go-v2", "aws-go-v2-2026", "temporal", "stepfunctions"} {
		if checked[lib] == 0 {
			t.Errorf("%s: no export had its Config", lib)
		}
	}
}

// closeWaits says whether every wait of a and b has the same bounds and mean within a millionth.
func closeWaits(a, b policy.Schedule) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	close := func(x, y float64) bool { return math.Abs(x-y) <= math.Max(1, 1e-6*math.Abs(y)) }
	for i := 1; i < len(a.Rows); i++ {
		x, y := a.Rows[i], b.Rows[i]
		if !close(float64(x.Min), float64(y.Min)) || !close(float64(x.Max), float64(y.Max)) || !close(x.Mean, y.Mean) {
			return false
		}
	}
	return true
}
