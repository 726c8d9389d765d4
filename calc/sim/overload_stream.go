package sim

import (
	"math/rand/v2"
	"time"

	"backoffcalc/calc"
)

// The stream of new requests as the simulation draws it (docs/overload-model.md, "Requests");
// its count and its bound are calc's (Params.StreamRequests), as Validate must know them.

// streamSource gives the stream's start times in order.
type streamSource struct {
	p    calc.Params
	n, k int           // the cap (StreamRequests) and the next request
	at   time.Duration // the next request's start, valid while ok
	ok   bool
	rng  *rand.Rand // the gaps, for poisson
}

func newStreamSource(p calc.Params) streamSource {
	s := streamSource{p: p, n: p.StreamRequests(), k: -1}
	if p.Arrivals == calc.Poisson && s.n > 0 {
		s.rng = rand.New(rand.NewPCG(p.Seed, 1<<63))
	}
	s.advance()
	return s
}

// advance moves to the next request; ok becomes false when the stream has ended.
func (s *streamSource) advance() {
	s.k++
	if s.k >= s.n {
		s.ok = false
		return
	}
	if s.rng == nil {
		s.at = s.p.EvenStart(s.k)
	} else {
		s.at += time.Duration(s.rng.ExpFloat64() * 1e9 / s.p.Rate)
	}
	s.ok = s.at < s.p.Run
	if !s.ok {
		s.n = s.k // the stream's true count, for poisson
	}
}
