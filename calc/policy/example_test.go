package policy_test

import (
	"fmt"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

func ExampleHumanBeside() {
	// The worst case within a 6.5 s budget is 6.499999999 s: three digits would read "6.5 s",
	// the budget itself, where a start is out.
	p, _ := calc.Decode("base=1s&factor=2&cap=1m&attempts=6&jitter=equal&budget=6.5s")
	w := p.WithinBudget()
	fmt.Println(policy.Human(float64(w.Max)), "|", policy.HumanBeside(float64(w.Max), p.Budget), "|", policy.HumanExact(p.Budget))
	// Output:
	// 6.5 s | < 6.5 s | 6.5 s
}

func ExampleTypedDuration() {
	// The largest base with which 6 attempts start before 3.1 s is 157142857ns; typed, 157ms,
	// which fits too.
	p, _ := calc.Decode("base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s")
	base := p.Solutions()[0].Worst.Base
	fmt.Println(base.Value, policy.TypedDuration(base.Typed))
	// Output:
	// 157.142857ms 157ms
}
