package importcfg

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc/policy"
)

// Spring Retry's @Retryable(maxAttempts = …, backoff = @Backoff(…)) annotation, read strictly:
// attributes whose values are literals (numbers, booleans, strings, classes, arrays of them, and
// the one nested @Backoff). Its back-off is the one spring-retry 2.0.12 builds
// (AnnotationAwareRetryOperationsInterceptor.getBackoffPolicy, BackOffPolicyBuilder.build):
//   - multiplier > 0: ExponentialBackOffPolicy, delay × multiplier^(k−1) (a multiplier under 1
//     is 1), capped at maxDelay, or at 30 s when maxDelay ≤ delay; with random = true,
//     ExponentialRandomBackOffPolicy, which multiplies that by 1 + U × (multiplier − 1) and clamps
//     the result to the cap: the calculator's upward jitter, ratio multiplier − 1, cap after;
//   - else maxDelay > delay: UniformRandomBackOffPolicy, delay + a whole number of milliseconds
//     under maxDelay − delay: the calculator's additive jitter, factor 1;
//   - else FixedBackOffPolicy: delay every time.
// Every delay is whole milliseconds, at least 1 ms; the exponential interval is truncated to
// whole milliseconds at each step, which the calculator does not do.

var spring = format{"Spring Retry @Retryable", readSpring}

// springMaxInterval is ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL.
const springMaxInterval = 30 * time.Second

// springAnnotation starts the annotation, with or without its package.
var springAnnotation = regexp.MustCompile(`^@(?:org\.springframework\.retry\.annotation\.)?Retryable\b`)

// springWhy is why each attribute that does not shape the waits is not read.
var springWhy = map[string]string{
	"value": "which exceptions are retried: the calculator retries every failure", "include": "", "retryFor": "",
	"exclude": "which exceptions are not retried: the calculator retries every failure", "noRetryFor": "", "notRecoverable": "",
	"label": "a name", "stateful": "where the retry state is kept: not modelled", "recover": "what runs once the retries end: not modelled",
	"interceptor": "a bean whose own policy replaces this annotation's: not read", "listeners": "what is told of each retry: not modelled",
}

// springMaxLen is the longest annotation read: one @Retryable is a few hundred bytes, and the
// page must stay responsive whatever is pasted.
const springMaxLen = 4096

// springExtent is where the annotation at the start of text ends: after the ) that closes its
// attribute list, skipping string literals; len(text) when it does not close.
func springExtent(text string) int {
	i := len(springAnnotation.FindString(text))
	j := i + len(text[i:]) - len(strings.TrimLeft(text[i:], " \t\r\n"))
	if j >= len(text) || text[j] != '(' {
		return i // @Retryable alone
	}
	depth, quoted := 0, false
	for k := j; k < len(text); k++ {
		switch c := text[k]; {
		case quoted && c == '\\':
			k++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return k + 1
			}
		}
	}
	return len(text)
}

// springTok is one token of the annotation.
type springTok struct {
	text string
	line int
}

var springToken = regexp.MustCompile(`\s+|//[^\n]*|/\*(?s:.*?)\*/|"(?:[^"\\\n]|\\.)*"|@?[A-Za-z_$][A-Za-z0-9_$.]*(?:::class)?|[0-9][0-9_.]*[A-Za-z]?|[(){}=,]|.`)

func readSpring(text string) (Result, bool, error) {
	text = strings.TrimSpace(text)
	if !springAnnotation.MatchString(text) {
		return Result{}, false, nil
	}
	end := springExtent(text)
	if end > springMaxLen {
		return Result{}, false, fmt.Errorf("line 1: the annotation is over %d bytes: the calculator reads one @Retryable", springMaxLen)
	}
	var toks []springTok
	line := 1
	for _, t := range springToken.FindAllString(text[:end], -1) {
		if s := strings.TrimSpace(t); s != "" && !strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "/*") {
			toks = append(toks, springTok{s, line})
		}
		line += strings.Count(t, "\n")
	}
	r := springReader{toks: toks[1:], line: 1}
	attrs, err := r.attributes()
	if err != nil {
		return Result{}, false, err
	}
	var ignored []string
	if len(r.toks) > 0 {
		return Result{}, false, fmt.Errorf("line %d: %q: expected the annotation to end", r.toks[0].line, shorten(r.toks[0].text))
	}
	if rest := strings.TrimLeft(text[end:], " \t\r\n"); rest != "" {
		ignored = append(ignored, fmt.Sprintf("line %d: what follows the annotation", strings.Count(text[:len(text)-len(rest)], "\n")+1))
	}
	return springResult(attrs, ignored)
}

