//go:build !js

package libs

// The presets against the real libraries: thousands of waits drawn from each Go library with
// the preset's parameters must lie in calc's per-attempt bounds, with means within five standard
// errors (the libraries draw from their own unseeded randomness, so a fixed 2% failed now and
// then: 4 runs in 30 for AWS; five standard errors fail about once in a million). These
// modules are test-only: nothing outside _test files imports them, so app.wasm does not grow.
// (Not under wasm: k8s.io/apimachinery is heavy to build there, and the golden test already
// proves calc gives the same numbers in both.)

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	"go.temporal.io/sdk/activity"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"
	"k8s.io/apimachinery/pkg/util/wait"
)

const libraryDraws = 5000

// checkDraws asserts every draw of every retry lies in the preset's bounds, and the means agree.
func checkDraws(t *testing.T, name string, draw func() []time.Duration) {
	t.Helper()
	pr, _ := PresetByName(name)
	rows := pr.Params.Schedule().Rows
	sum, sumSq := make([]float64, len(rows)), make([]float64, len(rows))
	for range libraryDraws {
		for i, w := range draw() {
			row := rows[i+1]
			if w < row.Min || w > row.Max {
				t.Fatalf("%s retry %d: the library waited %v, outside [%v, %v]", name, row.Retry, w, row.Min, row.Max)
			}
			sum[i+1] += float64(w)
			sumSq[i+1] += float64(w) * float64(w)
		}
	}
	for _, row := range rows[1:] {
		mean := sum[row.Retry] / libraryDraws
		variance := max(0, sumSq[row.Retry]/libraryDraws-mean*mean)
		tolerance := max(5*math.Sqrt(variance/libraryDraws), 1) // 1 ns: a wait that draws nothing
		if math.Abs(mean-row.Mean) > tolerance {
			t.Errorf("%s retry %d: the library's mean %v, calc's %v (tolerance %v)", name, row.Retry, time.Duration(mean), time.Duration(row.Mean), time.Duration(tolerance))
		}
	}
}

func TestCenkaltiBackoffV5(t *testing.T) {
	pr, _ := PresetByName("cenkalti-v5")
	b := backoff.NewExponentialBackOff() // the library's defaults, not ours
	checkDraws(t, pr.Name, func() []time.Duration {
		b.Reset()
		waits := make([]time.Duration, pr.Params.Attempts-1)
		for i := range waits {
			waits[i] = b.NextBackOff()
		}
		return waits
	})
}

func TestKubernetesWaitBackoff(t *testing.T) {
	// client-go's retry.DefaultRetry and retry.DefaultBackoff, copied from util/retry/util.go.
	for name, def := range map[string]wait.Backoff{
		"k8s-default-retry":   {Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1},
		"k8s-default-backoff": {Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1},
	} {
		pr, _ := PresetByName(name)
		if pr.Params.Attempts != def.Steps {
			t.Errorf("%s: %d attempts, Steps is %d", name, pr.Params.Attempts, def.Steps)
		}
		checkDraws(t, name, func() []time.Duration {
			b := def // Step mutates its Backoff
			waits := make([]time.Duration, def.Steps-1)
			for i := range waits {
				waits[i] = b.Step()
			}
			return waits
		})
	}
}

// TestAWSGoV2 draws from aws-sdk-go-v2 v1.48.0: NewStandard's default (Retry Behavior 2.1) for
// aws-go-v2-2026, and NewExponentialJitterBackoff, which keeps the formula NewStandard used
// before v1.48.0, for aws-go-v2. The error is a plain one: not a throttling error, whose base
// is 1 s.
func TestAWSGoV2(t *testing.T) {
	transient := errors.New("transient")
	std := retry.NewStandard()
	legacy := retry.NewExponentialJitterBackoff(retry.DefaultMaxBackoff)
	for name, delay := range map[string]func(attempt int) (time.Duration, error){
		"aws-go-v2-2026": func(attempt int) (time.Duration, error) { return std.RetryDelay(attempt, transient) },
		"aws-go-v2":      func(attempt int) (time.Duration, error) { return legacy.BackoffDelay(attempt, transient) },
	} {
		pr, _ := PresetByName(name)
		if pr.Params.Attempts != std.MaxAttempts() {
			t.Errorf("%s: %d attempts, the SDK's default is %d", name, pr.Params.Attempts, std.MaxAttempts())
		}
		checkDraws(t, name, func() []time.Duration {
			waits := make([]time.Duration, pr.Params.Attempts-1)
			for i := range waits {
				// The retry middleware passes the number of the attempt that failed.
				d, err := delay(i + 1)
				if err != nil {
					t.Fatal(err)
				}
				waits[i] = d
			}
			return waits
		})
	}
}

