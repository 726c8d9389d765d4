package policy

import (
	"math"
	"time"
)

const ms = time.Millisecond

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}
