package importcfg

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

// Polly v8's options as .NET's configuration binder reads them from appsettings.json (keys
// whatever their case, every value a string parsed by its type: TimeSpan.Parse, Enum.Parse
// ignoring case, int and double invariant): either a RetryStrategyOptions (Polly 8.7.0's
// defaults: 3 retries, Delay 2s, Constant, no jitter) or the standard handler's options of
// Microsoft.Extensions.Http.Resilience (HttpStandardResilienceOptions, 9.x/10.x: sections
// Retry, AttemptTimeout, TotalRequestTimeout and CircuitBreaker, whose defaults are 3 retries,
// Delay 2s, Exponential with jitter; 10s per attempt; 30s in all; Polly's breaker defaults).
// The first mapping in the text that is either is read.
var dotnetFormat = format{name: "Polly / .NET resilience options (JSON)", read: readDotnet}

var (
	pollyRetryKeys    = []string{"MaxRetryAttempts", "Delay", "BackoffType", "UseJitter", "MaxDelay"}
	standardSections  = []string{"Retry", "AttemptTimeout", "TotalRequestTimeout", "CircuitBreaker"}
	pollyDistinctKeys = []string{"MaxRetryAttempts", "BackoffType", "UseJitter", "MaxDelay"}
)

// hasAny says whether the mapping v has one of keys, whatever the case.
func hasAny(v *value, keys []string) bool {
	for _, k := range keys {
		if v.get(fold(k), false) != nil {
			return true
		}
	}
	return false
}

// isStandard says whether v is the standard handler's options: a section of its own, whose
// Retry, if it has one, is a mapping of Polly's keys (a Step Functions Retry is a list).
func isStandard(v *value) bool {
	if v.kind != yaml.MappingNode || !hasAny(v, standardSections) {
		return false
	}
	retry := v.get(fold("Retry"), false)
	if retry != nil && (retry.kind != yaml.MappingNode || !hasAny(retry, pollyRetryKeys)) {
		return false
	}
	return retry != nil || hasAny(v, standardSections[1:])
}

// findOptions is the first mapping under v, v included, that is Polly's options, in the
// text's order; standard says which kind.
func findOptions(v *value) (opts *value, standard bool) {
	if v.kind == yaml.MappingNode {
		if isStandard(v) {
			return v, true
		}
		if hasAny(v, pollyDistinctKeys) {
			return v, false
		}
	}
	for _, item := range v.items {
		if item.kind != yaml.ScalarNode {
			if o, s := findOptions(item); o != nil {
				return o, s
			}
		}
	}
	return nil, false
}

