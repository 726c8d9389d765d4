package calc

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// A query is the public form of Params: the page's shared links and the terminal command use the
// same keys. Decode accepts what people type; Encode writes the one canonical form.

// keyRow is one query key: how a link writes it, how it is read, and its range; its default is
// what it writes of Default(). Decode and Validate check a value with the same check, so that a
// link and params built in code are refused with the same words.
type keyRow struct {
	name   string
	decode func(p *Params, v string) error // parses v and, if check passes, sets p; on error p is unchanged (but first's)
	check  func(p *Params) error           // whether p's value is in range (Validate); nil: every value is
	encode func(p *Params) string          // nil: the key selects what a page shows and is no input of Params (solve)
	// duration says the value is a duration, in which a bare number is milliseconds.
	duration bool
	// unused says the key belongs to a model that p's link does not use: a link leaves it out
	// while it is at its default, and stays short. Decode fills a missing key with its default,
	// so leaving one out changes no number. nil: a link always has the key.
	unused func(p *Params) bool
}

// The row builders below (durationKey, floatKey, intKey, wordKey and the range checks) are kept
// out of line: inlined into keyTable's initializer, every row got its own copy of their closures,
// 129 KB of app.wasm (10 KB gzip).

// keyTable is every key in the order errors are reported (the form's order); cap comes after
// base because its default and its lower bound follow base, clients after attempts because its
// limit depends on them. It is built at its first use (lazy), so that a program that reads and
// writes no link (one that only computes a schedule) links none of the rows, nor what they check.
var keyRows lazy[[]keyRow]

func keyTable() []keyRow { return keyRows.get(newKeyTable) }

