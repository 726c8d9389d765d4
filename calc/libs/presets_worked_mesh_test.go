package libs

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// workedWait is one retry's wait worked out by hand: its bounds and its mean in nanoseconds.
type workedWait struct {
	retry    int
	min, max time.Duration
	mean     float64
}

// workedMesh are the mesh and Dapr presets' schedules worked out by hand from each one's source
// (in the comments), not read from calc: some retries' waits, the totals over every retry
// (without the budget), and with a budget how many attempts always and at most start. calc
// rounds each interval to the nanosecond where the hand works in reals: a wait may differ by
// 1 ns, a total by 1 ns a retry.
var workedMesh = []struct {
	name, query    string
	attempts       int
	waits          []workedWait
	total          policy.Totals
	always, atMost int // attempts that start within the budget; 0: no budget
}{
	// Istio: num_retries 2 (3 attempts), Envoy's 25 ms base. Retry 1: random() % 25 ms, 0..24 ms,
	// mean 24/2 = 12 ms. 25 < 250/2, so the interval doubles: retry 2 in 0..49 ms, mean 24.5 ms.
	// In all 0..73 ms, mean 36.5 ms.
	{"istio", "preset=istio", 3, []workedWait{{1, 0, 24 * msec, 12e6}, {2, 0, 49 * msec, 24.5e6}},
		policy.Totals{Min: 0, Max: 73 * msec, Mean: 36.5e6}, 0, 0},
	// GEP-1731's example, attempts 2 and backoff 100ms, at the least the spec allows: 100 ms before
	// each of the 2 retries, 200 ms in all.
	{"gateway-api", "preset=gateway-api", 3, []workedWait{{1, 100 * msec, 100 * msec, 1e8}, {2, 100 * msec, 100 * msec, 1e8}},
		policy.Totals{Min: 200 * msec, Max: 200 * msec, Mean: 2e8}, 0, 0},
	// The same example on Istio (its Envoy base_interval = backoff = 100 ms, max 1 s): retry 1 in
	// 0..99 ms, mean 49.5 ms; 100 < 1000/2 doubles it: retry 2 in 0..199 ms, mean 99.5 ms; in all
	// 0..298 ms, mean 149 ms, shorter than the spec's 100 ms minimum.
	{"gateway-api on Istio", "base=100ms&factor=2&cap=1s&attempts=3&jitter=fullms", 3,
		[]workedWait{{1, 0, 99 * msec, 49.5e6}, {2, 0, 199 * msec, 99.5e6}},
		policy.Totals{Min: 0, Max: 298 * msec, Mean: 149e6}, 0, 0},
	// Linkerd, retry.linkerd.io/limit 1 (2 attempts): base = 25 ms, the wait 25 ms + U × 25 ms,
	// 25 to 50 ms, mean 37.5 ms.
	{"linkerd", "preset=linkerd", 2, []workedWait{{1, 25 * msec, 50 * msec, 37.5e6}},
		policy.Totals{Min: 25 * msec, Max: 50 * msec, Mean: 37.5e6}, 0, 0},
	// Linkerd with limit 5 (6 attempts): base 25, 50, 100, 200, 250 ms, each wait base + U × base
	// at most 250 ms: 25..50 (mean 37.5), 50..100 (75), 100..200 (150), 200..250 with
	// P(U × 200 ≥ 50) = 3/4 at 250 (mean 1/4 × 225 + 3/4 × 250 = 243.75), then exactly 250. In
	// all 625..850 ms, mean 37.5 + 75 + 150 + 243.75 + 250 = 756.25 ms.
	{"linkerd limit 5", "preset=linkerd&attempts=6", 6, []workedWait{
		{1, 25 * msec, 50 * msec, 37.5e6}, {2, 50 * msec, 100 * msec, 75e6}, {3, 100 * msec, 200 * msec, 150e6},
		{4, 200 * msec, 250 * msec, 243.75e6}, {5, 250 * msec, 250 * msec, 250e6},
	}, policy.Totals{Min: 625 * msec, Max: 850 * msec, Mean: 756.25e6}, 0, 0},
	// Dapr constant: 5 s before each retry; the first 10 attempts: 9 × 5 = 45 s.
	{"dapr-constant", "preset=dapr-constant", 10, []workedWait{{1, 5 * sec, 5 * sec, 5e9}, {9, 5 * sec, 5 * sec, 5e9}},
		policy.Totals{Min: 45 * sec, Max: 45 * sec, Mean: 45e9}, 0, 0},
	// Dapr exponential: interval 500 ms × 1.5^(k−1), the wait uniform in interval × (1 ± 0.5).
	// Retry 1: 250..750 ms; 2: 750 ms, 375..1125 ms; 3: 1125 ms, 562.5..1687.5 ms; 12: 0.5 ×
	// 1.5^11 = 43.248779296875 s, 21.6243896484375..64.8731689453125 s; from 13 on 0.5 × 1.5^12 =
	// 64.87 s is over 60 s: 60 s, 30..90 s. Without the budget the intervals add up to
	// (1.5^12 − 1) + 27 × 60 = 128.746337890625 + 1620 = 1748.746337890625 s, half that at least
	// and 1.5 × it at most. Budget 15 min: attempt n ≥ 13 starts at the latest at 1.5 × 128.746…
	// + 90 × (n − 13) = 193.12 + 90 (n − 13) s, within 900 s up to n = 20; at the earliest at
	// 64.37 + 30 (n − 13) s, within 900 s up to n = 40 (874.37 s; attempt 41 would be 904.37 s).
	{"dapr-exponential", "preset=dapr-exponential", 40, []workedWait{
		{1, 250 * msec, 750 * msec, 5e8}, {2, 375 * msec, 1125 * msec, 7.5e8}, {3, 562500 * time.Microsecond, 1687500 * time.Microsecond, 1.125e9},
		{12, 21624389648, 64873168945, 43248779296.875}, {13, 30 * sec, 90 * sec, 60e9}, {39, 30 * sec, 90 * sec, 60e9},
	}, policy.Totals{Min: 874373168945, Max: 2623119506836, Mean: 1748746337890.625}, 20, 40},
}

