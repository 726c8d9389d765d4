package contention

import "testing"

// BenchmarkContention100 is the contention table as the page shows it by default: 100 clients,
// 100 runs, the simulator's five modes and the policy's (target: under 1s in Chromium).
func BenchmarkContention100(b *testing.B) {
	p := postSetup() // base=5ms&cap=2s
	for b.Loop() {
		if _, err := Run(p, DefaultContenders, DefaultRuns, ModesOf(p)...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContentionSweep is the sweep over 10..200 clients, 100 runs, every mode of the
// table (target: under 10s in Chromium).
func BenchmarkContentionSweep(b *testing.B) {
	p := postSetup() // base=5ms&cap=2s
	for b.Loop() {
		if _, _, err := Sweep(p, DefaultRuns, ModesOf(p), nil); err != nil {
			b.Fatal(err)
		}
	}
}
