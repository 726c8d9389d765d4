//go:build !js

package main

// The quiet-machine wait: other work on a shared machine comes in bursts, so every measurement
// first waits, for a while, for the CPUs to be idle enough.

import (
	"fmt"
	"math"
	"os"
	"strings"
	"time"
)

// cpuBusy is the share of CPU time, in percent, that was not idle over d, from /proc/stat; NaN
// when it cannot tell.
func cpuBusy(d time.Duration) float64 {
	read := func() (busy, total float64, ok bool) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, false
		}
		f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
		if len(f) < 6 || f[0] != "cpu" {
			return 0, 0, false
		}
		for i, v := range f[1:] {
			x := atof(v)
			total += x
			if i != 3 && i != 4 { // idle, iowait
				busy += x
			}
		}
		return busy, total, true
	}
	b0, t0, ok0 := read()
	time.Sleep(d)
	b1, t1, ok1 := read()
	if !ok0 || !ok1 || t1 == t0 {
		return math.NaN()
	}
	return 100 * (b1 - b0) / (t1 - t0)
}

// quiet counts the waits for a quiet machine.
var quiet struct {
	waits, busy int
	waited      time.Duration
}

// waitQuiet waits, before a measurement, until the CPUs were at most -quiet percent busy over a
// second, or -quiet-wait has passed: other work on a shared machine comes in bursts. The
// measurement's own servers and browser are idle or stopped when it is called.
func waitQuiet(cfg *config) {
	if cfg.quietWait <= 0 || quiet.waited >= cfg.quietTotal {
		return
	}
	start := time.Now()
	quiet.waits++
	for {
		b := cpuBusy(time.Second)
		if math.IsNaN(b) || b <= cfg.quietBusy {
			break
		}
		if time.Since(start) > cfg.quietWait || quiet.waited+time.Since(start) > cfg.quietTotal {
			quiet.busy++
			fmt.Fprintf(os.Stderr, "bench: the machine is still %.0f%% busy after %s; measuring anyway\n", b, cfg.quietWait)
			break
		}
	}
	quiet.waited += time.Since(start)
}
