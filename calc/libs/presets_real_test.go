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
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/cenkalti/backoff/v5"
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
