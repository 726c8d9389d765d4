package importcfg

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"backoffcalc/calc/policy"
)

// tenacity's @retry(stop=…, wait=…) as the Export panel writes it (calc/libs tenacity.go,
// TenacityRetry.Python), read back strictly: stop_after_attempt, optionally | stop_before_delay;
// a wait that is one of tenacity's wait functions, or the sum of a fixed and a random one over
// the same delays, optionally in wait_chain(wait_fixed(base), …). Arguments in seconds.

var tenacity = format{"tenacity @retry (Python)", readTenacity}

// pyCallRE is one call with its arguments, which hold no parentheses.
var pyCallRE = regexp.MustCompile(`([a-z_]+)\(([^()]*)\)`)

// pyComment is a comment to the end of its line, which keeps the line's newline.
var pyComment = regexp.MustCompile(`#[^\n]*`)

// tenacityWait is one wait function's arguments, in seconds; unset is tenacity's default.
type tenacityWait struct {
	fn   string
	args map[string]time.Duration
	base float64 // exp_base
	line int
}

func readTenacity(text string) (Result, bool, error) {
	at := strings.Index(text, "@retry(")
	if at < 0 {
		return Result{}, false, nil
	}
	body := pyComment.ReplaceAllString(text[at:], "")
	// body keeps each comment's newline: a line is counted in it, not in text, where a comment
	// moves what follows further than its offset in body.
	line := func(i int) int { return strings.Count(text[:at], "\n") + strings.Count(body[:i], "\n") + 1 }
	pol := policy.Policy{Factor: 1, Cap: policy.MaxCap}
	var read, ignored []string
	var waits []tenacityWait
	var chain time.Duration
	stopped := false
	for _, m := range pyCallRE.FindAllStringSubmatchIndex(body, 64) {
		fn, args, ln := body[m[2]:m[3]], body[m[4]:m[5]], line(m[0])
		e := literal{line: ln, name: fn, text: args}
		switch fn {
		case "stop_after_attempt":
			n, err := e.whole(1, policy.MaxAttempts, fmt.Sprintf("must be a whole number from 1 to %d: %s", policy.MaxAttempts, attemptsWhy))
			if err != nil {
				return Result{}, false, err
			}
			pol.Attempts, stopped = int(n), true
			read = append(read, e.valueLine("attempts, the first call included"))
		case "stop_before_delay":
			d, err := pySecondsValue(e, policy.MaxBudget)
			if err != nil {
				return Result{}, false, err
			}
			pol.Budget = d
			read = append(read, e.valueLine("the budget"))
		case "wait_fixed":
			if chain == 0 && strings.Contains(body[:m[0]], "wait_chain(") && len(waits) == 0 {
				d, err := pySecondsValue(e, policy.MaxBase)
				if err != nil {
					return Result{}, false, err
				}
				chain = d
				read = append(read, e.valueLine("wait_chain's first wait: the first retry waits exactly it"))
				continue
			}
			fallthrough
		case "wait_random", "wait_exponential", "wait_random_exponential", "wait_exponential_jitter", "wait_incrementing":
			w, err := tenacityArgs(fn, args, ln)
			if err != nil {
				return Result{}, false, err
			}
			waits = append(waits, w)
			read = append(read, e.valueLine("read"))
		case "retry", "wait_chain", "call":
		case "retry_if_exception_type", "retry_if_result", "retry_if_not_result", "retry_if_exception", "retry_unless_exception_type":
			ignored = append(ignored, e.keyLine("which failures are retried: the calculator retries every failure"))
		default:
			return Result{}, false, fmt.Errorf("line %d: %s: not read; the calculator reads stop_after_attempt, stop_before_delay and the wait functions", ln, fn)
		}
	}
	if !stopped {
		return Result{}, false, fmt.Errorf("line %d: @retry: give stop=stop_after_attempt(N): without it tenacity never stops", line(0))
	}
	if err := tenacityPolicy(&pol, waits, line(0)); err != nil {
		return Result{}, false, err
	}
	if chain > 0 {
		if chain != pol.Base {
			return Result{}, false, fmt.Errorf("line %d: wait_chain(wait_fixed(%s), …): the calculator's exact first retry waits the base, %s", line(strings.Index(body, "wait_chain(")), secs(chain), secs(pol.Base))
		}
		pol.FirstExact = true
	}
	return policyResult(pol, read, ignored)
}

