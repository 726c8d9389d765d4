package importcfg

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// policyKeys are the query keys of policy.Policy: an import sets them all.
var policyKeys = []string{"base", "factor", "cap", "attempts", "jitter", "ratio", "capat", "growth", "first", "add", "offset", "budget"}

// modelKeys are the inputs, beyond the policy's, of the models every import speaks for: the
// attempt timeout, the retry limiter and the circuit breaker, with every kind's parameters. An
// import sets them all, a model the configuration does not say at its default (no timeout, no
// limiter, no breaker, a kind's default parameters), so that importing a configuration gives the
// same inputs whatever the page had before. The other keys (the call, the herd, the stream, the
// server, the samples) are the person's: no configuration of a client's retries says them
// (TestEveryKeyIsTheImportsOrThePersons).
var modelKeys = slices.Concat([]modelKey{
	{"timeout", always, "the configuration sets no attempt timeout"},
	{"limiter", always, "the configuration sets no retry limiter"},
	{"breaker", always, "the configuration sets no circuit breaker"},
	{"breakerat", func(p calc.Params) bool { return p.Breaker != breaker.None }, "the breaker's default placement"},
},
	limiterKeys(limiter.GRPC, "maxtokens", "tokenratio"),
	limiterKeys(limiter.Finagle, "ttl", "minretries", "retrypct"),
	limiterKeys(limiter.Envoy, "budgetpct", "minconcurrency"),
	limiterKeys(limiter.Failsafe, "fsmaxrate", "fsminconcurrency"),
	breakerKeys(breaker.Gobreaker, "gbfailures", "gbhalfopen", "gbopen"),
	breakerKeys(breaker.Resilience4j, "r4jrate", "r4jslowrate", "r4jslowafter", "r4jwindow", "r4jmincalls", "r4jopen", "r4jhalfopen"),
	breakerKeys(breaker.Polly, "pollyratio", "pollythroughput", "pollysampling", "pollyopen"),
	breakerKeys(breaker.Failsafe, "fsof", "fsfailures", "fssuccessof", "fssuccesses", "fsopen", "fsperiod", "fsexecutions", "fsrate"),
)

// modelKey is one of modelKeys: reads says whether a number reads it, given the import's
// inputs; why is why the import sets it where the configuration does not say it.
type modelKey struct {
	key   string
	reads func(p calc.Params) bool
	why   string
}

func always(calc.Params) bool { return true }

// limiterKeys are the parameters of limiter k, which only it reads.
func limiterKeys(k limiter.Kind, keys ...string) []modelKey {
	var out []modelKey
	for _, key := range keys {
		out = append(out, modelKey{key, func(p calc.Params) bool { return p.Limiter == k }, "limiter " + k.String() + "'s default"})
	}
	return out
}

// breakerKeys are the parameters of breaker k, which only it reads.
func breakerKeys(k breaker.Kind, keys ...string) []modelKey {
	var out []modelKey
	for _, key := range keys {
		out = append(out, modelKey{key, func(p calc.Params) bool { return p.Breaker == k }, "breaker " + k.String() + "'s default"})
	}
	return out
}

// policyOnly is the Result of a configuration that says the policy alone, pol: the models it
// speaks for at their defaults. calc checks pol as it checks a link: a reader names its own key
// for what it refuses, so that an error here is the reader's bug.
func policyOnly(pol policy.Policy) (Result, error) {
	r := newReading()
	r.setPolicy(pol)
	return r.result()
}

// presetPolicy is the policy of the preset named name, which an import of its library starts
// from, so that the import and the preset read the library alike.
func presetPolicy(name string) policy.Policy {
	pr, _ := libs.PresetByName(name)
	return pr.Params.Policy
}

// secs writes d for a Read line.
func secs(d time.Duration) string { return policy.FormatDuration(d) }

// attemptsWhy is why an attempts count is refused past the calculator's table.
var attemptsWhy = "the calculator shows at most " + strconv.Itoa(policy.MaxAttempts) + " attempts"

// reading is an import under way: the inputs as the library's model says them, where each value
// came from (so that calc's range messages can name the configuration's line and key), and
// what was read and ignored.
type reading struct {
	p       calc.Params
	from    map[string]string // query key → `line 7: maxBackoff "1s"`
	extra   []string          // keys beyond the policy's that the import sets
	read    []string
	ignored []string
}

// newReading starts an import from calc's defaults; the reader sets the policy (setPolicy) once
// it has read the configuration.
func newReading() *reading {
	return &reading{p: calc.Default(), from: map[string]string{}}
}

// setPolicy sets the policy, the library's model of what was read.
func (r *reading) setPolicy(pol policy.Policy) { r.p.Policy = pol }

// source says that the query key got its value from v.
func (r *reading) source(key string, v *value) {
	if v != nil {
		// Its line of Read is written once the value is known; the last source of a key is it.
		r.read = slices.DeleteFunc(r.read, func(l string) bool { return l == sourceMark+key })
		r.read = append(r.read, sourceMark+key)
		r.from[key] = fmt.Sprintf("line %d: %s %s", v.line, v.path(), quoteShort(v.text))
	}
}

// unsource drops key's line of Read: the import no longer reads key from what source named.
func (r *reading) unsource(key string) {
	r.read = slices.DeleteFunc(r.read, func(l string) bool { return l == sourceMark+key })
}

