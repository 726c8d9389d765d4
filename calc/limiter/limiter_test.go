package limiter

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// burst runs n requests of the given attempts one after another at time 0, every attempt
// failing, and counts the retries l admits (those the policy wanted: not after the last attempt).
func burst(l Limiter, n, attempts int, f Failure) (retries int) {
	for range n {
		l.Begin(f.Now)
		for a := 1; a <= attempts; a++ {
			f.Last = a == attempts
			ok, _ := l.Retry(f)
			if f.Last || !ok {
				break
			}
			retries++
		}
	}
	return retries
}

// TestLimiterTotalFailure checks how many retries each limiter admits when every attempt fails,
// against answers derived by hand in each row's comment.
func TestLimiterTotalFailure(t *testing.T) {
	d := Defaults()
	tests := []struct {
		name              string
		kind              Kind
		n, attempts, want int
		f                 Failure
	}{
		// 10 tokens: request 1 fails 3 times (9, 8 allowed; 7 on its last), request 2: 6 allowed,
		// 5 refused (at or below 10/2); then every failure is refused.
		{"grpc", GRPC, 100, 3, 3, Failure{}},
		// One request with 10 attempts: 9, 8, 7, 6 allowed, 5 refused.
		{"grpc one request", GRPC, 1, 10, 4, Failure{}},
		// 500 / 5 = 100 retries: the first 50 requests take 2 each.
		{"aws", AWS, 100, 3, 100, Failure{}},
		// After timeouts a retry costs 10: 50.
		{"aws timeouts", AWS, 100, 3, 50, Failure{Timeout: true}},
		// 500 / 14 = 35, 10 tokens left.
		{"aws2026", AWS2026, 100, 3, 35, Failure{}},
		// Throttling costs 5 in 2026, timeouts cost like any error.
		{"aws2026 throttled", AWS2026, 100, 3, 100, Failure{Throttled: true}},
		{"aws2026 timeouts", AWS2026, 100, 3, 35, Failure{Timeout: true}},
		// The last attempt takes no token: 1 attempt, no retries, quota untouched.
		{"aws one attempt", AWS, 100, 1, 0, Failure{}},
		// Reserve 10/s × 10 s × 5000 = 500 000, each request deposits 1000, a retry takes 5000:
		// 100 + 100/5 = 120 (55 requests take 2, then one in five gets 1).
		{"finagle", Finagle, 100, 3, 120, Failure{}},
		{"finagle one request", Finagle, 1, 1000, 100, Failure{}},
		// Active 10 → max(2, 3) = 3 concurrent retries; with 2 running a third may start.
		{"envoy under min", Envoy, 1, 2, 1, Failure{Active: 10, Retries: 2}},
		{"envoy at min", Envoy, 1, 2, 0, Failure{Active: 10, Retries: 3}},
		// Active 100 → 20: 19 running admits one more, 20 none.
		{"envoy percent", Envoy, 1, 2, 1, Failure{Active: 100, Retries: 19}},
		{"envoy percent full", Envoy, 1, 2, 0, Failure{Active: 100, Retries: 20}},
		// 0.2 × 19 = 3.8 truncates to 3, the minimum.
		{"envoy truncates", Envoy, 1, 2, 0, Failure{Active: 19, Retries: 3}},
		// The bucket starts at 5 and each start adds 0.1, up to 5. Request 1: 5 → 4 → 3 (its
		// last failure asks nothing); request 2: 3.1 → 2.1 → 1.1; request 3: 1.2 → 0.2, then
		// refused. Request k > 3 starts at 0.2 + 0.1(k − 3), over 1 at k = 12 (1.1 → 0.1), then
		// every 10th: 12, 22, …, 92. 2 + 2 + 1 + 9 = 14.
		{"adaptive", Adaptive, 100, 3, 14, Failure{}},
		// 4 in a row from a full bucket: 5, 4, 3, 2 are over 1, 1 is not.
		{"adaptive one request", Adaptive, 1, 10, 4, Failure{}},
		// Every first attempt fails: failures = calls, over 10%, from the first failure on.
		{"retrybreaker", RetryBreaker, 100, 3, 0, Failure{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := burst(New(tt.kind, d), tt.n, tt.attempts, tt.f); got != tt.want {
				t.Errorf("%d requests × %d attempts failing: %d retries admitted, want %d", tt.n, tt.attempts, got, tt.want)
			}
		})
	}
	if New(None, d) != nil {
		t.Error("None: want no limiter")
	}
}

