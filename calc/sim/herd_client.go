package sim

import (
	"math/rand/v2"
	"time"
)

// herdClient is one client's state between attempts.
type herdClient struct {
	rng   rand.PCG
	start time.Duration // when its first attempt arrives
	state float64       // what its next wait grows from, as Params.Wait takes it
	made  int32         // attempts made so far
}