func newKeyTable() []keyRow {
	rows := []keyRow{
		durationKey("base", func(p *Params) *time.Duration { return &p.Base }, within(time.Nanosecond, policy.MaxBase, "more than 0")),
		floatKey("factor", func(p *Params) *float64 { return &p.Factor }, factorRange),
		durationKey("cap", func(p *Params) *time.Duration { return &p.Cap }, func(p *Params, d time.Duration) error {
			if d < p.Base || d > policy.MaxCap {
				return fmt.Errorf("must be at least base (%s) and at most %s", policy.FormatDuration(p.Base), policy.FormatDuration(policy.MaxCap))
			}
			return nil
		}),
		intKey("attempts", func(p *Params) *int { return &p.Attempts }, inRange(1, policy.MaxAttempts)),
		wordKey("jitter", func(p *Params) *policy.Jitter { return &p.Jitter }, policy.JitterNames(), "must be one of "+jitterList),
		floatKey("ratio", func(p *Params) *float64 { return &p.Ratio }, between(0, 1)),
		wordKey("capat", func(p *Params) *policy.CapAt { return &p.CapAt }, policy.CapAtNames(),
			"must be before (cap the nominal delay), after (clamp the drawn wait) or fixed (exactly cap once the nominal delay is over it)"),
		growthRow(wordKey("growth", func(p *Params) *policy.Growth { return &p.Growth }, policy.GrowthNames(),
			"must be exponential (base × factor^(k-1)), linear (base × k), polynomial (base × k^factor) or polynomial0 (base × (k-1)^factor)")),
		{name: "first", decode: func(p *Params, v string) error {
			// A bad value leaves the first retry jittered, the default, whatever a preset said.
			i := indexOf(firstNames[:], v)
			p.FirstExact = i == 1
			if i < 0 {
				return errors.New("must be jittered or exact (the first retry waits exactly base)")
			}
			return nil
		}, encode: func(p *Params) string { return firstName(p.FirstExact) }},
		durationKey("add", func(p *Params) *time.Duration { return &p.Add }, within(0, policy.MaxAdd, "0 or more")),
		// Left out at its default, so that the links written before it stay the same.
		unusedRow(durationKey("offset", func(p *Params) *time.Duration { return &p.Offset }, within(0, policy.MaxOffset, "0 or more"))),
		durationKey("call", func(p *Params) *time.Duration { return &p.Call }, within(0, policy.MaxCall, "0 or more")),
		durationKey("budget", func(p *Params) *time.Duration { return &p.Budget }, within(0, policy.MaxBudget, "0 (none) or more")),
		intKey("layers", func(p *Params) *int { return &p.Layers }, inRange(1, policy.MaxLayers)),
		intKey("samples", func(p *Params) *int { return &p.Samples }, inRange(policy.MinSamples, policy.MaxSamples)),
		{name: "seed", decode: func(p *Params, v string) error {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return numError(err, "a whole number", "must be at most 18446744073709551615")
			}
			p.Seed = n
			return nil
		}, encode: func(p *Params) string { return strconv.FormatUint(p.Seed, 10) }},
		// Over the simulation's limits the herd has its expected counts (calc/fluid); an open
		// system's limit is checked once every key is read (openClients).
		intKey("clients", func(p *Params) *int { return &p.Clients }, inRange(1, MaxHerdClients)),
		durationKey("outage", func(p *Params) *time.Duration { return &p.Outage }, within(0, MaxOutage, "0 or more")),
		durationKey("window", func(p *Params) *time.Duration { return &p.Window }, within(time.Nanosecond, MaxWindow, "more than 0")),
		intKey("capacity", func(p *Params) *int { return &p.Capacity }, inRange(0, MaxCapacity)),
		durationKey("spread", func(p *Params) *time.Duration { return &p.Spread }, within(0, MaxSpread, "0 or more")),
		// The overload model's keys: a link leaves them out at their defaults while rate is 0.
		overloadRow(floatKey("rate", func(p *Params) *float64 { return &p.Rate }, between(0, MaxRate))),
		overloadRow(durationKey("run", func(p *Params) *time.Duration { return &p.Run }, within(0, MaxRun, "0 or more"))),
		overloadRow(wordKey("arrivals", func(p *Params) *Spacing { return &p.Arrivals }, spacingNames[:],
			"must be even (evenly spaced) or poisson (seeded random gaps)")),
		overloadRow(intKey("queue", func(p *Params) *int { return &p.Queue }, inRange(0, MaxQueue))),
		overloadRow(durationKey("timeout", func(p *Params) *time.Duration { return &p.Timeout }, within(0, policy.MaxCall, "0 (none) or more"))),
		overloadRow(intKey("processes", func(p *Params) *int { return &p.Processes }, inRange(1, MaxProcesses))),
		overloadRow(wordKey("limiter", func(p *Params) *limiter.Kind { return &p.Limiter }, limiter.Names(),
			"must be one of "+strings.Join(limiter.Names(), ", "))),
	}
	// The limiters' keys are their package's (limiter.Keys).
	rows = append(rows, limiterRows()...)
	rows = append(rows,
		// Left out at its default even with a stream, so that the links written before it stay
		// the same.
		unusedRow(floatKey("failrate", func(p *Params) *float64 { return &p.FailRate }, belowOne)),
		unusedRow(durationKey("latency", func(p *Params) *time.Duration { return &p.Latency }, within(0, policy.MaxCall, "0 or more"))),
		unusedRow(durationKey("slope", func(p *Params) *time.Duration { return &p.Slope }, within(0, policy.MaxCall, "0 or more"))),
		unusedRow(wordKey("breaker", func(p *Params) *breaker.Kind { return &p.Breaker }, breaker.Names()[:],
			"must be one of "+strings.Join(breaker.Names()[:], ", "))),
		unusedRow(wordKey("breakerat", func(p *Params) *BreakerAt { return &p.BreakerAt }, breakerAtNames[:],
			"must be attempt (inside the retries: every attempt counts) or call (outside them: one call counts once)")),
		unusedRow(wordKey("breakers", func(p *Params) *BreakerScope { return &p.Breakers }, breakerScopeNames[:],
			"must be client (one breaker per client process) or shared (one for all)")),
	)
	// Each breaker's parameters, in the ranges its library accepts, are its package's
	// (breaker.Keys).
	rows = append(rows, breakerRows()...)
	// The contention experiment's, whose section a link cannot say it asked for: a link leaves
	// them out at their defaults. They are its package's (contention.Keys).
	rows = append(rows, contentionRows()...)
	return append(rows,
		// Which answers of a fit to the budget a page shows opened: solve=attempts,base. Decode
		// checks it with the others; the page keeps it (DecodeSolve, SolveSet.SetIn).
		keyRow{name: solveKey, decode: func(_ *Params, v string) error {
			_, err := parseSolve(v)
			return err
		}},
	)
}

// factorRange is factor's range: 1..MaxFactor, and a whole number where it is the power of a
// polynomial growth (a whole power is computed the same everywhere).
func factorRange(p *Params, x float64) error {
	if err := between(1, policy.MaxFactor)(p, x); err != nil {
		return err
	}
	if p.Growth.IsPolynomial() && x != math.Trunc(x) {
		return fmt.Errorf("must be a whole number with growth %s (factor is its power)", p.Growth)
	}
	return nil
}