// TestBrookerScripted follows retry_strategy.py's two strategies through short scripted
// sequences of call starts (b), failures (f: true when a retry was allowed) and last failures
// (l), each step derived by hand in the comments.
func TestBrookerScripted(t *testing.T) {
	run := func(l Limiter, script string) string {
		out := ""
		for _, c := range script {
			switch c {
			case 'b':
				l.Begin(0)
			case 'f', 'l':
				ok, held := l.Retry(Failure{Last: c == 'l'})
				if held != 0 {
					t.Fatalf("held %d, want 0", held)
				}
				out += map[bool]string{true: "y", false: "n"}[ok]
			}
		}
		return out
	}
	tests := []struct {
		name, script, want string
		l                  Limiter
	}{
		// 5 → 4 → 3 → 2 → 1 (4 allowed), 1 is not over 1; one start: 1.1 → 0.1.
		{"adaptive drains", "bfffffbf", "yyyyny", newAdaptiveBucket()},
		// A last failure asks nothing and takes nothing: the next retry still finds 5.
		{"adaptive last", "blblf", "nny", newAdaptiveBucket()},
		// Starts never fill past 5: 100 starts, then the same 4.
		{"adaptive cap", strings.Repeat("b", 100) + "fffff", "yyyyn", newAdaptiveBucket()},
		// Drained to 1 (4 retries), then 9 starts give 1.9 (one retry: 0.9), 1 more gives 1.0:
		// not over 1.
		{"adaptive refill", "bffff" + strings.Repeat("b", 9) + "ff" + "bf", "yyyy" + "yn" + "n", newAdaptiveBucket()},
		// One call, one failure: 1/1 > 10%.
		{"breaker first failure", "bf", "n", &retryBreaker{}},
		// 10 calls, failure 1: 1/10 is not over 10%, retry; failure 2: 2/10 is. A last failure
		// counts as well: 10 more calls, 3/20 over; 10 more, 4/30 over; 10 more, 5/40 over...
		{"breaker counts every failure", strings.Repeat("b", 10) + "ff" + strings.Repeat("b", 10) + "l" + strings.Repeat("b", 10) + "f",
			"yn" + "n" + "n", &retryBreaker{}},
		// ... and only calls bring it back: 1 failure in 11 calls, then 2 in 20 allowed (10% is not over).
		{"breaker recovers with calls", strings.Repeat("b", 11) + "f" + strings.Repeat("b", 9) + "f" + "f", "yyn", &retryBreaker{}},
	}
	for _, tt := range tests {
		if got := run(tt.l, tt.script); got != tt.want {
			t.Errorf("%s: %q gives %q, want %q", tt.name, tt.script, got, tt.want)
		}
	}
}

// TestLimiterTotalSuccess checks that requests whose first attempt succeeds leave each bucket
// full (a failure burst afterwards admits what it admits on a fresh limiter), and how many
// successes refill a drained one, derived by hand.
func TestLimiterTotalSuccess(t *testing.T) {
	d := Defaults()
	succeed := func(l Limiter, n int) {
		for range n {
			l.Begin(0)
			l.Succeed(0, 1, 0)
		}
	}
	for _, k := range []Kind{GRPC, AWS, AWS2026, Envoy} {
		fresh := burst(New(k, d), 100, 3, Failure{Active: 10})
		l := New(k, d)
		succeed(l, 1000)
		if got := burst(l, 100, 3, Failure{Active: 10}); got != fresh {
			t.Errorf("%s after 1000 successes: %d retries, fresh %d", k, got, fresh)
		}
	}
	// Finagle's successes are deposits: 1000 requests at once add 1000 × 1000 / 5000 = 200
	// retries to the reserve's 100; the 100 failing requests add 20 more.
	l := New(Finagle, d)
	succeed(l, 1000)
	if got := burst(l, 200, 2, Failure{}); got != 200 {
		t.Errorf("finagle after 1000 successes, 200 failing requests of 2 attempts: %d retries, want 200 (all)", got)
	}
	// Left: 1 500 000 - 200 × 4000 = 700 000; the next 100 requests deposit 100 000 more:
	// 800 000 / 5000 = 160 retries, fewer than the 200 they ask for.
	if got := burst(l, 100, 3, Failure{}); got != 160 {
		t.Errorf("finagle: then 100 requests of 3 attempts: %d retries, want 160", got)
	}

	// Refilling a drained bucket: how many first-attempt successes until one retry is allowed.
	refill := []struct {
		name string
		kind Kind
		want int
	}{
		// Drained to 0; a retry needs tokens - 1 > 5, so 6.1 tokens: 61 successes of 0.1
		// (the float sum of sixty 0.1s is 5.999…, below 6: grpc-go does the same arithmetic).
		{"grpc", GRPC, 61},
		// Drained to 0; a retry costs 5: 5 successes of 1.
		{"aws", AWS, 5},
		// 10 tokens left; a retry costs 14: 4.
		{"aws2026", AWS2026, 4},
	}
	for _, tt := range refill {
		l := New(tt.kind, d)
		burst(l, 1000, 3, Failure{})
		got := 0
		for {
			if got > 10000 {
				t.Fatalf("%s: no retry after %d successes", tt.name, got)
			}
			g, isGRPC := l.(*grpcThrottle)
			var saved grpcThrottle
			if isGRPC {
				saved = *g // probing takes a token; put it back
			}
			q, isAWS := l.(*awsQuota)
			ok, held := l.Retry(Failure{})
			if isGRPC {
				*g = saved
			}
			if ok {
				if isAWS {
					q.tokens += held
				}
				break
			}
			l.Succeed(0, 1, 0)
			got++
		}
		if got != tt.want {
			t.Errorf("%s: %d successes before a retry, want %d", tt.name, got, tt.want)
		}
	}
}

