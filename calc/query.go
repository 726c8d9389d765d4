package calc

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A query is the public form of Params: the page's shared links and the terminal command use the
// same keys. Decode accepts what people type; Encode writes the one canonical form.

// field is one query key: how to read it into Params and how to write it back.
type field struct {
	key    string
	decode func(p *Params, v string) error // parses and range-checks v, setting p only if valid
	encode func(p Params) string
}

// allFields are every key in the order errors are reported (the form's order).
var allFields = slices.Concat(fields, optionalFields)

// fields are the keys a canonical query always has, in the order errors are reported (the form's order); cap comes after base because
// its default and its lower bound follow base.
var fields = []field{
	{"base", func(p *Params, v string) error {
		return setDuration(&p.Base, v, time.Nanosecond, MaxBase, "more than 0")
	}, func(p Params) string { return FormatDuration(p.Base) }},
	{"factor", func(p *Params, v string) error { return setFloat(&p.Factor, v, 1, MaxFactor) },
		func(p Params) string { return formatFloat(p.Factor) }},
	{"cap", func(p *Params, v string) error {
		d, err := parseDuration(v)
		if err == nil && (d < p.Base || d > MaxCap) {
			err = fmt.Errorf("must be at least base (%s) and at most %s", FormatDuration(p.Base), FormatDuration(MaxCap))
		}
		if err == nil {
			p.Cap = d
		}
		return err
	}, func(p Params) string { return FormatDuration(p.Cap) }},
	{"attempts", func(p *Params, v string) error { return setInt(&p.Attempts, v, 1, MaxAttempts) },
		func(p Params) string { return strconv.Itoa(p.Attempts) }},
	{"jitter", func(p *Params, v string) error {
		return oneOf(&p.Jitter, v, jitterNames[:], "must be one of "+jitterList)
	}, func(p Params) string { return p.Jitter.String() }},
	{"ratio", func(p *Params, v string) error { return setFloat(&p.Ratio, v, 0, 1) },
		func(p Params) string { return formatFloat(p.Ratio) }},
	{"capat", func(p *Params, v string) error {
		return oneOf(&p.CapAt, v, capAtNames[:], "must be before (cap the nominal delay), after (clamp the drawn wait) or fixed (exactly cap once the nominal delay is over it)")
	}, func(p Params) string { return p.CapAt.String() }},
	{"growth", func(p *Params, v string) error {
		return oneOf(&p.Growth, v, growthNames[:], "must be exponential (base × factor^(k-1)) or linear (base × k)")
	}, func(p Params) string { return p.Growth.String() }},
	{"first", func(p *Params, v string) error {
		var exact uint8
		err := oneOf(&exact, v, firstNames[:], "must be jittered or exact (the first retry waits exactly base)")
		p.FirstExact = exact == 1
		return err
	}, func(p Params) string { return firstNames[b2i(p.FirstExact)] }},
	{"add", func(p *Params, v string) error { return setDuration(&p.Add, v, 0, MaxAdd, "0 or more") },
		func(p Params) string { return FormatDuration(p.Add) }},
	{"call", func(p *Params, v string) error { return setDuration(&p.Call, v, 0, MaxCall, "0 or more") },
		func(p Params) string { return FormatDuration(p.Call) }},
	{"budget", func(p *Params, v string) error { return setDuration(&p.Budget, v, 0, MaxBudget, "0 (none) or more") },
		func(p Params) string { return FormatDuration(p.Budget) }},
	{"layers", func(p *Params, v string) error { return setInt(&p.Layers, v, 1, MaxLayers) },
		func(p Params) string { return strconv.Itoa(p.Layers) }},
	{"samples", func(p *Params, v string) error { return setInt(&p.Samples, v, MinSamples, MaxSamples) },
		func(p Params) string { return strconv.Itoa(p.Samples) }},
	{"seed", func(p *Params, v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return numError(err, "a whole number", "must be at most 18446744073709551615")
		}
		p.Seed = n
		return nil
	}, func(p Params) string { return strconv.FormatUint(p.Seed, 10) }},
	// clients comes after attempts: its limit depends on them.
	{"clients", func(p *Params, v string) error {
		n := p.Clients
		if err := setInt(&n, v, 1, MaxClients); err != nil {
			return err
		}
		if err := herdWork(n, p.Attempts); err != nil {
			return err
		}
		p.Clients = n
		return nil
	}, func(p Params) string { return strconv.Itoa(p.Clients) }},
	{"outage", func(p *Params, v string) error { return setDuration(&p.Outage, v, 0, MaxOutage, "0 or more") },
		func(p Params) string { return FormatDuration(p.Outage) }},
	{"window", func(p *Params, v string) error {
		return setDuration(&p.Window, v, time.Nanosecond, MaxWindow, "more than 0")
	}, func(p Params) string { return FormatDuration(p.Window) }},
	{"capacity", func(p *Params, v string) error { return setInt(&p.Capacity, v, 0, MaxCapacity) },
		func(p Params) string { return strconv.Itoa(p.Capacity) }},
	{"spread", func(p *Params, v string) error { return setDuration(&p.Spread, v, 0, MaxSpread, "0 or more") },
		func(p Params) string { return FormatDuration(p.Spread) }},
	// The overload model's keys.
	{"rate", func(p *Params, v string) error { return setFloat(&p.Rate, v, 0, MaxRate) },
		func(p Params) string { return formatFloat(p.Rate) }},
	{"run", func(p *Params, v string) error { return setDuration(&p.Run, v, 0, MaxRun, "0 or more") },
		func(p Params) string { return FormatDuration(p.Run) }},
	{"arrivals", func(p *Params, v string) error {
		return oneOf(&p.Arrivals, v, spacingNames[:], "must be even (evenly spaced) or poisson (seeded random gaps)")
	}, func(p Params) string { return p.Arrivals.String() }},
	{"queue", func(p *Params, v string) error { return setInt(&p.Queue, v, 0, MaxQueue) },
		func(p Params) string { return strconv.Itoa(p.Queue) }},
	{"timeout", func(p *Params, v string) error { return setDuration(&p.Timeout, v, 0, MaxCall, "0 (none) or more") },
		func(p Params) string { return FormatDuration(p.Timeout) }},
	{"processes", func(p *Params, v string) error { return setInt(&p.Processes, v, 1, MaxProcesses) },
		func(p Params) string { return strconv.Itoa(p.Processes) }},
	{"limiter", func(p *Params, v string) error {
		return oneOf(&p.Limiter, v, limiterNames[:], "must be one of "+strings.Join(limiterNames[:], ", "))
	}, func(p Params) string { return p.Limiter.String() }},
	{"maxtokens", func(p *Params, v string) error { return setPositive(&p.Limits.GRPCMaxTokens, v, MaxGRPCTokens) },
		func(p Params) string { return formatFloat(p.Limits.GRPCMaxTokens) }},
	{"tokenratio", func(p *Params, v string) error { return setPositive(&p.Limits.GRPCTokenRatio, v, MaxGRPCTokens) },
		func(p Params) string { return formatFloat(p.Limits.GRPCTokenRatio) }},
	{"ttl", func(p *Params, v string) error {
		d := p.Limits.FinagleTTL
		if err := setDuration(&d, v, time.Second, MaxFinagleTTL, "at least 1s"); err != nil {
			return err
		}
		if d%time.Second != 0 {
			return errors.New("must be whole seconds, as Finagle's ttl is")
		}
		p.Limits.FinagleTTL = d
		return nil
	}, func(p Params) string { return FormatDuration(p.Limits.FinagleTTL) }},
	{"minretries", func(p *Params, v string) error { return setInt(&p.Limits.FinagleMinRetries, v, 0, MaxLimiterCount) },
		func(p Params) string { return strconv.Itoa(p.Limits.FinagleMinRetries) }},
	{"retrypct", func(p *Params, v string) error { return setFloat(&p.Limits.FinaglePercent, v, 0, MaxFinaglePercent) },
		func(p Params) string { return formatFloat(p.Limits.FinaglePercent) }},
	{"budgetpct", func(p *Params, v string) error { return setFloat(&p.Limits.EnvoyPercent, v, 0, 100) },
		func(p Params) string { return formatFloat(p.Limits.EnvoyPercent) }},
	{"minconcurrency", func(p *Params, v string) error {
		return setInt(&p.Limits.EnvoyMinConcurrency, v, 0, MaxLimiterCount)
	}, func(p Params) string { return strconv.Itoa(p.Limits.EnvoyMinConcurrency) }},
	// Which answers of a fit to the budget are expanded: solve=attempts,base.
	// The contention experiment's.
	{"contenders", func(p *Params, v string) error { return setInt(&p.Contenders, v, 1, MaxContenders) },
		func(p Params) string { return strconv.Itoa(p.Contenders) }},
	{"runs", func(p *Params, v string) error { return setInt(&p.Runs, v, 1, MaxRuns) },
		func(p Params) string { return strconv.Itoa(p.Runs) }},
}

