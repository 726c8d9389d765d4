package sim

import (
	"errors"
	"testing"

	"backoffcalc/calc/policy"
)

// TestOverloadCost: a view at calc's work limit runs, and Params built in code one client over
// it are refused by Overload on rate, as calc's Validate refuses them (calc's TestOverloadCost
// holds the limit and its words: 12 clients + 121200 requests × 6 attempts × 33 is 23999976).
func TestOverloadCost(t *testing.T) {
	p := mustDecode(t, "breaker=polly&clients=12&rate=1000&run=121200ms")
	if _, err := Overload(p, p.OwnCase()); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	p.Clients = 13
	var fe *policy.FieldError
	if _, err := Overload(p, p.OwnCase()); !errors.As(err, &fe) || fe.Key != "rate" {
		t.Errorf("one client over: %v, want an error on rate", err)
	}
}
