package calc

import (
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/policy"
)

// The polynomial growths, the offset and the whole-unit draws of the job queues, against
// computations of their own: the nominal delays in exact integers, the draws by enumerating
// every whole value.

// TestPolynomialGrowth compares the nominal delays of growth polynomial (base × k^factor) and
// polynomial0 (base × (k−1)^factor) with the same powers in exact integers, capped; the last
// rows overflow float64 many times over (factor 100 over 999 retries).
func TestPolynomialGrowth(t *testing.T) {
	for _, q := range []string{
		"growth=polynomial&factor=4&base=1s&cap=168h&attempts=30",
		"growth=polynomial0&factor=4&base=1s&cap=168h&attempts=30",
		"growth=polynomial&factor=1&base=250ms&cap=2s&attempts=12",
		"growth=polynomial0&factor=3&base=7ns&cap=1h&attempts=200&capat=fixed",
		"growth=polynomial&factor=100&base=24h&cap=168h&attempts=1000",
		"growth=polynomial0&factor=100&base=1ns&cap=168h&attempts=1000&capat=after",
	} {
		p := mustDecode(t, q+"&jitter=none")
		rows := p.Schedule().Rows
		from := int64(0)
		if p.Growth == policy.Polynomial {
			from = 1
		}
		for k := 1; k < p.Attempts; k++ {
			pow := new(big.Int).Exp(big.NewInt(int64(k-1)+from), big.NewInt(int64(p.Factor)), nil)
			raw := pow.Mul(pow, big.NewInt(int64(p.Base)))
			want := p.Cap
			if raw.Cmp(big.NewInt(int64(p.Cap))) < 0 {
				want = time.Duration(raw.Int64())
			}
			if r := rows[k]; r.Nominal != want || r.Min != want || r.Max != want {
				t.Fatalf("%s retry %d: nominal %v, waits [%v, %v], want %v", q, k, r.Nominal, r.Min, r.Max, want)
			}
		}
	}
}

// A polynomial growth's power is a whole number (math.Pow is then repeated squaring, the same
// bits in wasm): Decode reads factor before growth and refuses growth, or factor under a preset's
// polynomial growth; Validate names factor.
func TestPolynomialWholePower(t *testing.T) {
	for _, c := range []struct{ query, key, msg string }{
		{"factor=1.5&growth=polynomial", "growth", `calc: growth "polynomial": needs a whole factor, its power, where factor is 1.5`},
		{"growth=polynomial0&factor=2.5", "growth", `calc: growth "polynomial0": needs a whole factor, its power, where factor is 2.5`},
		{"growth=polynomial&factor=0.5", "factor", `calc: factor "0.5": must be between 1 and 100`},
		{"growth=polynomial&factor=101", "factor", `calc: factor "101": must be between 1 and 100`},
		{"growth=cubic", "growth", "polynomial (base × k^factor) or polynomial0 (base × (k-1)^factor)"},
	} {
		p, err := Decode(c.query)
		fes := policy.FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != c.key || !strings.Contains(fes[0].Error(), c.msg) {
			t.Errorf("%s: %v, want one error on %s saying %q", c.query, err, c.key, c.msg)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: Decode returned invalid params: %v", c.query, err)
		}
	}
	// A preset's polynomial growth holds factor whole too.
	pr := Preset{Name: "poly", Params: mustDecode(t, "growth=polynomial&factor=4")}
	if p, err := Decode("preset=poly&factor=4.5", pr); err == nil || p.Factor != 4 || p.Growth != policy.Polynomial ||
		!strings.Contains(err.Error(), `calc: factor "4.5": must be a whole number with growth polynomial (factor is its power)`) {
		t.Errorf("preset=poly&factor=4.5: %v, %v %v", err, p.Growth, p.Factor)
	}
	p := Default()
	p.Growth, p.Factor = policy.Polynomial, 2.5
	if fes := policy.FieldErrors(p.Validate()); len(fes) != 1 || fes[0].Key != "factor" {
		t.Errorf("Validate: %v", fes)
	}
	if p, err := Decode("growth=polynomial&factor=4&jitter=none"); err != nil || p.Encode() != mustDecode(t, p.Encode()).Encode() || !strings.Contains(p.Encode(), "growth=polynomial&") {
		t.Errorf("round trip: %v %v", p.Encode(), err)
	}
}

