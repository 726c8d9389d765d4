package importcfg_test

import (
	"fmt"
	"net/url"

	"backoffcalc/app/internal/importcfg"
)

func ExampleRead() {
	r, err := importcfg.Read(`{
  "methodConfig": [{
    "name": [{"service": "shop.Cart"}],
    "timeout": "2s",
    "retryPolicy": {
      "MaxAttempts": 4,
      "initialBackoff": "0.2s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE"]
    },
    "waitForReady": true
  }]
}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Format)
	for _, line := range r.Read {
		fmt.Println("read:", line)
	}
	for _, line := range r.Ignored {
		fmt.Println("ignored:", line)
	}
	before := url.Values{"clients": {"50"}, "timeout": {"3s"}}
	for _, line := range r.Applied(before) {
		fmt.Println("default:", line)
	}
	fmt.Println(r.Query(before))
	// Output:
	// gRPC service config (JSON)
	// read: line 2: methodConfig[0]: the method config read, for shop.Cart
	// read: line 4: methodConfig[0].timeout "2s" → budget=2s
	// read: the method's timeout is a deadline over every attempt: the budget
	// read: line 6: methodConfig[0].retryPolicy.MaxAttempts "4" → attempts=4
	// read: line 7: methodConfig[0].retryPolicy.initialBackoff "0.2s" → base=200ms
	// read: line 8: methodConfig[0].retryPolicy.maxBackoff "1s" → cap=1s
	// read: line 9: methodConfig[0].retryPolicy.backoffMultiplier "2" → factor=2
	// read: line 10: methodConfig[0].retryPolicy.retryableStatusCodes: retried on "UNAVAILABLE"; the calculator's attempts all fail with one of them
	// read: each wait is drawn ±20% around min(initialBackoff × backoffMultiplier^(k−1), maxBackoff): jitter proportional, ratio 0.2, the cap before it (gRFC A6 as revised in 2024)
	// ignored: line 12: methodConfig[0].waitForReady: waiting for the channel to be ready is not modelled
	// default: timeout=0 (was 3s): the configuration sets no attempt timeout
	// add=0&attempts=4&base=200ms&budget=2s&call=0&cap=1s&capacity=20&capat=before&clients=50&export=grpc&factor=2&first=jittered&growth=exponential&jitter=proportional&layers=1&outage=1s&ratio=0.2&samples=10000&seed=1&spread=0&window=100ms
}