// TestAWSQuotaRefund: a retried request that succeeds gives back what its last retry took, not
// 1, and never fills the bucket over its capacity.
func TestAWSQuotaRefund(t *testing.T) {
	q := newAWSQuota(awsLegacyCosts)
	_, held := q.Retry(Failure{})
	_, held = q.Retry(Failure{Timeout: true})
	if q.tokens != 485 || held != 10 {
		t.Fatalf("after a retry and a timeout retry: %d tokens, held %d; want 485, 10", q.tokens, held)
	}
	q.Succeed(0, 3, held)
	if q.tokens != 495 {
		t.Errorf("after the retried request succeeds: %d tokens, want 495", q.tokens)
	}
	for range 10 {
		q.Succeed(0, 1, 0)
	}
	if q.tokens != 500 {
		t.Errorf("after 10 first-attempt successes: %d tokens, want the capacity, 500", q.tokens)
	}
}

// TestFinagleExpiry: deposits expire as WindowedAdder's slices roll over. Five deposits at 0
// pay for one retry (minretries 0) until 9.999 s and have expired at 10 s, however the bucket
// was used in between; a deposit made later lives on.
func TestFinagleExpiry(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name    string
		touch   []time.Duration // reads of the bucket in between
		deposit time.Duration   // the fifth deposit's time (the first four are at 0)
		at      time.Duration
		want    bool
	}{
		{"untouched, before ttl", nil, 0, 9999 * ms, true},
		{"untouched, at ttl", nil, 0, 10 * time.Second, false},
		{"touched at 1s, before ttl", []time.Duration{time.Second}, 0, 9999 * ms, true},
		{"touched at 1s, at ttl", []time.Duration{time.Second}, 0, 10 * time.Second, false},
		// The fifth deposit at 1.5 s closes the first slice there and opens the next: the slices
		// now end at 1.5 s + k s, so the four deposits from 0 outlive ttl by half a second.
		{"one later deposit, after ttl", nil, 1500 * ms, 10499 * ms, true},
		{"one later deposit, gone", nil, 1500 * ms, 10500 * ms, false},
		// The next use after 0 comes at 10.5 s: everything from before has expired at once.
		{"long gap", nil, 0, 10500 * ms, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFinagleBudget(10*time.Second, 0, 0.2)
			for range 4 {
				b.Begin(0)
			}
			for _, at := range tt.touch {
				b.adder.sum(at.Milliseconds())
			}
			b.Begin(tt.deposit)
			if ok, _ := b.Retry(Failure{Now: tt.at}); ok != tt.want {
				t.Errorf("retry at %v: %v, want %v", tt.at, ok, tt.want)
			}
		})
	}
}

// grpcRetryThrottler is grpc-go v1.85.0's retryThrottler (clientconn.go), transcribed with only
// the mutex and the nil receiver checks left out, and its construction from
// ClientConn.applyServiceConfigAndBalancer.
type grpcRetryThrottler struct {
	max    float64
	thresh float64
	ratio  float64
	tokens float64
}