func readDotnet(text string) (Result, bool, error) {
	root, ok, err := parseTree(text)
	if !ok || err != nil {
		return Result{}, ok, err
	}
	opts, standard := findOptions(root)
	if opts == nil {
		return Result{}, false, nil
	}
	opts.used = true
	r := newReading()
	if !standard {
		r.note("line %d: %s: Polly's RetryStrategyOptions (Polly 8.7.0's defaults for what it leaves out)", opts.line, orTop(opts.path()))
		c := libs.PollyRetry{MaxRetryAttempts: 3, Delay: 2 * time.Second, BackoffType: "Constant"}
		if err := readPollyRetry(r, opts, &c); err != nil {
			return Result{}, true, err
		}
		r.setPolicy(c.Policy())
		r.ignored = append(r.ignored, opts.ignored(dotnetWhy)...)
		res, err := r.result()
		return res, true, err
	}
	r.note("line %d: %s: the standard resilience handler's options (Microsoft.Extensions.Http.Resilience; its defaults for what they leave out)", opts.line, orTop(opts.path()))
	c := libs.PollyRetry{MaxRetryAttempts: 3, Delay: 2 * time.Second, BackoffType: "Exponential", UseJitter: true, Timeout: 30 * time.Second}
	if retry := opts.get(fold("Retry"), true); retry != nil {
		if err := readPollyRetry(r, retry, &c); err != nil {
			return Result{}, true, err
		}
	}
	total, err := sectionTimeout(r, opts, "TotalRequestTimeout", 30*time.Second, "budget")
	if err != nil {
		return Result{}, true, err
	}
	c.Timeout = total.d
	attempt, err := sectionTimeout(r, opts, "AttemptTimeout", 10*time.Second, "timeout")
	if err != nil {
		return Result{}, true, err
	}
	r.p.Timeout = attempt.d
	r.also("timeout")
	r.note("TotalRequestTimeout is outermost, a deadline over every attempt: the budget; AttemptTimeout bounds each attempt: timeout=%s", policy.FormatDuration(attempt.d))
	if attempt.d > total.d {
		return Result{}, true, fmt.Errorf("%s: AttemptTimeout's Timeout (%s) is over TotalRequestTimeout's (%s): the standard handler refuses it", attempt.where, policy.FormatDuration(attempt.d), policy.FormatDuration(total.d))
	}
	r.setPolicy(c.Policy())
	if err := readPollyBreaker(r, opts.get(fold("CircuitBreaker"), true), attempt.d); err != nil {
		return Result{}, true, err
	}
	r.ignored = append(r.ignored, opts.ignored(dotnetWhy)...)
	res, err := r.result()
	return res, true, err
}

// readPollyRetry reads a RetryStrategyOptions into c.
func readPollyRetry(r *reading, o *value, c *libs.PollyRetry) error {
	if o.kind != yaml.MappingNode {
		return o.errorf("must be a mapping: MaxRetryAttempts, Delay, …")
	}
	if v := o.get(fold("MaxRetryAttempts"), true); v != nil {
		n, err := whole(v, 1, math.MaxInt32)
		if err != nil {
			return err
		}
		c.MaxRetryAttempts = n
		r.source("attempts", v)
	}
	var maxV *value
	for _, f := range []struct {
		name, key string
		field     *time.Duration
	}{{"Delay", "base", &c.Delay}, {"MaxDelay", "cap", &c.MaxDelay}} {
		v := o.get(fold(f.name), true)
		if v == nil {
			continue
		}
		if f.name == "MaxDelay" {
			maxV = v
		}
		d, err := timeSpan(v)
		if err != nil {
			return err
		}
		if d > 24*time.Hour {
			return v.errorf("must be at most 1.00:00:00 (a day): Polly refuses more")
		}
		*f.field = d
		r.source(f.key, v)
		if d == 0 && f.name == "Delay" {
			// Polly retries at once (RetryHelper: a zero base delay is returned as it is);
			// calc's base is more than 0.
			r.note("line %d: %s 0: %s", v.line, v.path(), zeroDelay)
		}
	}
	if v := o.get(fold("BackoffType"), true); v != nil {
		t, err := backoffType(v)
		if err != nil {
			return err
		}
		c.BackoffType = t
		r.note("line %d: %s %s", v.line, v.path(), t)
	}
	if v := o.get(fold("UseJitter"), true); v != nil {
		b, err := boolean(v)
		if err != nil {
			return err
		}
		c.UseJitter = b
		r.note("line %d: %s %v", v.line, v.path(), b)
	}
	switch {
	case c.UseJitter && c.BackoffType == "Exponential":
		r.note("Exponential with UseJitter is Polly's DecorrelatedJitterBackoffV2: jitter decorrelatedv2")
	case c.UseJitter:
		r.note("UseJitter draws each delay ±25%%: jitter proportional, ratio 0.25")
	}
	if maxV == nil || c.MaxDelay >= c.Delay {
		r.note("MaxDelay, when set, clamps each delay after the jitter: capat after; without it the calculator's largest cap, 168h, stands in")
	} else {
		pol := c.Policy()
		if pol.Cap < pol.Base { // PollyMaxUnderDelay left it: with jitter
			return maxV.errorf("%s", jitteredUnderDelay(c.Delay))
		}
		r.source("base", maxV) // every wait is MaxDelay, and there is no cap
		r.unsource("cap")
		r.note("%s", maxUnderDelay(c.Delay, c.MaxDelay))
	}
	return nil
}

