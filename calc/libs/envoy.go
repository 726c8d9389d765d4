package libs

import (
	"strconv"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

var envoyPresets = []Preset{
	{
		Name: "envoy", Library: "Envoy router retry_policy",
		Short:   "Envoy",
		Version: "Envoy 1.14.0 (2020) and later, whose interval doubles while under max_interval / 2 (envoyproxy/envoy#10417; read on main, 2026)", Source: "source/common/common/backoff_strategy.cc: JitteredExponentialBackOffStrategy::nextBackOffMs",
		Theirs: "num_retries = 1 (retries: 2 calls), retry_back_off: base_interval = 25 ms, max_interval = 10 × base_interval",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 25*msec, 2, 250*msec, 2, policy.FullMs
		}),
		Notes: []string{
			"The code waits random() % min(2^(k−1) × 25, 250) whole milliseconds: retry 1 in 0..24 ms, retry 2 in 0..49 ms (jitter: fullms).",
			"Envoy's documentation gives [0, (2^k − 1) × base_interval): 0..74 ms for retry 2. The code, not the documentation, is what runs.",
		},
	},
}

// envoyLibrary is the Export panel's entry for the library; exportEnvoy fills in the rest.
var envoyLibrary = Library{Lib: "envoy", Title: "Envoy: route retry_policy (YAML)", Presets: []string{"envoy"}}

func exportEnvoy(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "Envoy", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	// Envoy keeps base_interval and max_interval in whole milliseconds, at least 1 ms, and
	// doubles: retry k waits random() % min(base·2^(k−1), max) ms.
	lib := p
	lib.Base, lib.Cap, lib.Factor = floorMs(p.Base), floorMs(p.Cap), 2
	lib.Jitter, lib.CapAt, lib.FirstExact = policy.FullMs, policy.CapBefore, false
	c := EnvoyRetryPolicy{Timeout: p.Budget, NumRetries: p.Attempts - 1, BaseInterval: lib.Base, MaxInterval: lib.Cap, PerTryTimeout: p.Timeout}
	if p.Limiter == limiter.Envoy {
		// The link's limiter is Envoy's own retry budget: written beside the route, as the
		// import reads both from one text.
		c.Budget = &EnvoyRetryBudget{Percent: p.Limits.EnvoyPercent, MinConcurrency: p.Limits.EnvoyMinConcurrency}
	}
	e.Config = c
	e.Snippets = []Snippet{{"yaml", c.YAML()}}

	why := map[string]string{
		"base":   "(Envoy keeps base_interval in whole milliseconds, at least 1 ms.)",
		"cap":    "(Envoy keeps max_interval in whole milliseconds, at least 1 ms.)",
		"factor": "(Envoy always doubles: it has no factor.)",
		"jitter": "(Envoy's code draws random() % d in whole milliseconds.)",
		"capat":  "(max_interval caps the delay before the draw.)",
		"first":  "(Every retry is drawn.)",
	}
	ls := lib.Schedule()
	exact := envoySchedule(lib)
	if !sameWaits(ls, exact) {
		why["jump"] = "Envoy stops doubling once the interval reaches max_interval / 2 rounded down (" + dur(lib.Cap/time.Millisecond/2*time.Millisecond) +
			") and jumps to max_interval, one step before min(base_interval × 2^(k−1), max_interval) would reach it."
	}
	e.Diffs = compareExact(s, "Envoy", lib, ls, exact, why)
	e.Model = lib
	if why["jump"] != "" && len(e.Diffs) > 0 {
		e.Diffs = append([]string{why["jump"]}, e.Diffs...)
	}
	if p.Budget > 0 {
		e.Diffs = append(e.Diffs, budgetDiffs(s, "Envoy", budgetDeadline, "The route's timeout", lib)...)
	} else {
		q := p
		q.Budget = 15 * time.Second
		if sc := q.Schedule(); sc.AtMost < p.Attempts || sc.Always < p.Attempts {
			e.Diffs = append(e.Diffs, "Envoy's route timeout, 15 s unless the route sets one, covers every attempt: with it, "+strconv.Itoa(sc.Always)+
				" of the "+strconv.Itoa(p.Attempts)+" attempts always start and at most "+strconv.Itoa(sc.AtMost)+" do. Set the route's timeout (0s disables it).")
		}
	}
	return e
}

