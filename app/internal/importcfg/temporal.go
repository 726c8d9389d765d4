package importcfg

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc/policy"
)

// Temporal's RetryPolicy, as its API's JSON writes it (initialInterval "1s", backoffCoefficient,
// maximumInterval, maximumAttempts; protobuf's JSON also takes initial_interval) or as the Go
// SDK's struct literal (InitialInterval: time.Second). Its defaults are the temporal preset's
// (calc/libs/temporal.go): 1 s, 2.0, 100 × the initial interval, unlimited attempts.

var temporalJSON = format{"Temporal RetryPolicy (JSON)", readTemporalJSON}
var temporalGo = format{"Temporal RetryPolicy (Go)", readTemporalGo}

// temporalFields are the RetryPolicy's fields, JSON's lowerCamel name first.
var temporalFields = [][]string{
	{"initialInterval", "initial_interval"},
	{"backoffCoefficient", "backoff_coefficient"},
	{"maximumInterval", "maximum_interval"},
	{"maximumAttempts", "maximum_attempts"},
	{"nonRetryableErrorTypes", "non_retryable_error_types"},
}

// temporalPolicy is what a RetryPolicy sets; zero is Temporal's default.
type temporalPolicy struct {
	initial, maximum time.Duration
	coefficient      float64
	attempts         int64
	// Where backoffCoefficient and maximumInterval were read, for a message about them.
	coefficientAt, maximumAt literal
	read, ignored            []string
}

func readTemporalJSON(text string) (Result, bool, error) {
	var names []string
	for _, f := range temporalFields[:4] {
		names = append(names, f...)
	}
	root, ok, err := parseTree(text)
	if !ok || err != nil {
		return Result{}, false, cmp.Or(err, notYAML(text, names...))
	}
	m := root
	var t temporalPolicy
	if rp, err := only(m, "retryPolicy", "retry_policy"); err != nil {
		return Result{}, false, err
	} else if rp != nil && rp.at(names...) != nil {
		for _, o := range m.items {
			if o != rp {
				t.ignored = append(t.ignored, o.keyLine(temporalOutside(o.key)))
			}
		}
		m = rp
	} else if m.at(names...) == nil {
		return Result{}, false, nil
	}
	if err := strictJSON(text, "Temporal's JSON (protobuf's, protojson) refuses it"); err != nil {
		return Result{}, false, err
	}
	if err := root.twice(); err != nil {
		return Result{}, false, err
	}
	if err := t.readJSON(m); err != nil {
		return Result{}, false, err
	}
	return t.result()
}

// only is m's value at one of names, refusing two of them (initialInterval and
// initial_interval): nil when there is none.
func only(m *value, names ...string) (*value, error) {
	var found *value
	for _, item := range m.items {
		if slices.Contains(names, item.key) {
			if found != nil {
				return nil, fmt.Errorf("line %d: %s: given twice (also line %d): give it once", item.line, item.path(), found.line)
			}
			found = item
		}
	}
	return found, nil
}

// temporalOutside is why a key beside the retry policy is not read.
func temporalOutside(key string) string {
	if strings.Contains(strings.ToLower(key), "scheduletoclose") {
		return "it ends the retries whose start would pass it: not modelled (the temporal preset says so too)"
	}
	return "not part of the retry policy"
}

func (t *temporalPolicy) readJSON(m *value) error {
	for _, names := range temporalFields {
		if _, err := only(m, names...); err != nil {
			return err
		}
	}
	for _, e := range m.items {
		field := slices.IndexFunc(temporalFields, func(names []string) bool { return slices.Contains(names, e.key) })
		switch field {
		case 4:
			t.ignored = append(t.ignored, e.keyLine("which errors end the retries: the calculator retries every failure"))
			continue
		case -1:
			t.ignored = append(t.ignored, e.keyLine("not a field of Temporal's RetryPolicy"))
			continue
		}
		l, err := e.literal()
		if err != nil {
			return err
		}
		switch field {
		case 0:
			t.initial, err = l.duration(0, policy.MaxBase, "must be a duration such as \"1s\", at most "+secs(policy.MaxBase)+" (0 or unset: 1s)")
		case 1:
			t.coefficient, err = l.number(0, policy.MaxFactor, fmt.Sprintf("must be a number from 1 to %d (0 or unset: 2.0)", policy.MaxFactor))
			t.coefficientAt = l
		case 2:
			t.maximumAt = l
			t.maximum, err = l.duration(0, policy.MaxCap, "must be a duration such as \"100s\", at most "+secs(policy.MaxCap)+" (0 or unset: 100 × initialInterval)")
		case 3:
			t.attempts, err = l.whole(0, policy.MaxAttempts, "must be 0 (unlimited) or a whole number up to "+strconv.Itoa(policy.MaxAttempts)+": "+attemptsWhy)
		}
		if err != nil {
			return err
		}
		t.read = append(t.read, l.valueLine("read"))
	}
	return nil
}

// goField is one `Name: value` of a Go struct literal.
var goField = regexp.MustCompile(`(?m)\b([A-Z][A-Za-z]*)\s*:\s*([^,\n}]*)`)

// goDuration is a duration as a simple Go literal: time.Second, 5 * time.Second,
// time.Second * 5, time.Duration(5) * time.Second, 1.5 * time.Second.
var goDuration = regexp.MustCompile(`^(?:([0-9]+(?:\.[0-9]+)?)\s*\*\s*|time\.Duration\(([0-9]+)\)\s*\*\s*)?time\.(Nanosecond|Microsecond|Millisecond|Second|Minute|Hour)(?:\s*\*\s*([0-9]+(?:\.[0-9]+)?))?$`)