// zeroDelay says what a Polly Delay of 0 reads as.
const zeroDelay = "Polly retries at once; one tick, 100ns, the least base the calculator takes, stands in"

// jitteredUnderDelay is why a Polly MaxDelay under delay is refused with UseJitter.
func jitteredUnderDelay(delay time.Duration) string {
	return "under Delay (" + secs(delay) + ") with UseJitter, Polly clamps each drawn delay to it, a law the calculator does not have; with MaxDelay at least Delay, or UseJitter false, it reads"
}

// maxUnderDelay says what a Polly MaxDelay under Delay does (libs.PollyMaxUnderDelay).
func maxUnderDelay(delay, maxDelay time.Duration) string {
	return fmt.Sprintf("MaxDelay %s is under Delay %s: Polly clamps every delay to it, so every retry waits %s (base, factor 1, no cap)",
		secs(maxDelay), secs(delay), secs(maxDelay))
}

// backoffType reads a DelayBackoffType as Enum.Parse does, ignoring case, or its number.
func backoffType(v *value) (string, error) {
	s, err := v.scalar()
	if err != nil {
		return "", err
	}
	for i, name := range []string{"Constant", "Linear", "Exponential"} {
		if strings.EqualFold(s, name) || s == strconv.Itoa(i) {
			return name, nil
		}
	}
	return "", v.errorf("must be Constant, Linear or Exponential")
}

// timeoutRead is a section's timeout and where it was set.
type timeoutRead struct {
	d     time.Duration
	where string
}

// sectionTimeout reads a timeout section's Timeout, def when it has none, into the query key.
func sectionTimeout(r *reading, opts *value, section string, def time.Duration, key string) (timeoutRead, error) {
	s := opts.get(fold(section), true)
	out := timeoutRead{d: def, where: "the default " + section}
	if s == nil {
		r.note("no %s: the handler's default, %s", section, policy.FormatDuration(def))
		return out, nil
	}
	v := s.get(fold("Timeout"), true)
	if v == nil {
		return out, nil
	}
	d, err := timeSpan(v)
	if err != nil {
		return out, err
	}
	if d < 10*time.Millisecond || d > 24*time.Hour {
		return out, v.errorf("must be from 00:00:00.010 to 1.00:00:00: Polly's timeout refuses it")
	}
	r.source(key, v)
	return timeoutRead{d, fmt.Sprintf("line %d: %s", v.line, v.path())}, nil
}

// readPollyBreaker reads the standard handler's CircuitBreaker onto breaker=polly, every
// attempt going through it (it is inside the retry).
func readPollyBreaker(r *reading, s *value, attempt time.Duration) error {
	r.p.Breaker, r.p.BreakerAt = breaker.Polly, calc.BreakerAtAttempt
	r.also("breaker", "breakerat", "pollyratio", "pollythroughput", "pollysampling", "pollyopen")
	r.note("the standard handler's circuit breaker is inside its retry: breaker=polly, breakerat=attempt")
	b := &r.p.BreakerParams
	var sampling *value
	if s != nil {
		if s.kind != yaml.MappingNode {
			return s.errorf("must be a mapping: FailureRatio, MinimumThroughput, …")
		}
		if v := s.get(fold("FailureRatio"), true); v != nil {
			x, err := number(v)
			if err != nil {
				return err
			}
			b.PollyRatio = x
			r.source("pollyratio", v)
		}
		if v := s.get(fold("MinimumThroughput"), true); v != nil {
			n, err := whole(v, math.MinInt32, math.MaxInt32)
			if err != nil {
				return err
			}
			b.PollyThroughput = n
			r.source("pollythroughput", v)
		}
		for _, f := range []struct {
			name, key string
			field     *time.Duration
		}{{"SamplingDuration", "pollysampling", &b.PollySampling}, {"BreakDuration", "pollyopen", &b.PollyBreak}} {
			v := s.get(fold(f.name), true)
			if v == nil {
				continue
			}
			d, err := timeSpan(v)
			if err != nil {
				return err
			}
			*f.field = d
			r.source(f.key, v)
			if f.name == "SamplingDuration" {
				sampling = v
			}
		}
	}
	if b.PollySampling < 2*attempt {
		where := "the default SamplingDuration (30s)"
		if sampling != nil {
			where = fmt.Sprintf("line %d: %s", sampling.line, sampling.path())
		}
		return fmt.Errorf("%s: the sampling duration (%s) is under twice the attempt timeout (%s): the standard handler refuses it",
			where, policy.FormatDuration(b.PollySampling), policy.FormatDuration(attempt))
	}
	return nil
}