// optionalFields come after fields and are written into the canonical query only when set:
// they select what a page shows, not an input with a value of its own (Values).
var optionalFields = []field{
	{"solve", func(p *Params, v string) error { return setSolve(&p.Solve, v) },
		func(p Params) string { return p.Solve.String() }},
}

var (
	jitterList = strings.Join(jitterNames[:], ", ")
	firstNames = [...]string{"jittered", "exact"}
)

// oneOf sets dst to the index of v among names.
func oneOf[T ~uint8](dst *T, v string, names []string, help string) error {
	for i, name := range names {
		if v == name {
			*dst = T(i)
			return nil
		}
	}
	return errors.New(help)
}

// Keys returns the query keys in the form's order.
func Keys() []string {
	keys := make([]string, len(allFields))
	for i, f := range allFields {
		keys[i] = f.key
	}
	return keys
}

// Decode reads a URL query (without the leading '?') into Params. It always returns valid Params:
// a key that is missing or bad keeps its default (cap's default is 10s, or base if larger), and
// every bad key is reported at once as a *FieldError joined with errors.Join. Numbers are
// decimals: digits with at most one point. A key given twice, an empty value, broken
// percent-encoding, NaN, Inf, a sign, an exponent, a hex float, an underscore, an overflowing
// number, a duration that is not a whole number of nanoseconds (1.9ns) or an unknown word is an
// error, never silently replaced; factor and ratio are the float64 nearest their decimal. Decode
// reads only its own keys: a link's decoder names the others with UnknownKeys. A bare number is a duration in milliseconds: base=250 means 250ms, base=2.5
// means 2500us. preset=NAME names one of presets: its policy replaces the defaults, the other keys
// apply on top, and one that changes the policy leaves the preset (Params.Preset is then "").
// Clients is refused when Clients*Attempts
// would be over MaxHerdWork; whether the herd's arrivals series fits is Params.ValidateHerd's
// question, not Decode's.
func Decode(query string, presets ...Preset) (Params, error) {
	return decode(parseQuery(query), presets)
}

