package importcfg

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

// Polly v8's C# as the Export panel writes it (calc/libs polly.go): new RetryStrategyOptions { … }
// with simple values, and an AddTimeout before AddRetry, a deadline over every attempt. Polly
// 8.7.0's defaults fill what it leaves out (MaxRetryAttempts 3, Delay 2 s, Constant, no jitter);
// the mapping is the exporter's: Delay → base, Constant is factor 1, Linear growth linear,
// Exponential doubles; UseJitter is decorrelatedv2 with Exponential (Polly's
// DecorrelatedJitterBackoffV2) and proportional 0.25 otherwise; MaxDelay clamps after the draw,
// and without it the calculator's largest cap stands in.

var pollyCode = format{"Polly RetryStrategyOptions (C#)", readPollyCode}

// timeSpan is TimeSpan.FromX(n) with a whole n.
var timeSpanCall = regexp.MustCompile(`^TimeSpan\.From(Ticks|Milliseconds|Seconds|Minutes|Hours|Days)\(\s*([0-9]+)\s*\)$`)

var timeSpanUnits = map[string]time.Duration{"Ticks": 100, "Milliseconds": time.Millisecond, "Seconds": time.Second, "Minutes": time.Minute, "Hours": time.Hour, "Days": 24 * time.Hour}

func timeSpanValue(e literal, hi time.Duration) (time.Duration, error) {
	m := timeSpanCall.FindStringSubmatch(e.text)
	why := "must be TimeSpan.FromMilliseconds(n) (or FromTicks, FromSeconds, … of a whole n), at most " + secs(hi)
	if m == nil {
		return 0, e.bad(why)
	}
	var n int64
	if _, err := fmt.Sscan(m[2], &n); err != nil || n > int64(hi/timeSpanUnits[m[1]]) {
		return 0, e.bad(why)
	}
	return time.Duration(n) * timeSpanUnits[m[1]], nil
}

