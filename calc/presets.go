package calc

import "strconv"

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

// notAPreset says that name is none of presets, with the count and the name it is most likely
// a typo of (as an unknown key's message does), else where they are listed: a list of every name
// would grow with each preset past what one error line may take.
func notAPreset(presets []Preset, name string) string {
	names := make([]string, len(presets))
	for i, pr := range presets {
		names[i] = pr.Name
	}
	if len(presets) == 1 {
		return "not the one preset, " + names[0]
	}
	msg := "not one of the " + strconv.Itoa(len(presets)) + " presets"
	if near := nearestKey(name, names); near != "" {
		return msg + "; did you mean " + near + "?"
	}
	return msg + " (docs/presets.md lists them)"
}

// WithPreset returns p with the preset's policy, keeping p's samples, seed, layers and herd.
func (p Params) WithPreset(pr Preset) Params {
	p.Policy = pr.Params.Policy
	p.Preset = pr.Name
	return p
}
