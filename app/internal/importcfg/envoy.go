package importcfg

import (
	"fmt"
	"math"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// Envoy's route retry_policy and a cluster's retry_budget, as Envoy (read on main, 2026;
// api/envoy/config/route/v3/route_components.proto, config/cluster/v3/circuit_breaker.proto)
// reads them from YAML: a field by its proto name or its JSON name (num_retries or
// numRetries), durations as protobuf JSON ("0.025s"). The first retry_policy in the text is
// read, with the timeout of the route that holds it; the first retry_budget, wherever it is.
var envoyFormat = format{name: "Envoy route retry_policy (YAML)", read: readEnvoy}

// Envoy's defaults: retry_policy's num_retries, retry_back_off's base_interval (max_interval is
// 10 × base_interval), and retry_budget's budget_percent and min_retry_concurrency.
const (
	envoyRetries        = 1
	envoyBaseInterval   = 25 * time.Millisecond
	envoyBudgetPercent  = 20
	envoyMinConcurrency = 3
)

// proto matches a key as Envoy's YAML loader does: the proto field's name or its JSON name.
func proto(name string) func(string) bool {
	camel := name
	for i := strings.Index(camel, "_"); i >= 0 && i+1 < len(camel); i = strings.Index(camel, "_") {
		camel = camel[:i] + strings.ToUpper(camel[i+1:i+2]) + camel[i+2:]
	}
	return func(k string) bool { return k == name || k == camel }
}

// entry is a mapping's value at a key, with the mapping that holds it.
type entry struct{ holder, v *value }

// find lists every value under v at a key that match says is its, in the text's order.
func find(v *value, match func(string) bool) []entry {
	var out []entry
	for _, item := range v.items {
		if v.kind == yaml.MappingNode && match(item.key) {
			out = append(out, entry{v, item})
		}
		out = append(out, find(item, match)...)
	}
	return out
}

func readEnvoy(text string) (Result, bool, error) {
	root, ok, err := parseTree(text)
	if !ok || err != nil {
		return Result{}, ok, err
	}
	policies, budgets := find(root, proto("retry_policy")), find(root, proto("retry_budget"))
	if len(policies) == 0 && len(budgets) == 0 {
		return Result{}, false, nil
	}
	if len(policies) > 0 && !envoyFields(policies[0].v) {
		return Result{}, false, nil
	}
	r := newReading()
	c := libs.EnvoyRetryPolicy{NumRetries: envoyRetries, BaseInterval: envoyBaseInterval, MaxInterval: 10 * envoyBaseInterval}
	if len(policies) == 0 {
		c.NumRetries = 0
		r.note("no retry_policy: Envoy makes 1 attempt")
	} else if err := readEnvoyPolicy(r, policies, &c); err != nil {
		return Result{}, true, err
	}
	r.setPolicy(c.Policy())
	if err := readRetryBudget(r, budgets); err != nil {
		return Result{}, true, err
	}
	res, err := r.result()
	return res, true, err
}

// envoyRetryFields are the fields of Envoy's RetryPolicy (config/route/v3/route_components.proto).
var envoyRetryFields = []string{"retry_on", "num_retries", "per_try_timeout", "per_try_idle_timeout", "retry_priority",
	"retry_host_predicate", "retry_options_predicates", "host_selection_retry_max_attempts", "retriable_status_codes",
	"retry_back_off", "rate_limited_retry_back_off", "retriable_headers", "retriable_request_headers"}

// envoyFields says whether rp can be Envoy's retry_policy: empty, or with a field of Envoy's.
// gRPC's and Temporal's retryPolicy have none, and are theirs to read.
func envoyFields(rp *value) bool {
	if rp.kind != yaml.MappingNode || len(rp.items) == 0 {
		return true
	}
	for _, f := range envoyRetryFields {
		if rp.get(proto(f), false) != nil {
			return true
		}
	}
	return false
}

func readEnvoyPolicy(r *reading, policies []entry, c *libs.EnvoyRetryPolicy) error {
	route, rp := policies[0].holder, policies[0].v
	rp.used = true
	for _, other := range policies[1:] {
		r.skip("line %d: %s: only the first retry_policy is read (%s's)", other.v.line, other.v.path(), rp.path())
	}
	if t := route.get(proto("timeout"), true); t != nil && !t.null {
		d, err := protoDuration(t)
		if err != nil {
			return err
		}
		c.Timeout = d
		r.source("budget", t)
		if d == 0 {
			r.note("line %d: %s 0s: the route has no timeout", t.line, t.path())
		} else {
			r.note("the route's timeout is a deadline over every attempt: the budget")
		}
	} else {
		r.note("no timeout next to the retry_policy: Envoy's default route timeout, 15s over every attempt, is not set here (budget=15s shows it)")
	}
	if rp.null {
		return nil
	}
	if rp.kind != yaml.MappingNode {
		return rp.errorf("must be a mapping: num_retries, retry_back_off, …")
	}
	if v := rp.get(proto("num_retries"), true); v != nil && !v.null {
		n, err := whole(v, 0, math.MaxUint32)
		if err != nil {
			return err
		}
		c.NumRetries = n
		r.source("attempts", v)
	} else {
		r.note("no num_retries: Envoy's default, 1 retry (2 attempts)")
	}
	if v := rp.get(proto("retry_on"), true); v != nil {
		r.note("line %d: %s %s: the calculator's attempts all fail with one of them", v.line, v.path(), quoteShort(v.text))
	}
	if v := rp.get(proto("per_try_timeout"), true); v != nil && !v.null {
		d, err := protoDuration(v)
		if err != nil {
			return err
		}
		r.p.Timeout = d
		r.source("timeout", v)
		r.also("timeout")
	}
	if err := readBackOff(r, rp.get(proto("retry_back_off"), true), c); err != nil {
		return err
	}
	r.note("Envoy waits random() %% min(base_interval × 2^(k−1), max_interval) whole milliseconds: jitter fullms; it stops doubling once the interval reaches max_interval / 2 (the Export panel says when that changes a wait)")
	r.ignored = append(r.ignored, rp.ignored(envoyWhy)...)
	return nil
}

func readBackOff(r *reading, b *value, c *libs.EnvoyRetryPolicy) error {
	if b == nil || b.null {
		r.note("no retry_back_off: Envoy's default, base_interval 25ms and max_interval 250ms")
		return nil
	}
	if b.kind != yaml.MappingNode {
		return b.errorf("must be a mapping: base_interval, max_interval")
	}
	base := b.get(proto("base_interval"), true)
	if base == nil || base.null {
		return fmt.Errorf("line %d: %s: no base_interval: Envoy refuses it", b.line, b.path())
	}
	d, err := protoDuration(base)
	if err != nil {
		return err
	}
	if d == math.MaxInt64 {
		// Blamed here, not at a max_interval that is less than it.
		return base.errorf("past the largest duration the calculator holds (%s)", d)
	}
	if d <= 0 {
		return base.errorf("must be more than 0: Envoy refuses it")
	}
	// As Envoy's RetryPolicyImpl reads them (router/config_impl.cc): each interval in whole
	// milliseconds, rounded down, then up to 1 ms; max_interval's default is 10 × the rounded
	// base_interval (retry_state_impl.cc), and max_interval is compared with it rounded.
	c.BaseInterval = wholeMs(r, "base_interval", d)
	c.MaxInterval = 10 * c.BaseInterval
	r.source("base", base)
	if top := b.get(proto("max_interval"), true); top != nil && !top.null {
		m, err := protoDuration(top)
		if err != nil {
			return err
		}
		if m <= 0 {
			return top.errorf("must be more than 0: Envoy refuses it")
		}
		if c.MaxInterval = wholeMs(r, "max_interval", m); c.MaxInterval < c.BaseInterval {
			return top.errorf("must be at least base_interval (%s), in whole milliseconds: Envoy refuses less", policy.FormatDuration(c.BaseInterval))
		}
		r.source("cap", top)
	} else {
		r.note("no max_interval: Envoy's default, 10 × base_interval, %s", policy.FormatDuration(c.MaxInterval))
	}
	return nil
}

// wholeMs is d as Envoy keeps an interval: whole milliseconds, rounded down, at least 1 ms. It
// notes a change, which the calculator's inputs would otherwise hide.
func wholeMs(r *reading, name string, d time.Duration) time.Duration {
	w := max(time.Millisecond, d/time.Millisecond*time.Millisecond)
	if w != d {
		r.note("%s %s: Envoy keeps whole milliseconds, at least 1 ms: %s", name, policy.FormatDuration(d), policy.FormatDuration(w))
	}
	return w
}

// readRetryBudget reads the first retry_budget into the envoy limiter's keys.
func readRetryBudget(r *reading, budgets []entry) error {
	if len(budgets) == 0 {
		return nil
	}
	b := budgets[0].v
	b.used = true
	for _, other := range budgets[1:] {
		r.skip("line %d: %s: only the first retry_budget is read (%s's)", other.v.line, other.v.path(), b.path())
	}
	r.p.Limiter = limiter.Envoy
	r.p.Limits.EnvoyPercent, r.p.Limits.EnvoyMinConcurrency = envoyBudgetPercent, envoyMinConcurrency
	r.also("limiter", "budgetpct", "minconcurrency")
	r.note("line %d: %s → limiter=envoy (retries in flight at most budget_percent of the requests in flight, or min_retry_concurrency)", b.line, b.path())
	if b.null {
		return nil
	}
	if b.kind != yaml.MappingNode {
		return b.errorf("must be a mapping: budget_percent, min_retry_concurrency")
	}
	if pct := b.get(proto("budget_percent"), true); pct != nil && !pct.null {
		v := pct.get(proto("value"), true)
		if v == nil {
			return pct.errorf("must be { value: 20.0 }")
		}
		x, err := number(v)
		if err != nil {
			return err
		}
		r.p.Limits.EnvoyPercent = x
		r.source("budgetpct", v)
	}
	if v := b.get(proto("min_retry_concurrency"), true); v != nil && !v.null {
		n, err := whole(v, 0, math.MaxUint32)
		if err != nil {
			return err
		}
		r.p.Limits.EnvoyMinConcurrency = n
		r.source("minconcurrency", v)
	}
	r.ignored = append(r.ignored, b.ignored(envoyWhy)...)
	return nil
}

// envoyWhy says why a key of a retry_policy or retry_budget is not read.
func envoyWhy(v *value) string {
	for _, w := range envoyWhys {
		for _, match := range w.keys {
			if match(v.key) {
				return w.why
			}
		}
	}
	return "not a key this calculator reads"
}

// envoyWhys are the keys envoyWhy knows, matched once made: a route can have thousands of keys.
var envoyWhys = []struct {
	keys []func(string) bool
	why  string
}{
	{[]func(string) bool{proto("rate_limited_retry_back_off")}, "waits from the server's rate-limit headers: not modelled"},
	{[]func(string) bool{proto("retriable_status_codes"), proto("retriable_headers"), proto("retriable_request_headers")},
		"which failures are retried: the calculator's attempts all fail with one of them"},
	{[]func(string) bool{proto("retry_host_predicate"), proto("retry_priority"), proto("host_selection_retry_max_attempts")}, "which host a retry goes to: not modelled"},
	{[]func(string) bool{proto("per_try_idle_timeout")}, "an idle stream's timeout: not modelled"},
}