// growthRow is k, the growth key, which refuses a polynomial growth while factor is not whole:
// factor comes first, and checks its value against the growth it sees then (factorRange).
func growthRow(k keyRow) keyRow {
	decode := k.decode
	k.decode = func(p *Params, v string) error {
		was := p.Growth
		if err := decode(p, v); err != nil {
			return err
		}
		if err := factorRange(p, p.Factor); err != nil {
			p.Growth = was
			return fmt.Errorf("needs a whole factor, its power, where factor is %s", policy.FormatFloat(p.Factor))
		}
		return nil
	}
	return k
}

// overloadRow is k, a key of the overload model, which a link uses only with a stream.
func overloadRow(k keyRow) keyRow {
	k.unused = func(p *Params) bool { return p.Rate == 0 }
	return k
}

// contentionRow is k, a key of the contention experiment.
func contentionRow(k keyRow) keyRow { return unusedRow(k) }

// unusedRow is k, a key a link leaves out at its default.
func unusedRow(k keyRow) keyRow {
	k.unused = func(*Params) bool { return true }
	return k
}

// belowOne is the range [0, 1) of a share; it refuses NaN.
func belowOne(_ *Params, x float64) error {
	if !(x >= 0 && x < 1) {
		return errors.New("must be at least 0 and less than 1")
	}
	return nil
}

// atMost is the range [lo, capacity] of a threshold n out of the key named capName.
func atMost(n, lo int, capName string, capacity int) error {
	if n < lo || n > capacity {
		return fmt.Errorf("must be at least %d and at most %s (%d)", lo, capName, capacity)
	}
	return nil
}

// wholeWithin is within, of whole units only; wholeText says so.
//
//go:noinline
func wholeWithin(lo, hi time.Duration, loText string, unit time.Duration, wholeText string) func(*Params, time.Duration) error {
	return func(p *Params, d time.Duration) error {
		if err := within(lo, hi, loText)(p, d); err != nil {
			return err
		}
		if d%unit != 0 {
			return errors.New(wholeText)
		}
		return nil
	}
}

// durationKey is a key whose value is a duration, in range when check says so.
//
//go:noinline
func durationKey(name string, field func(*Params) *time.Duration, check func(*Params, time.Duration) error) keyRow {
	return keyRow{name: name, duration: true,
		decode: func(p *Params, v string) error {
			d, err := parseDuration(v)
			if err != nil {
				return err
			}
			return set(p, field, d, check)
		},
		check:  func(p *Params) error { return check(p, *field(p)) },
		encode: func(p *Params) string { return policy.FormatDuration(*field(p)) },
	}
}

// floatKey is a key whose value is a decimal, read as the float64 nearest it.
//
//go:noinline
func floatKey(name string, field func(*Params) *float64, check func(*Params, float64) error) keyRow {
	return keyRow{name: name,
		decode: func(p *Params, v string) error {
			if err := signed(v); err != nil {
				return err
			}
			if !decimal().MatchString(v) {
				return errors.New("not a number: write digits and at most one point, like 1.5")
			}
			// Of a decimal, ParseFloat refuses only one too large, as ±Inf, which no range holds.
			x, _ := strconv.ParseFloat(v, 64)
			return set(p, field, x, check)
		},
		check:  func(p *Params) error { return check(p, *field(p)) },
		encode: func(p *Params) string { return policy.FormatFloat(*field(p)) },
	}
}

// intKey is a key whose value is a whole number.
//
//go:noinline
func intKey(name string, field func(*Params) *int, check func(*Params, int) error) keyRow {
	return keyRow{name: name,
		decode: func(p *Params, v string) error {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return errors.New("not a whole number")
			}
			// A number too large for int64 is read as its limit, which no range holds.
			if err := check(p, int(n)); err != nil {
				return err
			}
			if err := signed(v); err != nil {
				return err // -0 or +6: in range, but not as we write numbers
			}
			*field(p) = int(n)
			return nil
		},
		check:  func(p *Params) error { return check(p, *field(p)) },
		encode: func(p *Params) string { return strconv.Itoa(*field(p)) },
	}
}

// wordKey is a key whose value is one of names; help says which, and what they mean.
//
//go:noinline
func wordKey[T interface {
	~uint8
	String() string
}](name string, field func(*Params) *T, names []string, help string) keyRow {
	return keyRow{name: name,
		decode: func(p *Params, v string) error {
			i := indexOf(names, v)
			if i < 0 {
				return errors.New(help)
			}
			*field(p) = T(i)
			return nil
		},
		check: func(p *Params) error {
			if int(*field(p)) >= len(names) {
				return errors.New(help)
			}
			return nil
		},
		encode: func(p *Params) string { return (*field(p)).String() },
	}
}

