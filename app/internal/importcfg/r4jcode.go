package importcfg

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"backoffcalc/calc/policy"
)

// resilience4j's Java RetryConfig builder as the Export panel writes it (calc/libs
// resilience4j.go, Resilience4jRetry.Java): maxAttempts, and an intervalFunction of
// IntervalFunction.ofExponentialBackoff or ofExponentialRandomBackoff with literal arguments (or
// a fixed waitDuration). The mapping is the resilience4j preset's: the initial interval → base,
// the multiplier → factor, the randomization factor → proportional jitter, the maximum interval
// → cap, clamping after the draw (none: the calculator's largest).

var r4jCode = format{"resilience4j RetryConfig (Java)", readR4jCode}

var (
	javaCall     = regexp.MustCompile(`\.(maxAttempts|waitDuration|intervalFunction)\(`)
	javaInterval = regexp.MustCompile(`IntervalFunction\.(ofExponentialBackoff|ofExponentialRandomBackoff)\(((?:[^()]|\([^()]*\))*)\)`)
	javaDuration = regexp.MustCompile(`^Duration\.of(Millis|Seconds|Minutes|Hours)\(\s*([0-9]+)L?\s*\)$`)
)

var javaUnits = map[string]time.Duration{"Millis": time.Millisecond, "Seconds": time.Second, "Minutes": time.Minute, "Hours": time.Hour}

func javaDurationValue(e literal, hi time.Duration) (time.Duration, error) {
	m := javaDuration.FindStringSubmatch(e.text)
	why := "must be Duration.ofMillis(n) (or ofSeconds, ofMinutes, ofHours of a whole n), more than 0 and at most " + secs(hi)
	if m == nil {
		return 0, e.bad(why)
	}
	var n int64
	if _, err := fmt.Sscan(m[2], &n); err != nil || n == 0 || n > int64(hi/javaUnits[m[1]]) {
		return 0, e.bad(why)
	}
	return time.Duration(n) * javaUnits[m[1]], nil
}

func readR4jCode(text string) (Result, bool, error) {
	if !strings.Contains(text, "RetryConfig.custom()") {
		return Result{}, false, nil
	}
	line := func(i int) int { return strings.Count(text[:i], "\n") + 1 }
	pol := presetPolicy("resilience4j")
	pol.Attempts, pol.Base, pol.Factor, pol.Jitter, pol.Ratio, pol.Cap = 3, 500*time.Millisecond, 1, policy.None, 0, policy.MaxCap
	var read []string
	for _, m := range javaCall.FindAllStringSubmatchIndex(text, 16) {
		name, at := text[m[2]:m[3]], m[1]
		switch name {
		case "maxAttempts":
			end := strings.IndexByte(text[at:], ')')
			if end < 0 {
				return Result{}, false, fmt.Errorf("line %d: maxAttempts( has no )", line(at))
			}
			e := literal{line: line(at), name: name, text: strings.TrimSpace(text[at : at+end])}
			n, err := e.whole(1, policy.MaxAttempts, fmt.Sprintf("must be a whole number from 1 to %d: %s", policy.MaxAttempts, attemptsWhy))
			if err != nil {
				return Result{}, false, err
			}
			pol.Attempts = int(n)
			read = append(read, e.valueLine("attempts, the first call included"))
		case "waitDuration":
			end := strings.Index(text[at:], "))")
			if end < 0 {
				return Result{}, false, fmt.Errorf("line %d: waitDuration( has no )", line(at))
			}
			e := literal{line: line(at), name: name, text: strings.TrimSpace(text[at : at+end+1])}
			d, err := javaDurationValue(e, policy.MaxBase)
			if err != nil {
				return Result{}, false, err
			}
			pol.Base, pol.Cap = d, d
			read = append(read, e.valueLine("every wait"))
		case "intervalFunction":
			f := javaInterval.FindStringSubmatchIndex(text[at:])
			if f == nil || f[0] != strings.Index(text[at:], "IntervalFunction") {
				return Result{}, false, fmt.Errorf("line %d: intervalFunction: the calculator reads IntervalFunction.ofExponentialBackoff or ofExponentialRandomBackoff with literal arguments", line(at))
			}
			fn, args := text[at+f[2]:at+f[3]], splitTop(text[at+f[4]:at+f[5]])
			if err := r4jInterval(&pol, fn, args, line(at+f[4])); err != nil {
				return Result{}, false, err
			}
			read = append(read, fmt.Sprintf("line %d: IntervalFunction.%s: read", line(at), fn))
		}
	}
	return policyResult(pol, read, nil)
}

// r4jInterval reads ofExponentialBackoff(initial, multiplier[, max]) or
// ofExponentialRandomBackoff(initial, multiplier, randomization[, max]).
func r4jInterval(pol *policy.Policy, fn string, args []string, line int) error {
	random := fn == "ofExponentialRandomBackoff"
	lo, hi := 2, 3
	if random {
		lo, hi = 3, 4
	}
	if len(args) < lo || len(args) > hi {
		return fmt.Errorf("line %d: %s takes %d or %d arguments, not %d", line, fn, lo, hi, len(args))
	}
	arg := func(name string, i int) literal {
		v := strings.TrimRight(strings.TrimSpace(args[i]), "dD")
		return literal{line: line, name: fn + " " + name, text: v}
	}
	var err error
	if pol.Base, err = javaDurationValue(arg("initialInterval", 0), policy.MaxBase); err != nil {
		return err
	}
	if pol.Factor, err = goFloat(arg("multiplier", 1), 1, policy.MaxFactor, fmt.Sprintf("must be a number from 1 to %d", policy.MaxFactor)); err != nil {
		return err
	}
	if random {
		if pol.Ratio, err = goFloat(arg("randomizationFactor", 2), 0, 1, "must be a number from 0 to 1"); err != nil {
			return err
		}
		pol.Jitter, pol.CapAt = policy.Proportional, policy.CapAfter
	}
	if len(args) == hi {
		if pol.Cap, err = javaDurationValue(arg("maxInterval", hi-1), policy.MaxCap); err != nil {
			return err
		}
		if pol.Cap < pol.Base {
			return fmt.Errorf("line %d: %s maxInterval %s: must be at least the initial interval, %s", line, fn, secs(pol.Cap), secs(pol.Base))
		}
	}
	return nil
}
