package fluid

import (
	"hash/fnv"
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// The model's numbers are the same bits natively and in WebAssembly: this digest of every float
// of two links' runs, every mode, is the one the native run printed, and the test passes under
// GOOS=js GOARCH=wasm too (go test -exec go_js_wasm_exec).
func TestSameBitsEverywhere(t *testing.T) {
	const want = uint64(0xfb875789512e132c)
	h := fnv.New64a()
	add := func(x float64) {
		b := math.Float64bits(x)
		h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
	}
	a := calc.Default()
	a.Clients, a.Outage, a.Capacity = 1000000, 2*time.Second, 5000
	b := calc.Default()
	b.Clients, b.Spread, b.Budget, b.Call, b.Jitter = 1000000000, 300*time.Millisecond, 3*time.Second, 20*time.Millisecond, policy.DecorrelatedV2
	for _, p := range []calc.Params{a, b} {
		runs, err := Herd(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			for _, x := range append(append([]float64{r.Attempts, r.Accepted, r.GaveUp, r.PeakBack, r.PeakDown, float64(r.LastAccepted)}, r.Arrivals...), r.SD...) {
				add(x)
			}
		}
	}
	if got := h.Sum64(); got != want {
		t.Errorf("digest %#x, want %#x", got, want)
	}
}
