package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
)

var tenacityPresets = []Preset{
	{
		Name: "tenacity-random-exponential", Library: "tenacity (Python): wait_random_exponential(multiplier=1, max=60)",
		Version: "tenacity 9.0 to 9.1.4 and main (read at 2026-07-15)", Source: "tenacity/wait.py: wait_random_exponential",
		Theirs: "wait_random_exponential(multiplier=1, max=60), stop_after_attempt(5) (counts the first call)",
		Params: preset(func(p *calc.Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 60*sec, 5, calc.Full }),
		Notes: []string{
			"Retry k waits uniform(0, min(60, 1 × 2^(k−1))) s: full jitter.",
			"tenacity retries forever by default (stop_never): the preset stops after 5 attempts.",
		},
	},
	{
		Name: "tenacity-exponential-jitter", Library: "tenacity (Python): wait_exponential_jitter()",
		Version: "tenacity 9.0 to 9.1.4 and main (read at 2026-07-15)", Source: "tenacity/wait.py: wait_exponential_jitter",
		Theirs: "wait_exponential_jitter(multiplier=1, max=MAX_WAIT, exp_base=2, jitter=1), stop_after_attempt(5)",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Add, p.CapAt = sec, 2, calc.MaxCap, 5, calc.Additive, sec, calc.CapAfter
		}),
		Notes: []string{
			"Retry k waits min(max, 1 × 2^(k−1) + uniform(0, 1)) s: the jitter adds up to 1 s (jitter: additive), and max clamps after it.",
			"max defaults to a huge number: the preset uses the calculator's largest cap, 168 h.",
			"tenacity after 9.1.4 (main since 2026-03-11) names the first delay multiplier= and deprecates initial=; 9.1.4 and earlier know only initial=.",
		},
	},
}