// springAttr is one attribute: its value as written, or the nested @Backoff's.
type springAttr struct {
	name, value string
	line        int
	nested      []springAttr
}

type springReader struct {
	toks []springTok
	line int
}

func (r *springReader) next() springTok {
	if len(r.toks) == 0 {
		return springTok{"", r.line}
	}
	t := r.toks[0]
	r.toks, r.line = r.toks[1:], t.line
	return t
}

func (r *springReader) peek() string {
	if len(r.toks) == 0 {
		return ""
	}
	return r.toks[0].text
}

// attributes reads "(name = value, …)", or nothing: @Retryable alone is every default.
func (r *springReader) attributes() ([]springAttr, error) {
	if r.peek() != "(" {
		return nil, nil
	}
	r.next()
	var attrs []springAttr
	for r.peek() != ")" {
		if len(attrs) > 0 {
			if t := r.next(); t.text != "," {
				return nil, fmt.Errorf("line %d: %q: expected , or ) between attributes", t.line, t.text)
			}
		}
		name := r.next()
		a := springAttr{name: name.text, line: name.line}
		if r.peek() == "=" {
			r.next()
		} else if len(attrs) == 0 && r.peek() == ")" || r.peek() == "," {
			// @Retryable(IOException.class): the value attribute.
			a = springAttr{name: "value", value: name.text, line: name.line}
			attrs = append(attrs, a)
			continue
		} else {
			return nil, fmt.Errorf("line %d: %q: expected name = value", name.line, name.text)
		}
		v := r.next()
		switch {
		case v.text == "@Backoff" || v.text == "Backoff" || v.text == "@org.springframework.retry.annotation.Backoff":
			nested, err := r.attributes()
			if err != nil {
				return nil, err
			}
			a.nested, a.value = nested, "@Backoff(…)"
		case v.text == "{":
			var parts []string
			for t := r.next(); t.text != "}"; t = r.next() {
				if t.text == "" {
					return nil, fmt.Errorf("line %d: %s: the array has no }", a.line, a.name)
				}
				parts = append(parts, t.text)
			}
			a.value = "{" + strings.Join(parts, " ") + "}"
		case v.text == "" || len(v.text) == 1 && strings.Contains("(){}=,", v.text):
			return nil, fmt.Errorf("line %d: %s: expected a value, found %q", v.line, a.name, v.text)
		default:
			a.value = v.text
			if n := r.peek(); n != "," && n != ")" {
				return nil, fmt.Errorf("line %d: %s %q: must be a literal (a number, true or false, a string, a class): %q follows it", v.line, a.name, shorten(v.text), shorten(n))
			}
		}
		for _, b := range attrs {
			if b.name == a.name {
				return nil, fmt.Errorf("line %d: %s: given twice: give it once", a.line, a.name)
			}
		}
		attrs = append(attrs, a)
		if len(attrs) > 64 {
			return nil, fmt.Errorf("line %d: more than 64 attributes", a.line)
		}
	}
	r.next()
	return attrs, nil
}

// springLong reads a Java long literal in [lo, hi]: 1000, 1000L, 1_000.
func (a springAttr) long(lo, hi int64, why string) (int64, error) {
	v := strings.ReplaceAll(strings.TrimRight(a.value, "lL"), "_", "")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, a.bad(why)
	}
	return n, nil
}

func (a springAttr) bad(why string) error {
	return fmt.Errorf("line %d: %s %q: %s", a.line, a.name, shorten(a.value), why)
}

func (a springAttr) read() string {
	return fmt.Sprintf("line %d: %s %s: read", a.line, a.name, a.value)
}

func springResult(attrs []springAttr, ignored []string) (Result, bool, error) {
	attempts := int64(3)
	var backoff []springAttr
	var read []string
	for _, a := range attrs {
		switch why, known := springWhy[a.name]; {
		case a.name == "maxAttempts":
			n, err := a.long(1, policy.MaxAttempts, fmt.Sprintf("must be a whole number from 1 to %d: %s", policy.MaxAttempts, attemptsWhy))
			if err != nil {
				return Result{}, false, err
			}
			attempts = n
			read = append(read, a.read()+" (counts the first call)")
		case a.name == "backoff":
			if a.nested == nil && a.value != "@Backoff(…)" {
				return Result{}, false, a.bad("must be @Backoff(…)")
			}
			backoff = a.nested
		case strings.HasSuffix(a.name, "Expression"):
			return Result{}, false, a.bad("an expression Spring evaluates at run time: write the number it gives")
		case known:
			for why == "" { // the attributes that say the same as another
				why = springWhy[map[string]string{"include": "value", "retryFor": "value", "noRetryFor": "exclude", "notRecoverable": "exclude"}[a.name]]
			}
			ignored = append(ignored, fmt.Sprintf("line %d: %s: %s", a.line, a.name, why))
		default:
			return Result{}, false, fmt.Errorf("line %d: %s: not an attribute of spring-retry's @Retryable (Spring Framework 7's own @Retryable is not read)", a.line, a.name)
		}
	}
	pol, bread, bignored, err := springBackoff(backoff)
	if err != nil {
		return Result{}, false, err
	}
	ignored = append(ignored, bignored...)
	pol.Attempts = int(attempts)
	res, err := policyOnly(pol)
	if err != nil {
		return Result{}, false, err
	}
	read = append(append(read, bread...), fmt.Sprintf("attempts %d", pol.Attempts))
	res.Read, res.Ignored = read, ignored
	return res, true, nil
}