// parseQuery splits a query into its keys' values as given, keeping the broken ones.
func parseQuery(query string) map[string][]value {
	given := map[string][]value{}
	for pair := range strings.SplitSeq(query, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			continue // a key we cannot read is not one of ours
		}
		text, err := url.QueryUnescape(v)
		if err != nil {
			text = v
		}
		given[key] = append(given[key], value{raw: v, text: text, broken: err != nil})
	}
	return given
}

// DecodeValues is Decode for values already unescaped, as a form holds them: Decode of
// v.Encode(), without the round trip through a string.
func DecodeValues(v url.Values, presets ...Preset) (Params, error) {
	return decode(givenValues(v), presets)
}

func givenValues(v url.Values) map[string][]value {
	given := make(map[string][]value, len(v))
	for key, vs := range v {
		for _, s := range vs {
			given[key] = append(given[key], value{raw: url.QueryEscape(s), text: s})
		}
	}
	return given
}

// DecodeKey reads one key of a query that is not calc's, for a package that adds its own keys to
// the link, with Decode's rules: a key given twice, empty, or whose percent-encoding is broken is
// an error, and so is what decode returns for its (unescaped) value. decode is called only when
// the key is given once; an absent key is no error. The error is a *FieldError naming the key and
// quoting the value, as Decode's are: DecodeKey("export=nope", "export", f) with f refusing
// "nope" says `calc: export "nope": ...`.
func DecodeKey(query, key string, decode func(v string) error) error {
	return decodeKey(parseQuery(query), key, decode)
}

// DecodeKeyValues is DecodeKey for values already unescaped, as DecodeValues is for Decode.
func DecodeKeyValues(v url.Values, key string, decode func(v string) error) error {
	vs, ok := v[key]
	if !ok {
		return nil
	}
	return decodeKey(givenValues(url.Values{key: vs}), key, decode)
}

func decodeKey(given map[string][]value, key string, decode func(v string) error) error {
	vs, ok := given[key]
	if !ok {
		return nil
	}
	f := field{key: key, decode: func(_ *Params, v string) error { return decode(v) }}
	if shown, err := decodeValue(nil, f, vs); err != nil {
		return &FieldError{Key: key, Value: shown, Err: err}
	}
	return nil
}

