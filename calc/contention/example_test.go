package contention_test

import (
	"fmt"

	"backoffcalc/calc/contention"
	"backoffcalc/calc/policy"
)

func ExampleRun() {
	// One client has no one to contend with: one read and one write, 4 hops of about 10ms each
	// (|N(10ms, 2ms)|), so 1 call and a time near 40ms in every mode: 39 ms, the mean of 100 runs.
	p := policy.Default()
	res, _ := contention.Run(p, 1, 100, contention.ModesOf(p)...)
	for _, r := range res {
		fmt.Printf("%s: %.0f call, %.0f ms\n", r.Mode, r.Calls.Mean, r.Time.Mean/1e6)
	}
	// Output:
	// nobackoff: 1 call, 39 ms
	// exponential: 1 call, 39 ms
	// fulljitter: 1 call, 39 ms
	// equaljitter: 1 call, 39 ms
	// decorrelatedjitter: 1 call, 39 ms
	// policy-full: 1 call, 39 ms
}
