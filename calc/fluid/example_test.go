package fluid_test

import (
	"fmt"

	"backoffcalc/calc"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/policy"
)

// A billion clients with full jitter through the default 1s outage, without a capacity: the
// expected attempts in the first windows, with the deviation a single herd has around them.
// Window 0 holds every attempt 1 and 2 and, of the sums of uniform waits on [0, 100ms], [0,
// 200ms], …, those under 100ms: 1 + 1 + 1/4 + 1/48 + 1/1536 + … = 2.27149 a client; the grid
// gives 2.27154.
func ExampleMode() {
	p := calc.Default()
	p.Clients, p.Capacity = 1000000000, 0
	r, err := fluid.Mode(p, calc.Backoff(policy.Full))
	if err != nil {
		fmt.Println(err)
		return
	}
	for w := range 4 {
		fmt.Printf("%s: %.0f ± %.0f\n", policy.FormatDuration(p.WindowStart(w)), r.Arrivals[w], r.SD[w])
	}
	fmt.Printf("%.4f attempts per client, %.0f gave up\n", r.MeanPerClient, r.GaveUp)
	// Output:
	// 0: 2271538449 ± 14443
	// 100ms: 634369850 ± 19201
	// 200ms: 512490558 ± 19912
	// 300ms: 316896439 ± 15826
	// 5.8027 attempts per client, 171629238 gave up
}
