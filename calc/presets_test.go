package calc

import (
	"cmp"
	"testing"
	"time"

	"backoffcalc/calc/policy"
)

// pollyQuery is Polly v8's exponential backoff with jitter at its defaults, as package libs'
// preset polly-exponential-jitter has it (a test there checks they agree).
const pollyQuery = "base=2s&factor=2&cap=168h&attempts=4&jitter=decorrelatedv2&ratio=0"

// testPresets are the presets that calc's tests name in links (mustDecode passes them).
var testPresets = []Preset{{Name: "polly-exponential-jitter", Params: func() Params {
	p, err := Decode(pollyQuery)
	if err != nil {
		panic(err)
	}
	return p
}()}}

// A preset given to Decode sets the policy; other keys apply on top; one that changes the policy
// leaves the preset; a name not given is an error naming those given.
func TestDecodePreset(t *testing.T) {
	slow := Preset{Name: "slow", Params: Default()}
	slow.Params.Base, slow.Params.Cap, slow.Params.Attempts, slow.Params.Jitter = 2*time.Second, 20*time.Second, 3, policy.None
	fast := Preset{Name: "fast", Params: Default()}
	p, err := Decode("preset=slow&seed=7", fast, slow)
	if err != nil || p.Preset != "slow" || p.Base != 2*time.Second || p.Jitter != policy.None || p.Seed != 7 {
		t.Errorf("preset=slow&seed=7: %+v, %v", p, err)
	}
	if p.Encode() != "add=0&attempts=3&base=2s&budget=0&call=0&cap=20s&capacity=20&capat=before&clients=100&factor=2&first=jittered&growth=exponential&jitter=none&layers=1&outage=1s&preset=slow&ratio=0.2&samples=10000&seed=7&spread=0&window=100ms" {
		t.Errorf("the link lost the preset: %s", p.Encode())
	}
	if back, err := Decode(p.Encode(), slow); back != p || err != nil {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if p := Default().WithPreset(slow); p.Preset != "slow" || p.Attempts != 3 || p.Samples != Default().Samples {
		t.Errorf("WithPreset: %+v", p)
	}
	// attempts=4 changes the policy: the preset is left, its other values kept.
	if p, _ := Decode("preset=slow&attempts=4", slow); p.Preset != "" || p.Attempts != 4 || p.Cap != 20*time.Second {
		t.Errorf("editing attempts should leave the preset and keep its other values: %+v", p)
	}
	for _, tt := range []struct {
		presets []Preset
		want    string
		name    string // "" is nope
	}{
		{[]Preset{fast, slow}, `calc: preset "nope": not one of the 2 presets (docs/presets.md lists them)`, ""},
		{[]Preset{fast, slow}, `calc: preset "slwo": not one of the 2 presets; did you mean slow?`, "slwo"},
		{[]Preset{slow}, `calc: preset "nope": not the one preset, slow`, ""},
		{nil, `calc: preset "nope": no preset is known here`, ""},
	} {
		name := cmp.Or(tt.name, "nope")
		if _, err := Decode("preset="+name, tt.presets...); err == nil || err.Error() != tt.want {
			t.Errorf("preset=%s with %d presets: %v, want %s", name, len(tt.presets), err, tt.want)
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
