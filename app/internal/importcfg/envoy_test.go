package importcfg

import (
	"strings"
	"testing"
)

const envoyRoute = `route:
  cluster: backend
  timeout: 3s
  retry_policy:
    retry_on: 5xx
    num_retries: 3
    per_try_timeout: 0.5s
    retry_back_off:
      base_interval: 0.050s
      max_interval: 1s
    retry_host_predicate:
    - name: envoy.retry_host_predicates.previous_hosts
`

const envoyCluster = `clusters:
- name: backend
  circuit_breakers:
    thresholds:
    - priority: DEFAULT
      retry_budget:
        budget_percent:
          value: 25.0
        min_retry_concurrency: 5
`

var envoyCases = []readCase{
	{name: "route", text: envoyRoute,
		values: "attempts=4&base=50ms&cap=1s&factor=2&jitter=fullms&capat=before&budget=3s&timeout=500ms", ignored: "retry_host_predicate: which host"},
	{name: "JSON names", text: strings.NewReplacer("num_retries", "numRetries", "retry_back_off", "retryBackOff", "base_interval", "baseInterval").Replace(envoyRoute),
		values: "attempts=4&base=50ms"},
	{name: "defaults", text: "route:\n  cluster: a\n  retry_policy:\n    retry_on: 5xx\n",
		values: "attempts=2&base=25ms&cap=250ms&budget=0", read: "Envoy's default route timeout, 15s"},
	{name: "no max_interval", text: "retry_policy:\n  retry_back_off:\n    base_interval: 0.1s\n", values: "base=100ms&cap=1s"},
	{name: "budget", text: envoyCluster, values: "limiter=envoy&budgetpct=25&minconcurrency=5&attempts=1"},
	{name: "budget's defaults", text: "retry_budget: {}\n", values: "limiter=envoy&budgetpct=20&minconcurrency=3"},
	{name: "route and cluster", text: envoyRoute + "---\n", values: "attempts=4"},
	{name: "two policies", text: "a:\n  retry_policy: {num_retries: 2}\nb:\n  retry_policy: {num_retries: 5}\n",
		values: "attempts=3", ignored: "b.retry_policy: only the first retry_policy is read (a.retry_policy's)"},

	{name: "negative retries", text: "retry_policy:\n  num_retries: -1\n", err: `must be between 0 and 4294967295 (line 2, retry_policy.num_retries "-1")`},
	{name: "too many retries", text: "retry_policy:\n  num_retries: 1000\n", err: `must be between 1 and 1000 (line 2, retry_policy.num_retries "1000" → attempts=1001)`},
	{name: "no unit", text: "retry_policy:\n  retry_back_off:\n    base_interval: 100\n", err: `not a duration: write seconds with an s, like "0.1s" (line 3, retry_policy.retry_back_off.base_interval "100")`},
	// Envoy rounds each interval down to whole milliseconds, then up to 1 ms, and takes 10 ×
	// the rounded base_interval as max_interval's default (router/config_impl.cc, retry_state_impl.cc).
	{name: "under a millisecond", text: "retry_policy:\n  retry_back_off:\n    base_interval: 0.0001s\n", values: "base=1ms&cap=10ms"},
	{name: "a fraction of a millisecond", text: "retry_policy:\n  retry_back_off:\n    base_interval: 0.0255s\n", values: "base=25ms&cap=250ms"},
	{name: "max equal to base once rounded", text: "retry_policy:\n  retry_back_off:\n    base_interval: 0.0015s\n    max_interval: 0.0012s\n", values: "base=1ms&cap=1ms"},
	{name: "zero", text: "retry_policy:\n  retry_back_off:\n    base_interval: 0s\n", err: "must be more than 0: Envoy refuses it"},
	{name: "max under base", text: "retry_policy:\n  retry_back_off:\n    base_interval: 1s\n    max_interval: 0.5s\n", err: "must be at least base_interval"},
	{name: "no base", text: "retry_policy:\n  retry_back_off:\n    max_interval: 0.5s\n", err: "no base_interval: Envoy refuses it (line 3, retry_policy.retry_back_off)"},
	{name: "percent over 100", text: "retry_budget:\n  budget_percent:\n    value: 101\n", err: `must be between 0 and 100 (line 3, retry_budget.budget_percent.value "101" → budgetpct=101)`},
	{name: "NaN", text: "retry_budget:\n  budget_percent:\n    value: .nan\n", err: "not a number"},
	{name: "not a mapping", text: "retry_policy: [1]\n", err: "must be a mapping"},
}

func TestReadEnvoy(t *testing.T) { checkReads(t, envoyFormat.name, envoyCases) }