func TestPresetsMeshWorkedByHand(t *testing.T) {
	near := func(a, b float64, ns int) bool { return math.Abs(a-b) <= float64(ns) }
	for _, c := range workedMesh {
		p := mustDecode(t, c.query)
		sc := p.Schedule()
		if p.Attempts != c.attempts || len(sc.Rows) != c.attempts {
			t.Errorf("%s: %d attempts, worked by hand %d", c.name, len(sc.Rows), c.attempts)
			continue
		}
		for _, w := range c.waits {
			r := sc.Rows[w.retry]
			if !near(float64(r.Min), float64(w.min), 1) || !near(float64(r.Max), float64(w.max), 1) || !near(r.Mean, w.mean, 1) {
				t.Errorf("%s retry %d: [%v, %v] mean %v, worked by hand [%v, %v] mean %v", c.name, w.retry, r.Min, r.Max, time.Duration(r.Mean), w.min, w.max, time.Duration(w.mean))
			}
		}
		n := c.attempts - 1
		if !near(float64(sc.Total.Min), float64(c.total.Min), n) || !near(float64(sc.Total.Max), float64(c.total.Max), n) || !near(sc.Total.Mean, c.total.Mean, n) {
			t.Errorf("%s: total %v..%v mean %v, worked by hand %v..%v mean %v", c.name, sc.Total.Min, sc.Total.Max, time.Duration(sc.Total.Mean), c.total.Min, c.total.Max, time.Duration(c.total.Mean))
		}
		always, atMost := c.always, c.atMost
		if always == 0 {
			always, atMost = c.attempts, c.attempts
		}
		if sc.Always != always || sc.AtMost != atMost {
			t.Errorf("%s: %d attempts always start, %d at most; worked by hand %d and %d", c.name, sc.Always, sc.AtMost, always, atMost)
		}
	}
}

// TestIstioIsEnvoy transcribes Istio 1.30.3's DefaultPolicy (pilot/pkg/networking/core/route/
// retry/retry.go: NumRetries 2, no RetryBackOff) onto Envoy's defaults (base_interval 25 ms,
// max_interval 10 × it): the istio preset must be the envoy preset with 2 retries, and its
// schedule Envoy's own arithmetic (envoySchedule).
func TestIstioIsEnvoy(t *testing.T) {
	const numRetries = 2
	istio, _ := PresetByName("istio")
	envoy, _ := PresetByName("envoy")
	want := envoy.Params
	want.Attempts = numRetries + 1
	if istio.Params != want {
		t.Errorf("istio: %+v, Envoy's defaults with %d retries: %+v", istio.Params.Policy, numRetries, want.Policy)
	}
	if !sameWaits(istio.Params.Schedule(), envoySchedule(istio.Params)) {
		t.Errorf("istio: calc's schedule is not Envoy's arithmetic")
	}
}