// tenacityArgs reads a wait function's keyword arguments.
func tenacityArgs(fn, args string, line int) (tenacityWait, error) {
	w := tenacityWait{fn: fn, args: map[string]time.Duration{}, base: 2, line: line}
	for _, a := range strings.Split(args, ",") {
		if strings.TrimSpace(a) == "" {
			continue
		}
		k, v, ok := strings.Cut(a, "=")
		if !ok && fn == "wait_fixed" {
			k, v, ok = "wait", a, true // wait_fixed(1.0)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		e := literal{line: line, name: fn + " " + k, text: v}
		if !ok {
			return w, fmt.Errorf("line %d: %s(%s): give its arguments by name", line, fn, shorten(args))
		}
		if k == "exp_base" && strings.Contains(fn, "exponential") {
			x, err := e.number(1, policy.MaxFactor, fmt.Sprintf("must be a number from 1 to %d", policy.MaxFactor))
			if err != nil {
				return w, err
			}
			w.base = x
			continue
		}
		if _, twice := w.args[k]; twice || !slices.Contains(tenacityArgNames[fn], k) {
			return w, e.bad("not an argument the calculator reads, or given twice")
		}
		d, err := pySecondsValue(e, policy.MaxCap)
		if err != nil {
			return w, err
		}
		w.args[k] = d
	}
	return w, nil
}

// tenacityArgNames are the arguments of each wait function that the calculator reads (and
// exp_base); any other changes the waits in a way it does not model.
var tenacityArgNames = map[string][]string{
	"wait_fixed": {"wait"}, "wait_random": {"min", "max"},
	"wait_exponential": {"multiplier", "max"}, "wait_random_exponential": {"multiplier", "max"},
	"wait_exponential_jitter": {"initial", "multiplier", "max", "jitter"}, "wait_incrementing": {"start", "increment", "max"},
}

// pySecondsValue reads a decimal number of seconds, at most hi.
func pySecondsValue(e literal, hi time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(e.text + "s")
	if err != nil || d < 0 || d > hi || strings.ContainsAny(e.text, "_eE+") {
		return 0, e.bad("must be a number of seconds from 0 to " + secs(hi))
	}
	return d, nil
}

// tenacityPolicy maps waits, the terms of the wait's sum, onto pol as the exporter writes them.
func tenacityPolicy(pol *policy.Policy, waits []tenacityWait, at int) error {
	get := func(w tenacityWait, k string, def time.Duration) time.Duration {
		if d, ok := w.args[k]; ok {
			return d
		}
		return def
	}
	kinds := ""
	for _, w := range waits {
		kinds += "+" + w.fn
	}
	expo := func(w tenacityWait) (base, cap time.Duration) {
		return get(w, "multiplier", time.Second), get(w, "max", policy.MaxCap)
	}
	switch kinds {
	case "+wait_fixed":
		pol.Base = get(waits[0], "wait", time.Second)
		pol.Cap = pol.Base
	case "+wait_random":
		lo, hi := get(waits[0], "min", 0), get(waits[0], "max", time.Second)
		if hi <= lo {
			return fmt.Errorf("line %d: wait_random: max must be over min", waits[0].line)
		}
		pol.Base, pol.Cap, pol.Jitter = hi, hi, policy.Full
		if lo > 0 { // uniform in [lo, hi]: proportional around the middle
			pol.Base = (lo + hi) / 2
			pol.Cap, pol.Jitter, pol.Ratio = pol.Base, policy.Proportional, float64(hi-lo)/float64(hi+lo)
		}
	case "+wait_exponential", "+wait_random_exponential":
		pol.Base, pol.Cap = expo(waits[0])
		pol.Factor = waits[0].base
		if kinds == "+wait_random_exponential" {
			pol.Jitter = policy.Full
		}
	case "+wait_exponential+wait_random_exponential":
		a, ac := expo(waits[0])
		w, wc := expo(waits[1])
		if waits[0].base != waits[1].base || float64(ac)*float64(w) != float64(wc)*float64(a) {
			return fmt.Errorf("line %d: the two waits must grow alike (the same exp_base, max in proportion to multiplier), as the Export panel writes them", waits[0].line)
		}
		// Uniform in [a·d, (a + w)·d]: proportional around the middle.
		pol.Base, pol.Cap, pol.Factor = a+w/2, ac+wc/2, waits[0].base
		pol.Jitter, pol.Ratio = policy.Proportional, float64(w)/float64(2*a+w)
	case "+wait_exponential+wait_random", "+wait_fixed+wait_random":
		if get(waits[1], "min", 0) != 0 {
			return fmt.Errorf("line %d: wait_random: added to a wait, its min must be 0", waits[1].line)
		}
		if waits[0].fn == "wait_fixed" {
			pol.Base = get(waits[0], "wait", time.Second)
			pol.Cap = pol.Base
		} else {
			pol.Base, pol.Cap = expo(waits[0])
			pol.Factor = waits[0].base
		}
		pol.Jitter, pol.Add = policy.Additive, get(waits[1], "max", time.Second)
	case "+wait_exponential_jitter":
		w := waits[0]
		pol.Base, pol.Cap = get(w, "multiplier", get(w, "initial", time.Second)), get(w, "max", policy.MaxCap)
		pol.Factor, pol.Jitter, pol.Add, pol.CapAt = w.base, policy.Additive, get(w, "jitter", time.Second), policy.CapAfter
	case "+wait_incrementing":
		w := waits[0]
		if get(w, "start", 0) != get(w, "increment", 100*time.Millisecond) {
			return fmt.Errorf("line %d: wait_incrementing: the calculator's linear growth is base × k: start must equal increment", w.line)
		}
		pol.Base, pol.Cap, pol.Growth = get(w, "start", 0), get(w, "max", policy.MaxCap), policy.Linear
	default:
		return fmt.Errorf("line %d: wait=%s: not a wait the calculator reads (one wait function, or a fixed and a random one added)", at, shorten(strings.TrimPrefix(strings.ReplaceAll(kinds, "+", " + "), " + ")))
	}
	if len(waits) > 0 {
		at = waits[0].line
	}
	if pol.Base <= 0 || pol.Base > policy.MaxBase {
		return fmt.Errorf("line %d: the first wait, %s: must be more than 0 and at most %s", at, secs(pol.Base), secs(policy.MaxBase))
	}
	if pol.Cap < pol.Base {
		return fmt.Errorf("line %d: max %s: must be at least the first wait, %s", at, secs(pol.Cap), secs(pol.Base))
	}
	return nil
}
