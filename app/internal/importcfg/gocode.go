package importcfg

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc/policy"
)

// Go code as the Export panel writes it (calc/libs: CenkaltiConfig.Go, WaitBackoff.Go), read
// back strictly: a struct literal whose fields are simple literals, and for cenkalti/backoff the
// options of Retry. The policy is the export's Model: what the library does with that code.

var cenkaltiGo = format{"cenkalti/backoff v5 (Go)", readCenkalti}
var clientGo = format{"Kubernetes client-go wait.Backoff (Go)", readWaitBackoff}

// goLiteral is the struct literal that starts with open ("backoff.ExponentialBackOff{"), its
// fields each with its line; ok is false when text has none.
func goLiteral(text, open string) (fields []literal, rest string, ok bool, err error) {
	start := strings.Index(text, open)
	if start < 0 {
		return nil, "", false, nil
	}
	body := text[start+len(open):]
	end := strings.IndexByte(body, '}')
	if end < 0 {
		return nil, "", true, fmt.Errorf("line %d: %s has no closing }", strings.Count(text[:start], "\n")+1, strings.TrimSuffix(open, "{"))
	}
	line := strings.Count(text[:start+len(open)], "\n") + 1
	seen := map[string]bool{}
	for _, f := range strings.Split(body[:end], "\n") {
		for _, part := range strings.Split(strings.SplitN(f, "//", 2)[0], ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			name, value, found := strings.Cut(part, ":")
			name, value = strings.TrimSpace(name), strings.TrimSpace(value)
			if !found || !goName.MatchString(name) {
				return nil, "", true, fmt.Errorf("line %d: %q: expected Field: value", line, shorten(strings.TrimSpace(part)))
			}
			if seen[name] {
				return nil, "", true, fmt.Errorf("line %d: %s: given twice: give it once", line, name)
			}
			seen[name] = true
			fields = append(fields, literal{line: line, name: name, text: value})
		}
		line++
	}
	return fields, body[end+1:], true, nil
}

// field is the field of fields named name; the fields a message names about are there.
func field(fields []literal, name string) literal {
	for _, f := range fields {
		if f.name == name {
			return f
		}
	}
	return literal{name: name}
}

// lineWith is the line of text where s first is.
func lineWith(text, s string) int { return lineOf(text, max(strings.Index(text, s), 0)) }

var goName = regexp.MustCompile(`^[A-Z][A-Za-z]*$`)

// goCall finds name(arg) in text, with the line it is on.
func goCall(text, name string) (literal, bool) {
	m := regexp.MustCompile(regexp.QuoteMeta(name) + `\(([^()]*)\)`).FindStringSubmatchIndex(text)
	if m == nil {
		return literal{}, false
	}
	line := strings.Count(text[:m[0]], "\n") + 1
	return literal{line: line, name: name, text: strings.TrimSpace(text[m[2]:m[3]])}, true
}

// goFloat reads a float literal within [lo, hi].
func goFloat(e literal, lo, hi float64, why string) (float64, error) {
	if strings.ContainsAny(e.text, "xXpP_") {
		return 0, e.bad(why)
	}
	return e.number(lo, hi, why)
}

// maxGoInterval bounds a MaxInterval read: twice calc's largest cap, past the Export panel's own.
const maxGoInterval = 2 * policy.MaxCap

// readCenkalti reads an ExponentialBackOff and Retry's options. Its Model (calc/libs
// cenkalti.go): base InitialInterval, factor Multiplier, cap MaxInterval before the jitter,
// jitter proportional RandomizationFactor; WithMaxTries the attempts and WithMaxElapsedTime the
// budget (Retry's defaults without them: no limit on tries, 15 minutes).
func readCenkalti(text string) (Result, bool, error) {
	fields, rest, ok, err := goLiteral(text, "backoff.ExponentialBackOff{")
	if !ok || err != nil {
		return Result{}, ok, err
	}
	pol := presetPolicy("cenkalti-v5")
	pol.Ratio, pol.Jitter = 0, policy.None // a literal's zero RandomizationFactor
	var read, ignored []string
	var interval, maxInterval bool
	for _, e := range fields {
		switch e.name {
		case "InitialInterval":
			pol.Base, err = goDurationValue(e)
			if err == nil && (pol.Base <= 0 || pol.Base > policy.MaxBase) {
				err = e.bad("must be more than 0 and at most " + secs(policy.MaxBase))
			}
			interval = true
		case "MaxInterval":
			// The Export panel writes calc's largest cap scaled for the jitter (× 1 + r/2), past
			// it: that cap stands in, as for a library without one.
			pol.Cap, err = goDurationUpTo(e, maxGoInterval)
			maxInterval = true
			if err == nil && pol.Cap > policy.MaxCap {
				read = append(read, e.valueLine("past the calculator's largest cap, "+secs(policy.MaxCap)+", which stands in for it"))
				pol.Cap = policy.MaxCap
				continue
			}
		case "Multiplier":
			pol.Factor, err = goFloat(e, 1, policy.MaxFactor, fmt.Sprintf("must be a number from 1 to %d", policy.MaxFactor))
		case "RandomizationFactor":
			pol.Ratio, err = goFloat(e, 0, 1, "must be a number from 0 to 1: the calculator's proportional jitter")
			if pol.Ratio > 0 {
				pol.Jitter = policy.Proportional
			}
		default:
			ignored = append(ignored, e.keyLine("not read"))
			continue
		}
		if err != nil {
			return Result{}, false, err
		}
		read = append(read, e.valueLine("read"))
	}
	if !interval || !maxInterval {
		return Result{}, false, fmt.Errorf("line %d: backoff.ExponentialBackOff: give InitialInterval and MaxInterval (a struct literal leaves them 0)", lineWith(text, "backoff.ExponentialBackOff{"))
	}
	if pol.Cap < pol.Base {
		return Result{}, false, fmt.Errorf("line %d: MaxInterval %s: must be at least InitialInterval (%s)", field(fields, "MaxInterval").line, secs(pol.Cap), secs(pol.Base))
	}
	if e, ok := goCall(rest, "backoff.WithMaxTries"); ok {
		n, err := e.whole(1, policy.MaxAttempts, fmt.Sprintf("must be a whole number from 1 to %d: %s", policy.MaxAttempts, attemptsWhy))
		if err != nil {
			return Result{}, false, err
		}
		pol.Attempts = int(n)
		read = append(read, e.valueLine("attempts, the first call included"))
	} else {
		read = append(read, fmt.Sprintf("no WithMaxTries: Retry has no limit on tries; the table shows %d attempts, as the cenkalti-v5 preset does", pol.Attempts))
	}
	if e, ok := goCall(rest, "backoff.WithMaxElapsedTime"); ok {
		if pol.Budget, err = goDurationValue(e); err != nil {
			return Result{}, false, err
		}
		if pol.Budget > policy.MaxBudget {
			return Result{}, false, e.bad("at most " + secs(policy.MaxBudget))
		}
		read = append(read, e.valueLine("the budget (0: none)"))
	} else {
		read = append(read, "no WithMaxElapsedTime: Retry stops after 15 minutes, the budget")
	}
	return policyResult(pol, read, ignored)
}