// wholeValues enumerates every value retry k of p can wait in a mode of whole steps, each as
// likely, from the libraries' formulas: Envoy's random() % d ms, Celery's randrange(d + 1) s,
// Sidekiq's d + rand(10k) s and Sidekiq 7's d + rand(10) × k s, plus the offset; d is the
// nominal delay, worked out here from base, factor, growth and cap in integers; first=exact
// waits exactly base, and capat=fixed exactly the cap once the delay is over it.
func wholeValues(p Params, k int) []time.Duration {
	x, n := int64(p.Factor), int64(k-1) // base × x^n
	switch p.Growth {
	case policy.Polynomial:
		x, n = int64(k), int64(p.Factor)
	case policy.Polynomial0:
		x, n = int64(k-1), int64(p.Factor)
	}
	d := p.Cap
	raw := new(big.Int).Mul(big.NewInt(int64(p.Base)), new(big.Int).Exp(big.NewInt(x), big.NewInt(n), nil))
	if raw.Cmp(big.NewInt(int64(p.Cap))) < 0 {
		d = time.Duration(raw.Int64())
	}
	var out []time.Duration
	add := func(w time.Duration) { out = append(out, w+p.Offset) }
	switch {
	case p.FirstExact && k == 1:
		add(p.Base)
	case p.CapAt == policy.CapFixed && raw.Cmp(big.NewInt(int64(p.Cap))) > 0: // exactly the cap
		add(p.Cap)
	case p.Jitter == policy.FullMs:
		for r := range max(1, d/time.Millisecond) {
			add(r * time.Millisecond * min(1, d/time.Millisecond))
		}
	case p.Jitter == policy.FullSec:
		for r := range d/time.Second + 1 {
			add(r * time.Second)
		}
	case p.Jitter == policy.Sidekiq:
		for r := range 10 * k {
			add(d + time.Duration(r)*time.Second)
		}
	case p.Jitter == policy.Sidekiq7:
		for r := range 10 {
			add(d + time.Duration(r*k)*time.Second)
		}
	}
	return out
}

// TestWholeDraws compares each mode of whole steps with the enumeration of its values: every
// value is the wait of a draw u within its share of [0, 1), the first and the largest draws
// wait the least and the most, and the schedule's bounds and mean are the values'.
func TestWholeDraws(t *testing.T) {
	for _, q := range []string{
		"jitter=fullms&base=25ms&cap=250ms&attempts=6",
		"jitter=fullms&base=500us&cap=3ms&attempts=5&offset=2ms", // less than a whole ms: 0
		"jitter=fullsec&base=1s&cap=600s&attempts=13",
		"jitter=fullsec&base=3s&cap=20s&attempts=6&capat=after&offset=1s",
		"jitter=fullsec&base=1s&cap=10s&attempts=4&first=exact",
		"jitter=sidekiq&base=1s&factor=3&cap=1h&attempts=12&offset=15s",
		"jitter=sidekiq&base=2s&factor=2&cap=10s&attempts=8&first=exact",
		"jitter=sidekiq7&base=1s&factor=2&cap=1h&attempts=12&offset=15s",
		"jitter=sidekiq7&base=100ms&factor=3&cap=2s&attempts=9&capat=after",
		"jitter=sidekiq&growth=polynomial0&factor=4&base=1s&cap=168h&attempts=26&offset=15s",
		"jitter=sidekiq&growth=polynomial0&factor=4&base=1s&cap=168h&attempts=6&offset=15s&first=exact",
		"jitter=sidekiq7&growth=polynomial&factor=2&base=1s&cap=20s&attempts=9&capat=fixed",
		"jitter=fullsec&growth=polynomial&factor=3&base=1500ms&cap=600s&attempts=12",
	} {
		p := mustDecode(t, q)
		rows := p.Schedule().Rows
		for k := 1; k < p.Attempts; k++ {
			vals := wholeValues(p, k)
			n := len(vals)
			lo, hi, sum := vals[0], vals[0], 0.0
			for i, w := range vals {
				lo, hi, sum = min(lo, w), max(hi, w), sum+float64(w)
				if got, _ := p.Wait(k, (float64(i)+0.5)/float64(n), 0); got != w {
					t.Errorf("%s retry %d, value %d of %d: waits %v, want %v", q, k, i, n, got, w)
				}
			}
			first, _ := p.Wait(k, 0, 0)
			last, _ := p.Wait(k, maxDraw, 0)
			r := rows[k]
			if first != lo || last != hi || r.Min != lo || r.Max != hi || r.Mean != sum/float64(n) {
				t.Errorf("%s retry %d: draws %v..%v, row [%v, %v] mean %v; the %d values [%v, %v] mean %v", q, k, first, last, r.Min, r.Max, r.Mean, n, lo, hi, sum/float64(n))
			}
		}
		checkInvariants(t, p.withSamples(policy.MinSamples))
	}
}

