package libs

import (
	"math"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var resilience4jPresets = []Preset{
	{
		Name: "resilience4j", Library: "resilience4j Retry with IntervalFunction.ofExponentialRandomBackoff",
		Short:   "resilience4j",
		Version: "resilience4j 2.3.0 (2025) and later (read in 2.4.0)", Source: "resilience4j-core IntervalFunction.java: ofExponentialRandomBackoff, randomize",
		Theirs: "maxAttempts = 3 (counts the first call), initialInterval = 500 ms, multiplier = 1.5, randomizationFactor = 0.5, no maxInterval",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.CapAt = 500*msec, 1.5, policy.MaxCap, 3, policy.Proportional, 0.5, policy.CapAfter
		}),
		Notes: []string{
			"Retry k waits 500 ms × 1.5^(k−1) × U[0.5, 1.5]; a maxInterval, when set, clamps after the randomization (cap applies: after).",
			"It counts whole milliseconds: it truncates the interval at every step and waits (long) max(1, I(1 − f) + U × (2fI + 1)) ms, so at least 1 ms (since 2.3.0; before it, no floor, and randomizationFactor had to be under 1).",
		},
	},
}

// resilience4jLibrary is the Export panel's entry for the library; exportResilience4j fills in the rest.
var resilience4jLibrary = Library{Lib: "resilience4j", Title: "resilience4j Retry (Java, and Spring Boot properties)", Presets: []string{"resilience4j"}}

func exportResilience4j(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "resilience4j", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	lib := p
	lib.CapAt, lib.FirstExact = policy.CapAfter, false
	scale, ratio, ok := asProportional(p.Jitter, p.Ratio)
	switch {
	case p.Jitter == policy.FullMs: // the nearest: full jitter
		scale, ratio, ok = 0.5, 1, true
		lib.Jitter = policy.Full
	case p.Jitter == policy.Additive: // the nearest: no jitter
		scale, ratio, ok = 1, 0, true
		lib.Jitter = policy.None
	}
	if !ok {
		e.Diffs = []string{"resilience4j cannot express jitter " + p.Jitter.String() + "."}
		return e
	}
	// resilience4j counts whole milliseconds (Duration.toMillis truncates) and refuses an
	// interval under 1 ms.
	interval := scaled(p.Base, scale)
	if interval < time.Millisecond {
		e.Diffs = []string{"resilience4j counts whole milliseconds from 1 ms: it cannot start from an interval of " + policy.FormatDuration(interval) + "."}
		return e
	}
	var diffs []string
	if exact := interval; interval%time.Millisecond != 0 {
		interval = interval / time.Millisecond * time.Millisecond
		diffs = append(diffs, "resilience4j counts whole milliseconds: its interval is "+dur(interval)+", not "+dur(exact)+".")
	}
	lib.Base = scaled(interval, 1/scale)
	capMs := floorMs(p.Cap)
	lib.Cap = capMs
	lib, withMax := pickCap(s, lib)
	c := Resilience4jRetry{MaxAttempts: p.Attempts, InitialInterval: interval, Multiplier: p.Factor, RandomizationFactor: ratio}
	if withMax {
		c.MaxInterval = capMs
	}
	e.Config = c
	java, props := c.Java(), c.Properties()
	if scale != 1 {
		note := "// The wait is drawn as interval × (1 ± " + javaDouble(ratio) + "): with the interval scaled by " + number(scale) + ", that is " + jitterText(lib) + ".\n"
		java = note + java
		props = "# " + note[3:] + props
	}
	if ratio >= 1 {
		note := "// A randomization factor of 1.0 needs resilience4j 2.3.0 or later: before it, the factor must be under 1.\n"
		java = note + java
		props = "# " + note[3:] + props
	}
	e.Snippets = []Snippet{{"java", java}, {"properties", props}}

	e.Diffs = append(diffs, compare(s, "resilience4j", lib, map[string]string{
		"base":   whySkip,
		"capat":  "(maxInterval clamps the randomized interval.)",
		"first":  "(Every interval is randomized.)",
		"jitter": "(Its randomization is in proportion to the interval.)",
	})...)
	if len(e.Diffs) == 0 {
		top := math.Inf(1)
		if withMax {
			top = float64(capMs / time.Millisecond)
		}
		e.Diffs = r4jMillis(s, interval, ratio, top, lib.Factor)
	}
	e.Diffs = append(e.Diffs, budgetDiffs(s, "resilience4j's Retry", budgetNone, "", lib)...)
	e.Model = lib
	return e
}

// Resilience4jRetry is a resilience4j RetryConfig in the library's own terms: maxAttempts and
// the arguments of IntervalFunction.ofExponentialRandomBackoff. Java writes it as code,
// Properties as Spring Boot properties.
type Resilience4jRetry struct {
	MaxAttempts         int           // attempts, the first call included
	InitialInterval     time.Duration // whole milliseconds
	Multiplier          float64
	RandomizationFactor float64       // 0: ofExponentialBackoff, no randomization
	MaxInterval         time.Duration // whole milliseconds; 0: none
}

