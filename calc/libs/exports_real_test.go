//go:build !js

package libs

// The exported configurations against the real Go libraries (test-only dependencies, pinned in
// go.mod): the library's own types are built from the export's typed configuration (Export.Config:
// cenkalti, client-go), which the snippet must read back to, or from the snippet itself (AWS,
// gRPC); the library's own retry loop runs an operation that always fails on synctest's fake
// clock, and every retry's draws must lie in the bounds of what the panel says the library does
// (Export.Model, which is the policy itself when the panel lists no differences), with the means
// within four standard errors, and the attempts made must be the ones the panel states. make
// drift runs these tests against the newest versions.

import (
	"context"
	"errors"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/cenkalti/backoff/v5"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"k8s.io/apimachinery/pkg/util/wait"
	clientretry "k8s.io/client-go/util/retry"
)

// runsPerPolicy is how many times each library's loop runs per policy.
const runsPerPolicy = 2000

// realCases are the policies run through the real libraries: the defaults, a budget, the cap
// after the jitter, a fixed cap, an upward jitter whose Cap stops client-go, and the presets of
// these libraries and of cenkalti (a budget of 15 min that client-go's Cap makes moot).
var realCases = []string{
	"",
	"budget=2s&attempts=10&cap=1s",
	"budget=1500ms&attempts=10&cap=1s&jitter=equal",
	"jitter=proportional&ratio=0.5&cap=1s&capat=after&attempts=8",
	"base=2s&factor=2&cap=20s&attempts=6&jitter=full&capat=fixed",
	"jitter=upward&ratio=0.1&base=10ms&factor=5&cap=1s&attempts=6",
	"preset=cenkalti-v5",
	"preset=k8s-default-retry",
	"preset=k8s-default-backoff",
	"preset=aws-go-v2",
	"preset=aws-go-v2-2026",
	"preset=grpc-retry",
}

// loopRun is one run of a library's loop: the waits between its attempts, and any sleep after the
// last attempt before it gave up.
type loopRun struct {
	waits []time.Duration
	after time.Duration
}

// mustExportOf is p's export to lib.
func mustExportOf(t *testing.T, p calc.Params, lib string) Export {
	t.Helper()
	for _, e := range Exports(p) {
		if e.Lib == lib {
			return e
		}
	}
	t.Fatalf("no export to %s", lib)
	return Export{}
}

// checkRuns compares the real library's runs with what the panel says of it (e).
// budgeted says whether the library stops at the policy's budget by itself.
func checkRuns(t *testing.T, query string, p calc.Params, e Export, runs []loopRun, budgeted bool) {
	t.Helper()
	model := e.Model
	if !budgeted {
		model.Budget = 0
	}
	rows := model.Schedule().Rows
	if len(e.Diffs) == 0 && !sameWaits(p.Schedule(), e.Model.Schedule()) {
		t.Errorf("%q %s: no differences listed, but the model waits otherwise", query, e.Lib)
	}
	lo, hi := model.Attempts, model.Attempts
	if budgeted && model.Budget > 0 {
		sc := model.Schedule()
		lo, hi = sc.Always, sc.AtMost
	}
	sum := make([]float64, len(rows))
	n := make([]int, len(rows))
	for _, r := range runs {
		if got := len(r.waits) + 1; got < lo || got > hi {
			t.Fatalf("%q %s: the library made %d attempts; the panel says %d to %d (%q)", query, e.Lib, got, lo, hi, e.Diffs)
		}
		for i, w := range r.waits {
			row := rows[i+1]
			if w < row.Min-1 || w > row.Max+1 {
				t.Fatalf("%q %s retry %d: the library waited %v, outside [%v, %v] (%q)", query, e.Lib, row.Retry, w, row.Min, row.Max, e.Diffs)
			}
			sum[i+1] += float64(w)
			n[i+1]++
		}
	}
	for k := 1; k < len(rows); k++ {
		// Under a budget the later retries are made only on short paths: their mean is biased.
		if n[k] < len(runs) {
			break
		}
		// Four standard errors, the standard deviation being at most half the range.
		tol := 4 * float64(rows[k].Max-rows[k].Min) / 2 / math.Sqrt(float64(n[k]))
		if mean := sum[k] / float64(n[k]); math.Abs(mean-rows[k].Mean) > tol+1 {
			t.Errorf("%q %s retry %d: the library's mean %v, the panel's %v", query, e.Lib, k, time.Duration(mean), time.Duration(rows[k].Mean))
		}
	}
	// Every count of attempts the panel states is the one the library made.
	for _, d := range e.Diffs {
		for _, m := range regexp.MustCompile(`makes (?:all )?(\d+) attempts?`).FindAllStringSubmatch(d, -1) {
			if stated, _ := strconv.Atoi(m[1]); stated != len(runs[0].waits)+1 {
				t.Errorf("%q %s: the panel says %q; the library made %d attempts", query, e.Lib, m[0], len(runs[0].waits)+1)
			}
		}
	}
}

