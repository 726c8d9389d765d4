package main

import "testing"

// TestFormHintsNameModes checks the hints that name jitter modes, which the form takes from
// calc's table of modes, against the words written by hand.
func TestFormHintsNameModes(t *testing.T) {
	want := map[string]string{
		"factor": "growth per retry (decorrelated and decorrelatedv2 ignore it)",
		"jitter": "upward, fullms, additive and decorrelatedv2 are what k8s, Envoy, tenacity and Polly do",
		"ratio":  "proportional and upward jitter: 0.2 is 20%",
		"capat":  "before: cap the nominal delay; after: clamp the drawn wait; fixed: exactly cap, unjittered, once over it (decorrelated and decorrelatedv2 always clamp the drawn wait)",
		"first":  "exact: the first retry waits exactly base (gRPC reconnects); decorrelated and decorrelatedv2 jitter it",
		"add":    "additive jitter only: waits in [d, d + this]",
	}
	for _, g := range formGroups {
		for _, f := range g.fields {
			if w, ok := want[f.key]; ok {
				if f.hint != w {
					t.Errorf("%s:\n got %s\nwant %s", f.key, f.hint, w)
				}
				delete(want, f.key)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no field for %v", want)
	}
}
