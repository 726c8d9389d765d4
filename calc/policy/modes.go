package policy

import (
	"fmt"
	"strings"
	"time"
)

// Jitter is how a wait is drawn around the nominal delay d of a retry. Each mode is one entry of
// the table of modes in modes.go, the only place that tells the modes apart: a new mode is a
// constant, its entry and its tests (TestModesComplete fails for a constant without an entry).
type Jitter uint8

const (
	None         Jitter = iota // exactly d
	Full                       // uniform in [0, d]
	Equal                      // uniform in [d/2, d]
	Decorrelated               // AWS: min(cap, base + U*(3*previous - base)); ignores factor
	Proportional               // uniform in [d*(1-ratio), d*(1+ratio)]

	// The modes of particular libraries, which the five above do not describe.

	Upward   // uniform in [d, d*(1+ratio)]: k8s wait.Jitter
	FullMs   // a whole number of milliseconds in [0, d): Envoy's random() % d, d in whole ms
	Additive // uniform in [d, d+Add]: tenacity's wait_exponential_jitter
	// Polly v8's exponential backoff with UseJitter (DecorrelatedJitterBackoffV2): retry k waits
	// (g(k-1+U) - g(previous t)) × base/1.4, g(t) = 2^t·tanh(√(4t)), clamped to cap after the
	// draw; ignores factor (see pollyv2.go).
	DecorrelatedV2
	// Sidekiq 8's: d plus a whole number of seconds from 0 up to, not including, 10·k (Ruby's
	// rand(10 * (count + 1)), count = k-1).
	Sidekiq
	// Sidekiq 7's: d plus k × a whole number of seconds from 0 to 9 (rand(10) * (count + 1)).
	Sidekiq7
	// FullSec is a whole number of seconds from 0 up to and including d: Celery's
	// random.randrange(countdown + 1).
	FullSec

	jitterCount // the number of modes: the length of modes
)

// jitterMode is everything calc knows about one jitter mode: its name, whether a wait depends on
// the previous one, what it reads, the formula in words, and its law: the range and mean of each
// wait. A mode either draws each wait independently around the nominal delay d (bounds, with
// the mean of a uniform draw, see law.mean) or from the previous wait (chain, which works out
// the range and mean of each retry itself); exactly one of the two is set.
type jitterMode struct {
	name    string // in links, the form and the tables
	title   string // in a sentence of its own: "Decorrelated jitter"
	classic bool   // one of the five that the comparison and the herd always show
	library string // the library whose own mode this is; "" for the classic five
	// Whether the mode reads factor, ratio and add; every mode reads base and cap.
	factor, ratio, add bool
	// words says what retry k waits, for d the formula of the nominal delay ("d = min(...)"),
	// ending with the mode's name in brackets.
	words func(p Params, d string) string

	// bounds is the range [lo, hi] of the wait before retry k for the nominal delay d, drawn
	// uniformly.
	bounds func(p Params, k int, d float64) (lo, hi float64)
	// step, when set, makes the wait before retry k lo plus i × step(k), for i a whole number
	// from 0 up to, not including, (hi-lo)/step(k), each as likely: Envoy's whole milliseconds,
	// Celery's and Sidekiq's whole seconds. Such a mode takes the nominal delay as capped even
	// where capat says after: Envoy does.
	step func(k int) time.Duration
	// byRetry says bounds and step depend on the retry's number k, not on d alone: two retries
	// with the same delay can wait differently (Sidekiq's jitter grows with k).
	byRetry bool

	// chain is the law of a mode whose wait depends on the previous one.
	chain chain
}

// chain is the law of a jitter mode whose wait depends on the previous one: Params.Wait carries a
// state from one retry to the next. Such a mode clamps every draw to cap and jitters every retry,
// whatever capat and first say, and reads only base and cap of the policy.
type chain interface {
	// first is the state before retry 1 (see Params.FirstState).
	first(p Params) float64
	// top is the longest wait before retry k, and least the shortest.
	top(p Params, k int) time.Duration
	least(p Params, k int) time.Duration
	// rows sets Min, Max, Mean and AtCap of rows[1:], the retries of p's schedule.
	rows(p Params, rows []Row)
	// sums returns lo[k] and hi[k], the least and the most total wait of retries 1..k for k in
	// 0..n, where these are not the sums of each retry's least and longest wait (no one path
	// takes every retry's extremes); nil, nil where they are.
	sums(p Params, n int) (lo, hi []time.Duration)
	// draws reports whether retry k draws a u.
	draws(p Params, k int) bool
	// wait is the wait before retry k for the draw u and the state of retry k-1, and the state
	// for retry k+1; top is top(p, k). It takes base and cap rather than Params, which would be
	// copied at every draw.
	wait(base, cap time.Duration, k int, u, state float64, top time.Duration) (time.Duration, float64)
	// within is Params.WithinBudget for p, which has a budget.
	within(p Params) WithinBudget
}

