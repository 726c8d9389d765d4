package calc

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

func TestPresetQuery(t *testing.T) {
	for _, pr := range Presets() {
		p := mustDecode(t, "preset="+pr.Name)
		if p.Preset != pr.Name || p.policy() != pr.Params.policy() {
			t.Errorf("%s: decoded %+v", pr.Name, p)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", pr.Name, err)
		}
		if !strings.Contains(p.Encode(), "preset="+pr.Name) {
			t.Errorf("%s: the link lost the preset: %s", pr.Name, p.Encode())
		}
		if back := mustDecode(t, p.Encode()); back != p {
			t.Errorf("%s: round trip %+v", pr.Name, back)
		}
		if pr.Library == "" || pr.Source == "" || pr.Theirs == "" || pr.Version == "" || len(pr.Notes) == 0 {
			t.Errorf("%s: says too little about where it comes from", pr.Name)
		}
	}
	// Other keys apply on top; one that changes the policy leaves the preset.
	if p := mustDecode(t, "preset=aws-botocore&seed=7&attempts=3"); p.Preset != "aws-botocore" || p.Seed != 7 {
		t.Errorf("a key that keeps the policy dropped the preset: %+v", p)
	}
	if p := mustDecode(t, "preset=aws-botocore&attempts=4"); p.Preset != "" || p.Attempts != 4 || p.Cap != 20*time.Second {
		t.Errorf("editing attempts should leave the preset and keep its other values: %+v", p)
	}
	if _, err := Decode("preset=nope"); !strings.Contains(err.Error(), `preset "nope": must be one of aws-botocore`) {
		t.Errorf("unknown preset: %v", err)
	}
}

// libraryWait is each library's formula, written from its source (Preset.Source) for a draw u in
// [0, 1) before retry k, in nanoseconds: independent of calc's law.
var libraryWait = map[string]func(k int, u float64) float64{
	// botocore: random() * min(base * 2 ** (attempt_number - 1), MAX_BACKOFF)
	"aws-botocore": func(k int, u float64) float64 { return u * math.Min(1e9*math.Pow(2, float64(k-1)), 20e9) },
	// botocore with AWS_NEW_RETRIES_2026: random() * min(0.05 * 2 ** (attempt_number - 1), 20)
	"aws-botocore-2026": func(k int, u float64) float64 { return u * math.Min(5e7*math.Pow(2, float64(k-1)), 20e9) },
	// aws-sdk-go-v2 v1.48.0 backoffDelay2026: b * min(0.05 * 2^(attempt-1), 20) s, attempt = k
	"aws-go-v2-2026": func(k int, u float64) float64 { return u * math.Min(0.05*math.Pow(2, float64(k-1)), 20) * 1e9 },
	// aws-sdk-go-v2: attempt > maxBackoffAttempts (log2(20) = 4) ? MaxBackoff : u * 2^attempt s
	"aws-go-v2": func(k int, u float64) float64 {
		if k > 4 {
			return 20e9
		}
		return u * float64(int64(1)<<k) * 1e9
	},
	// grpc-go shouldRetry: min(initial * mult^retries, max) * (1 + 0.2*(2u - 1))
	"grpc-retry": func(k int, u float64) float64 {
		return math.Min(1e8*math.Pow(2, float64(k-1)), 1e9) * (1 + 0.2*(2*u-1))
	},
	// grpc-go internal/backoff: retries == 0 ? base : min(base * 1.6^retries, max) * (1 + 0.2*(2u-1))
	"grpc-connect": func(k int, u float64) float64 {
		if k == 1 {
			return 1e9
		}
		return math.Min(1e9*math.Pow(1.6, float64(k-1)), 120e9) * (1 + 0.2*(2*u-1))
	},
	// cenkalti: I - 0.5 I + u * (I + 0.5 I - (I - 0.5 I) + 1), I = min(500ms * 1.5^(k-1), 60s)
	"cenkalti-v5": func(k int, u float64) float64 {
		i := math.Min(5e8*math.Pow(1.5, float64(k-1)), 60e9)
		return i - 0.5*i + u*(i+0.5*i-(i-0.5*i)+1)
	},
	// k8s Jitter: d + u * maxFactor * d
	"k8s-default-retry":   func(k int, u float64) float64 { return 1e7 + u*0.1*1e7 },
	"k8s-default-backoff": func(k int, u float64) float64 { d := 1e7 * math.Pow(5, float64(k-1)); return d + u*0.1*d },
	// Polly: Constant: delay; Linear: delay * (attempt + 1); Exponential: delay * 2^attempt (attempt 0-based)
	"polly-constant":    func(k int, u float64) float64 { return 2e9 },
	"polly-linear":      func(k int, u float64) float64 { return 2e9 * float64(k) },
	"polly-exponential": func(k int, u float64) float64 { return 2e9 * math.Pow(2, float64(k-1)) },
	// Polly DecorrelatedJitterBackoffV2 on the path that draws u at every retry: t = attempt + u,
	// prev = g(attempt-1 + u) (0 for the first retry); (long)((next - prev) * (1 / 1.4d) * ticks).
	"polly-exponential-jitter": func(k int, u float64) float64 {
		g := func(t float64) float64 { return math.Pow(2, t) * math.Tanh(math.Sqrt(4*t)) }
		prev := 0.0
		if k > 1 {
			prev = g(float64(k-2) + u)
		}
		return math.Trunc((g(float64(k-1)+u)-prev)*(1/1.4)*2e7) * 100
	},
	// tenacity: random.uniform(min=0, min(max, multiplier * 2 ** (attempt_number - 1)))
	"tenacity-random-exponential": func(k int, u float64) float64 { return u * math.Min(60e9, 1e9*math.Pow(2, float64(k-1))) },
	// tenacity: min(max, initial * 2 ** (attempt_number - 1) + uniform(0, jitter))
	"tenacity-exponential-jitter": func(k int, u float64) float64 { return 1e9*math.Pow(2, float64(k-1)) + u*1e9 },
	// Envoy: random() % backoff ms, backoff = min(25 * 2^(k-1), 250); random() % n is floor(u*n)
	"envoy": func(k int, u float64) float64 { return math.Floor(u*math.Min(25*math.Pow(2, float64(k-1)), 250)) * 1e6 },
	// resilience4j: interval * (1 - f + 2 f u) without maxInterval
	"resilience4j": func(k int, u float64) float64 {
		i := 5e8 * math.Pow(1.5, float64(k-1))
		return i*(1-0.5) + u*(i*(1+0.5)-i*(1-0.5))
	},
	// google-api-core: random.uniform(0, min(initial * 2^(k-1), maximum))
	"google-api-core": func(k int, u float64) float64 { return u * math.Min(1e9*math.Pow(2, float64(k-1)), 60e9) },
}

