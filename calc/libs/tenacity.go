package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var tenacityPresets = []Preset{
	{
		Name: "tenacity-random-exponential", Library: "tenacity (Python): wait_random_exponential(multiplier=1, max=60)",
		Short: "tenacity, full jitter", Basis: "wait_random_exponential(multiplier=1, max=60) with stop_after_attempt(5): tenacity's defaults neither wait nor stop",
		Version: "tenacity 9.0 to 9.1.4 and main (read at 2026-07-15)", Source: "tenacity/wait.py: wait_random_exponential",
		Theirs: "wait_random_exponential(multiplier=1, max=60), stop_after_attempt(5) (counts the first call)",
		Params: preset(func(p *calc.Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 60*sec, 5, policy.Full }),
		Notes: []string{
			"Retry k waits uniform(0, min(60, 1 × 2^(k−1))) s: full jitter.",
			"tenacity retries forever by default (stop_never): the preset stops after 5 attempts.",
		},
	},
	{
		Name: "tenacity-exponential-jitter", Library: "tenacity (Python): wait_exponential_jitter()",
		Short: "tenacity, exp. jitter", Basis: "wait_exponential_jitter()'s defaults with stop_after_attempt(5): tenacity's default never stops",
		Version: "tenacity 9.0 to 9.1.4 and main (read at 2026-07-15)", Source: "tenacity/wait.py: wait_exponential_jitter",
		Theirs: "wait_exponential_jitter(multiplier=1, max=MAX_WAIT, exp_base=2, jitter=1), stop_after_attempt(5)",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Add, p.CapAt = sec, 2, policy.MaxCap, 5, policy.Additive, sec, policy.CapAfter
		}),
		Notes: []string{
			"Retry k waits min(max, 1 × 2^(k−1) + uniform(0, 1)) s: the jitter adds up to 1 s (jitter: additive), and max clamps after it.",
			"max defaults to a huge number: the preset uses the calculator's largest cap, 168 h.",
			"tenacity after 9.1.4 (main since 2026-03-11) names the first delay multiplier= and deprecates initial=; 9.1.4 and earlier know only initial=.",
		},
	},
}