// goFields reads the `Name: value,` lines of a Go composite literal in a snippet.
func goFields(t *testing.T, code string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\t(\w+):\s+(.+),$`).FindAllStringSubmatch(code, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// goDuration reads a duration as the snippets write it: 0, time.Second, 250 * time.Millisecond.
func goDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	units := map[string]time.Duration{"time.Hour": time.Hour, "time.Minute": time.Minute, "time.Second": time.Second,
		"time.Millisecond": time.Millisecond, "time.Microsecond": time.Microsecond, "time.Nanosecond": time.Nanosecond}
	s = strings.ReplaceAll(s, " ", "")
	if s == "0" {
		return 0
	}
	n, unit, ok := strings.Cut(s, "*")
	if !ok {
		n, unit = "1", s
	}
	k, err := strconv.ParseInt(n, 10, 64)
	if err != nil || units[unit] == 0 {
		t.Fatalf("duration %q", s)
	}
	return time.Duration(k) * units[unit]
}

func goFloat(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// goCall reads the argument of the call fn(...) in a snippet.
func goCall(t *testing.T, code, fn string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(fn) + `\(([^()]*)\)`).FindStringSubmatch(code)
	if m == nil {
		t.Fatalf("no %s( in\n%s", fn, code)
	}
	return m[1]
}

var errFail = errors.New("fail")

func TestExportCenkaltiReal(t *testing.T) {
	for _, q := range realCases {
		p := snippetParams(t, q)
		e := mustExportOf(t, p, "cenkalti")
		if len(e.Snippets) == 0 {
			continue
		}
		// The library runs from the typed configuration; the code written from it must say the same.
		c := e.Config.(CenkaltiConfig)
		code := e.Snippets[0].Code
		f := goFields(t, code)
		tries, _ := strconv.Atoi(goCall(t, code, "backoff.WithMaxTries"))
		read := CenkaltiConfig{goDuration(t, f["InitialInterval"]), goFloat(t, f["RandomizationFactor"]), goFloat(t, f["Multiplier"]),
			goDuration(t, f["MaxInterval"]), tries, goDuration(t, goCall(t, code, "backoff.WithMaxElapsedTime"))}
		if read != c {
			t.Errorf("%q: the code says %+v, the configuration %+v", q, read, c)
		}
		runs := make([]loopRun, runsPerPolicy)
		synctest.Test(t, func(t *testing.T) {
			for i := range runs {
				b := &backoff.ExponentialBackOff{
					InitialInterval:     c.InitialInterval,
					RandomizationFactor: c.RandomizationFactor,
					Multiplier:          c.Multiplier,
					MaxInterval:         c.MaxInterval,
				}
				var last time.Time
				_, err := backoff.Retry(context.Background(), func() (int, error) {
					if !last.IsZero() {
						runs[i].waits = append(runs[i].waits, time.Since(last))
					}
					last = time.Now()
					return 0, errFail
				}, backoff.WithBackOff(b), backoff.WithMaxTries(uint(c.MaxTries)), backoff.WithMaxElapsedTime(c.MaxElapsedTime))
				if !errors.Is(err, errFail) {
					t.Fatal(err)
				}
			}
		})
		checkRuns(t, q, p, e, runs, true)
	}
}

func TestExportClientGoReal(t *testing.T) {
	for _, q := range realCases {
		p := snippetParams(t, q)
		e := mustExportOf(t, p, "client-go")
		if len(e.Snippets) == 0 {
			continue
		}
		// The library runs from the typed configuration; the code written from it must say the same.
		c := e.Config.(WaitBackoff)
		f := goFields(t, e.Snippets[0].Code)
		read := WaitBackoff{Duration: goDuration(t, f["Duration"]), Factor: goFloat(t, f["Factor"]), Jitter: goFloat(t, f["Jitter"])}
		read.Steps, _ = strconv.Atoi(f["Steps"])
		if v, ok := f["Cap"]; ok {
			read.Cap = goDuration(t, v)
		}
		if read != c {
			t.Errorf("%q: the code says %+v, the configuration %+v", q, read, c)
		}
		b := wait.Backoff{Duration: c.Duration, Factor: c.Factor, Jitter: c.Jitter, Steps: c.Steps, Cap: c.Cap}
		runs := make([]loopRun, runsPerPolicy)
		synctest.Test(t, func(t *testing.T) {
			for i := range runs {
				var last time.Time
				err := clientretry.OnError(b, func(error) bool { return true }, func() error {
					if !last.IsZero() {
						runs[i].waits = append(runs[i].waits, time.Since(last))
					}
					last = time.Now()
					return errFail
				})
				if !errors.Is(err, errFail) {
					t.Fatal(err)
				}
				runs[i].after = time.Since(last)
			}
		})
		checkRuns(t, q, p, e, runs, false)
		// After its last attempt, with a Cap that stopped it, OnError still sleeps that step's
		// wait; the panel says so, with its bounds.
		if said := strings.Contains(strings.Join(e.Diffs, " "), "after the last one still sleeps"); said != (runs[0].after > 0) {
			t.Errorf("%q: OnError slept %v after the last attempt; the panel says so: %v (%q)", q, runs[0].after, said, e.Diffs)
		}
	}
}

// awsRetryer loads the exported shared config file through config.LoadDefaultConfig, as an
// application would, with no other source of settings, and builds the retryer from it as a
// service client does (its resolveRetryer and finalizeRetryMaxAttempts).
func awsRetryer(t *testing.T, ini string) func() aws.Retryer {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(file, []byte(ini), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"AWS_CONFIG_FILE": file, "AWS_SHARED_CREDENTIALS_FILE": file, "AWS_PROFILE": "default",
		"AWS_REGION": "us-east-1", "AWS_RETRY_MODE": "", "AWS_MAX_ATTEMPTS": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_NEW_RETRIES_2026": ""} {
		t.Setenv(k, v)
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RetryMode != aws.RetryModeStandard || cfg.RetryMaxAttempts == 0 {
		t.Fatalf("the SDK read retry_mode %q, max_attempts %d from\n%s", cfg.RetryMode, cfg.RetryMaxAttempts, ini)
	}
	return func() aws.Retryer { return retry.AddWithMaxAttempts(retry.NewStandard(), cfg.RetryMaxAttempts) }
}

// The AWS exports through aws-sdk-go-v2 v1.48.0: its retryer from the exported config file, and
// for the export that targets the versions before v1.48.0, the formula they used, which v1.48.0
// keeps in NewExponentialJitterBackoff. The retry middleware sleeps RetryDelay(attempt that
// failed, err) and stops after MaxAttempts attempts; the error is not a throttling error.
func TestExportAWSGoReal(t *testing.T) {
	legacy := retry.NewExponentialJitterBackoff(retry.DefaultMaxBackoff)
	for _, q := range realCases {
		p := snippetParams(t, q)
		for _, lib := range []string{"aws-go-v2-2026", "aws-go-v2"} {
			e := mustExportOf(t, p, lib)
			retryer := awsRetryer(t, e.Snippets[0].Code)
			if attempts := retryer().MaxAttempts(); attempts != p.Attempts {
				t.Errorf("%q %s: the SDK read max_attempts %d, the policy has %d", q, lib, attempts, p.Attempts)
			}
			runs := make([]loopRun, runsPerPolicy)
			for i := range runs {
				r := retryer()
				delay := r.RetryDelay
				if lib == "aws-go-v2" {
					delay = legacy.BackoffDelay
				}
				for attempt := 1; attempt < r.MaxAttempts(); attempt++ {
					d, err := delay(attempt, errFail)
					if err != nil {
						t.Fatal(err)
					}
					runs[i].waits = append(runs[i].waits, d)
				}
			}
			checkRuns(t, q, p, e, runs, false)
		}
	}
}

// grpc-go accepts every exported service config, and rejects one whose maxAttempts is under 2,
// as the panel says for one attempt.
func TestExportGRPCReal(t *testing.T) {
	dial := func(sc string) error {
		cc, err := grpc.NewClient("passthrough:///backend", grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(sc))
		if err == nil {
			cc.Close()
		}
		return err
	}
	for _, c := range snippetCases {
		e := mustExportOf(t, snippetParams(t, c.query), "grpc")
		for _, s := range e.Snippets {
			if err := dial(s.Code); err != nil {
				t.Errorf("%s: grpc-go rejects the export: %v\n%s", c.name, err, s.Code)
			}
		}
	}
	e := mustExportOf(t, snippetParams(t, "attempts=2"), "grpc")
	one := strings.Replace(e.Snippets[0].Code, `"maxAttempts": 2,`, `"maxAttempts": 1,`, 1)
	err := dial(one)
	if err == nil || !strings.Contains(err.Error(), "invalid retry policy") {
		t.Errorf("maxAttempts 1: %v", err)
	}
	said := mustExportOf(t, snippetParams(t, "attempts=1"), "grpc").Diffs
	if len(said) != 1 || !strings.Contains(said[0], `NewClient fails with "invalid retry policy"`) {
		t.Errorf("attempts=1: the panel says %q", said)
	}
}

// The export of a link whose limiter is grpc's writes its retryThrottling, and grpc-go throttles
// by it as calc/limiter's model of it does: a server whose health check fails (UNAVAILABLE) or
// succeeds in phases counts the attempts of each call on a channel that only the exported
// service config sets up, and the model, told the same failures and successes, allows the same
// retries. Without the limiter the export writes no retryThrottling and every failing call
// makes its 5 attempts. And grpc-go refuses a retryThrottling outside what the link accepts for
// maxtokens and tokenratio: (0, 1000] and above 0.
func TestExportGRPCThrottlingReal(t *testing.T) {
	for _, q := range []string{"limiter=grpc&maxtokens=10&tokenratio=0.5", "limiter=grpc&maxtokens=3&tokenratio=1.5",
		"limiter=grpc&maxtokens=7.5&tokenratio=0.25", "limiter=none"} {
		p := snippetParams(t, q+"&base=1ms&cap=2ms&attempts=5&jitter=none")
		e := mustExportOf(t, p, "grpc")
		code := e.Snippets[0].Code
		if strings.Contains(code, "retryThrottling") != (p.Limiter == limiter.GRPC) {
			t.Fatalf("%s: retryThrottling written %v:\n%s", q, !(p.Limiter == limiter.GRPC), code)
		}
		var model limiter.Limiter
		if p.Limiter == limiter.GRPC {
			model = limiter.New(limiter.GRPC, p.Limits)
		}
		fails, attempts := &atomic.Bool{}, &atomic.Int64{}
		cc := healthServer(t, fails, attempts, strings.Replace(code, "your.package.Service", "grpc.health.v1.Health", 1))
		client := healthpb.NewHealthClient(cc)
		for call := range 40 {
			fail := call%20 < 12 // 12 failing calls, then 8 that succeed, twice
			fails.Store(fail)
			attempts.Store(0)
			_, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{})
			if (err != nil) != fail {
				t.Fatalf("%s call %d: %v", q, call, err)
			}
			want := 1
			switch {
			case !fail && model != nil:
				model.Succeed(0, 1, 0)
			case fail:
				for {
					last := want == p.Attempts // its failure takes a token too
					if model != nil {
						if ok, _ := model.Retry(limiter.Failure{Last: last}); !ok {
							break
						}
					}
					if last {
						break
					}
					want++
				}
			}
			if got := attempts.Load(); got != int64(want) {
				t.Errorf("%s call %d (failing %v): grpc-go made %d attempts, the model %d", q, call, fail, got, want)
			}
		}
	}
	for _, c := range []struct {
		t  GRPCThrottling
		ok bool
	}{{GRPCThrottling{1000, 0.001}, true}, {GRPCThrottling{0.5, 1e-9}, true}, {GRPCThrottling{1000, 1000}, true},
		{GRPCThrottling{1000.5, 0.1}, false}, {GRPCThrottling{0, 0.1}, false}, {GRPCThrottling{10, 0}, false}} {
		sc := GRPCRetryPolicy{MaxAttempts: 2, InitialBackoff: time.Second, MaxBackoff: time.Second, BackoffMultiplier: 2, Throttling: &c.t}.JSON()
		cc, err := grpc.NewClient("passthrough:///backend", grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(sc))
		if err == nil {
			cc.Close()
		}
		if (err == nil) != c.ok {
			t.Errorf("%+v: grpc-go says %v", c.t, err)
		}
		_, err = Decode("limiter=grpc&maxtokens=" + strconv.FormatFloat(c.t.MaxTokens, 'f', -1, 64) + "&tokenratio=" + strconv.FormatFloat(c.t.TokenRatio, 'f', -1, 64))
		if (err == nil) != c.ok {
			t.Errorf("%+v: the link says %v, grpc-go accepts it %v", c.t, err, c.ok)
		}
	}
}

// healthServer serves grpc.health.v1's Check in memory, answering UNAVAILABLE while fails holds
// and counting every attempt, and returns a channel to it set up by serviceConfig.
func healthServer(t *testing.T, fails *atomic.Bool, attempts *atomic.Int64, serviceConfig string) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer()
	healthpb.RegisterHealthServer(s, &failingHealth{fails: fails, attempts: attempts})
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	cc, err := grpc.NewClient("passthrough:///bufnet", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		t.Fatalf("grpc-go refuses the export: %v\n%s", err, serviceConfig)
	}
	t.Cleanup(func() { cc.Close() })
	return cc
}

type failingHealth struct {
	healthpb.UnimplementedHealthServer
	fails    *atomic.Bool
	attempts *atomic.Int64
}

func (h *failingHealth) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	h.attempts.Add(1)
	if h.fails.Load() {
		return nil, status.Error(codes.Unavailable, "down")
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// TestTemporalExport runs the export's TemporalRetryPolicy through the Go SDK (go.temporal.io/sdk,
// pinned in go.mod), whose getRetryBackoffWithNowTime computes each wait: a local activity that
// always fails makes the attempts of the export's Model, each wait exactly the Model's (Temporal
// draws no jitter), for a jitter it cannot draw, sub-millisecond and odd values, factor 1, one
// attempt, a cap it never reaches and a delay whose float overflows before the cap.
func TestTemporalExport(t *testing.T) {
	for _, q := range []string{
		"", "preset=temporal", "attempts=1", "jitter=none&cap=1s&attempts=8",
		"base=150us&factor=3&cap=20ms&jitter=full&attempts=5",
		"base=25.5ms&factor=1.5&cap=1s&attempts=12&jitter=proportional&ratio=0.2",
		"factor=1&jitter=equal&base=250ms&cap=250ms",
		"base=1s&factor=7&cap=168h&attempts=8&jitter=none",
		"factor=100&attempts=12&cap=168h&jitter=none",
	} {
		p, err := Decode(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		e := mustExportOf(t, p, "temporal")
		c, ok := e.Config.(TemporalRetryPolicy)
		if !ok {
			t.Fatalf("%q: no TemporalRetryPolicy: %q", q, e.Diffs)
		}
		waits := temporalWaits(t, &temporal.RetryPolicy{InitialInterval: c.InitialInterval, BackoffCoefficient: c.BackoffCoefficient,
			MaximumInterval: c.MaximumInterval, MaximumAttempts: c.MaximumAttempts})
		rows := e.Model.Schedule().Rows
		if len(waits) != len(rows)-1 {
			t.Errorf("%q: Temporal made %d attempts, the Model %d", q, len(waits)+1, len(rows))
			continue
		}
		for i, w := range waits {
			if r := rows[i+1]; r.Min != r.Max || !near(float64(w), float64(r.Max)) {
				t.Errorf("%q: retry %d waits %v with Temporal, %v–%v with the Model", q, i+1, w, r.Min, r.Max)
			}
		}
	}
}
