package calc

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/internal/lazy"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// A query is the public form of Params: the page's shared links and the terminal command use the
// same keys. Decode accepts what people type; Encode writes the one canonical form.

// keyRow is one query key of Params (policy.Key): how a link writes it, how it is read, and its
// range; its default is what it writes of Default().
type keyRow = policy.Key[*Params]

// The row builders (durationKey, floatKey, intKey, wordKey and the range checks) are the core's
// (policy.DurationKey, …), for Params: the core's own keys are made with them too.

// keyTable is every key in the order errors are reported (the form's order): the core's first
// (policy.Keys; cap comes after base because its default and its lower bound follow base), then
// clients, after attempts because its limit depends on them. It is built at its first use
// (calc/internal/lazy), so that a program that reads and writes no link (one that only computes a
// schedule) links none of the rows, nor what they check.
var keyRows lazy.Value[[]keyRow]

func keyTable() []keyRow { return keyRows.Get(newKeyTable) }

func newKeyTable() []keyRow {
	// The policy's keys are the core's (policy.Keys).
	rows := append(policyRows(),
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
	)
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
		keyRow{Name: solveKey, Decode: func(_ *Params, v string) error {
			_, err := parseSolve(v)
			return err
		}},
	)
}

// overloadRow is k, a key of the overload model, which a link uses only with a stream.
func overloadRow(k keyRow) keyRow {
	k.Unused = func(p *Params) bool { return p.Rate == 0 }
	return k
}

// contentionRow is k, a key of the contention experiment.
func contentionRow(k keyRow) keyRow { return unusedRow(k) }

// unusedRow is k, a key a link leaves out at its default.
func unusedRow(k keyRow) keyRow {
	k.Unused = func(*Params) bool { return true }
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

// durationKey is policy.DurationKey for Params.
func durationKey(name string, field func(*Params) *time.Duration, check func(*Params, time.Duration) error) keyRow {
	return policy.DurationKey(name, field, check)
}

// floatKey is policy.FloatKey for Params.
func floatKey(name string, field func(*Params) *float64, check func(*Params, float64) error) keyRow {
	return policy.FloatKey(name, field, check)
}

// intKey is policy.IntKey for Params.
func intKey(name string, field func(*Params) *int, check func(*Params, int) error) keyRow {
	return policy.IntKey(name, field, check)
}

// wordKey is policy.WordKey for Params.
func wordKey[T interface {
	~uint8
	String() string
}](name string, field func(*Params) *T, names []string, help string) keyRow {
	return policy.WordKey(name, field, names, help)
}

// within is policy.Within for Params.
func within(lo, hi time.Duration, loText string) func(*Params, time.Duration) error {
	return policy.Within[*Params](lo, hi, loText)
}

// between is policy.Between for Params.
func between(lo, hi float64) func(*Params, float64) error { return policy.Between[*Params](lo, hi) }

// positive is the range (0, hi] of a decimal.
//
//go:noinline
func positive(hi float64) func(*Params, float64) error {
	return func(p *Params, x float64) error {
		// One message on either side (and for NaN): "between 0 and hi" above it said that 0 is in
		// the range.
		if !(x > 0 && x <= hi) {
			return fmt.Errorf("must be more than 0 and at most %s", policy.FormatFloat(hi))
		}
		return nil
	}
}

// inRange is policy.InRange for Params.
func inRange(lo, hi int) func(*Params, int) error { return policy.InRange[*Params](lo, hi) }

// Keys returns the query keys in the form's order.
func Keys() []string {
	keys := make([]string, len(keyTable()))
	for i, k := range keyTable() {
		keys[i] = k.Name
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
	return decode(parseQuery(query), presets, true)
}

// DecodeUnsampled is Decode for a policy whose paths are never sampled, the page's and table's
// policy B (compare): the sampling's work limit, on samples, is not its to meet.
func DecodeUnsampled(query string, presets ...Preset) (Params, error) {
	return decode(parseQuery(query), presets, false)
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
	return decode(givenValues(v), presets, true)
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

func decode(raw map[string][]value, presets []Preset, sampled bool) (Params, error) {
	p, capDefault := Default(), policy.DefaultCap
	var errs []error
	refused := map[string]bool{} // the keys whose values were refused
	if vs, ok := raw["preset"]; ok {
		shown, err := decodeValue(&p, presetDecoder(presets), vs)
		if err != nil {
			errs = append(errs, &policy.FieldError{Key: "preset", Value: shown, Err: err})
			refused["preset"] = true
		}
		capDefault = p.Cap
	}
	capSet := false
	for _, k := range keyTable() {
		vs, ok := raw[k.Name]
		if !ok {
			continue
		}
		shown, err := decodeValue(&p, k.Decode, vs)
		// A value refused against another key's that was itself refused, or left to a refused
		// preset, was compared with a default nobody gave: only that key's error is said.
		if key, ok := againstKey(err); err != nil && !(ok && (refused[key] || refused["preset"] && raw[key] == nil)) {
			errs = append(errs, &policy.FieldError{Key: k.Name, Value: shown, Err: err})
			refused[k.Name] = true
		}
		if k.Name == "cap" {
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
	if err := p.SampleWork(); err != nil && sampled {
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
// not use only where they are not at their defaults (keyRow.Unused); and the preset's name while the
// params are still that preset's. The solve key is the page's (SolveSet.SetIn).
// Default().Encode() has 20 keys. For valid p, Decode(p.Encode()) returns p.
func (p Params) Encode() string { return p.Values().Encode() }

// Values returns the keys of p that Encode writes, one value each.
func (p Params) Values() url.Values {
	v, d := url.Values{}, Default()
	for _, k := range keyTable() {
		if k.Encode == nil {
			continue
		}
		if e := k.Encode(&p); k.Unused == nil || !k.Unused(&p) || e != k.Encode(&d) {
			v.Set(k.Name, e)
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
		if k.Encode != nil {
			v.Set(k.Name, k.Encode(&p))
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

func quote(s string) string { return strconv.Quote(s) }

// againstKey is the key that err, a key's refusal, compares its value with (policy.AgainstError),
// unwrapped by hand: errors.As would link reflection into the page's wasm, 11 KB gzip for this
// one call.
func againstKey(err error) (string, bool) {
	for err != nil {
		if a, ok := err.(*policy.AgainstError); ok {
			return a.Key, true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return "", false
		}
		err = u.Unwrap()
	}
	return "", false
}
