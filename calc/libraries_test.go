//go:build !js

package calc

// The presets against the real libraries: thousands of waits drawn from each Go library with
// the preset's parameters must lie in calc's per-attempt bounds, with means within 2%. These
// modules are test-only: nothing outside _test files imports them, so app.wasm does not grow.
// (Not under wasm: k8s.io/apimachinery is heavy to build there, and the golden test already
// proves calc gives the same numbers in both.)

import (
	"math"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v5"
	"k8s.io/apimachinery/pkg/util/wait"
)

const libraryDraws = 5000

// checkDraws asserts every draw of every retry lies in the preset's bounds, and the means agree.
func checkDraws(t *testing.T, name string, draw func() []time.Duration) {
	t.Helper()
	pr, _ := PresetByName(name)
	rows := pr.Params.Schedule().Rows
	sum := make([]float64, len(rows))
	for range libraryDraws {
		for i, w := range draw() {
			row := rows[i+1]
			if w < row.Min || w > row.Max {
				t.Fatalf("%s retry %d: the library waited %v, outside [%v, %v]", name, row.Retry, w, row.Min, row.Max)
			}
			sum[i+1] += float64(w)
		}
	}
	for _, row := range rows[1:] {
		if mean := sum[row.Retry] / libraryDraws; math.Abs(mean-row.Mean) > 0.02*row.Mean {
			t.Errorf("%s retry %d: the library's mean %v, calc's %v", name, row.Retry, time.Duration(mean), time.Duration(row.Mean))
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