// readWaitBackoff reads a wait.Backoff. Its Model (calc/libs k8s.go): base Duration, factor
// Factor, jitter upward Jitter, Steps the attempts; with a Cap, wait.ExponentialBackoff stops at
// the first step whose next delay would pass it, so the waits never reach the cap and the
// attempts end there.
func readWaitBackoff(text string) (Result, bool, error) {
	fields, _, ok, err := goLiteral(text, "wait.Backoff{")
	if !ok || err != nil {
		return Result{}, ok, err
	}
	pol := policy.Policy{Factor: 1, Cap: policy.MaxCap} // wait.Backoff has no cap of the delay and no deadline
	var stepCap time.Duration
	var jitter float64
	var read, ignored []string
	for _, e := range fields {
		switch e.name {
		case "Duration":
			pol.Base, err = goDurationValue(e)
			if err == nil && (pol.Base <= 0 || pol.Base > policy.MaxBase) {
				err = e.bad("must be more than 0 and at most " + secs(policy.MaxBase))
			}
		case "Factor":
			pol.Factor, err = goFloat(e, 0, policy.MaxFactor, fmt.Sprintf("must be a number from 0 to %d (under 1: no growth)", policy.MaxFactor))
			pol.Factor = max(pol.Factor, 1)
		case "Jitter":
			jitter, err = goFloat(e, 0, policy.MaxFactor, fmt.Sprintf("must be a number from 0 to %d", policy.MaxFactor))
		case "Steps":
			var n int64
			n, err = e.whole(1, policy.MaxAttempts, fmt.Sprintf("must be a whole number from 1 to %d: %s", policy.MaxAttempts, attemptsWhy))
			pol.Attempts = int(n)
		case "Cap":
			stepCap, err = goDurationValue(e)
		default:
			ignored = append(ignored, e.keyLine("not read"))
			continue
		}
		if err != nil {
			return Result{}, false, err
		}
		read = append(read, e.valueLine("read"))
	}
	if pol.Base == 0 || pol.Attempts == 0 {
		return Result{}, false, fmt.Errorf("line %d: wait.Backoff: give Duration and Steps (a struct literal leaves them 0)", lineWith(text, "wait.Backoff{"))
	}
	base := pol.Base
	switch {
	case jitter > 1:
		// Duration × U[1, 1 + Jitter] is beyond the upward jitter's ratio of 1: it is the
		// proportional jitter around the middle of that range.
		pol.Jitter, pol.Ratio = policy.Proportional, jitter/(2+jitter)
		pol.Base = time.Duration(math.Round(float64(pol.Base) * (1 + jitter/2)))
		if pol.Base > policy.MaxBase {
			return Result{}, false, fmt.Errorf("line %d: Duration %s with Jitter %s: its middle wait is past the calculator's largest base, %s", field(fields, "Jitter").line, secs(base), fnum(jitter), secs(policy.MaxBase))
		}
		read = append(read, fmt.Sprintf("Jitter %s: a wait from Duration to %s × it, the proportional jitter around %s", fnum(jitter), fnum(1+jitter), secs(pol.Base)))
	case jitter > 0:
		pol.Jitter, pol.Ratio = policy.Upward, jitter
	}
	if stepCap > 0 {
		next := base
		for i := 1; i < pol.Attempts; i++ {
			next = time.Duration(float64(next) * pol.Factor)
			if next > stepCap {
				read = append(read, fmt.Sprintf("the next delay passes Cap after %d attempts: wait.ExponentialBackoff stops there", i))
				pol.Attempts = i
				break
			}
		}
	}
	return policyResult(pol, read, ignored)
}

// policyResult is the import of pol, with a last read line that says it in calc's terms.
func policyResult(pol policy.Policy, read, ignored []string) (Result, bool, error) {
	res, err := policyOnly(pol)
	if err != nil {
		return Result{}, false, err
	}
	read = append(read, "base "+secs(pol.Base)+", factor "+fnum(pol.Factor)+", cap "+secs(pol.Cap)+", attempts "+strconv.Itoa(pol.Attempts)+
		", jitter "+pol.Jitter.String()+budgetWords(pol.Budget))
	res.Read, res.Ignored = read, ignored
	return res, true, nil
}

func budgetWords(d time.Duration) string {
	if d == 0 {
		return ", no budget"
	}
	return ", budget " + secs(d)
}
