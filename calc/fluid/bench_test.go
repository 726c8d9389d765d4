package fluid

import (
	"testing"

	"backoffcalc/calc"
)

// BenchmarkFluidHerd1e9 counts the default link's herd at 10^9 clients, every mode of
// HerdModes: the "clients=1000000000", whose calc should take under 100 ms in wasm.
func BenchmarkFluidHerd1e9(b *testing.B) {
	p := calc.Default()
	p.Clients = 1000000000
	for b.Loop() {
		if _, err := Herd(p); err != nil {
			b.Fatal(err)
		}
	}
}