func (p Params) withSamples(n int) Params {
	p.Samples = n
	return p
}

// TestOffset: the offset adds to every wait of a mode drawn independently (bounds, mean and
// every draw) and to nothing of a chain's, which does not read it.
func TestOffset(t *testing.T) {
	for _, j := range policy.AllJitters() {
		for _, q := range []string{"base=100ms&cap=2s&attempts=8&ratio=0.3&add=40ms", "base=1s&cap=5s&attempts=7&capat=fixed&first=exact&ratio=0.5", "capat=after&ratio=0.5&attempts=9&cap=1s"} {
			p := mustDecode(t, q).WithJitter(j)
			with := p
			with.Offset = 15 * time.Second
			if err := with.Validate(); err != nil {
				t.Fatal(err)
			}
			add := with.Offset
			if j.FromPrevious() {
				add = 0
			}
			a, b := p.Schedule(), with.Schedule()
			for k := 1; k < p.Attempts; k++ {
				ra, rb := a.Rows[k], b.Rows[k]
				if rb.Min != ra.Min+add || rb.Max != ra.Max+add || math.Abs(rb.Mean-ra.Mean-float64(add)) > 1e-6 || rb.Nominal != ra.Nominal+add { // decorrelated has no nominal delay to add it to
					t.Errorf("%s %s retry %d: %+v with the offset, %+v without", j, q, k, rb, ra)
				}
				for _, u := range []float64{0, 0.3, 0.77, maxDraw} {
					wa, _ := p.Wait(k, u, p.FirstState())
					wb, _ := with.Wait(k, u, with.FirstState())
					if wb != wa+add {
						t.Errorf("%s %s retry %d u=%v: %v with the offset, %v without", j, q, k, u, wb, wa)
					}
				}
			}
		}
	}
}

// The offset key: its range names the field and value, a link leaves it out at 0 and keeps it
// otherwise, and it round-trips.
func TestOffsetKey(t *testing.T) {
	for _, c := range []struct{ query, msg string }{
		{"offset=-1s", `calc: offset "-1s": `},
		{"offset=25h", `calc: offset "25h": must be 0 or more and at most 24h`},
		{"offset=1_0s", `calc: offset "1_0s": not a duration`},
		{"offset=0.5ns", `calc: offset "0.5ns": must be a whole number of nanoseconds`},
		{"offset=<script>", `calc: offset "<script>": `},
		{"offset=1s&offset=2s", `calc: offset `},
	} {
		p, err := Decode(c.query)
		fes := policy.FieldErrors(err)
		if len(fes) != 1 || fes[0].Key != "offset" || !strings.HasPrefix(fes[0].Error(), c.msg) || p.Offset != 0 {
			t.Errorf("%s: %v (offset %v)", c.query, err, p.Offset)
		}
	}
	if strings.Contains(Default().Encode(), "offset") {
		t.Errorf("a link without an offset writes it: %s", Default().Encode())
	}
	p := mustDecode(t, "offset=15000")
	if p.Offset != 15*time.Second || !strings.Contains(p.Encode(), "offset=15s") || mustDecode(t, p.Encode()) != p {
		t.Errorf("offset=15000: %v, %s", p.Offset, p.Encode())
	}
	p.Offset = policy.MaxOffset + 1
	if fes := policy.FieldErrors(p.Validate()); len(fes) != 1 || fes[0].Key != "offset" {
		t.Errorf("Validate: %v", fes)
	}
}

