package libs

import (
	"testing"
	"time"
)

// workedByHand are presets' waits worked out by hand from their library's formula and
// parameters (in the comments), not read from calc: every retry's bounds, in order.
var workedByHand = []struct {
	name  string
	waits [][2]time.Duration // [Min, Max] of retries 1, 2, …; one row per retry
}{
	// failsafe-go WithBackoff(1 s, 30 s), delayFactor 2, WithMaxRetries(3): 4 attempts, no
	// jitter. Retry 1 waits delay = 1 s; retry 2 waits 1 × 2 = 2 s; retry 3 waits 2 × 2 = 4 s
	// (below maxDelay 30 s). 1 + 2 + 4 = 7 s of waiting.
	{"failsafe-backoff", [][2]time.Duration{{sec, sec}, {2 * sec, 2 * sec}, {4 * sec, 4 * sec}}},
}

func TestPresetsWorkedByHand(t *testing.T) {
	for _, c := range workedByHand {
		pr, ok := PresetByName(c.name)
		if !ok {
			t.Errorf("%s: no such preset", c.name)
			continue
		}
		rows := pr.Params.Schedule().Rows
		if len(rows) != len(c.waits)+1 {
			t.Errorf("%s: %d attempts, worked by hand %d", c.name, len(rows), len(c.waits)+1)
			continue
		}
		for i, w := range c.waits {
			if r := rows[i+1]; r.Min != w[0] || r.Max != w[1] {
				t.Errorf("%s retry %d: [%v, %v], worked by hand [%v, %v]", c.name, r.Retry, r.Min, r.Max, w[0], w[1])
			}
		}
	}
}
