package libs

import (
	"strings"

	"backoffcalc/calc"
)

// beyondExports says why no exporter can write p, or "": a polynomial growth, an offset and the
// job queues' whole-second jitters are the job queues' own, which none of the exported
// libraries has (and the job queues have no exporter). who names the library.
func beyondExports(p calc.Params, who string) string {
	var why []string
	switch p.Growth {
	case calc.Polynomial, calc.Polynomial0:
		why = append(why, "growth "+p.Growth.String()+" (its delays do not grow as a power of the retry's number)")
	}
	if p.Offset != 0 {
		why = append(why, "an offset of "+dur(p.Offset)+" added to every wait")
	}
	switch p.Jitter {
	case calc.Sidekiq, calc.Sidekiq7, calc.FullSec:
		why = append(why, "jitter "+p.Jitter.String()+" ("+p.Jitter.Title()+")")
	}
	if len(why) == 0 {
		return ""
	}
	return who + " cannot express " + strings.Join(why, ", nor ") + "."
}
