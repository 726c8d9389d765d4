package policy_test

import (
	"fmt"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

func ExampleJitter_Bounds() {
	p := calc.Default()
	p.Ratio, p.Add = 0.2, time.Second
	d := float64(100 * time.Millisecond)
	for _, j := range policy.AllJitters() {
		lo, hi, step, ok := j.Bounds(p.Params, d)
		switch {
		case !ok && j.ByRetry():
			fmt.Printf("%s: by the retry's number\n", j)
			continue
		case !ok:
			fmt.Printf("%s: from the previous wait\n", j)
			continue
		}
		fmt.Printf("%s: [%v, %v] step %v\n", j, time.Duration(lo), time.Duration(hi), step)
	}
	// Output:
	// none: [100ms, 100ms] step 0s
	// full: [0s, 100ms] step 0s
	// equal: [50ms, 100ms] step 0s
	// decorrelated: from the previous wait
	// proportional: [80ms, 120ms] step 0s
	// upward: [100ms, 120ms] step 0s
	// fullms: [0s, 100ms] step 1ms
	// additive: [100ms, 1.1s] step 0s
	// decorrelatedv2: from the previous wait
	// sidekiq: by the retry's number
	// sidekiq7: by the retry's number
	// fullsec: [0s, 1.1s] step 1s
}