func newGRPCRetryThrottler(maxTokens, tokenRatio float64) *grpcRetryThrottler {
	return &grpcRetryThrottler{tokens: maxTokens, max: maxTokens, thresh: maxTokens / 2, ratio: tokenRatio}
}

func (rt *grpcRetryThrottler) throttle() bool {
	rt.tokens--
	if rt.tokens < 0 {
		rt.tokens = 0
	}
	return rt.tokens <= rt.thresh
}

func (rt *grpcRetryThrottler) successfulRPC() {
	rt.tokens += rt.ratio
	if rt.tokens > rt.max {
		rt.tokens = rt.max
	}
}

// TestGRPCThrottleMatchesGRPCGo drives ours and the transcription with the same seeded stream
// of failures and successes, in phases of mostly failing and mostly succeeding calls, and
// compares every decision and the token count after it.
func TestGRPCThrottleMatchesGRPCGo(t *testing.T) {
	for _, cfg := range []struct{ max, ratio float64 }{{10, 0.1}, {1000, 0.001}, {3, 1.5}, {1, 0.7}, {7.5, 0.333}} {
		ours := newGRPCThrottle(cfg.max, cfg.ratio)
		theirs := newGRPCRetryThrottler(cfg.max, cfg.ratio)
		r := rand.New(rand.NewPCG(1, uint64(cfg.max*1000)))
		refused := 0
		for step := range 20000 {
			pFail := 0.9
			if step/1000%2 == 1 {
				pFail = 0.1
			}
			if r.Float64() < pFail {
				ok, _ := ours.Retry(Failure{Last: r.IntN(3) == 0})
				if throttled := theirs.throttle(); ok == throttled {
					t.Fatalf("%v step %d: ours allows %v, grpc-go throttles %v", cfg, step, ok, throttled)
				}
				if !ok {
					refused++
				}
			} else {
				ours.Succeed(0, 1, 0)
				theirs.successfulRPC()
			}
			if ours.tokens != theirs.tokens {
				t.Fatalf("%v step %d: %v tokens, grpc-go %v", cfg, step, ours.tokens, theirs.tokens)
			}
		}
		if refused == 0 {
			t.Errorf("%v: no retry was refused: the comparison saw only one branch", cfg)
		}
	}
}

// TestLimitersComplete fails for a Kind constant without a complete entry in the table of
// limiters: the table has one entry for each value below Count, and a missing one is all
// zero. Only None makes no limiter. What the overload model says of each is checked with its
// table (calc's TestLimiterSayingsComplete).
func TestLimitersComplete(t *testing.T) {
	seen := map[string]bool{}
	names := Names()
	for k := range Count {
		l := limiters[k]
		if l.name == "" || l.source == "" {
			t.Fatalf("Kind(%d): no name or source", k)
		}
		if seen[l.name] {
			t.Errorf("Kind(%d): name %q twice", k, l.name)
		}
		seen[l.name] = true
		if (l.fresh == nil) != (k == None) {
			t.Errorf("%s: only none makes no limiter", l.name)
		}
		if (New(k, Defaults()) == nil) != (k == None) {
			t.Errorf("%s: New makes no limiter", l.name)
		}
		if got := k.String(); got != l.name || names[k] != l.name || k.Source() != l.source {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, l.name)
		}
	}
	if got := Count.String(); got != fmt.Sprintf("LimiterKind(%d)", Count) {
		t.Errorf("Count.String() = %q", got)
	}
	if got := Kinds(); len(got) != int(Count) || got[0] != None {
		t.Errorf("Kinds() = %v", got)
	}
}

// TestStarters: only failsafe's budget decides at a retry's start, so only it is a Starter; the
// others need no Start method, and Start lets every retry of theirs start.
func TestStarters(t *testing.T) {
	for _, k := range Kinds()[1:] {
		l := New(k, Defaults())
		if _, ok := l.(Starter); ok != (k == Failsafe) {
			t.Errorf("%s: Starter %v", k, ok)
		}
		if k != Failsafe && !Start(l, Failure{}) {
			t.Errorf("%s: a start refused", k)
		}
	}
	// failsafe with 3 retries in flight of 3 requests under way: 3/6 is over 0.2.
	if Start(New(Failsafe, Defaults()), Failure{Requests: 3, ActiveRetries: 3}) {
		t.Errorf("failsafe: a start allowed over its budget")
	}
}
