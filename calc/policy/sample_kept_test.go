package policy

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// keptCases are policies whose every kind of draw the kept draws serve: a law without a step
// (full jitter), one with a step (fullms), a chain (decorrelated), one that always draws
// (decorrelatedv2), a budget that drops paths, a first retry that draws nothing and a seed of
// its own.
func keptCases() []Params {
	var out []Params
	for _, f := range []func(*Params){
		func(p *Params) {},
		func(p *Params) { p.Jitter = FullMs },
		func(p *Params) { p.Jitter, p.Cap = Decorrelated, time.Second },
		func(p *Params) { p.Jitter, p.Cap, p.Attempts = DecorrelatedV2, time.Second, 8 },
		func(p *Params) { p.Budget, p.Attempts, p.Cap = 2*time.Second, 10, time.Second },
		func(p *Params) { p.Jitter, p.FirstExact, p.Ratio = Proportional, true, 0.2 },
		func(p *Params) { p.Seed, p.Samples = 7, 3000 },
	} {
		p := Default()
		f(&p)
		out = append(out, p)
	}
	return out
}

// The kept draws change no number: each sample is the one its paths' own streams give, drawn
// as they go; and samples taken at once on other goroutines, of other seeds and numbers of
// paths, which make the kept draws start over, are each their own.
func TestKeptDrawsAsDrawn(t *testing.T) {
	cases := keptCases()
	keepDraws = false
	want := make([]Sample, len(cases))
	for i, p := range cases {
		want[i] = p.Sample()
	}
	keepDraws = true
	t.Cleanup(func() { keepDraws = true })
	for i, p := range cases {
		if got := p.Sample(); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%+v: kept draws give\n%+v\nwant\n%+v", p.Policy, got, want[i])
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for r := range 6 {
				i := (g + r) % len(cases)
				if got := cases[i].Sample(); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("goroutine %d, case %d: other numbers", g, i)
				}
			}
		})
	}
	wg.Wait()
	// More draws than are kept are drawn as they go, as before.
	big := Default()
	big.Samples, big.Attempts = 20000, 20
	if big.Samples*(big.Attempts-1) <= maxKeptDraws || keptDraws(big.Seed, big.Samples, big.Attempts-1) != nil {
		t.Errorf("%d paths of %d draws are kept", big.Samples, big.Attempts-1)
	}
}