// Sidekiq 7's steps of k seconds reach every whole second's sum only from a first retry that
// draws: without it (first=exact) the least and most within a budget come from the samples.
func TestWholeStepsWithinBudget(t *testing.T) {
	exact := mustDecode(t, "jitter=sidekiq7&base=1s&factor=2&cap=1h&attempts=6&budget=40s")
	if w := exact.WithinBudget(); !w.Exact || w.Max >= exact.Budget {
		t.Errorf("sidekiq7: %+v", w)
	}
	gaps := mustDecode(t, "jitter=sidekiq7&base=1s&factor=2&cap=1h&attempts=6&budget=40s&first=exact")
	if w := gaps.WithinBudget(); w.Exact {
		t.Errorf("sidekiq7 with first=exact: %+v, whose sums skip seconds", w)
	}
	r := gaps.Report()
	sm := gaps.Sample()
	if w := r.Within; w.Min != sm.TotalMin || w.Max != sm.TotalMax {
		t.Errorf("sidekiq7 with first=exact: within %+v, sampled [%v, %v]", w, sm.TotalMin, sm.TotalMax)
	}
	// The exact sums, for a budget on Sidekiq's whole seconds, against every path enumerated:
	// retries 1 and 2 of base 1s, factor 2, Sidekiq 8, budget 20 s and calls of 1 s.
	p := mustDecode(t, "jitter=sidekiq&base=1s&factor=2&cap=1h&attempts=3&budget=20s&call=1s")
	lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
	for a := range 10 {
		for b := range 20 {
			w1, w2 := time.Duration(1+a)*time.Second, time.Duration(2+b)*time.Second
			total := time.Duration(0)
			if 1*time.Second+w1 < p.Budget { // attempt 2 starts at call + w1
				total = w1
				if 2*time.Second+w1+w2 < p.Budget {
					total += w2
				}
			}
			lo, hi = min(lo, total), max(hi, total)
		}
	}
	if w := p.WithinBudget(); !w.Exact || w.Min != lo || w.Max != hi {
		t.Errorf("sidekiq within 20 s: %+v, every path [%v, %v]", w, lo, hi)
	}
}

// The sentence of the job queues' waits: the growth's power, Sidekiq's and Celery's draws and
// the offset, which a chain does not read.
func TestJobQueueWaitWords(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"growth=polynomial0&factor=4&base=1s&cap=168h&jitter=sidekiq&offset=15s",
			"Retry k waits d plus a random whole number of seconds from 0 up to, not including, 10 × k, d = min(7 days, 1 s × (k−1)^4) (Sidekiq's jitter); every wait is 15 s longer (offset)."},
		{"growth=polynomial&factor=4&base=1s&cap=168h&jitter=upward&ratio=0.15&offset=2s",
			"Retry k waits a random time between d and d × (1 + 0.15), d = min(7 days, 1 s × k^4) (upward jitter); every wait is 2 s longer (offset)."},
		{"jitter=sidekiq7&capat=fixed",
			"Retry k waits d plus k × a random whole number of seconds from 0 to 9, d = min(10 s, 100 ms × 2^(k−1)) (Sidekiq 7's jitter); once the nominal delay is over 10 s, it waits exactly 10 s, without jitter."},
		{"jitter=fullsec&base=1s&cap=600s&capat=after",
			"Retry k waits a random whole number of seconds from 0 up to and including d = min(10 min, 1 s × 2^(k−1)) (full jitter in whole seconds)."},
		{"jitter=decorrelated&offset=1s",
			"Retry k waits a random time between 100 ms and 3 × the previous wait (the first: 3 × 100 ms), at most 10 s (decorrelated jitter; factor is not used); offset is not used."},
	} {
		if got := mustDecode(t, c.query).WaitWords(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
	}
}