// modes is the table of jitter modes, indexed by Jitter.
var modes = [jitterCount]jitterMode{
	None: {
		name: "none", title: "No jitter", classic: true, factor: true,
		words: func(p Params, d string) string {
			return "Retry k waits exactly " + d + " (no jitter)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return d, d },
	},
	Full: {
		name: "full", title: "Full jitter", classic: true, factor: true,
		words: func(p Params, d string) string {
			return "Retry k waits a random time between 0 and " + d + " (full jitter)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return 0, d },
	},
	Equal: {
		name: "equal", title: "Equal jitter", classic: true, factor: true,
		words: func(p Params, d string) string {
			return "Retry k waits a random time between d/2 and d, " + d + " (equal jitter)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return d / 2, d },
	},
	Decorrelated: {
		name: "decorrelated", title: "Decorrelated jitter", classic: true,
		words: func(p Params, d string) string {
			return fmt.Sprintf("Retry k waits a random time between %s and 3 × the previous wait (the first: 3 × %s), at most %s (decorrelated jitter; factor is not used)",
				wordsTime(p.Base), wordsTime(p.Base), wordsTime(p.Cap))
		},
		chain: decorrelatedChain{},
	},
	Proportional: {
		name: "proportional", title: "Proportional jitter", classic: true, factor: true, ratio: true,
		words: func(p Params, d string) string {
			r := FormatFloat(p.Ratio)
			return "Retry k waits a random time between d × (1 − " + r + ") and d × (1 + " + r + "), " + d + " (proportional jitter)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return d * (1 - p.Ratio), d * (1 + p.Ratio) },
	},
	Upward: {
		name: "upward", title: "Upward jitter", library: "k8s", factor: true, ratio: true,
		words: func(p Params, d string) string {
			return "Retry k waits a random time between d and d × (1 + " + FormatFloat(p.Ratio) + "), " + d + " (upward jitter)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return d, d * (1 + p.Ratio) },
	},
	FullMs: {
		name: "fullms", title: "Full jitter in whole milliseconds", library: "Envoy", factor: true,
		words: func(p Params, d string) string {
			return "Retry k waits a random whole number of milliseconds from 0 up to, not including, " + d + " (full jitter in whole ms)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return 0, d },
		step:   wholeMs,
	},
	Additive: {
		name: "additive", title: "Additive jitter", library: "tenacity", factor: true, add: true,
		words: func(p Params, d string) string {
			return "Retry k waits a random time between d and d + " + wordsTime(p.Add) + ", " + d + " (additive jitter)"
		},
		bounds: func(p Params, _ int, d float64) (float64, float64) { return d, d + float64(p.Add) },
	},
	DecorrelatedV2: {
		name: "decorrelatedv2", title: "Polly's decorrelated jitter (DecorrelatedJitterBackoffV2)", library: "Polly",
		words: func(p Params, d string) string {
			return fmt.Sprintf("Retry k draws t = k − 1 + U and waits (g(t) − g(t′)) × %s / 1.4 in whole 100 ns ticks, clamped to %s, where g(t) = 2^t × tanh(√(4t)) and t′ is "+
				"the previous retry's t (g(t′) = 0 for the first): a wait depends on the previous draw, not on the previous wait (Polly's DecorrelatedJitterBackoffV2; factor is not used)",
				wordsTime(p.Base), wordsTime(p.Cap))
		},
		chain: pollyChain{},
	},
	Sidekiq: {
		name: "sidekiq", title: "Sidekiq's jitter", library: "Sidekiq", factor: true, byRetry: true,
		words: func(p Params, d string) string {
			return "Retry k waits d plus a random whole number of seconds from 0 up to, not including, 10 × k, " + d + " (Sidekiq's jitter)"
		},
		bounds: func(p Params, k int, d float64) (float64, float64) { return d, d + float64(10*k)*1e9 },
		step:   wholeSeconds,
	},
	Sidekiq7: {
		name: "sidekiq7", title: "Sidekiq 7's jitter", library: "Sidekiq 7", factor: true, byRetry: true,
		words: func(p Params, d string) string {
			return "Retry k waits d plus k × a random whole number of seconds from 0 to 9, " + d + " (Sidekiq 7's jitter)"
		},
		bounds: func(p Params, k int, d float64) (float64, float64) { return d, d + float64(10*k)*1e9 },
		step:   func(k int) time.Duration { return time.Duration(k) * time.Second },
	},
	FullSec: {
		name: "fullsec", title: "Full jitter in whole seconds, d included", library: "Celery", factor: true,
		words: func(p Params, d string) string {
			return "Retry k waits a random whole number of seconds from 0 up to and including " + d + " (full jitter in whole seconds)"
		},
		// Whole seconds below d + 1 s: 0, 1, …, d in seconds, rounded down.
		bounds: func(p Params, _ int, d float64) (float64, float64) { return 0, d + 1e9 },
		step:   wholeSeconds,
	},
}

func wholeMs(int) time.Duration      { return time.Millisecond }
func wholeSeconds(int) time.Duration { return time.Second }

// jitterNames are the modes' names, by Jitter.
var jitterNames = func() (names [jitterCount]string) {
	for j, m := range modes {
		names[j] = m.name
	}
	return names
}()

// JitterNames are the modes' names, by Jitter: the jitter key's values.
func JitterNames() []string { return jitterNames[:] }

// Jitters lists the five classic jitter modes, in the order the comparison and the herd show
// them.
func Jitters() []Jitter {
	var js []Jitter
	for j, m := range modes {
		if m.classic {
			js = append(js, Jitter(j))
		}
	}
	return js
}

// AllJitters lists every jitter mode: the classic five, then the libraries' own.
func AllJitters() []Jitter {
	js := Jitters()
	for j, m := range modes {
		if !m.classic {
			js = append(js, Jitter(j))
		}
	}
	return js
}

func (j Jitter) String() string {
	if j < jitterCount {
		return jitterNames[j]
	}
	return fmt.Sprintf("Jitter(%d)", uint8(j))
}

// Title names the mode in a sentence of its own: "Decorrelated jitter". Title, Library,
// FromPrevious and the Uses methods take a mode of AllJitters.
func (j Jitter) Title() string { return modes[j].title }

// Library is the library whose own mode j is, "k8s" for Upward; "" for the classic five.
func (j Jitter) Library() string { return modes[j].library }

// FromPrevious reports whether a wait depends on the previous one (decorrelated and
// decorrelatedv2). Such a mode clamps every draw to cap and jitters every retry, whatever capat
// and first say.
func (j Jitter) FromPrevious() bool { return modes[j].chain != nil }

// ByRetry reports whether a wait's range depends on the retry's number, not on its delay alone
// (Sidekiq's jitter, which grows with k): Bounds has no range for such a mode.
func (j Jitter) ByRetry() bool { return modes[j].byRetry }

// UsesFactor, UsesRatio and UsesAdd report whether the mode reads factor, ratio and add; every
// mode reads base and cap.
func (j Jitter) UsesFactor() bool { return modes[j].factor }
func (j Jitter) UsesRatio() bool  { return modes[j].ratio }
func (j Jitter) UsesAdd() bool    { return modes[j].add }

// ForOtherModes lists the keys of p that its own waits do not read and the modes table's other
// rows do (ratio, factor), each with why in words: a preset and an import, which set the policy
// whole, set these to their defaults, and say so with why.
func (p Params) ForOtherModes() (keys, whys []string) {
	if !p.Jitter.UsesRatio() {
		keys = append(keys, "ratio")
		whys = append(whys, "jitter "+p.Jitter.String()+" reads no ratio; the modes table's proportional row does")
	}
	if !p.Jitter.UsesFactor() && p.Growth != Linear {
		keys = append(keys, "factor")
		whys = append(whys, "jitter "+p.Jitter.String()+" reads no factor; the modes table's other rows do")
	}
	return keys, whys
}

// WaitWords says in one sentence what retry k of p waits, where cap applies and what the first
// retry does: with the defaults, "Retry k waits a random time between 0 and
// d = min(10 s, 100 ms × 2^(k−1)) (full jitter)." p must be valid.
func (p Params) WaitWords() string {
	m := &modes[p.Jitter]
	grows := [...]string{
		Exponential: FormatFloat(p.Factor) + "^(k−1)",
		Linear:      "k",
		Polynomial:  "k^" + FormatFloat(p.Factor),
		Polynomial0: "(k−1)^" + FormatFloat(p.Factor),
	}
	d := fmt.Sprintf("d = min(%s, %s × %s)", wordsTime(p.Cap), wordsTime(p.Base), grows[p.Growth])
	s := m.words(p, d)
	switch {
	case m.chain != nil:
	case p.CapAt == CapAfter && m.step == nil:
		s += fmt.Sprintf(", drawn without the cap and then clamped to %s", wordsTime(p.Cap))
	case p.CapAt == CapFixed:
		s += fmt.Sprintf("; once the nominal delay is over %s, it waits exactly %s, without jitter", wordsTime(p.Cap), wordsTime(p.Cap))
	}
	if p.FirstExact && m.chain == nil {
		s += fmt.Sprintf("; the first retry waits exactly %s", wordsTime(p.Base))
	}
	switch {
	case p.Offset == 0:
	case m.chain != nil:
		s += "; offset is not used"
	default:
		s += fmt.Sprintf("; every wait is %s longer (offset)", wordsTime(p.Offset))
	}
	return s + "."
}

func human(d time.Duration) string { return Human(float64(d)) }

// wordsTime writes d as Human does, with days in full, for the formula words, where d is the
// nominal delay: "d = min(7 days, 1 s × (k−1)^4)", not "d = min(7 d, …)".
func wordsTime(d time.Duration) string {
	s := human(d)
	if num, ok := strings.CutSuffix(s, " d"); ok {
		if num == "1" {
			return "1 day"
		}
		return num + " days"
	}
	return s
}
