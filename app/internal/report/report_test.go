package report

import (
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

// Polly's jitter is described by its own formula; the decorrelated modes clamp every wait to
// cap and jitter every retry, so capat and first do not change what is said of them.
func TestDescribeDecorrelatedV2(t *testing.T) {
	for _, c := range []struct {
		query      string
		want, lack []string
	}{
		{"preset=polly-exponential-jitter", []string{
			"4 attempts = first call + 3 retries.",
			"Retry k draws t = k − 1 + U and waits (g(t) − g(t′)) × 2 s / 1.4 in whole 100 ns ticks, clamped to 7 d",
			"g(t) = 2^t × tanh(√(4t))", "DecorrelatedJitterBackoffV2; factor is not used",
		}, nil},
		{"jitter=decorrelatedv2&cap=1s&capat=fixed&first=exact", []string{"clamped to 1 s"},
			[]string{"without jitter", "first retry waits exactly"}},
		{"jitter=decorrelatedv2&cap=1s&capat=after", []string{"clamped to 1 s"}, []string{"drawn without the cap"}},
		{"jitter=decorrelated&cap=1s&capat=fixed&first=exact", []string{"at most 1 s (decorrelated jitter"},
			[]string{"without jitter", "first retry waits exactly"}},
		// The other modes keep their clauses.
		{"jitter=full&cap=1s&capat=fixed&first=exact", []string{"waits exactly 1 s, without jitter", "the first retry waits exactly 100 ms"}, nil},
	} {
		p, err := libs.Decode(c.query)
		if err != nil {
			t.Fatal(err)
		}
		got := Describe(p.ReportBounds())
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in %q", c.query, w, got)
			}
		}
		for _, l := range c.lack {
			if strings.Contains(got, l) {
				t.Errorf("%s: %q in %q", c.query, l, got)
			}
		}
	}
}

// With a budget, the layers' count says that it ignores it, and the herd's line that its clients
// keep to it: the schedule beside them lists every attempt, and the herd's attempts per client
// answered within the budget without saying so. Without a budget neither says a word of it.
func TestWordsSayWhetherTheBudgetCounts(t *testing.T) {
	for _, tc := range []struct {
		query        string
		layers, herd string // in LayersLine, in herdLine; "" for neither
	}{
		{"attempts=8&layers=3&budget=2s", ", ignoring the 2 s budget.", "Each client makes only the attempts that start within the 2 s budget"},
		{"attempts=8&layers=1&budget=1.5s", "up to 8 attempts, ignoring the 1.5 s budget.", "within the 1.5 s budget"},
		{"attempts=8&layers=3", "", ""},
	} {
		p, err := calc.Decode(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		r := p.ReportBounds()
		layers, herd := LayersLine(r), herdLine(p)
		if tc.layers == "" {
			if strings.Contains(layers, "budget") || strings.Contains(herd, "budget") {
				t.Errorf("%s: %q, %q speak of a budget", tc.query, layers, herd)
			}
			continue
		}
		if !strings.Contains(layers, tc.layers) || !strings.Contains(herd, tc.herd) {
			t.Errorf("%s: %q, %q; want %q and %q in them", tc.query, layers, herd, tc.layers, tc.herd)
		}
	}
}

// One attempt is said in the singular: "1 attempts always start within it" and "makes up to
// 1 attempts" were the words for a budget under the first wait and for attempts=1.
func TestOneAttemptInTheSingular(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"base=1s&budget=500ms&jitter=none", "Budget 500 ms: 1 attempt always starts within it, at most 1 does."},
		{"base=1s&budget=1500ms&jitter=none", "Budget 1.5 s: 2 attempts always start within it, at most 2 do."},
		{"attempts=1", "With 1 layer, one request makes up to 1 attempt."},
		{"attempts=1&layers=3", "With 3 stacked layers of 1 attempt each, one outer request can make up to 1 attempt at the innermost service (1^3)."},
		{"attempts=2&layers=2", "With 2 stacked layers of 2 attempts each, one outer request can make up to 4 attempts at the innermost service (2^2)."},
	} {
		p, err := calc.Decode(c.query)
		if err != nil {
			t.Fatal(err)
		}
		r := p.ReportBounds()
		got := LayersLine(r)
		if p.Budget > 0 {
			got = "Budget " + LimitText(p.Budget) + ": " + StartWithin(r.Schedule) + "."
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.query, got, c.want)
		}
	}
}

// The note of waits longer than the cap names what makes them: the jitter after the cap, the
// offset, or both; it said the jitter where the offset alone did it.
func TestOverCapNote(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"base=100ms&cap=1s&attempts=6&jitter=none&offset=1s", "A wait can be longer than the cap (1 s): the offset (1 s) is added to every wait after the cap."},
		{"base=100ms&cap=1s&attempts=6&jitter=full&capat=after&offset=1s", "A wait can be longer than the cap (1 s): the offset (1 s) is added to every wait after the cap."},
		{"base=100ms&cap=1s&attempts=6&jitter=proportional&ratio=0.5", "A wait can be longer than the cap (1 s): the jitter is applied after capping the nominal delay."},
		{"base=100ms&cap=1s&attempts=6&jitter=proportional&ratio=0.5&offset=250ms",
			"A wait can be longer than the cap (1 s): the jitter is applied after capping the nominal delay, and the offset (250 ms) is added to every wait after the cap."},
	} {
		p, err := libs.Decode(c.query)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Schedule().ExceedsCap {
			t.Fatalf("%s: no wait passes the cap", c.query)
		}
		if got := OverCapNote(p, func(d time.Duration) string { return policy.Human(float64(d)) }); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, c.want)
		}
		var text, md strings.Builder
		res := Results{Report: p.Report()}
		if err := WriteText(&text, res); err != nil || !strings.Contains(text.String(), c.want) {
			t.Errorf("%s: the text report lacks the note (%v)", c.query, err)
		}
		inMs := strings.NewReplacer("(1 s)", "(1000 ms)", "(250 ms)", "(250 ms)").Replace(c.want)
		if err := WriteMarkdown(&md, res); err != nil || !strings.Contains(md.String(), inMs) {
			t.Errorf("%s: the Markdown lacks %q (%v)", c.query, inMs, err)
		}
	}
}
