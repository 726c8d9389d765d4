package libs

import (
	"net/url"
	"time"

	"backoffcalc/calc"
)

// Preset is what a retry library does with its defaults (or, where it has none, with the
// values its documentation shows), in the calculator's terms. Params holds the policy; the
// other fields say where it comes from and where the calculator or the library's own
// documentation differ from the library's code.
type Preset struct {
	Name    string      // the value of the preset query key
	Library string      // the library and the behaviour
	Short   string      // the picker's text: short enough to show whole, and unlike every other's
	Basis   string      // what the values are, when not the library's defaults alone (see BasisWords)
	Version string      // the version or date the behaviour was read from
	Source  string      // the file in the library's code that computes the wait
	Theirs  string      // the library's own parameters, in its words
	Params  calc.Params // the policy; only its policy fields matter (see calc.Preset)
	Notes   []string    // how the library's formula maps to ours, and what its docs get wrong
}

// BasisWords says what the preset sets the inputs to: its Basis, or "the library's defaults".
// gRPC's retry policy has none: "the example policy of gRFC A6: gRPC has no default retry policy".
func (pr Preset) BasisWords() string {
	if pr.Basis != "" {
		return pr.Basis
	}
	return "the library's defaults"
}

// Named is the preset as calc knows it: a policy and its name.
func (pr Preset) Named() calc.Preset { return calc.Preset{Name: pr.Name, Params: pr.Params} }

// presets lists the library presets in the picker's order, each library's in its own file.
var presets = concat(awsPresets, grpcPresets, cenkaltiPresets, k8sPresets, pollyPresets,
	tenacityPresets, envoyPresets, resilience4jPresets, googleAPIPresets, retryableHTTPPresets, temporalPresets,
	failsafePresets, stepFunctionsPresets, backonPresets, dotnetPresets, springPresets,
	istioPresets, gatewayAPIPresets, linkerdPresets, daprPresets, jobQueuePresets)

// named is presets as calc's Decode reads them.
var named = func() []calc.Preset {
	out := make([]calc.Preset, len(presets))
	for i, pr := range presets {
		out[i] = pr.Named()
	}
	return out
}()

func concat(lists ...[]Preset) []Preset {
	var out []Preset
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Presets lists the library presets in the picker's order.
func Presets() []Preset { return presets }

// PresetByName returns the preset whose Name is name.
func PresetByName(name string) (Preset, bool) {
	for _, pr := range presets {
		if pr.Name == name {
			return pr, true
		}
	}
	return Preset{}, false
}

// Decode is calc.Decode knowing the library presets: a link's preset=NAME names one of them.
func Decode(query string) (calc.Params, error) { return calc.Decode(query, named...) }

// DecodeValues is calc.DecodeValues with the libraries' presets: a form's inputs.
func DecodeValues(v url.Values) (calc.Params, error) { return calc.DecodeValues(v, named...) }

// preset builds a preset's Params from the defaults.
func preset(set func(p *calc.Params)) calc.Params {
	p := calc.Default()
	p.Ratio = 0
	set(&p)
	return p
}

const msec, sec = time.Millisecond, time.Second