// EnvoyRetryPolicy is an Envoy route's retry settings in Envoy's own terms: the route's
// timeout and its retry_policy. YAML writes it as a route.
type EnvoyRetryPolicy struct {
	Timeout      time.Duration // the route's timeout over every attempt; 0: not written (Envoy's default, 15 s)
	NumRetries   int           // retries after the first call
	BaseInterval time.Duration // whole milliseconds, at least 1 ms
	MaxInterval  time.Duration // whole milliseconds, at least 1 ms
	// PerTryTimeout is each attempt's timeout (the link's timeout); 0: not written, none.
	PerTryTimeout time.Duration
	Budget        *EnvoyRetryBudget // the cluster's retry budget; nil: not written
}

// EnvoyRetryBudget is a cluster's circuit_breakers retry_budget, what limiter=envoy models:
// budget_percent (in percent) and min_retry_concurrency.
type EnvoyRetryBudget struct {
	Percent        float64
	MinConcurrency int
}

// Policy is what Envoy does with c, in calc's terms, as exportEnvoy's Model says: whole
// milliseconds, doubling, random() % the capped interval, the route's timeout as the budget.
// (Envoy stops doubling one step early: exportEnvoy's differences say when that changes a wait.)
func (c EnvoyRetryPolicy) Policy() policy.Policy {
	return policy.Policy{Base: floorMs(c.BaseInterval), Factor: 2, Cap: floorMs(c.MaxInterval), Attempts: c.NumRetries + 1,
		Jitter: policy.FullMs, CapAt: policy.CapBefore, Budget: c.Timeout}
}

// YAML is c as an Envoy route, the timeouts only when set, and the cluster's retry budget when
// there is one.
func (c EnvoyRetryPolicy) YAML() string {
	timeout := ""
	if c.Timeout > 0 {
		timeout = "  # The route's timeout covers every attempt (Envoy's default is 15s).\n  timeout: " + protoDuration(c.Timeout) + "\n"
	}
	perTry := ""
	if c.PerTryTimeout > 0 {
		perTry = "    per_try_timeout: " + protoDuration(c.PerTryTimeout) + "  # each attempt's own timeout\n"
	}
	budget := ""
	if b := c.Budget; b != nil {
		budget = "# The retry budget is the cluster's: in your_cluster's definition.\ncircuit_breakers:\n  thresholds:\n  - retry_budget:\n" +
			"      budget_percent:\n        value: " + strconv.FormatFloat(b.Percent, 'f', -1, 64) + "\n" +
			"      min_retry_concurrency: " + strconv.Itoa(b.MinConcurrency) + "\n"
	}
	return "route:\n  cluster: your_cluster\n" + timeout +
		"  retry_policy:\n    retry_on: \"5xx,reset,connect-failure\"  # which failures to retry: choose yours\n" +
		"    num_retries: " + strconv.Itoa(c.NumRetries) + "  # retries after the first call: " + inAllText(c.NumRetries+1) + "\n" + perTry +
		"    retry_back_off:\n      base_interval: " + protoDuration(c.BaseInterval) + "\n      max_interval: " + protoDuration(c.MaxInterval) + "\n" + budget
}

// envoySchedule is the schedule Envoy's own arithmetic gives lib (whole milliseconds,
// doubling): the interval doubles while it is under max_interval / 2, integer division, and is
// max_interval after that; retry k waits random() % interval ms, 0 to interval − 1, each as
// likely.
func envoySchedule(lib calc.Params) policy.Schedule {
	top := int64(lib.Cap / time.Millisecond)
	next := int64(lib.Base / time.Millisecond)
	sc := policy.Schedule{Rows: []policy.Row{{Attempt: 1}}}
	for k := 1; k < lib.Attempts; k++ {
		hi := time.Duration(next-1) * time.Millisecond
		sc.Rows = append(sc.Rows, policy.Row{Attempt: k + 1, Retry: k, Max: hi, Mean: float64(hi) / 2})
		sc.Total.Max += hi
		sc.Total.Mean += float64(hi) / 2
		if next < top/2 {
			next *= 2
		} else {
			next = top
		}
	}
	return sc
}
