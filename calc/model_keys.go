package calc

import (
	"fmt"
	"time"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// The policy's keys are the core's (policy.Keys), made rows of Params here.
//
// The limiters' and the breakers' keys are their packages' (limiter.Keys, breaker.Keys): each
// gives its keys as data, a name, the field it sets and its range, and calc makes them rows of
// its key table, worded as every key's range, so that a new limiter or breaker adds its keys in
// its own package and touches no calc file.

// policyRows are the policy core's keys (policy.Keys), rows of Params through the policy.Params
// it embeds.
func policyRows() []keyRow {
	var rows []keyRow
	for _, k := range policy.Keys() {
		rows = append(rows, policyRow(k))
	}
	return rows
}

// policyRow is k, a key of policy.Params, as a row of Params.
//
//go:noinline
func policyRow(k policy.Key[*policy.Params]) keyRow {
	row := keyRow{Name: k.Name, Duration: k.Duration,
		Decode: func(p *Params, v string) error { return k.Decode(&p.Params, v) }}
	if check := k.Check; check != nil {
		row.Check = func(p *Params) error { return check(&p.Params) }
	}
	if encode := k.Encode; encode != nil {
		row.Encode = func(p *Params) string { return encode(&p.Params) }
	}
	if unused := k.Unused; unused != nil {
		row.Unused = func(p *Params) bool { return unused(&p.Params) }
	}
	return row
}

// keyRange is a model's key's range, as limiter.Range and breaker.Range give it.
type keyRange struct {
	lo, hi      float64
	above       bool
	of          string
	ofField     func(*Params) *int
	least, most time.Duration
	leastText   string
	unit        time.Duration
	unitText    string
	zeroText    string
}

// contentionRows are the contention experiment's keys (contention.Keys), which a link leaves out
// at their defaults.
func contentionRows() []keyRow {
	var rows []keyRow
	for _, k := range contention.Keys() {
		rows = append(rows, contentionRow(intKey(k.Name, func(p *Params) *int { return k.Int(&p.Inputs) }, inRange(k.Lo, k.Hi))))
	}
	return rows
}

// limiterRows are the limiters' keys: a link writes them with a stream, but those Unused.
func limiterRows() []keyRow {
	var rows []keyRow
	for _, k := range limiter.Keys() {
		r := keyRange{lo: k.Range.Lo, hi: k.Range.Hi, above: k.Range.Above, least: k.Range.Least, most: k.Range.Most,
			leastText: k.Range.LeastText, unit: k.Range.Unit, unitText: k.Range.UnitText}
		var row keyRow
		switch {
		case k.Float != nil:
			row = modelFloatKey(k.Name, func(p *Params) *float64 { return k.Float(&p.Limits) }, r)
		case k.Int != nil:
			row = modelIntKey(k.Name, func(p *Params) *int { return k.Int(&p.Limits) }, r)
		default:
			row = modelDurationKey(k.Name, func(p *Params) *time.Duration { return k.Duration(&p.Limits) }, r)
		}
		if k.Unused {
			rows = append(rows, unusedRow(row))
		} else {
			rows = append(rows, overloadRow(row))
		}
	}
	return rows
}

// breakerRows are the breakers' keys, which a link leaves out at their defaults.
func breakerRows() []keyRow {
	var rows []keyRow
	for _, k := range breaker.Keys() {
		r := keyRange{lo: k.Range.Lo, hi: k.Range.Hi, above: k.Range.Above, of: k.Range.Of, least: k.Range.Least,
			most: k.Range.Most, leastText: k.Range.LeastText, unit: k.Range.Unit, unitText: k.Range.UnitText,
			zeroText: k.Range.ZeroText}
		if of := k.Range.OfField; of != nil {
			r.ofField = func(p *Params) *int { return of(&p.BreakerParams) }
		}
		switch {
		case k.Float != nil:
			rows = append(rows, unusedRow(modelFloatKey(k.Name, func(p *Params) *float64 { return k.Float(&p.BreakerParams) }, r)))
		case k.Int != nil:
			rows = append(rows, unusedRow(modelIntKey(k.Name, func(p *Params) *int { return k.Int(&p.BreakerParams) }, r)))
		default:
			rows = append(rows, unusedRow(modelDurationKey(k.Name, func(p *Params) *time.Duration { return k.Duration(&p.BreakerParams) }, r)))
		}
	}
	return rows
}

// modelFloatKey is a decimal key of range r: [lo, hi] (between), or (0, hi] (positive).
//
//go:noinline
func modelFloatKey(name string, field func(*Params) *float64, r keyRange) keyRow {
	if r.above {
		return floatKey(name, field, positive(r.hi))
	}
	return floatKey(name, field, between(r.lo, r.hi))
}

// modelIntKey is a whole-number key of range r: [lo, hi] (inRange), or [lo, the key of] (atMost).
//
//go:noinline
func modelIntKey(name string, field func(*Params) *int, r keyRange) keyRow {
	if r.ofField != nil {
		lo, of, ofField := int(r.lo), r.of, r.ofField
		return intKey(name, field, func(p *Params, n int) error { return atMost(n, lo, of, *ofField(p)) })
	}
	return intKey(name, field, inRange(int(r.lo), int(r.hi)))
}

// modelDurationKey is a duration key of range r: [least, most] (within), of whole units
// (wholeWithin), or 0 besides.
//
//go:noinline
func modelDurationKey(name string, field func(*Params) *time.Duration, r keyRange) keyRow {
	switch {
	case r.zeroText != "":
		least, most, zero := r.least, r.most, r.zeroText
		return durationKey(name, field, func(_ *Params, d time.Duration) error {
			if d != 0 && (d < least || d > most) {
				return fmt.Errorf("must be 0 (%s) or from %s to %s", zero, policy.FormatDuration(least), policy.FormatDuration(most))
			}
			return nil
		})
	case r.unit != 0:
		return durationKey(name, field, wholeWithin(r.least, r.most, r.leastText, r.unit, r.unitText))
	}
	return durationKey(name, field, within(r.least, r.most, r.leastText))
}