// Policy is what resilience4j does with c, in calc's terms, as exportResilience4j's Model says
// in its own jitter's terms: interval × multiplier^(k−1) × U[1 − f, 1 + f], clamped after the
// draw at maxInterval (none: calc's largest cap). Its whole milliseconds are not in the model:
// exportResilience4j's differences say when they change a wait.
func (c Resilience4jRetry) Policy() policy.Policy {
	pol := policy.Policy{Base: c.InitialInterval, Factor: c.Multiplier, Cap: capNone, Attempts: c.MaxAttempts, CapAt: policy.CapAfter}
	if c.MaxInterval > 0 {
		pol.Cap = c.MaxInterval
	}
	if c.RandomizationFactor > 0 {
		pol.Jitter, pol.Ratio = policy.Proportional, c.RandomizationFactor
	}
	return pol
}

// Java is c as a RetryConfig built in Java.
func (c Resilience4jRetry) Java() string {
	args := javaDuration(c.InitialInterval) + ", " + javaDouble(c.Multiplier)
	fn := "ofExponentialBackoff"
	if c.RandomizationFactor > 0 {
		fn = "ofExponentialRandomBackoff"
		args += ", " + javaDouble(c.RandomizationFactor)
	}
	if c.MaxInterval > 0 {
		args += ", " + javaDuration(c.MaxInterval)
	}
	return "RetryConfig config = RetryConfig.custom()\n    .maxAttempts(" + strconv.Itoa(c.MaxAttempts) + ") // attempts, the first call included\n" +
		"    .intervalFunction(IntervalFunction." + fn + "(\n        " + args + "))\n    .build();\n"
}

// Properties is c as the Spring Boot properties of a retry instance named backend.
func (c Resilience4jRetry) Properties() string {
	const key = "resilience4j.retry.instances.backend."
	props := "# attempts, the first call included\n" + key + "max-attempts=" + strconv.Itoa(c.MaxAttempts) + "\n" +
		key + "wait-duration=" + policy.FormatDuration(c.InitialInterval) + "\n" +
		key + "enable-exponential-backoff=true\n" + key + "exponential-backoff-multiplier=" + javaDouble(c.Multiplier) + "\n"
	if c.MaxInterval > 0 {
		props += key + "exponential-max-wait-duration=" + policy.FormatDuration(c.MaxInterval) + "\n"
	}
	if c.RandomizationFactor > 0 {
		props += key + "enable-randomized-wait=true\n" + key + "randomized-wait-factor=" + javaDouble(c.RandomizationFactor) + "\n"
	}
	return props
}

// javaDuration writes d as a java.time.Duration in its largest whole unit, hours to milliseconds.
func javaDuration(d time.Duration) string {
	n, unit := wholeUnit(d, [6]string{"ofHours", "ofMinutes", "ofSeconds", "ofMillis", "", ""})
	return "Duration." + unit + "(" + strconv.FormatInt(n, 10) + ")"
}

// javaDouble writes f as a Java double literal: always with a point or an exponent.
func javaDouble(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// r4jMillis compares resilience4j's own arithmetic with the policy where its model is the
// same: it multiplies the interval in whole milliseconds, truncating at every step, and draws
// (long) max(1, I(1−r) + U·(2rI + 1)) ms, in [max(1, ⌊I(1−r)⌋), ⌈I(1+r)⌉].
// capMs is maxInterval in milliseconds, +Inf when there is none.
func r4jMillis(s *subject, interval time.Duration, ratio, capMs, factor float64) []string {
	rows := s.schedule().Rows
	in := float64(interval / time.Millisecond)
	for k := 1; k < len(rows); k++ {
		lo, hi := in, in
		if ratio > 0 {
			lo, hi = math.Floor(in-ratio*in), math.Ceil(in+ratio*in)
		}
		// randomize returns at least 1 (resilience4j 2.3.0 and later).
		lo, hi = math.Max(1, math.Min(lo, capMs)), math.Max(1, math.Min(hi, capMs))
		if !near(lo*1e6, float64(rows[k].Min)) || !near(hi*1e6, float64(rows[k].Max)) {
			return []string{"resilience4j computes in whole milliseconds, at least 1 ms (it truncates the interval at every step and draws whole milliseconds): retry " +
				strconv.Itoa(k) + " waits " + number(lo) + "–" + number(hi) + " ms with it, " + policy.Millis(rows[k].Min) + "–" + policy.Millis(rows[k].Max) + " ms with the policy."}
		}
		in = math.Min(math.Floor(in*factor), math.MaxInt64)
	}
	return nil
}