// set sets p's field to x if check says x is in range.
func set[T any](p *Params, field func(*Params) *T, x T, check func(*Params, T) error) error {
	if err := check(p, x); err != nil {
		return err
	}
	*field(p) = x
	return nil
}

// within is the range [lo, hi] of a duration; loText says lo in words ("0 or more").
//
//go:noinline
func within(lo, hi time.Duration, loText string) func(*Params, time.Duration) error {
	return func(_ *Params, d time.Duration) error {
		if d < lo || d > hi {
			return fmt.Errorf("must be %s and at most %s", loText, policy.FormatDuration(hi))
		}
		return nil
	}
}

// between is the range [lo, hi] of a decimal; it refuses NaN.
//
//go:noinline
func between(lo, hi float64) func(*Params, float64) error {
	return func(_ *Params, x float64) error {
		if !(x >= lo && x <= hi) {
			return fmt.Errorf("must be between %s and %s", policy.FormatFloat(lo), policy.FormatFloat(hi))
		}
		return nil
	}
}

// positive is the range (0, hi] of a decimal.
//
//go:noinline
func positive(hi float64) func(*Params, float64) error {
	return func(p *Params, x float64) error {
		if err := between(0, hi)(p, x); err != nil {
			return err
		}
		if x == 0 {
			return fmt.Errorf("must be more than 0 and at most %s", policy.FormatFloat(hi))
		}
		return nil
	}
}

// inRange is the range [lo, hi] of a whole number.
//
//go:noinline
func inRange(lo, hi int) func(*Params, int) error {
	return func(_ *Params, n int) error {
		if n < lo || n > hi {
			return fmt.Errorf("must be between %d and %d", lo, hi)
		}
		return nil
	}
}

var (
	jitterList = strings.Join(policy.JitterNames(), ", ")
	firstNames = [...]string{"jittered", "exact"}
)

// firstName is the first key's value for FirstExact.
func firstName(exact bool) string {
	if exact {
		return firstNames[1]
	}
	return firstNames[0]
}

