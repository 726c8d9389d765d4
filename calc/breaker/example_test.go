package breaker_test

import (
	"fmt"
	"time"

	"backoffcalc/calc/breaker"
)

// gobreaker's defaults: the 6th failure in a row opens the breaker for 60 s; the first call
// after that is the probe, and its success closes it.
func ExampleNew() {
	b := breaker.New(breaker.Gobreaker, breaker.Defaults(), nil)
	for i := range 6 {
		at := time.Duration(i) * time.Second
		b.Record(at, b.Allow(at), true, 0)
	}
	fmt.Println(b.State(), b.Allow(65*time.Second).Allowed)
	probe := b.Allow(66 * time.Second)
	fmt.Println(b.State(), probe.Allowed, probe.Probe, b.Allow(66*time.Second).Allowed)
	b.Record(67*time.Second, probe, false, time.Second)
	fmt.Println(b.State())
	// Output:
	// open false
	// half-open true true false
	// closed
}
