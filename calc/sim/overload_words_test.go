package sim

import (
	"strings"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// retriesAtOnce counts the retries a fresh limiter of kind k admits when request after request
// fails with f, each wanting one retry, until it refuses one: the limiter's own answer to what
// the words derive from its rule.
func retriesAtOnce(k limiter.Kind, f limiter.Failure) int {
	l := limiter.New(k, limiter.Defaults())
	for n := 0; ; n++ {
		l.Begin(0)
		if ok, _ := l.Retry(f); !ok || n > 100000 {
			return n
		}
	}
}

// TestRetriesUnderFailure checks the closed forms against hand-derived counts, and against the
// limiters themselves.
func TestRetriesUnderFailure(t *testing.T) {
	for _, tt := range []struct {
		maxTokens float64
		want      int
	}{
		{10, 4},     // 9, 8, 7, 6 are above 5; 5 is not
		{11, 5},     // 10..6 are above 5.5
		{1, 0},      // 0 is not above 0.5
		{0.5, 0},    // the count goes to 0 (never below)
		{2.5, 1},    // 1.5 is above 1.25, 0.5 is not
		{1000, 499}, // the largest grpc-go accepts
	} {
		if got := limiter.GRPCRetriesUnderFailure(tt.maxTokens); got != tt.want {
			t.Errorf("grpc %v tokens: %d retries, want %d", tt.maxTokens, got, tt.want)
		}
		// One request failing again and again takes the same tokens as many failing once.
		l := limiter.New(limiter.GRPC, limiter.Params{GRPCMaxTokens: tt.maxTokens, GRPCTokenRatio: 0.1})
		n := 0
		for ok := true; ok; n++ {
			ok, _ = l.Retry(limiter.Failure{})
		}
		if n-1 != tt.want {
			t.Errorf("grpc %v tokens: the limiter admits %d, the words say %d", tt.maxTokens, n-1, tt.want)
		}
	}
	for _, tt := range []struct {
		kind               limiter.Kind
		timeout, throttled bool
		want               int
	}{
		{limiter.AWS, false, false, 100},    // 500 / 5
		{limiter.AWS, true, false, 50},      // 500 / 10
		{limiter.AWS2026, false, false, 35}, // 500 / 14 = 35.7: 10 left, fewer than 14
		{limiter.AWS2026, false, true, 100}, // 500 / 5
		{limiter.AWS2026, true, false, 35},  // no timeout cost of its own
	} {
		got := limiter.AWSRetriesUnderFailure(tt.kind, tt.timeout, tt.throttled)
		if got != tt.want {
			t.Errorf("%s timeout %v throttled %v: %d, want %d", tt.kind, tt.timeout, tt.throttled, got, tt.want)
		}
		if n := retriesAtOnce(tt.kind, limiter.Failure{Timeout: tt.timeout, Throttled: tt.throttled}); n != got {
			t.Errorf("%s: the limiter admits %d, the words say %d", tt.kind, n, got)
		}
	}
}

func TestFinagleRetriesPerSecond(t *testing.T) {
	d := calc.Default()
	tests := []struct {
		name   string
		change func(p *calc.Params)
		want   float64
	}{
		// 1 × 10 + 100 × 0.2
		{"defaults", func(p *calc.Params) { p.Rate, p.Attempts = 100, 3 }, 30},
		// 4 processes: 4 × 10 + 100 × 0.2
		{"processes", func(p *calc.Params) { p.Rate, p.Attempts, p.Processes = 100, 3, 4 }, 60},
		// The policy asks for only 5 × 1 retries per second.
		{"policy bound", func(p *calc.Params) { p.Rate, p.Attempts = 5, 2 }, 5},
		// 1000/0.3 = 3333 tokens per retry: a deposit of 1000 pays for 0.30003 retries.
		{"rounding", func(p *calc.Params) {
			p.Rate, p.Attempts, p.Limits.FinaglePercent, p.Limits.FinagleMinRetries = 10000, 10, 0.3, 0
		}, 10000 * 1000.0 / 3333},
		{"reserve only", func(p *calc.Params) { p.Rate, p.Attempts, p.Limits.FinaglePercent = 100, 10, 0 }, 10},
		// The largest inputs stay finite.
		{"overflow", func(p *calc.Params) {
			p.Rate, p.Attempts, p.Processes, p.Limits.FinagleMinRetries, p.Limits.FinaglePercent = calc.MaxRate, policy.MaxAttempts, calc.MaxProcesses, limiter.MaxCount, limiter.MaxFinaglePercent
		}, calc.MaxRate * (policy.MaxAttempts - 1)}, // the policy's bound, under the budget of 1e10 + 1e8
	}
	for _, tt := range tests {
		p := d
		tt.change(&p)
		if got := FinagleRetriesPerSecond(p); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestFailingLoadWords(t *testing.T) {
	p := calc.Default()
	p.Rate, p.Run, p.Attempts = 50, 10*time.Second, 4
	// 50 × 4 = 200 attempts per second; 20 per 100ms = 200 per second.
	want := "If every attempt failed, the stream of 50 requests per second for 10 s, each making its 4 attempts, would send 200 attempts per second; the server serves 200 per second (20 per 100 ms window)."
	if got := FailingLoadWords(p); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	p.Capacity, p.Rate = 0, 0.5
	if got := FailingLoadWords(p); !strings.Contains(got, "0.5 requests per second") || !strings.Contains(got, "send 2 attempts") || !strings.Contains(got, "no capacity limit") {
		t.Errorf("got %q", got)
	}
	p.Run = 0
	if got := FailingLoadWords(p); !strings.HasPrefix(got, "There is no stream") {
		t.Errorf("without a stream: %q", got)
	}
}

func TestLimiterBoundWords(t *testing.T) {
	p := calc.Default()
	p.Rate, p.Run, p.Attempts, p.Processes = 50, 10*time.Second, 4, 2
	want := map[limiter.Kind][]string{
		limiter.None:    {"200 attempts per second"},
		limiter.GRPC:    {"4 per process, 8 in all over 2 processes", "then only first attempts: 50 attempts per second"},
		limiter.AWS:     {"100 per process, 200 in all", "(50 per process after timeouts)"},
		limiter.AWS2026: {"35 per process, 70 in all", "(100 per process when the server was full)"},
		// 2 × 10 + 50 × 0.2 = 30 retries per second, 80 attempts per second.
		limiter.Finagle: {"up to 30 retries per second, 80 attempts per second"},
		limiter.Envoy:   {"not on their rate", "20% of its attempts in flight or queued and 3"},
		// k retries in flight let one more start while k < 3 or k/(20 + k) <= 0.2: k <= 5, 6
		// at once; k/(100 + k) <= 0.2: k <= 25, 26.
		limiter.Failsafe: {"fewer than 3 are in flight or they are at most 0.2 of its requests", "with 20 requests 6 run at once, with 100 26", "a refused retry ends its request"},
	}
	for _, k := range limiter.Kinds() {
		got := LimiterBoundWords(p, k)
		if !strings.HasPrefix(got, k.String()+": ") {
			t.Errorf("%s: %q does not start with its name", k, got)
		}
		for _, w := range want[k] {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", k, got, w)
			}
		}
		if src := k.Source(); src == "" || k != limiter.None && !strings.ContainsAny(src, "/.") {
			t.Errorf("%s: source %q names no file", k, src)
		}
	}
}

func TestDefaultValues(t *testing.T) {
	v := calc.DefaultValues()
	for _, key := range calc.Keys() {
		if v.Get(key) == "" && key != "solve" { // solve's default is the empty set
			t.Errorf("no default for %s", key)
		}
	}
	if p, err := calc.DecodeValues(v); err != nil || p.Encode() != calc.Default().Encode() {
		t.Errorf("the defaults decode to %v, %v", p.Encode(), err)
	}
	// AllValues keeps what Values leaves out at its default: a form shows every input's value.
	p, _ := calc.Decode("limiter=none&contenders=100&base=1s")
	all := p.AllValues()
	for _, key := range []string{"limiter", "contenders", "arrivals", "base"} {
		if all.Get(key) == "" || p.Values().Has(key) && key != "base" {
			t.Errorf("%s: AllValues %q, Values has it: %v", key, all.Get(key), p.Values().Has(key))
		}
	}
}

// The overload view's headline says whether and when the server recovered, what succeeded and
// what was wasted, for each way a run can end.
func TestOverloadHeadlineWords(t *testing.T) {
	for _, tc := range []struct {
		name   string
		run    OverloadRun
		stream time.Duration // StreamEnd
		want   string
	}{
		{"in the stream", OverloadRun{HerdRun: HerdRun{Accepted: 300}, Requests: 600, Served: 30, Wasted: 10, Recovered: 2 * time.Second, RecoveredInStream: true}, 10 * time.Second,
			"The server recovered at 2 s, while the stream still ran; 300 of 600 requests succeeded; 25% of the 40 attempts it served went to a client that had stopped waiting (wasted)."},
		{"after the stream", OverloadRun{HerdRun: HerdRun{Accepted: 1}, Requests: 1, Served: 1, Recovered: 64 * time.Second}, 10 * time.Second,
			"The server recovered at 1.07 min, after the stream ended; 1 of 1 request succeeded; 0% of the 1 attempt it served went to a client that had stopped waiting (wasted)."},
		// Nothing served: not "0% wasted" of nothing.
		{"not recovered", OverloadRun{Requests: 5, Recovered: -1}, 10 * time.Second,
			"The server had not recovered when the run ended: in its last window with an arrival, an attempt failed, waited or timed out; 0 of 5 requests succeeded; it served no attempt."},
		{"just before the stream's end", OverloadRun{HerdRun: HerdRun{Accepted: 1}, Requests: 1, Served: 1, Recovered: 9999 * time.Millisecond, RecoveredInStream: true}, 10 * time.Second,
			"The server recovered at < 10 s, while the stream still ran; 1 of 1 request succeeded; 0% of the 1 attempt it served went to a client that had stopped waiting (wasted)."},
		// Without a stream (run 0: StreamEnd) the sentence names none.
		{"no stream", OverloadRun{HerdRun: HerdRun{Accepted: 76}, Requests: 100, Served: 91, Recovered: time.Second}, 0,
			"The server recovered at 1 s; 76 of 100 requests succeeded; 0% of the 91 attempts it served went to a client that had stopped waiting (wasted)."},
		// Every request ended in the outage (a limiter refused their retries): the server, idle
		// from the outage's end, recovered then; it is not "not recovered".
		{"idle after the outage", OverloadRun{Requests: 100, Refused: 100, Recovered: time.Second, Idle: true}, 0,
			"The server recovered at 1 s, when the outage ended: no attempt arrived after it, and it stayed idle; 0 of 100 requests succeeded; it served no attempt."},
	} {
		if got := tc.run.HeadlineWords(tc.stream); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// Without a stream nothing is per second: the words under total failure name no rate, and the
// closed form of an error rate and the failing load have none, even when rate is set without a
// run (a rate of 80 for no time is no stream). With 80 per second and 6 attempts "none" said
// "480 attempts per second" of a stream that never runs.
func TestNoStreamNoRate(t *testing.T) {
	for _, rate := range []float64{0, 80} {
		p := calc.Default()
		p.FailRate, p.Rate = 0.1, rate
		if p.HasStream() || p.StreamEnd() != 0 {
			t.Fatalf("rate %v without a run: a stream", rate)
		}
		for _, k := range limiter.Kinds() {
			w := LimiterBoundWords(p, k)
			for _, rated := range []string{" attempts per second.", " attempts per second in all", " retries per second,", "480", "80 attempts"} {
				if strings.Contains(w, rated) {
					t.Errorf("rate %v, %s: %q says %q", rate, k, w, rated)
				}
			}
		}
		if offered, _ := FailingLoad(p); offered != 0 {
			t.Errorf("rate %v: offered %v attempts per second without a stream", rate, offered)
		}
		e := ErrorRateOf(p)
		if e.RetriesPerSecond != 0 {
			t.Errorf("rate %v: %v retries per second without a stream", rate, e.RetriesPerSecond)
		}
		for _, b := range e.Limiters {
			if b.AttemptsPerSecond != 0 {
				t.Errorf("rate %v, %s: %v attempts per second without a stream", rate, b.Limiter, b.AttemptsPerSecond)
			}
		}
	}
	// With a stream the rates stay: 80 requests of 6 attempts, 480 per second if all failed.
	p := calc.Default()
	p.Rate, p.Run = 80, time.Minute
	if w := LimiterBoundWords(p, limiter.None); w != "none: every request makes all its attempts: 480 attempts per second." {
		t.Errorf("with a stream: %q", w)
	}
}

// A rate is rounded half up, as by hand: 0.0625 to three decimals is 0.063 (strconv: 0.062).
func TestPerSecondHalfUp(t *testing.T) {
	for x, want := range map[float64]string{0.0625: "0.063", 33.3335: "33.334", 0.5: "0.5", 200: "200", 100.0 / 3: "33.333"} {
		if got := perSecond(x); got != want {
			t.Errorf("perSecond(%v) = %q, want %q", x, got, want)
		}
	}
}