// value is one value of a key as given: text unescaped, unless its percent-encoding is broken.
type value struct {
	raw, text string // raw as it stands (or would) in the query, for the message of a repeated key
	broken    bool
}

func decode(raw map[string][]value, presets []Preset) (Params, error) {
	p, capDefault := Default(), DefaultCap
	var errs []error
	if vs, ok := raw["preset"]; ok {
		shown, err := decodeValue(&p, presetField(presets), vs)
		if err != nil {
			errs = append(errs, &FieldError{Key: "preset", Value: shown, Err: err})
		}
		capDefault = p.Cap
	}
	capSet := false
	for _, f := range allFields {
		vs, ok := raw[f.key]
		if !ok {
			continue
		}
		shown, err := decodeValue(&p, f, vs)
		if err != nil {
			errs = append(errs, &FieldError{Key: f.key, Value: shown, Err: err})
		}
		if f.key == "cap" {
			capSet = err == nil
		}
	}
	if !capSet {
		p.Cap = max(capDefault, p.Base)
	}
	// The stream's work depends on rate, run, arrivals, clients and attempts together: it is
	// checked once they are all read, and a stream over the limit is dropped, reported on rate.
	if err := overloadWork(p); err != nil {
		errs = append(errs, &FieldError{Key: "rate", Value: formatFloat(p.Rate), Err: err})
		p.Rate = 0
	}
	// Any key that changes the preset's policy leaves the preset.
	if pr, ok := presetByName(presets, p.Preset); ok && p.policy() != pr.Params.policy() {
		p.Preset = ""
	}
	return p, errors.Join(errs...)
}

// decodeValue sets one key from its raw values; it returns the value as the user wrote it
// (unescaped where possible), for the error message.
func decodeValue(p *Params, f field, vs []value) (string, error) {
	if len(vs) > 1 {
		raws := make([]string, len(vs))
		for i, v := range vs {
			raws[i] = v.raw
		}
		return strings.Join(raws, ","), fmt.Errorf("given %d times; give it once", len(vs))
	}
	v := vs[0]
	if v.broken {
		return v.text, errors.New("broken percent-encoding")
	}
	if v.text == "" {
		return v.text, errors.New("empty; give a value or leave the key out")
	}
	return v.text, f.decode(p, v.text)
}

// Encode returns the canonical query, sorted, ASCII only: the policy's keys and every other input
// a link uses, so that it does not depend on today's defaults; the keys of a model the link does
// not use only where they are not at their defaults (modelUnused); the optionalFields only where
// they are not at their defaults; and the preset's name while the params are still that preset's.
// Default().Encode() has 20 keys. For valid p, Decode(p.Encode()) returns p.
func (p Params) Encode() string { return p.Values().Encode() }

// Values returns the keys of p that Encode writes, one value each.
func (p Params) Values() url.Values {
	v, d := url.Values{}, Default()
	for _, f := range fields {
		if e := f.encode(p); !modelUnused(f.key, p) || e != f.encode(d) {
			v.Set(f.key, e)
		}
	}
	for _, f := range optionalFields {
		if e := f.encode(p); e != f.encode(d) {
			v.Set(f.key, e)
		}
	}
	if p.Preset != "" {
		v.Set("preset", p.Preset)
	}
	return v
}

// modelUnused reports whether key belongs to a model that p's link does not use, so that the key
// is left out while at its default and a shared link stays short: the overload model's keys (the
// stream, its queue, timeout and limiters) while rate is 0, and the contention experiment's,
// whose section a link cannot say it asked for. Decode fills a missing key with its default, so
// leaving one out changes no number.
func modelUnused(key string, p Params) bool {
	switch key {
	case "rate", "run", "arrivals", "queue", "timeout", "processes", "limiter", "maxtokens",
		"tokenratio", "ttl", "minretries", "retrypct", "budgetpct", "minconcurrency":
		return p.Rate == 0
	case "contenders", "runs":
		return true
	}
	return false
}

// AllValues returns every key of p, those Values leaves out included, for a form that shows
// each input's value. A key whose value is no value at all (solve's empty set) is left out: an
// empty value is an error.
func (p Params) AllValues() url.Values {
	v := url.Values{}
	for _, f := range allFields {
		if e := f.encode(p); e != "" {
			v.Set(f.key, e)
		}
	}
	if p.Preset != "" {
		v.Set("preset", p.Preset)
	}
	return v
}

