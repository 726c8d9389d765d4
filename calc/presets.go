package calc

import "strings"

// Preset is a policy known by a name, which a link gives as preset=NAME. calc knows no preset
// of its own: whoever decodes links passes the ones it knows to Decode (package libs passes the
// retry libraries'), so that the policy model stays free of any library.
type Preset struct {
	Name   string // the value of the preset query key
	Params Params // the policy; only its Policy matters
}

// presetByName returns the preset of presets whose Name is name.
func presetByName(presets []Preset, name string) (Preset, bool) {
	for _, pr := range presets {
		if pr.Name == name {
			return pr, true
		}
	}
	return Preset{}, false
}

// presetList names presets for an error message.
func presetList(presets []Preset) string {
	names := make([]string, len(presets))
	for i, pr := range presets {
		names[i] = pr.Name
	}
	return strings.Join(names, ", ")
}

// WithPreset returns p with the preset's policy, keeping p's samples, seed, layers and herd.
func (p Params) WithPreset(pr Preset) Params {
	p.Policy = pr.Params.Policy
	p.Preset = pr.Name
	return p
}

// Uncapped is the delay of retry k before any cap, in nanoseconds: base × factor^(k−1), or
// base × k for linear growth, kept finite (at most 1e300). A library that applies no cap waits
// it where the calculator stops at MaxCap.
func (p Params) Uncapped(k int) float64 { return p.rawNominal(k) }