// exponentialBackoff runs the real wait.ExponentialBackoff (what client-go's retry.OnError
// calls) with an operation that always fails, on synctest's fake clock: the attempts it makes
// and the sleep after each.
func exponentialBackoff(t *testing.T, b wait.Backoff) (attempts int, sleeps []time.Duration) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		last := time.Now()
		err := wait.ExponentialBackoff(b, func() (bool, error) {
			if attempts > 0 {
				sleeps = append(sleeps, time.Since(last))
			}
			attempts++
			last = time.Now()
			return false, nil
		})
		if !errors.Is(err, wait.ErrWaitTimeout) {
			t.Errorf("ExponentialBackoff: %v", err)
		}
		// It may sleep once more after the last attempt before giving up.
		if d := time.Since(last); d > 0 {
			sleeps = append(sleeps, d)
		}
	})
	return attempts, sleeps
}

// The k8s-default-backoff note's worked case, against the real module: with a Cap, wait.Backoff
// stops after the step whose next delay would pass it, and no delay reaches the cap.
func TestKubernetesCapStops(t *testing.T) {
	pr, _ := PresetByName("k8s-default-backoff")
	b := wait.Backoff{Duration: 10 * time.Millisecond, Factor: 5, Steps: 10, Cap: 5 * time.Second}
	attempts, sleeps := exponentialBackoff(t, b)
	var ms []string
	for _, d := range sleeps {
		if d >= b.Cap {
			t.Errorf("a sleep of %v reached the cap %v", d, b.Cap)
		}
		ms = append(ms, strconv.FormatInt(d.Milliseconds(), 10))
	}
	// The delays of the attempts, then the sleep after the last before giving up.
	want := "makes " + strconv.Itoa(attempts) + " attempts (delays " + strings.Join(ms[:len(ms)-1], ", ") + " ms between them), then sleeps " +
		strconv.FormatFloat(sleeps[len(sleeps)-1].Seconds(), 'f', -1, 64) + " s and gives up"
	if attempts != 4 || len(sleeps) != attempts || !strings.Contains(strings.Join(pr.Notes, " "), want) {
		t.Errorf("Cap 5 s, Steps 10: %d attempts, sleeps %v; the note should say %q:\n%q", attempts, sleeps, want, pr.Notes)
	}
}