// also says that the import sets key, beyond the policy's.
func (r *reading) also(keys ...string) { r.extra = append(r.extra, keys...) }

func (r *reading) note(format string, args ...any) {
	r.read = append(r.read, fmt.Sprintf(format, args...))
}

func (r *reading) skip(format string, args ...any) {
	r.ignored = append(r.ignored, fmt.Sprintf(format, args...))
}

// sourceMark starts a line of Read that stands for a key's value until it is known.
const sourceMark = "\x00"

// result is the import's Result. calc checks every value's range, and a value out of it is
// named by its configuration line and key.
func (r *reading) result() (Result, error) {
	all := r.p.AllValues()
	vals := url.Values{}
	for _, k := range policyKeys {
		vals[k] = all[k]
	}
	var defaults []Default
	for _, m := range modelKeys {
		vals[m.key] = all[m.key]
		if !slices.Contains(r.extra, m.key) && m.reads(r.p) {
			defaults = append(defaults, Default{Key: m.key, Value: all[m.key][0], Why: m.why})
		}
	}
	if r.p.Budget == 0 {
		// A policy key, set like the others, but most configurations say no time limit at all:
		// the person's deadline, if the query had one, goes, and is said to go.
		defaults = append(defaults, Default{Key: "budget", Value: all.Get("budget"), Why: "the configuration sets no time limit on the retries"})
	}
	if _, err := calc.DecodeValues(vals); err != nil {
		return Result{}, r.rangeError(err)
	}
	keys, whys := r.p.ForOtherModes()
	for i, k := range keys {
		defaults = append(defaults, Default{Key: k, Value: all.Get(k), Why: whys[i]})
	}
	read := make([]string, len(r.read))
	for i, l := range r.read {
		if k, ok := strings.CutPrefix(l, sourceMark); ok {
			l = r.from[k] + " → " + k + "=" + vals.Get(k)
		}
		read[i] = l
	}
	return Result{Values: vals, Read: read, Ignored: r.ignored, Defaults: defaults}, nil
}

// rangeError rewrites calc's messages about the values as messages about the configuration.
func (r *reading) rangeError(err error) error {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []error
	for _, e := range errs {
		var fe *policy.FieldError
		if !errors.As(e, &fe) {
			out = append(out, e)
			continue
		}
		where := r.from[fe.Key]
		if where == "" {
			where = "the library's default"
		}
		out = append(out, fmt.Errorf("%s → %s=%s: %v", where, fe.Key, fe.Value, fe.Err))
	}
	return errors.Join(out...)
}

var (
	decimalNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
	wholeNumber   = regexp.MustCompile(`^-?[0-9]+$`)
)

// number reads v as a decimal number (JSON's form: no NaN, no Inf, no hex), finite.
func number(v *value) (float64, error) {
	s, err := v.scalar()
	if err != nil {
		return 0, err
	}
	if !decimalNumber.MatchString(s) {
		return 0, v.errorf("not a number")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) {
		return 0, v.errorf("out of range")
	}
	return x, nil
}

// whole reads v as a whole number within [lo, hi]; outside it, the message says the range.
func whole(v *value, lo, hi int) (int, error) {
	s, err := v.scalar()
	if err != nil {
		return 0, err
	}
	if !wholeNumber.MatchString(s) {
		return 0, v.errorf("not a whole number")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < int64(lo) || n > int64(hi) {
		return 0, v.errorf("must be between %d and %d", lo, hi)
	}
	return int(n), nil
}

// boolean reads v as true or false.
func boolean(v *value) (bool, error) {
	s, err := v.scalar()
	if err != nil {
		return false, err
	}
	b, err := strconv.ParseBool(s)
	if err != nil || (s != "true" && s != "false" && s != "True" && s != "False" && s != "TRUE" && s != "FALSE") {
		return false, v.errorf("must be true or false")
	}
	return b, nil
}

// protoDuration reads v as a protobuf JSON Duration, as grpc-go's serviceconfig.Duration and
// Envoy read it: decimal seconds with an s, at most 9 digits after the point ("0.100s"), not
// negative. Beyond time.Duration it saturates, as grpc-go does, and calc's range refuses it.
func protoDuration(v *value) (time.Duration, error) {
	s, err := v.scalar()
	if err != nil {
		return 0, err
	}
	m := protoDurationText.FindStringSubmatch(s)
	if m == nil {
		return 0, v.errorf(`not a duration: write seconds with an s, like "0.1s"`)
	}
	if m[1] == "-" {
		return 0, v.errorf("must not be negative")
	}
	if m[2] == "" && m[3] == "" {
		return 0, v.errorf("not a duration: it has no digits")
	}
	sec, err := strconv.ParseInt("0"+m[2], 10, 64)
	if err != nil || sec > math.MaxInt64/int64(time.Second)-1 {
		return math.MaxInt64, nil
	}
	frac := m[3] + "000000000"[len(m[3]):]
	ns, _ := strconv.ParseInt(frac, 10, 64)
	return time.Duration(sec)*time.Second + time.Duration(ns), nil
}

var protoDurationText = regexp.MustCompile(`^(-?)([0-9]*)(?:\.([0-9]{0,9}))?s$`)
