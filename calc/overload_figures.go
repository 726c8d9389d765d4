package calc

// Figures of an overload run that the page and table show as they are: ratios are computed
// here, so that the screen does no arithmetic.

// WastedShare is the share of the attempts the server served that were wasted: served for a
// client that had stopped waiting. 0 when the server served nothing. Served 30, wasted 10: 0.25.
func (r OverloadRun) WastedShare() float64 {
	all := float64(r.Served) + float64(r.Wasted) // in float64: the int sum could overflow
	if all == 0 {
		return 0
	}
	return float64(r.Wasted) / all
}

// Recovers reports whether the server recovered before the run ended (Recovered is then its
// time); false when the last window with an arrival was not clean.
func (r OverloadRun) Recovers() bool { return r.Recovered >= 0 }