// pyCall writes a Python call with keyword arguments, leaving out those whose value is "".
func pyCall(fn string, args ...[2]string) string {
	var parts []string
	for _, a := range args {
		if a[1] != "" {
			parts = append(parts, a[0]+"="+a[1])
		}
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

// pySeconds writes d as a Python float of seconds, as tenacity takes its durations: "1.0", "0.25".
func pySeconds(d time.Duration) string {
	s := decimalSeconds(d)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// tenacityLibrary is the Export panel's entry for the library; exportTenacity fills in the rest.
var tenacityLibrary = Library{Lib: "tenacity", Title: "tenacity (Python)", Presets: []string{"tenacity-random-exponential", "tenacity-exponential-jitter"}}

func exportTenacity(s *subject) Export {
	p := s.p
	var e Export
	if p.Jitter.FromPrevious() {
		e.Diffs = []string{cannotExpress(p, "tenacity", true)}
		return e
	}
	// fixed and random are the parts of a wait: the delay scaled by a, plus U × the delay
	// scaled by w.
	fixed := func(a float64) TenacityWait {
		if p.Factor == 1 {
			return TenacityWait{Fn: "wait_fixed", Wait: scaled(p.Base, a)}
		}
		return TenacityWait{Fn: "wait_exponential", Multiplier: scaled(p.Base, a), Max: scaled(p.Cap, a), ExpBase: p.Factor}
	}
	random := func(w float64) TenacityWait {
		if p.Factor == 1 {
			return TenacityWait{Fn: "wait_random", Max: scaled(p.Base, w)}
		}
		return TenacityWait{Fn: "wait_random_exponential", Multiplier: scaled(p.Base, w), Max: scaled(p.Cap, w), ExpBase: p.Factor}
	}
	// spread is the delay scaled by lo, plus U × the delay scaled by w: uniform in [lo·d, (lo+w)·d].
	spread := func(lo, w float64) []TenacityWait {
		if p.Factor == 1 && lo > 0 && w > 0 {
			return []TenacityWait{{Fn: "wait_random", Min: scaled(p.Base, lo), MinSeconds: true, Max: scaled(p.Base, lo+w)}}
		}
		switch {
		case w == 0:
			return []TenacityWait{fixed(lo)}
		case lo == 0:
			return []TenacityWait{random(w)}
		}
		return []TenacityWait{fixed(lo), random(w)}
	}
	lib := p
	lib.CapAt = policy.CapBefore
	c := TenacityRetry{StopAfterAttempt: p.Attempts, StopBeforeDelay: p.Budget}
	switch {
	case p.Growth == policy.Linear:
		c.Wait = []TenacityWait{{Fn: "wait_incrementing", Start: p.Base, Increment: p.Base, Max: p.Cap}}
		lib.Jitter = policy.None
	case p.Jitter == policy.None:
		c.Wait = []TenacityWait{fixed(1)}
	case p.Jitter == policy.Full, p.Jitter == policy.FullMs:
		c.Wait = []TenacityWait{random(1)}
		lib.Jitter = policy.Full
	case p.Jitter == policy.Equal:
		c.Wait = spread(0.5, 0.5)
	case p.Jitter == policy.Proportional:
		c.Wait = spread(1-p.Ratio, 2*p.Ratio)
	case p.Jitter == policy.Upward:
		c.Wait = spread(1, p.Ratio)
	case p.Jitter == policy.Additive && p.CapAt == policy.CapAfter:
		c.Wait = []TenacityWait{{Fn: "wait_exponential_jitter", Multiplier: p.Base, Max: p.Cap, ExpBase: p.Factor, Jitter: p.Add}}
		lib.CapAt = policy.CapAfter
	case p.Jitter == policy.Additive:
		c.Wait = []TenacityWait{fixed(1), {Fn: "wait_random", Max: p.Add}}
	default:
		e.Diffs = []string{"tenacity cannot express jitter " + p.Jitter.String() + "."}
		return e
	}
	if p.FirstExact {
		c.First = p.Base
	}
	e.Config = c
	e.Snippets = []Snippet{{"python", c.Python()}}
	why := map[string]string{"capat": "(Its max caps each part of the wait before they are added.)"}
	if p.Growth == policy.Linear {
		why["jitter"] = "(wait_incrementing has no random part, and tenacity's random waits do not grow linearly.)"
	}
	e.Diffs = compare(s, "tenacity", lib, why)
	return e
}

// TenacityRetry is a tenacity @retry in the library's own terms: its stop conditions and its
// wait, a sum of wait functions. Python writes it as a decorated function.
type TenacityRetry struct {
	StopAfterAttempt int           // attempts, the first call included
	StopBeforeDelay  time.Duration // stop_before_delay: no attempt starting at or after it; 0: none
	First            time.Duration // wait_chain(wait_fixed(First), the wait): the first retry waits exactly First; 0: no chain
	Wait             []TenacityWait
}

// TenacityWait is one of tenacity's wait functions with its arguments, which tenacity takes in
// seconds. Each function reads only its own fields.
type TenacityWait struct {
	Fn         string        // wait_fixed, wait_random, wait_exponential, wait_random_exponential, wait_incrementing or wait_exponential_jitter
	Wait       time.Duration // wait_fixed
	Min        time.Duration // wait_random
	MinSeconds bool          // wait_random: Min is a share of the delay, written in seconds even when it rounds to 0 ns; else min=0
	Max        time.Duration // all but wait_fixed
	Multiplier time.Duration // the exponential ones: the first delay
	ExpBase    float64       // the exponential ones: the factor (tenacity's default, 2, is not written)
	Start      time.Duration // wait_incrementing
	Increment  time.Duration // wait_incrementing
	Jitter     time.Duration // wait_exponential_jitter: the most it adds
}

// python is w as a call, leaving out the arguments at tenacity's defaults.
func (w TenacityWait) python() string {
	sec := pySeconds
	base := ""
	if w.ExpBase != 2 {
		base = strconv.FormatFloat(w.ExpBase, 'g', -1, 64)
	}
	switch w.Fn {
	case "wait_fixed":
		return pyCall(w.Fn, [2]string{"wait", sec(w.Wait)})
	case "wait_random":
		lo := "0"
		if w.MinSeconds {
			lo = sec(w.Min)
		}
		return pyCall(w.Fn, [2]string{"min", lo}, [2]string{"max", sec(w.Max)})
	case "wait_incrementing":
		return pyCall(w.Fn, [2]string{"start", sec(w.Start)}, [2]string{"increment", sec(w.Increment)}, [2]string{"max", sec(w.Max)})
	case "wait_exponential_jitter":
		multiplier := "" // tenacity's default, 1 s
		if w.Multiplier != time.Second {
			multiplier = sec(w.Multiplier)
		}
		return pyCall(w.Fn, [2]string{"multiplier", multiplier}, [2]string{"max", sec(w.Max)}, [2]string{"exp_base", base}, [2]string{"jitter", sec(w.Jitter)})
	}
	return pyCall(w.Fn, [2]string{"multiplier", sec(w.Multiplier)}, [2]string{"max", sec(w.Max)}, [2]string{"exp_base", base})
}

// Python is c as a function decorated with @retry, importing what it uses.
func (c TenacityRetry) Python() string {
	imports := map[string]bool{"retry": true, "stop_after_attempt": true}
	terms := make([]string, len(c.Wait))
	waitNote := ""
	for i, w := range c.Wait {
		imports[w.Fn] = true
		terms[i] = w.python()
		if w.Fn == "wait_exponential_jitter" && w.Multiplier != time.Second {
			// tenacity after 9.1.4 names the first delay multiplier= and deprecates initial=,
			// the only name 9.1.4 and earlier know: at its default, 1 s, neither is written.
			waitNote = "    # multiplier=: tenacity after 9.1.4; in 9.1.4 and earlier write initial= instead\n"
		}
	}
	wait := strings.Join(terms, " + ")
	if c.First > 0 {
		imports["wait_chain"], imports["wait_fixed"] = true, true
		wait = "wait_chain(wait_fixed(" + pySeconds(c.First) + "), " + wait + ")"
	}
	stop := "stop_after_attempt(" + strconv.Itoa(c.StopAfterAttempt) + ")"
	stopNote := "# attempts, the first call included"
	if c.StopBeforeDelay > 0 {
		imports["stop_before_delay"] = true
		stop += " | stop_before_delay(" + pySeconds(c.StopBeforeDelay) + ")"
		stopNote = "# attempts, the first call included; none starting at or after the budget (stop_before_delay: tenacity 8.3+)"
	}
	names := make([]string, 0, len(imports))
	for _, fn := range []string{"retry", "stop_after_attempt", "stop_before_delay", "wait_chain", "wait_exponential", "wait_exponential_jitter", "wait_fixed", "wait_incrementing", "wait_random", "wait_random_exponential"} {
		if imports[fn] {
			names = append(names, fn)
		}
	}
	return "from tenacity import " + strings.Join(names, ", ") + "\n\n@retry(\n" +
		"    " + stopNote + "\n    stop=" + stop + ",\n" + waitNote + "    wait=" + wait + ",\n)\ndef call():\n    ...\n"
}