func readPollyCode(text string) (Result, bool, error) {
	pol := policy.Policy{Base: 2 * time.Second, Factor: 1, Cap: policy.MaxCap, Attempts: 4, CapAt: policy.CapAfter}
	backoff, jitter := "Constant", false
	var read, ignored []string
	var fields []literal
	open := strings.Index(text, "new RetryStrategyOptions")
	builder := strings.Index(text, "new ResiliencePipelineBuilder")
	switch {
	case open >= 0:
		var err error
		if fields, _, _, err = csInitializer(text, open); err != nil {
			return Result{}, false, err
		}
	case builder >= 0 && !strings.Contains(text, ".AddRetry("):
		// A pipeline without a retry strategy calls once: the Export panel's one attempt, since
		// Polly refuses MaxRetryAttempts = 0.
		pol.Attempts = 1
		read = append(read, fmt.Sprintf("line %d: ResiliencePipelineBuilder without AddRetry: 1 attempt", strings.Count(text[:builder], "\n")+1))
	default:
		return Result{}, false, nil
	}
	var err error
	for _, e := range fields {
		switch e.name {
		case "MaxRetryAttempts":
			n, err := e.whole(1, policy.MaxAttempts-1, fmt.Sprintf("must be a whole number from 1 (Polly's least) to %d: %s", policy.MaxAttempts-1, attemptsWhy))
			if err != nil {
				return Result{}, false, err
			}
			pol.Attempts = int(n) + 1
		case "Delay":
			if pol.Base, err = timeSpanValue(e, policy.MaxBase); err != nil {
				return Result{}, false, err
			}
			if pol.Base == 0 {
				pol.Base = 100 // one tick, as the JSON reader
				read = append(read, e.valueLine(zeroDelay))
				continue
			}
		case "MaxDelay":
			if pol.Cap, err = timeSpanValue(e, 24*time.Hour); err != nil {
				return Result{}, false, err
			}
		case "BackoffType":
			backoff = strings.TrimPrefix(e.text, "DelayBackoffType.")
			if !slices.Contains([]string{"Constant", "Linear", "Exponential"}, backoff) {
				return Result{}, false, e.bad("must be DelayBackoffType.Constant, Linear or Exponential")
			}
		case "UseJitter":
			if !slices.Contains([]string{"true", "false"}, e.text) {
				return Result{}, false, e.bad("must be true or false")
			}
			jitter = e.text == "true"
		default:
			ignored = append(ignored, e.keyLine("not read: the calculator retries every failure, with the delays above"))
			continue
		}
		read = append(read, e.valueLine("read"))
	}
	switch backoff {
	case "Linear":
		pol.Growth = policy.Linear
	case "Exponential":
		pol.Factor = 2
	}
	switch {
	case jitter && backoff == "Exponential":
		pol.Jitter = policy.DecorrelatedV2
	case jitter:
		pol.Jitter, pol.Ratio = policy.Proportional, 0.25
	}
	if pol.Cap < pol.Base {
		under := pol
		var ok bool
		if pol, ok = libs.PollyMaxUnderDelay(pol); !ok {
			return Result{}, false, fmt.Errorf("line %d: MaxDelay %s: %s", field(fields, "MaxDelay").line, secs(under.Cap), jitteredUnderDelay(under.Base))
		}
		read = append(read, maxUnderDelay(under.Base, under.Cap))
	}
	retry := strings.Index(text, ".AddRetry(")
	for _, m := range regexp.MustCompile(`\.AddTimeout\(([^()]*\([^()]*\))\)`).FindAllStringSubmatchIndex(text, 8) {
		line := strings.Count(text[:m[0]], "\n") + 1
		e := literal{line: line, name: "AddTimeout", text: text[m[2]:m[3]]}
		if retry >= 0 && m[0] > retry {
			ignored = append(ignored, e.valueLine("after AddRetry it times each attempt: set the call duration to it if your failures are timeouts"))
			continue
		}
		if pol.Budget, err = timeSpanValue(e, policy.MaxBudget); err != nil {
			return Result{}, false, err
		}
		read = append(read, e.valueLine("before AddRetry, a deadline over every attempt: the budget"))
	}
	return policyResult(pol, read, ignored)
}

// csInitializer reads the object initializer after text[at:]'s first {: Name = value, one a
// line or several, with // comments.
func csInitializer(text string, at int) (fields []literal, end int, ok bool, err error) {
	open := strings.IndexByte(text[at:], '{')
	if open < 0 {
		return nil, 0, true, fmt.Errorf("line %d: new RetryStrategyOptions has no { … }", strings.Count(text[:at], "\n")+1)
	}
	start := at + open + 1
	close := strings.IndexByte(text[start:], '}')
	if close < 0 {
		return nil, 0, true, fmt.Errorf("line %d: the initializer has no closing }", strings.Count(text[:start], "\n")+1)
	}
	line := strings.Count(text[:start], "\n") + 1
	seen := map[string]bool{}
	for _, l := range strings.Split(text[start:start+close], "\n") {
		for _, part := range splitTop(strings.SplitN(l, "//", 2)[0]) {
			name, value, found := strings.Cut(part, "=")
			name, value = strings.TrimSpace(name), strings.TrimSpace(value)
			if !found || !goName.MatchString(name) {
				return nil, 0, true, fmt.Errorf("line %d: %q: expected Name = value", line, shorten(part))
			}
			if seen[name] {
				return nil, 0, true, fmt.Errorf("line %d: %s: given twice: give it once", line, name)
			}
			seen[name] = true
			fields = append(fields, literal{line: line, name: name, text: value})
		}
		line++
	}
	return fields, start + close + 1, true, nil
}

// splitTop splits s at its commas outside parentheses, dropping empty parts.
func splitTop(s string) []string {
	var parts []string
	depth, from := 0, 0
	for i, c := range s + "," {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && (depth <= 0 || i == len(s)):
			if p := strings.TrimSpace(s[from:min(i, len(s))]); p != "" {
				parts = append(parts, p)
			}
			from = i + 1
		}
	}
	return parts
}