// springBackoff is the policy @Backoff's attributes build.
func springBackoff(attrs []springAttr) (pol policy.Policy, read, ignored []string, err error) {
	delay, maxDelay, multiplier, random := int64(1000), int64(0), 0.0, false
	var multiplierAt springAttr
	maxMs := int64(policy.MaxCap / time.Millisecond)
	for _, a := range attrs {
		switch a.name {
		case "value", "delay":
			delay, err = a.long(0, int64(policy.MaxBase/time.Millisecond), "must be whole milliseconds, at most "+secs(policy.MaxBase)+": the calculator's largest base")
		case "maxDelay":
			maxDelay, err = a.long(0, maxMs, "must be whole milliseconds, at most "+secs(policy.MaxCap)+": the calculator's largest cap")
		case "multiplier":
			multiplierAt = a
			v := strings.TrimRight(a.value, "dDfF")
			multiplier, err = strconv.ParseFloat(v, 64)
			if err != nil || multiplier != multiplier || multiplier < 0 || multiplier > policy.MaxFactor || strings.ContainsAny(v, "xXpP_") {
				err = a.bad(fmt.Sprintf("must be a number from 0 to %d", policy.MaxFactor))
			}
		case "random":
			if a.value != "true" && a.value != "false" {
				err = a.bad("must be true or false")
			}
			random = a.value == "true"
		default:
			if strings.HasSuffix(a.name, "Expression") {
				return policy.Policy{}, nil, nil, a.bad("an expression Spring evaluates at run time: write the number it gives")
			}
			return policy.Policy{}, nil, nil, fmt.Errorf("line %d: %s: not an attribute of @Backoff", a.line, a.name)
		}
		if err != nil {
			return policy.Policy{}, nil, nil, err
		}
		read = append(read, a.read())
	}
	pol.Base = time.Duration(max(delay, 1)) * time.Millisecond // Spring's setters make 0 1 ms
	pol.Factor, pol.Cap = 1, pol.Base
	switch {
	case multiplier > 0:
		pol.Factor = max(multiplier, 1)
		pol.Cap = springMaxInterval
		if maxDelay > delay {
			pol.Cap = time.Duration(maxDelay) * time.Millisecond
		}
		kind := "ExponentialBackOffPolicy"
		if random {
			if pol.Factor > 2 {
				return policy.Policy{}, nil, nil, fmt.Errorf("line %d: multiplier %s with random = true: Spring waits up to %s × the interval, and the calculator's upward jitter reaches 2 × at most", multiplierAt.line, fnum(multiplier), fnum(multiplier))
			}
			kind = "ExponentialRandomBackOffPolicy"
			pol.Jitter, pol.Ratio, pol.CapAt = policy.Upward, pol.Factor-1, policy.CapAfter
		}
		if pol.Cap < pol.Base {
			pol.Base = pol.Cap // every wait is the cap
		}
		read = append(read, fmt.Sprintf("%s: base %s, factor %s, cap %s, jitter %s", kind, secs(pol.Base), fnum(pol.Factor), secs(pol.Cap), pol.Jitter))
	case maxDelay > delay:
		pol.Jitter, pol.Add = policy.Additive, time.Duration(maxDelay-delay)*time.Millisecond
		read = append(read, fmt.Sprintf("UniformRandomBackOffPolicy: waits from %s to %s, jitter additive", secs(pol.Base), secs(pol.Base+pol.Add)))
	default:
		read = append(read, "FixedBackOffPolicy: every retry waits "+secs(pol.Base))
	}
	if random && multiplier <= 0 {
		ignored = append(ignored, "random: Spring reads it only with a multiplier")
	}
	return pol, read, ignored, nil
}