// TestPresetsFollowTheirSource compares calc's wait with the library's formula for fixed draws
// (the same u at every retry of a path) at every retry, and checks the formula's values lie in
// calc's bounds.
func TestPresetsFollowTheirSource(t *testing.T) {
	for _, pr := range Presets() {
		f, ok := libraryWait[pr.Name]
		if !ok {
			t.Errorf("%s: no formula from its source in this test", pr.Name)
			continue
		}
		p := pr.Params
		s := p.Schedule()
		for _, u := range []float64{0, 0.1, 0.25, 0.5, 0.75, 0.999999} {
			state := p.FirstState()
			for k := 1; k < p.Attempts; k++ {
				row := s.Rows[k]
				want := f(k, u)
				var got time.Duration
				got, state = p.Wait(k, u, state)
				// The libraries truncate to the nanosecond where calc rounds; cenkalti's +1 adds
				// up to a nanosecond more.
				if math.Abs(float64(got)-want) > 1.5 {
					t.Errorf("%s retry %d, u=%v: calc %d ns, the library %.1f ns", pr.Name, k, u, got, want)
				}
				if want < float64(row.Min)-1 || want > float64(row.Max)+1 {
					t.Errorf("%s retry %d, u=%v: the library's %.0f ns is outside [%d, %d]", pr.Name, k, u, want, row.Min, row.Max)
				}
			}
		}
	}
}

// New modes, worked by hand.
func TestLibraryModes(t *testing.T) {
	for _, tt := range []struct {
		query    string
		k        int
		min, max time.Duration
		mean     float64 // ms
	}{
		// k8s upward jitter 0.1 on 10 ms x5: retry 3 is 250 ms, in [250, 275], mean 262.5.
		{"base=10ms&factor=5&attempts=4&jitter=upward&ratio=0.1", 3, 250 * ms, 275 * ms, 262.5},
		// Envoy: retry 2 draws 0..49 whole ms: mean 24.5 ms.
		{"base=25ms&factor=2&cap=250ms&attempts=6&jitter=fullms", 2, 0, 49 * ms, 24.5},
		// ... and retry 5 is capped at 250 ms: 0..249.
		{"base=25ms&factor=2&cap=250ms&attempts=6&jitter=fullms", 5, 0, 249 * ms, 124.5},
		// tenacity: 4 s + [0, 1 s], clamped at 4.5 s: mean 4.5 - 0.5^2/2 = 4.375 s.
		{"base=1s&factor=2&cap=4500ms&attempts=4&jitter=additive&add=1s&capat=after", 3, 4 * time.Second, 4500 * ms, 4375},
		// aws-sdk-go-v2: retry 4 (16 s) is jittered, retry 5 (32 s > 20 s) is exactly 20 s.
		{"base=2s&factor=2&cap=20s&attempts=6&jitter=full&capat=fixed", 4, 0, 16 * time.Second, 8000},
		{"base=2s&factor=2&cap=20s&attempts=6&jitter=full&capat=fixed", 5, 20 * time.Second, 20 * time.Second, 20000},
		// gRPC connection: the first wait is exactly base; the second 1.6 s ±20%.
		{"base=1s&factor=1.6&cap=120s&attempts=3&jitter=proportional&ratio=0.2&first=exact", 1, time.Second, time.Second, 1000},
		{"base=1s&factor=1.6&cap=120s&attempts=3&jitter=proportional&ratio=0.2&first=exact", 2, 1280 * ms, 1920 * ms, 1600},
		// capat=fixed with factor 1 and base == cap: never over the cap, so always jittered.
		{"base=1s&factor=1&cap=1s&attempts=4&jitter=full&capat=fixed", 3, 0, time.Second, 500},
		// Polly linear: retry 3 waits 3 x 2 s.
		{"base=2s&cap=168h&attempts=4&jitter=none&growth=linear", 3, 6 * time.Second, 6 * time.Second, 6000},
	} {
		p := mustDecode(t, tt.query)
		s := p.Schedule()
		r := s.Rows[tt.k]
		if r.Min != tt.min || r.Max != tt.max || !near(r.Mean/1e6, tt.mean, 1e-12) {
			t.Errorf("%s retry %d: [%v, %v] mean %v ms, want [%v, %v] mean %v", tt.query, tt.k, r.Min, r.Max, r.Mean/1e6, tt.min, tt.max, tt.mean)
		}
		checkInvariants(t, mustDecode(t, tt.query+"&samples=300"))
	}
}

// README's Presets section names every preset's version and file as the page does.
func TestPresetsInREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range Presets() {
		row := "| `" + pr.Name + "` | " + pr.Library + " | " + pr.Version + " | `" + pr.Source + "` |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README's preset table lacks, or has another row for:\n%s", row)
		}
	}
}