// libPyArgs writes Python keyword arguments, leaving out those equal to their default.
func libPyCall(fn string, args ...[2]string) string {
	var parts []string
	for _, a := range args {
		if a[1] != "" {
			parts = append(parts, a[0]+"="+a[1])
		}
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

func exportTenacity(s *libSubject) Export {
	p := s.p
	e := Export{Lib: "tenacity", Title: "tenacity (Python)", Presets: []string{"tenacity-random-exponential", "tenacity-exponential-jitter"}}
	if libFromPrevious(p.Jitter) {
		e.Diffs = []string{libSkeleton(p, "tenacity", true)}
		return e
	}
	sec := func(d time.Duration) string {
		s := libSeconds(d)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	base := "" // exp_base, when it is not tenacity's 2
	if p.Factor != 2 {
		base = strconv.FormatFloat(p.Factor, 'g', -1, 64)
	}
	imports := map[string]bool{"retry": true, "stop_after_attempt": true}
	use := func(fn string) string { imports[fn] = true; return fn }
	// fixed and random are the parts of a wait: the delay scaled by a, plus U × the delay
	// scaled by w.
	fixed := func(a float64) string {
		if p.Factor == 1 {
			return libPyCall(use("wait_fixed"), [2]string{"wait", sec(libScale(p.Base, a))})
		}
		return libPyCall(use("wait_exponential"), [2]string{"multiplier", sec(libScale(p.Base, a))}, [2]string{"max", sec(libScale(p.Cap, a))}, [2]string{"exp_base", base})
	}
	random := func(w float64) string {
		if p.Factor == 1 {
			return libPyCall(use("wait_random"), [2]string{"min", "0"}, [2]string{"max", sec(libScale(p.Base, w))})
		}
		return libPyCall(use("wait_random_exponential"), [2]string{"multiplier", sec(libScale(p.Base, w))}, [2]string{"max", sec(libScale(p.Cap, w))}, [2]string{"exp_base", base})
	}
	// spread is the delay scaled by lo, plus U × the delay scaled by w: uniform in [lo·d, (lo+w)·d].
	spread := func(lo, w float64) string {
		if p.Factor == 1 && lo > 0 && w > 0 {
			return libPyCall(use("wait_random"), [2]string{"min", sec(libScale(p.Base, lo))}, [2]string{"max", sec(libScale(p.Base, lo+w))})
		}
		switch {
		case w == 0:
			return fixed(lo)
		case lo == 0:
			return random(w)
		}
		return fixed(lo) + " + " + random(w)
	}
	lib := p
	lib.CapAt = calc.CapBefore
	var wait, waitNote string
	switch {
	case p.Growth == calc.Linear:
		wait = libPyCall(use("wait_incrementing"), [2]string{"start", sec(p.Base)}, [2]string{"increment", sec(p.Base)}, [2]string{"max", sec(p.Cap)})
		lib.Jitter = calc.None
	case p.Jitter == calc.None:
		wait = fixed(1)
	case p.Jitter == calc.Full, p.Jitter == calc.FullMs:
		wait = random(1)
		lib.Jitter = calc.Full
	case p.Jitter == calc.Equal:
		wait = spread(0.5, 0.5)
	case p.Jitter == calc.Proportional:
		wait = spread(1-p.Ratio, 2*p.Ratio)
	case p.Jitter == calc.Upward:
		wait = spread(1, p.Ratio)
	case p.Jitter == calc.Additive && p.CapAt == calc.CapAfter:
		// tenacity after 9.1.4 names the first delay multiplier= and deprecates initial=, the
		// only name 9.1.4 and earlier know: at its default, 1 s, neither is written.
		multiplier := ""
		if p.Base != time.Second {
			multiplier = sec(p.Base)
			waitNote = "# multiplier=: tenacity after 9.1.4; in 9.1.4 and earlier write initial= instead"
		}
		wait = libPyCall(use("wait_exponential_jitter"), [2]string{"multiplier", multiplier}, [2]string{"max", sec(p.Cap)}, [2]string{"exp_base", base}, [2]string{"jitter", sec(p.Add)})
		lib.CapAt = calc.CapAfter
	case p.Jitter == calc.Additive:
		wait = fixed(1) + " + " + libPyCall(use("wait_random"), [2]string{"min", "0"}, [2]string{"max", sec(p.Add)})
	default:
		e.Diffs = []string{"tenacity cannot express jitter " + p.Jitter.String() + "."}
		return e
	}
	if p.FirstExact {
		wait = use("wait_chain") + "(" + use("wait_fixed") + "(" + sec(p.Base) + "), " + wait + ")"
	}
	stop := "stop_after_attempt(" + strconv.Itoa(p.Attempts) + ")"
	stopNote := "# attempts, the first call included"
	if p.Budget > 0 {
		stop += " | " + use("stop_before_delay") + "(" + sec(p.Budget) + ")"
		stopNote = "# attempts, the first call included; none starting at or after the budget (stop_before_delay: tenacity 8.3+)"
	}
	names := make([]string, 0, len(imports))
	for _, fn := range []string{"retry", "stop_after_attempt", "stop_before_delay", "wait_chain", "wait_exponential", "wait_exponential_jitter", "wait_fixed", "wait_incrementing", "wait_random", "wait_random_exponential"} {
		if imports[fn] {
			names = append(names, fn)
		}
	}
	if waitNote != "" {
		waitNote = "    " + waitNote + "\n"
	}
	code := "from tenacity import " + strings.Join(names, ", ") + "\n\n@retry(\n" +
		"    " + stopNote + "\n    stop=" + stop + ",\n" + waitNote + "    wait=" + wait + ",\n)\ndef call():\n    ...\n"
	e.Snippets = []Snippet{{"python", code}}
	why := map[string]string{"capat": "(Its max caps each part of the wait before they are added.)"}
	if p.Growth == calc.Linear {
		why["jitter"] = "(wait_incrementing has no random part, and tenacity's random waits do not grow linearly.)"
	}
	e.Diffs = libCompare(s, "tenacity", lib, why)
	return e
}
