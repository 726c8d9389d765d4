package libs

import (
	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var backonPresets = []Preset{
	{
		Name: "backon", Library: "backon (Rust) ExponentialBuilder",
		Short:   "backon (Rust)",
		Version: "backon 1.6.0 (read); transcribed, not run",
		Source:  "backon/src/backoff/exponential.rs: ExponentialBuilder::new, ExponentialBackoff::next",
		Theirs:  "min_delay = 1s, factor = 2, max_delay = 60s, max_times = 3 (retries, the first call not counted), jitter = false",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 60*sec, 4, policy.None
		}),
		Notes: []string{
			"backon is a Rust crate: the preset transcribes its source, it is not run.",
			"Retry k waits min(min_delay × factor^(k−1), max_delay), without jitter: 1, 2, 4 s, 7 s of waiting over 4 attempts.",
			"with_jitter() adds a uniform draw in [0, min_delay) to each wait, after the cap: the calculator's additive jitter with Add = min_delay.",
			"backon multiplies in 32-bit floats (factor: f32, Duration::as_secs_f32), so a factor or delay that is not a power of 2 is rounded to about 7 digits: not modelled.",
			"The Export panel has no exporter for backon yet.",
		},
	},
}