// istioRetryBudget transcribes Istio 1.30.3's applyRetryBudget (pilot/pkg/networking/core/
// cluster_traffic_policy.go): a DestinationRule's trafficPolicy.retryBudget becomes Envoy's
// CircuitBreakers.Thresholds.RetryBudget, percent 20 when unset (nil), minRetryConcurrency 3
// when unset or 0.
func istioRetryBudget(percent *float64, minRetryConcurrency uint32) (budgetPercent float64, minConcurrency uint32) {
	budgetPercent, minConcurrency = 20.0, 3
	if percent != nil {
		budgetPercent = *percent
	}
	if minRetryConcurrency > 0 {
		minConcurrency = minRetryConcurrency
	}
	return budgetPercent, minConcurrency
}

// TestIstioRetryBudgetIsEnvoys: Istio's retry budget is Envoy's, so the envoy limiter with
// budgetpct and minconcurrency is it: its defaults are calc's, and a DestinationRule's values
// are the link's keys.
func TestIstioRetryBudgetIsEnvoys(t *testing.T) {
	def := limiter.Defaults()
	if pct, min := istioRetryBudget(nil, 0); pct != def.EnvoyPercent || int(min) != def.EnvoyMinConcurrency {
		t.Errorf("Istio's defaults %v%%, %d; calc's envoy limiter %v%%, %d", pct, min, def.EnvoyPercent, def.EnvoyMinConcurrency)
	}
	set := 35.5
	pct, min := istioRetryBudget(&set, 7)
	p := mustDecode(t, "limiter=envoy&budgetpct=35.5&minconcurrency=7")
	if p.Limiter != limiter.Envoy || p.Limits.EnvoyPercent != pct || p.Limits.EnvoyMinConcurrency != int(min) {
		t.Errorf("retryBudget{percent: 35.5, minRetryConcurrency: 7}: Istio gives %v%%, %d; the link %v %v%%, %d", pct, min, p.Limiter, p.Limits.EnvoyPercent, p.Limits.EnvoyMinConcurrency)
	}
}

// TestGatewayAPIMinimum transcribes GEP-1731's one rule on waits (Gateway API v1.6.1,
// apis/v1/httproute_types.go, HTTPRouteRetry.Backoff: no retry "before the configured minimum
// duration"): the preset makes attempts + 1 calls and never waits less than backoff.
func TestGatewayAPIMinimum(t *testing.T) {
	const attempts, backoff = 2, 100 * msec
	pr, _ := PresetByName("gateway-api")
	rows := pr.Params.Schedule().Rows
	if len(rows) != attempts+1 {
		t.Errorf("gateway-api: %d calls, attempts: %d retries", len(rows), attempts)
	}
	for _, r := range rows[1:] {
		if r.Min < backoff {
			t.Errorf("gateway-api retry %d waits from %v, under backoff %v", r.Retry, r.Min, backoff)
		}
	}
}

// linkerdWait transcribes linkerd2-proxy's ExponentialBackoff (linkerd/exp-backoff/src/lib.rs,
// proxy v2.359.0 of Linkerd's version-2.20 tag, the same in v2.246.0 of 2.16) for the wait
// before retry k (iterations = k − 1) and a draw u: base = min(min × 2^(k−1), max); the jitter
// multiplies base's whole seconds and its nanoseconds by u × jitter apart, truncates each, and is
// at most max − base; the wait is base + jitter.
func linkerdWait(k int, u float64, minB, maxB time.Duration, jitter float64) time.Duration {
	base := maxB
	if k-1 < 63 && minB <= maxB>>(k-1) {
		base = min(minB<<(k-1), maxB)
	}
	r := u * jitter
	secs := float64(base/time.Second) * r
	nanos := float64(base%time.Second) * r
	j := time.Duration(uint64(secs))*time.Second + time.Duration(uint32(nanos))
	return base + min(j, maxB-base)
}

// TestLinkerdTranscribed runs the transcription with the backoff Linkerd's policy controller
// sends for every HTTP retry (linkerd2 policy-controller/grpc/src/outbound/http.rs,
// convert_retry: min 25 ms, max 250 ms, jitter_ratio 1.0) for the preset and for limit 8, past
// the cap: calc must wait as the proxy does.
func TestLinkerdTranscribed(t *testing.T) {
	pr, _ := PresetByName("linkerd")
	limit8 := pr.Params
	limit8.Attempts = 9
	for _, p := range []calc.Params{pr.Params, limit8} {
		for _, u := range []float64{0, 0.1, 0.25, 0.5, 0.75, 0.999999} {
			state := p.FirstState()
			for k := 1; k < p.Attempts; k++ {
				var got time.Duration
				got, state = p.Wait(k, u, state)
				if want := linkerdWait(k, u, 25*msec, 250*msec, 1.0); got-want < -1 || got-want > 1 {
					t.Errorf("linkerd with %d attempts, retry %d, u=%v: calc %v, the proxy %v", p.Attempts, k, u, got, want)
				}
			}
		}
	}
}
