package policy

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// A link's query keys are rows of one table (calc's key table), each made by the builders below
// from the field it sets and its range: the core's own keys are Keys, and calc makes rows of its
// Params of them, beside its models' keys, which it builds with the same builders.

// Key is one query key of the inputs P points to (*Params, calc's *calc.Params): how a link
// writes it, how it is read, and its range; its default is what it writes of the defaults.
// Decode and Validate check a value with the same check, so that a link and inputs built in code
// are refused with the same words. P is the pointer, not the struct: Go compiles a generic
// function once for every pointer type, so the builders below are one copy of code for the
// core's keys and calc's, where a Key[Params] made two (+60 KB of app.wasm, 9.5 KB gzip).
type Key[P any] struct {
	Name   string
	Decode func(p P, v string) error // parses v and, if Check passes, sets p; on error p is unchanged (but first's)
	Check  func(p P) error           // whether p's value is in range (Validate); nil: every value is
	Encode func(p P) string          // nil: the key selects what a page shows and is no input of P (solve)
	// Duration says the value is a duration, in which a bare number is milliseconds.
	Duration bool
	// Unused says the key belongs to a model that p's link does not use: a link leaves it out
	// while it is at its default, and stays short. Decode fills a missing key with its default,
	// so leaving one out changes no number. nil: a link always has the key.
	Unused func(p P) bool
}

// Keys returns the policy's keys, in the form's order: cap comes after base because its lower
// bound follows base, growth after factor because a polynomial growth takes a whole factor only.
// calc's key table begins with them, rows of its Params (calc.Params embeds Params); what depends
// on more than one key (cap's default, the sampling's work) is calc's Decode's.
func Keys() []Key[*Params] {
	return []Key[*Params]{
		DurationKey("base", func(p *Params) *time.Duration { return &p.Base }, Within[*Params](time.Nanosecond, MaxBase, "more than 0")),
		FloatKey("factor", func(p *Params) *float64 { return &p.Factor }, factorRange),
		DurationKey("cap", func(p *Params) *time.Duration { return &p.Cap }, func(p *Params, d time.Duration) error {
			err := fmt.Errorf("must be at least base (%s) and at most %s", FormatDuration(p.Base), FormatDuration(MaxCap))
			switch {
			case d > MaxCap:
				return err
			case d < p.Base:
				return &AgainstError{Key: "base", Err: err}
			}
			return nil
		}),
		IntKey("attempts", func(p *Params) *int { return &p.Attempts }, InRange[*Params](1, MaxAttempts)),
		WordKey("jitter", func(p *Params) *Jitter { return &p.Jitter }, JitterNames(), "must be one of "+strings.Join(JitterNames(), ", ")),
		FloatKey("ratio", func(p *Params) *float64 { return &p.Ratio }, Between[*Params](0, 1)),
		WordKey("capat", func(p *Params) *CapAt { return &p.CapAt }, CapAtNames(),
			"must be before (cap the nominal delay), after (clamp the drawn wait) or fixed (exactly cap once the nominal delay is over it)"),
		growthRow(WordKey("growth", func(p *Params) *Growth { return &p.Growth }, GrowthNames(),
			"must be exponential (base × factor^(k-1)), linear (base × k), polynomial (base × k^factor) or polynomial0 (base × (k-1)^factor)")),
		{Name: "first", Decode: func(p *Params, v string) error {
			// A bad value leaves the first retry jittered, the default, whatever a preset said.
			i := indexOf(firstNames[:], v)
			p.FirstExact = i == 1
			if i < 0 {
				return errors.New("must be jittered or exact (the first retry waits exactly base)")
			}
			return nil
		}, Encode: func(p *Params) string { return firstName(p.FirstExact) }},
		DurationKey("add", func(p *Params) *time.Duration { return &p.Add }, Within[*Params](0, MaxAdd, "0 or more")),
		// Left out at its default, so that the links written before it stay the same.
		unused(DurationKey("offset", func(p *Params) *time.Duration { return &p.Offset }, Within[*Params](0, MaxOffset, "0 or more"))),
		DurationKey("call", func(p *Params) *time.Duration { return &p.Call }, Within[*Params](0, MaxCall, "0 or more")),
		DurationKey("budget", func(p *Params) *time.Duration { return &p.Budget }, Within[*Params](0, MaxBudget, "0 (none) or more")),
		IntKey("layers", func(p *Params) *int { return &p.Layers }, InRange[*Params](1, MaxLayers)),
		IntKey("samples", func(p *Params) *int { return &p.Samples }, InRange[*Params](MinSamples, MaxSamples)),
		{Name: "seed", Decode: func(p *Params, v string) error {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return numError(err, "a whole number", "must be at most 18446744073709551615")
			}
			p.Seed = n
			return nil
		}, Encode: func(p *Params) string { return strconv.FormatUint(p.Seed, 10) }},
	}
}

// factorRange is factor's range: 1..MaxFactor, and a whole number where it is the power of a
// polynomial growth (a whole power is computed the same everywhere).
func factorRange(p *Params, x float64) error {
	if err := Between[*Params](1, MaxFactor)(p, x); err != nil {
		return err
	}
	if p.Growth.IsPolynomial() && x != math.Trunc(x) {
		return fmt.Errorf("must be a whole number with growth %s (factor is its power)", p.Growth)
	}
	return nil
}