// Keys returns the query keys in the form's order.
func Keys() []string {
	keys := make([]string, len(keyTable()))
	for i, k := range keyTable() {
		keys[i] = k.name
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
// Clients over MaxClients, or over MaxHerdWork client-attempts, is refused only for an open
// system (Params.Open), which is simulated client by client; a herd that large has its expected
// counts instead (Params.HerdSimulated). Whether the herd's arrivals series fits is
// Params.ValidateHerd's question, not Decode's.
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
	if shown, err := decodeValue(nil, func(_ *Params, v string) error { return decode(v) }, vs); err != nil {
		return &policy.FieldError{Key: key, Value: shown, Err: err}
	}
	return nil
}

// value is one value of a key as given: text unescaped, unless its percent-encoding is broken.
type value struct {
	raw, text string // raw as it stands (or would) in the query, for the message of a repeated key
	broken    bool
}

func decode(raw map[string][]value, presets []Preset) (Params, error) {
	p, capDefault := Default(), policy.DefaultCap
	var errs []error
	if vs, ok := raw["preset"]; ok {
		shown, err := decodeValue(&p, presetDecoder(presets), vs)
		if err != nil {
			errs = append(errs, &policy.FieldError{Key: "preset", Value: shown, Err: err})
		}
		capDefault = p.Cap
	}
	capSet := false
	for _, k := range keyTable() {
		vs, ok := raw[k.name]
		if !ok {
			continue
		}
		shown, err := decodeValue(&p, k.decode, vs)
		if err != nil {
			errs = append(errs, &policy.FieldError{Key: k.name, Value: shown, Err: err})
		}
		if k.name == "cap" {
			capSet = err == nil
		}
	}
	if !capSet {
		p.Cap = max(capDefault, p.Base)
	}
	// An open system takes as many clients as the simulation does: more fall back to the default.
	if err := openClients(p); err != nil {
		errs = append(errs, &policy.FieldError{Key: "clients", Value: strconv.Itoa(p.Clients), Err: err})
		p.Clients = Default().Clients
	}
	// The stream's work depends on rate, run, arrivals, clients and attempts together: it is
	// checked once they are all read, and a stream over the limit is dropped, reported on rate.
	if err := OverloadWork(p); err != nil {
		errs = append(errs, &policy.FieldError{Key: "rate", Value: policy.FormatFloat(p.Rate), Err: err})
		p.Rate = 0
	}
	// The overload view's cost counts its runs too (overloadCost): over it, the stream is dropped
	// too, or without one the crowd falls back to the default clients (within it whatever else).
	if key, err := overloadCost(p); err != nil && key == "rate" {
		errs = append(errs, &policy.FieldError{Key: key, Value: policy.FormatFloat(p.Rate), Err: err})
		p.Rate = 0
	}
	if _, err := overloadCost(p); err != nil { // the crowd alone, a breaker's say
		errs = append(errs, &policy.FieldError{Key: "clients", Value: strconv.Itoa(p.Clients), Err: err})
		p.Clients = Default().Clients
	}
	// So does sampling's, on samples and attempts, jitter and budget together: samples over the
	// limit fall back to the default, or where that is over it too, to the fewest.
	if err := p.SampleWork(); err != nil {
		errs = append(errs, &policy.FieldError{Key: "samples", Value: strconv.Itoa(p.Samples), Err: err})
		if p.Samples = Default().Samples; p.SampleWork() != nil {
			p.Samples = policy.MinSamples
		}
	}
	// Any key that changes the preset's policy leaves the preset.
	if pr, ok := presetByName(presets, p.Preset); ok && p.Policy != pr.Params.Policy {
		p.Preset = ""
	}
	return p, errors.Join(errs...)
}

// decodeValue sets one key from its raw values; it returns the value as the user wrote it
// (unescaped where possible), for the error message.
func decodeValue(p *Params, decode func(p *Params, v string) error, vs []value) (string, error) {
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
	return v.text, decode(p, v.text)
}

// Encode returns the canonical query, sorted, ASCII only: the policy's keys and every other input
// a link uses, so that it does not depend on today's defaults; the keys of a model the link does
// not use only where they are not at their defaults (keyRow.unused); and the preset's name while the
// params are still that preset's. The solve key is the page's (SolveSet.SetIn).
// Default().Encode() has 20 keys. For valid p, Decode(p.Encode()) returns p.
func (p Params) Encode() string { return p.Values().Encode() }

// Values returns the keys of p that Encode writes, one value each.
func (p Params) Values() url.Values {
	v, d := url.Values{}, Default()
	for _, k := range keyTable() {
		if k.encode == nil {
			continue
		}
		if e := k.encode(&p); k.unused == nil || !k.unused(&p) || e != k.encode(&d) {
			v.Set(k.name, e)
		}
	}
	if p.Preset != "" {
		v.Set("preset", p.Preset)
	}
	return v
}

// AllValues returns every key of p, those Values leaves out included, for a form that shows
// each input's value.
func (p Params) AllValues() url.Values {
	v := url.Values{}
	for _, k := range keyTable() {
		if k.encode != nil {
			v.Set(k.name, k.encode(&p))
		}
	}
	if p.Preset != "" {
		v.Set("preset", p.Preset)
	}
	return v
}

// DefaultValues returns every query key at its default (Default().AllValues()).
func DefaultValues() url.Values { return Default().AllValues() }

// presetDecoder reads the preset key, naming one of presets: the preset's policy replaces the
// defaults, and the other keys of the link apply on top of it.
func presetDecoder(presets []Preset) func(p *Params, v string) error {
	return func(p *Params, v string) error {
		pr, ok := presetByName(presets, v)
		switch {
		case !ok && len(presets) == 0:
			return errors.New("no preset is known here")
		case !ok:
			return errors.New(notAPreset(presets, v))
		}
		p.Policy = pr.Params.Policy
		p.Preset = pr.Name
		return nil
	}
}

// decimalSyntax is a number as people write it: digits with at most one point, on either side
// of them. strconv also takes signs, exponents, hex floats (0x1p1), underscores (1_0), Inf and
// NaN; a query takes none of them, in any key.
const decimalSyntax = `(?:[0-9]+\.?[0-9]*|\.[0-9]+)`

var decimalRe lazy[*regexp.Regexp]

func decimal() *regexp.Regexp {
	return decimalRe.get(func() *regexp.Regexp { return regexp.MustCompile(`^` + decimalSyntax + `$`) })
}

// lazy is a value built at its first use. A package variable's initializer runs in the
// package's init, so whatever it calls is linked into every program that imports calc; a lazy
// value is linked only into one that uses it: a program that only computes a schedule links no
// key table and no regexp.
type lazy[T any] struct {
	once sync.Once
	v    T
}

func (l *lazy[T]) get(build func() T) T {
	l.once.Do(func() { l.v = build() })
	return l.v
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

func quote(s string) string { return strconv.Quote(s) }