// timeSpan reads v as TimeSpan.Parse does with the invariant culture: [d.]hh:mm[:ss[.fffffff]],
// d:hh:mm:ss[.fffffff], or a whole number of days; not negative.
func timeSpan(v *value) (time.Duration, error) {
	s, err := v.scalar()
	if err != nil {
		return 0, err
	}
	s = strings.TrimSpace(s)
	bad := v.errorf(`not a TimeSpan: write hh:mm:ss, like "00:00:02" or "00:00:00.500"`)
	if strings.HasPrefix(s, "-") {
		return 0, v.errorf("must not be negative")
	}
	var days int64
	if !strings.Contains(s, ":") {
		if !digits.MatchString(s) {
			return 0, bad
		}
		return saturate(s, 24*time.Hour), nil // a bare number is days
	}
	if d, rest, ok := strings.Cut(s, "."); ok && !strings.Contains(d, ":") {
		if days, err = strconv.ParseInt(d, 10, 64); err != nil || !digits.MatchString(d) {
			return 0, bad
		}
		s = rest
	}
	parts := strings.Split(s, ":")
	if len(parts) == 4 && days == 0 {
		if days, err = strconv.ParseInt(parts[0], 10, 64); err != nil || !digits.MatchString(parts[0]) {
			return 0, bad
		}
		parts = parts[1:]
	}
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	var frac string
	if len(parts) == 3 {
		parts[2], frac, _ = strings.Cut(parts[2], ".")
		if len(frac) > 7 || (frac != "" && !digits.MatchString(frac)) {
			return 0, bad
		}
	} else {
		parts = append(parts, "0")
	}
	limits := []int64{24, 60, 60}
	units := []time.Duration{time.Hour, time.Minute, time.Second}
	d := saturate(strconv.FormatInt(days, 10), 24*time.Hour)
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || !digits.MatchString(p) || len(p) > 2 {
			return 0, bad
		}
		if n >= limits[i] {
			return 0, v.errorf("out of range: hours under 24, minutes and seconds under 60")
		}
		d = addSat(d, time.Duration(n)*units[i])
	}
	if frac != "" {
		ticks, _ := strconv.ParseInt(frac+"0000000"[len(frac):], 10, 64)
		d = addSat(d, time.Duration(ticks)*100)
	}
	return d, nil
}

var digits = regexp.MustCompile(`^[0-9]+$`)

// dotnetWhy says why a key of Polly's options is not read.
func dotnetWhy(v *value) string {
	switch strings.ToLower(v.key) {
	case "ratelimiter":
		return "the handler's rate limiter: not modelled"
	case "shouldhandle", "onretry", "delaygenerator":
		return "code the calculator cannot run"
	case "name":
		return "a name: not about retries"
	case "shouldretryafterheader":
		return "a Retry-After header's wait: not modelled"
	}
	return "not a key this calculator reads"
}