var goUnits = map[string]time.Duration{"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond, "Millisecond": time.Millisecond, "Second": time.Second, "Minute": time.Minute, "Hour": time.Hour}

func readTemporalGo(text string) (Result, bool, error) {
	fields := goField.FindAllStringSubmatchIndex(text, -1)
	known := 0
	for _, f := range fields {
		if slices.Contains([]string{"InitialInterval", "BackoffCoefficient", "MaximumInterval", "MaximumAttempts"}, text[f[2]:f[3]]) {
			known++
		}
	}
	if known == 0 || strings.HasPrefix(strings.TrimSpace(text), "{") {
		return Result{}, false, nil
	}
	var t temporalPolicy
	seen := map[string]bool{}
	for _, f := range fields {
		name, value := text[f[2]:f[3]], strings.TrimSpace(text[f[4]:f[5]])
		value = strings.TrimSpace(strings.SplitN(value, "//", 2)[0])
		line := strings.Count(text[:f[0]], "\n") + 1
		e := literal{line: line, name: name, text: value}
		if seen[name] {
			return Result{}, false, fmt.Errorf("line %d: %s: given twice: give it once", line, name)
		}
		seen[name] = true
		var err error
		switch name {
		case "InitialInterval", "MaximumInterval":
			var d time.Duration
			d, err = goDurationValue(e)
			if err == nil && d > policy.MaxCap {
				err = e.bad("at most " + secs(policy.MaxCap))
			}
			if name == "InitialInterval" {
				if d > policy.MaxBase {
					err = e.bad("at most " + secs(policy.MaxBase))
				}
				t.initial = d
			} else {
				t.maximum, t.maximumAt = d, e
			}
		case "BackoffCoefficient":
			t.coefficient, err = e.number(0, policy.MaxFactor, fmt.Sprintf("must be a number from 1 to %d (0: 2.0)", policy.MaxFactor))
			t.coefficientAt = e
		case "MaximumAttempts":
			t.attempts, err = e.whole(0, policy.MaxAttempts, "must be 0 (unlimited) or a whole number up to "+strconv.Itoa(policy.MaxAttempts)+": "+attemptsWhy)
		case "NonRetryableErrorTypes":
			t.ignored = append(t.ignored, e.keyLine("which errors end the retries: the calculator retries every failure"))
			continue
		default:
			t.ignored = append(t.ignored, e.keyLine("not a field of Temporal's RetryPolicy"))
			continue
		}
		if err != nil {
			return Result{}, false, err
		}
		t.read = append(t.read, e.valueLine("read"))
	}
	return t.result()
}

// goDurationValue reads a duration written as a simple Go literal, or 0, at most calc's largest cap.
func goDurationValue(e literal) (time.Duration, error) { return goDurationUpTo(e, policy.MaxCap) }

// goDurationUpTo is goDurationValue up to hi.
func goDurationUpTo(e literal, hi time.Duration) (time.Duration, error) {
	if e.text == "0" {
		return 0, nil
	}
	m := goDuration.FindStringSubmatch(e.text)
	if m == nil {
		return 0, e.bad("must be a literal such as time.Second or 500 * time.Millisecond")
	}
	n := 1.0
	for _, s := range []string{m[1], m[2], m[4]} {
		if s != "" {
			x, _ := strconv.ParseFloat(s, 64)
			n *= x
		}
	}
	d := n * float64(goUnits[m[3]])
	if d > float64(hi) || d != float64(int64(d)) {
		return 0, e.bad("must be whole nanoseconds, at most " + secs(hi))
	}
	return time.Duration(d), nil
}

// result applies Temporal's defaults and checks, as the SDK and server do, and maps the policy
// onto calc's inputs as the temporal preset does.
func (t *temporalPolicy) result() (Result, bool, error) {
	pol := presetPolicy("temporal")
	if t.initial > 0 {
		pol.Base = t.initial
	}
	if t.coefficient != 0 && t.coefficient < 1 {
		return Result{}, false, t.coefficientAt.bad("must be at least 1 (Temporal refuses less)")
	}
	if t.coefficient != 0 {
		pol.Factor = t.coefficient
	}
	pol.Cap = 100 * pol.Base
	if t.maximum > 0 {
		if t.maximum < pol.Base {
			return Result{}, false, t.maximumAt.bad(fmt.Sprintf("must be at least initialInterval (%s), as Temporal requires", secs(pol.Base)))
		}
		pol.Cap = t.maximum
	}
	pol.Cap = min(pol.Cap, policy.MaxCap)
	if t.attempts > 0 {
		pol.Attempts = int(t.attempts)
	} else {
		t.read = append(t.read, fmt.Sprintf("maximumAttempts 0 or unset: Temporal never gives up; the table shows the first %d attempts, as the temporal preset does", pol.Attempts))
	}
	res, err := policyOnly(pol)
	if err != nil {
		return Result{}, false, err
	}
	t.read = append(t.read, fmt.Sprintf("base %s, factor %s, cap %s, attempts %d, no jitter (Temporal draws none)",
		secs(pol.Base), fnum(pol.Factor), secs(pol.Cap), pol.Attempts))
	res.Read, res.Ignored = t.read, t.ignored
	return res, true, nil
}

// fnum writes x for a line of Read or an error.
func fnum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
