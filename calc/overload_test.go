package calc

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// randomClosed draws a closed herd (Open false) from r: small enough to run fast, with calls and
// waits of zero now and then, so that events meet at one instant and the order at an instant is
// exercised, and windows short enough that many attempts are refused for capacity.
func randomClosed(r *rand.Rand) Params {
	p := Default()
	ns := func(max int64) time.Duration { return time.Duration(r.Int64N(max + 1)) }
	p.Seed = r.Uint64()
	p.Clients = 1 + r.IntN(300)
	p.Attempts = 1 + r.IntN(10)
	p.Jitter = Jitter(r.IntN(int(jitterCount)))
	p.Base = 1 + ns(50)
	p.Cap = p.Base + ns(200)
	p.Factor = 1 + 2*r.Float64()
	if r.IntN(4) == 0 {
		p.Add = ns(30)
	}
	p.Call = []time.Duration{0, 0, 1, ns(40)}[r.IntN(4)]
	p.Window = 1 + ns(40)
	p.Outage = ns(300)
	p.Capacity = r.IntN(6)
	p.Spread = []time.Duration{0, ns(500)}[r.IntN(2)]
	if r.IntN(3) == 0 {
		p.Budget = 1 + ns(600)
	}
	p.Processes = 1 + r.IntN(4) // without a limiter processes share nothing
	return p
}

// TestOverloadClosedIsHerd: with none of the overload keys set, the overload simulation, run on
// its own, gives every herd mode's HerdRun exactly, Arrivals and Peak included.
func TestOverloadClosedIsHerd(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	n := 300
	if testing.Short() {
		n = 60
	}
	for range n {
		p := randomClosed(r)
		if p.Open() {
			t.Fatalf("%s is open", p.Encode())
		}
		if err := p.ValidateHerd(); err != nil {
			t.Fatalf("%s: %v", p.Encode(), err)
		}
		for _, m := range p.HerdModes() {
			want, err := p.HerdMode(m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Overload(OverloadCase{Mode: m})
			if err != nil {
				t.Fatalf("%s %s: %v", p.Encode(), m, err)
			}
			if !reflect.DeepEqual(got.HerdRun, want) {
				t.Fatalf("%s %s:\noverload %+v\nherd     %+v", p.Encode(), m, got.HerdRun, want)
			}
			if got.Requests != p.Clients || got.Stream != 0 || got.OutOfAttempts+got.OutOfBudget != got.GaveUp || got.Refused != 0 {
				t.Fatalf("%s %s: requests %d, stream %d, gave up %d = %d + %d + %d", p.Encode(), m, got.Requests, got.Stream, got.GaveUp, got.OutOfAttempts, got.Refused, got.OutOfBudget)
			}
		}
	}
}

var _ = fmt.Sprint