// growthRow is k, the growth key, which refuses a polynomial growth while factor is not whole:
// factor comes first, and checks its value against the growth it sees then (factorRange).
func growthRow(k Key[*Params]) Key[*Params] {
	decode := k.Decode
	k.Decode = func(p *Params, v string) error {
		was := p.Growth
		if err := decode(p, v); err != nil {
			return err
		}
		if err := factorRange(p, p.Factor); err != nil {
			p.Growth = was
			return &AgainstError{Key: "factor", Err: fmt.Errorf("needs a whole factor, its power, where factor is %s", FormatFloat(p.Factor))}
		}
		return nil
	}
	return k
}

// unused is k, a key a link leaves out at its default.
func unused(k Key[*Params]) Key[*Params] {
	k.Unused = func(*Params) bool { return true }
	return k
}

var firstNames = [...]string{"jittered", "exact"}

// firstName is the first key's value for FirstExact.
func firstName(exact bool) string {
	if exact {
		return firstNames[1]
	}
	return firstNames[0]
}

// The row builders below (DurationKey, FloatKey, IntKey, WordKey and the range checks) are kept
// out of line: inlined into a key table's initializer, every row got its own copy of their
// closures, 129 KB of app.wasm (10 KB gzip).

// DurationKey is a key whose value is a duration, in range when check says so.
//
//go:noinline
func DurationKey[P any](name string, field func(P) *time.Duration, check func(P, time.Duration) error) Key[P] {
	return Key[P]{Name: name, Duration: true,
		Decode: func(p P, v string) error {
			d, err := parseDuration(v)
			if err != nil {
				return err
			}
			return set(p, field, d, check)
		},
		Check:  func(p P) error { return check(p, *field(p)) },
		Encode: func(p P) string { return FormatDuration(*field(p)) },
	}
}

// FloatKey is a key whose value is a decimal, read as the float64 nearest it.
//
//go:noinline
func FloatKey[P any](name string, field func(P) *float64, check func(P, float64) error) Key[P] {
	return Key[P]{Name: name,
		Decode: func(p P, v string) error {
			if err := signed(v); err != nil {
				return err
			}
			if !isDecimal(v) {
				return errors.New("not a number: write digits and at most one point, like 1.5")
			}
			// Of a decimal, ParseFloat refuses only one too large, as ±Inf, which no range holds.
			x, _ := strconv.ParseFloat(v, 64)
			return set(p, field, x, check)
		},
		Check:  func(p P) error { return check(p, *field(p)) },
		Encode: func(p P) string { return FormatFloat(*field(p)) },
	}
}

// IntKey is a key whose value is a whole number.
//
//go:noinline
func IntKey[P any](name string, field func(P) *int, check func(P, int) error) Key[P] {
	return Key[P]{Name: name,
		Decode: func(p P, v string) error {
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
		Check:  func(p P) error { return check(p, *field(p)) },
		Encode: func(p P) string { return strconv.Itoa(*field(p)) },
	}
}

// WordKey is a key whose value is one of names; help says which, and what they mean.
//
//go:noinline
func WordKey[P any, T interface {
	~uint8
	String() string
}](name string, field func(P) *T, names []string, help string) Key[P] {
	return Key[P]{Name: name,
		Decode: func(p P, v string) error {
			i := indexOf(names, v)
			if i < 0 {
				return errors.New(help)
			}
			*field(p) = T(i)
			return nil
		},
		Check: func(p P) error {
			if int(*field(p)) >= len(names) {
				return errors.New(help)
			}
			return nil
		},
		Encode: func(p P) string { return (*field(p)).String() },
	}
}

// set sets p's field to x if check says x is in range.
func set[P, T any](p P, field func(P) *T, x T, check func(P, T) error) error {
	if err := check(p, x); err != nil {
		return err
	}
	*field(p) = x
	return nil
}

// Within is the range [lo, hi] of a duration; loText says lo in words ("0 or more").
//
//go:noinline
func Within[P any](lo, hi time.Duration, loText string) func(P, time.Duration) error {
	return func(_ P, d time.Duration) error {
		if d < lo || d > hi {
			return fmt.Errorf("must be %s and at most %s", loText, FormatDuration(hi))
		}
		return nil
	}
}

// Between is the range [lo, hi] of a decimal; it refuses NaN.
//
//go:noinline
func Between[P any](lo, hi float64) func(P, float64) error {
	return func(_ P, x float64) error {
		if !(x >= lo && x <= hi) {
			return fmt.Errorf("must be between %s and %s", FormatFloat(lo), FormatFloat(hi))
		}
		return nil
	}
}

// InRange is the range [lo, hi] of a whole number.
//
//go:noinline
func InRange[P any](lo, hi int) func(P, int) error {
	return func(_ P, n int) error {
		if n < lo || n > hi {
			return fmt.Errorf("must be between %d and %d", lo, hi)
		}
		return nil
	}
}

// indexOf is the index of name in names, or -1.
func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