// DefaultValues returns every query key at its default (Default().AllValues()).
func DefaultValues() url.Values { return Default().AllValues() }

// presetField reads the preset key, naming one of presets: the preset's policy replaces the
// defaults, and the other keys of the link apply on top of it.
func presetField(presets []Preset) field {
	return field{key: "preset", decode: func(p *Params, v string) error {
		pr, ok := presetByName(presets, v)
		switch {
		case !ok && len(presets) == 0:
			return errors.New("no preset is known here")
		case !ok:
			return fmt.Errorf("must be one of %s", presetList(presets))
		}
		p.setPolicy(pr.Params.policy())
		p.Preset = pr.Name
		return nil
	}}
}

// setDuration sets dst to v if it lies in [lo, hi]; loText says lo in words ("0 or more").
func setDuration(dst *time.Duration, v string, lo, hi time.Duration, loText string) error {
	d, err := parseDuration(v)
	if err != nil {
		return err
	}
	if d < lo || d > hi {
		return fmt.Errorf("must be %s and at most %s", loText, FormatDuration(hi))
	}
	*dst = d
	return nil
}

// decimalSyntax is a number as people write it: digits with at most one point, on either side
// of them. strconv also takes signs, exponents, hex floats (0x1p1), underscores (1_0), Inf and
// NaN; a query takes none of them, in any key.
const decimalSyntax = `(?:[0-9]+\.?[0-9]*|\.[0-9]+)`

var decimal = regexp.MustCompile(`^` + decimalSyntax + `$`)

// setPositive sets dst to v, a decimal more than 0 and at most hi.
func setPositive(dst *float64, v string, hi float64) error {
	x := *dst
	if err := setFloat(&x, v, 0, hi); err != nil {
		return err
	}
	if x == 0 {
		return fmt.Errorf("must be more than 0 and at most %s", formatFloat(hi))
	}
	*dst = x
	return nil
}

// setFloat sets dst to the float64 nearest v, a decimal, if it lies in [lo, hi].
func setFloat(dst *float64, v string, lo, hi float64) error {
	if err := signed(v); err != nil {
		return err
	}
	if !decimal.MatchString(v) {
		return errors.New("not a number: write digits and at most one point, like 1.5")
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || x > hi || x < lo { // of a decimal, ParseFloat refuses only one too large: ErrRange
		return fmt.Errorf("must be between %s and %s", formatFloat(lo), formatFloat(hi))
	}
	*dst = x
	return nil
}

func setInt(dst *int, v string, lo, hi int) error {
	outside := fmt.Sprintf("must be between %d and %d", lo, hi)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return numError(err, "a whole number", outside)
	}
	if n < int64(lo) || n > int64(hi) {
		return errors.New(outside)
	}
	if err := signed(v); err != nil {
		return err // -0 or +6: in range, but not as we write numbers
	}
	*dst = int(n)
	return nil
}

// signed refuses a sign, which strconv accepts: no input of ours is negative, "-0" is more
// likely a typo than a zero, and a "+" that survives the query (where + is a space) was
// written as %2B on purpose.
func signed(v string) error {
	switch {
	case strings.HasPrefix(v, "-"):
		return errors.New("must not be negative")
	case strings.HasPrefix(v, "+"):
		return errors.New("must be written without a sign")
	}
	return nil
}

// numError turns a strconv error into a message: a number too large for its type is out of
// range, anything else is not a number at all.
func numError(err error, kind, outside string) error {
	if errors.Is(err, strconv.ErrRange) {
		return errors.New(outside)
	}
	return fmt.Errorf("not %s", kind)
}

// FormatDuration writes d in the largest of h, m, s, ms, us, ns that holds it whole, so that the
// text is short, ASCII, and parses back to exactly d: 1500ms, 10s, 700us, 168h.
func FormatDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	units := []struct {
		name string
		size time.Duration
	}{{"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}, {"ms", time.Millisecond}, {"us", time.Microsecond}}
	for _, u := range units {
		if d%u.size == 0 {
			return strconv.FormatInt(int64(d/u.size), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "ns"
}

// formatFloat writes the shortest decimal that parses back to x; -0 is written as 0.
func formatFloat(x float64) string {
	return strconv.FormatFloat(x+0, 'f', -1, 64)
}

func quote(s string) string { return strconv.Quote(s) }
