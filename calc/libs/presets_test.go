package libs

import (
	"backoffcalc/calc"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Each preset's picker text is its own: a closed select shows nothing else to tell them apart.
func TestPresetShortDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, pr := range Presets() {
		if other, ok := seen[pr.Short]; ok {
			t.Errorf("%s and %s both show %q", other, pr.Name, pr.Short)
		}
		seen[pr.Short] = pr.Name
	}
}

func TestPresetQuery(t *testing.T) {
	for _, pr := range Presets() {
		p := mustDecode(t, "preset="+pr.Name)
		if p.Preset != pr.Name || p.WithPreset(pr.Named()) != p || p.WithPreset(pr.Named()) != calc.Default().WithPreset(pr.Named()) {
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
		if pr.Library == "" || pr.Short == "" || pr.Source == "" || pr.Theirs == "" || pr.Version == "" || len(pr.Notes) == 0 {
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
	if _, err := Decode("preset=nope"); err == nil || !strings.Contains(err.Error(), `preset "nope": not one of the `+strconv.Itoa(len(Presets()))+` presets (docs/presets.md lists them)`) {
		t.Errorf("unknown preset: %v", err)
	}
	if _, err := Decode("preset=grpc-retyr"); err == nil || !strings.Contains(err.Error(), `presets; did you mean grpc-retry?`) {
		t.Errorf("a typo of a preset: %v", err)
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
	// go-retryablehttp DefaultBackoff: mult = 2^attemptNum * min, attemptNum = k-1; above max, max
	"retryablehttp-default": func(k int, u float64) float64 { return math.Min(math.Pow(2, float64(k-1))*1e9, 30e9) },
	// Temporal getRetryBackoffWithNowTime: InitialInterval * BackoffCoefficient^(attempt-1),
	// attempt = k, capped at MaximumInterval
	"temporal": func(k int, u float64) float64 { return math.Min(1e9*math.Pow(2, float64(k-1)), 100e9) },
	// failsafe-go getFixedOrRandomDelay: Delay first, then min(lastDelay * delayFactor, maxDelay)
	"failsafe-backoff": func(k int, u float64) float64 { return math.Min(1e9*math.Pow(2, float64(k-1)), 30e9) },
	// Step Functions (transcribed, see TestStepFunctionsTranscribed): IntervalSeconds *
	// BackoffRate^(k-1), no MaxDelaySeconds, JitterStrategy NONE
	"stepfunctions": func(k int, u float64) float64 { return 1e9 * math.Pow(2, float64(k-1)) },
	// backon ExponentialBackoff::next (transcribed, see TestBackonTranscribed): min_delay, then
	// cur * factor while under max_delay, at most max_delay
	"backon": func(k int, u float64) float64 { return math.Min(1e9*math.Pow(2, float64(k-1)), 60e9) },
	// Istio DefaultPolicy: num_retries 2, no retry_back_off, so Envoy's: random() % min(25 * 2^(k-1), 250) ms
	"istio": func(k int, u float64) float64 { return math.Floor(u*math.Min(25*math.Pow(2, float64(k-1)), 250)) * 1e6 },
	// Gateway API HTTPRoute retry: no retry before backoff (100ms); the preset waits exactly that
	"gateway-api": func(k int, u float64) float64 { return 1e8 },
	// Linkerd exp-backoff: base = min(min * 2^(k-1), max); base + min(trunc(base * u * jitter), max - base)
	"linkerd": func(k int, u float64) float64 {
		base := math.Min(25e6*math.Pow(2, float64(k-1)), 250e6)
		return base + math.Min(math.Trunc(base*u), 250e6-base)
	},
	// dapr/kit constant: backoff.NewConstantBackOff(Duration = 5s)
	"dapr-constant": func(k int, u float64) float64 { return 5e9 },
	// dapr/kit exponential: cenkalti/backoff v4's getRandomValueFromInterval, I = min(500ms * 1.5^(k-1), 60s)
	"dapr-exponential": func(k int, u float64) float64 {
		i := math.Min(5e8*math.Pow(1.5, float64(k-1)), 60e9)
		return i - 0.5*i + u*(i+0.5*i-(i-0.5*i)+1)
	},
}

// libraryWaitWithin is how far calc's wait may be from the library's, in nanoseconds, for a
// preset whose library draws whole units where calc draws continuously (its entry says why);
// the rest must agree within 1.5 ns.
var libraryWaitWithin = map[string]float64{}

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
				if math.Abs(float64(got)-want) > max(1.5, libraryWaitWithin[pr.Name]) {
					t.Errorf("%s retry %d, u=%v: calc %d ns, the library %.1f ns", pr.Name, k, u, got, want)
				}
				if want < float64(row.Min)-1 || want > float64(row.Max)+1 {
					t.Errorf("%s retry %d, u=%v: the library's %.0f ns is outside [%d, %d]", pr.Name, k, u, want, row.Min, row.Max)
				}
			}
		}
	}
}

// docs/presets.md names every preset's version and file, its picker name and what it sets, as
// the page does.
func TestPresetsInDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/presets.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range Presets() {
		row := "| `" + pr.Name + "` | " + pr.Library + " | " + pr.Version + " | `" + pr.Source + "` |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/presets.md's preset table lacks, or has another row for:\n%s", row)
		}
		row = "| `" + pr.Name + "` | " + pr.Short + " | " + pr.BasisWords() + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/presets.md's table of picker names lacks, or has another row for:\n%s", row)
		}
	}
}

func mustDecode(t testing.TB, q string) calc.Params {
	t.Helper()
	p, err := Decode(q)
	if err != nil {
		t.Fatalf("Decode(%q): %v", q, err)
	}
	return p
}

// calc's tests name polly-exponential-jitter in links with the policy of this query (calc's
// pollyQuery): the two must agree, or calc's golden numbers are not this preset's.
func TestPollyPresetInCalcTests(t *testing.T) {
	pr, _ := PresetByName("polly-exponential-jitter")
	p, err := calc.Decode("base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0")
	withPreset := p.WithPreset(pr.Named())
	withPreset.Preset = ""
	if err != nil || withPreset != p {
		t.Errorf("calc's tests decode polly-exponential-jitter as %+v, libs has %+v (%v)", p, pr.Params, err)
	}
}