// checkExact asserts a preset without jitter: the library's waits are the rows' (Min = Max),
// and its attempts the preset's.
func checkExact(t *testing.T, name string, waits []time.Duration) {
	t.Helper()
	pr, _ := PresetByName(name)
	rows := pr.Params.Schedule().Rows
	if len(waits) != len(rows)-1 {
		t.Errorf("%s: the library made %d attempts, the preset %d", name, len(waits)+1, len(rows))
	}
	for i, w := range waits[:min(len(waits), len(rows)-1)] {
		if row := rows[i+1]; w != row.Min || w != row.Max {
			t.Errorf("%s retry %d: the library waited %v, the preset [%v, %v]", name, row.Retry, w, row.Min, row.Max)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestRetryableHTTP runs go-retryablehttp v0.7.8's DefaultBackoff alone, then its Client.Do loop
// at NewClient's defaults against a server that always answers 500, on synctest's fake clock:
// the gaps between the requests are the preset's waits. The server is a RoundTripper, not a
// socket: an idle connection's goroutine waits on the socket, which synctest does not count as
// blocked, so its clock would not move.
func TestRetryableHTTP(t *testing.T) {
	const name = "retryablehttp-default"
	c := retryablehttp.NewClient()
	var direct []time.Duration
	for i := range c.RetryMax {
		direct = append(direct, retryablehttp.DefaultBackoff(c.RetryWaitMin, c.RetryWaitMax, i, nil))
	}
	checkExact(t, name, direct)

	synctest.Test(t, func(t *testing.T) {
		var starts []time.Time
		c.Logger = nil
		c.HTTPClient = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			starts = append(starts, time.Now())
			return &http.Response{StatusCode: http.StatusInternalServerError, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
		})}
		resp, err := c.Get("http://127.0.0.1/")
		if err == nil {
			resp.Body.Close()
			t.Error("Do succeeded against a server that always fails")
		}
		var waits []time.Duration
		for i := 1; i < len(starts); i++ {
			waits = append(waits, starts[i].Sub(starts[i-1]))
		}
		checkExact(t, name, waits)
	})
}

// TestTemporalRetryPolicy runs a local activity that always fails in the Go SDK's test workflow
// environment, on its mock clock: the SDK fills in the RetryPolicy's defaults
// (applyRetryPolicyDefaultsForLocalActivity) and computes each wait
// (getRetryBackoffWithNowTime), as the Temporal server does for an activity. MaximumAttempts is
// the preset's count, only so that the run ends: by default it is 0, unlimited.
func TestTemporalRetryPolicy(t *testing.T) {
	checkExact(t, "temporal", temporalWaits(t, &temporal.RetryPolicy{MaximumAttempts: temporalAttempts}))
}

// temporalWaits runs a local activity that always fails with rp in the Go SDK's test workflow
// environment, on its mock clock, and returns the waits between its attempts.
func temporalWaits(t *testing.T, rp *temporal.RetryPolicy) []time.Duration {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	var starts []time.Time
	env.SetOnLocalActivityStartedListener(func(*activity.Info, context.Context, []any) { starts = append(starts, env.Now()) })
	fail := func(context.Context) error { return errors.New("always") }
	env.ExecuteWorkflow(func(ctx workflow.Context) error {
		ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
			StartToCloseTimeout: time.Minute,
			// Without it, StartToCloseTimeout ends the retries too; longer than any policy's waits.
			ScheduleToCloseTimeout: 100000 * time.Hour,
			RetryPolicy:            rp,
		})
		return workflow.ExecuteLocalActivity(ctx, fail).Get(ctx, nil)
	})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() == nil {
		t.Errorf("the workflow should fail after its attempts: completed %v, %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	var waits []time.Duration
	for i := 1; i < len(starts); i++ {
		waits = append(waits, starts[i].Sub(starts[i-1]))
	}
	return waits
}

// TestFailsafeRetryPolicy runs failsafe-go v0.9.8's executor with a RetryPolicy against a call
// that always fails, on synctest's fake clock: first at its defaults, whose 3 attempts come
// without delay (why the preset is a builder call), then built as the failsafe-backoff preset
// says, whose gaps between the calls are the preset's waits.
func TestFailsafeRetryPolicy(t *testing.T) {
	run := func(rp retrypolicy.RetryPolicy[any]) []time.Duration {
		var starts []time.Time
		_, err := failsafe.With(rp).Get(func() (any, error) {
			starts = append(starts, time.Now())
			return nil, errors.New("always")
		})
		if err == nil {
			t.Error("the executor succeeded with a call that always fails")
		}
		var waits []time.Duration
		for i := 1; i < len(starts); i++ {
			waits = append(waits, starts[i].Sub(starts[i-1]))
		}
		return waits
	}
	synctest.Test(t, func(t *testing.T) {
		if waits := run(retrypolicy.NewWithDefaults[any]()); len(waits) != 2 || waits[0] != 0 || waits[1] != 0 {
			t.Errorf("failsafe-go's defaults: waits %v, the note says 3 attempts without delay", waits)
		}
		checkExact(t, "failsafe-backoff", run(retrypolicy.NewBuilder[any]().WithBackoff(time.Second, 30*time.Second).WithMaxRetries(3).Build()))
	})
}
