package importcfg

import (
	"fmt"
	"time"

	"backoffcalc/calc"

	"go.yaml.in/yaml/v3"
)

// Istio's VirtualService: the first HTTP route's retries and timeout. Istio hands them to Envoy
// (istio/istio pilot/pkg/networking/core/route/retry/retry.go, ConvertPolicy, read on main in
// 2026-12): no retries key is Istio's default of 2 retries, attempts 0 disables retrying, and
// Envoy backs off as the envoy preset does (calc/libs/envoy.go): 25 ms doubling to 250 ms, a
// whole number of milliseconds under it. The retries' backoff (Istio 1.26 and later) sets the
// 25 ms, and Envoy's cap is 10 × it. The route's timeout covers every attempt: the budget.

var istio = format{"Istio VirtualService retries (YAML)", readIstio}

// istioDefaultRetries is the retries of a route that says none (retry.go, DefaultPolicy).
const istioDefaultRetries = 2

// istioMaxDocs is how many YAML documents are looked through for a VirtualService.
const istioMaxDocs = 64

func readIstio(text string) (Result, bool, error) {
	roots, err := parseDocs(text, istioMaxDocs)
	if err != nil {
		if mentions(text, "VirtualService", "retries:", "perTryTimeout") {
			return Result{}, false, err
		}
		return Result{}, false, nil
	}
	var route *yaml.Node
	var read, ignored []string
	for i, root := range roots {
		kind, _, _ := pick(root, "kind")
		spec, _, _ := pick(root, "spec")
		http, _, err := pick(spec.val, "http")
		if err != nil {
			return Result{}, false, err
		}
		switch {
		case route != nil:
			ignored = append(ignored, fmt.Sprintf("line %d: document %d: the calculator shows one route, the first VirtualService's first", root.Line, i+1))
			continue
		case kind.val != nil && kind.val.Value != "VirtualService":
			ignored = append(ignored, fmt.Sprintf("line %d: document %d, kind %s: not a VirtualService", root.Line, i+1, shorten(kind.val.Value)))
			continue
		case http.val == nil && hasKey(root, "retries") && kind.val == nil:
			route = root // an HTTP route on its own
			continue
		case http.val == nil:
			if kind.val != nil {
				return Result{}, false, fmt.Errorf("line %d: the VirtualService has no spec.http routes", root.Line)
			}
			continue
		}
		if http.val.Kind != yaml.SequenceNode || len(http.val.Content) == 0 {
			return Result{}, false, http.bad("must be a list of HTTP routes, at least one")
		}
		route = http.val.Content[0]
		read = append(read, fmt.Sprintf("line %d: http[0]: the first HTTP route", route.Line))
		for j, other := range http.val.Content[1:] {
			ignored = append(ignored, fmt.Sprintf("line %d: http[%d]: its own retries and timeout; the calculator shows the first route's", other.Line, j+1))
		}
	}
	if route == nil {
		return Result{}, false, nil
	}
	return istioRoute(route, read, ignored)
}

// istioRoute maps a route's retries and timeout onto calc's inputs.
func istioRoute(route *yaml.Node, read, ignored []string) (Result, bool, error) {
	pol := presetPolicy("envoy")
	pol.Attempts = istioDefaultRetries + 1
	timeout, ok, err := pick(route, "timeout")
	if err != nil {
		return Result{}, false, err
	}
	if ok {
		if pol.Budget, err = timeout.duration(0, calc.MaxBudget, "must be a duration such as 10s, at most "+secs(calc.MaxBudget)+" (0s: none)"); err != nil {
			return Result{}, false, err
		}
		read = append(read, timeout.line("the route's timeout, over every attempt: the budget"))
	}
	retries, ok, err := pick(route, "retries")
	switch {
	case err != nil:
		return Result{}, false, err
	case !ok:
		read = append(read, fmt.Sprintf("no retries: Istio's default, %d retries", istioDefaultRetries))
	case retries.val.Kind != yaml.MappingNode:
		return Result{}, false, retries.bad("must be a mapping (attempts, perTryTimeout, retryOn)")
	}
	for _, e := range entries(retries.val) {
		switch e.key.Value {
		case "attempts":
			n, err := e.whole(0, calc.MaxAttempts-1, fmt.Sprintf("must be a whole number from 0 (no retries) to %d: %s", calc.MaxAttempts-1, attemptsWhy))
			if err != nil {
				return Result{}, false, err
			}
			pol.Attempts = int(n) + 1
			read = append(read, e.line("retries after the first call"))
		case "backoff":
			d, err := e.duration(time.Millisecond, calc.MaxCap/10, "must be a duration such as 25ms, from 1ms to "+secs(calc.MaxCap/10))
			if err != nil {
				return Result{}, false, err
			}
			pol.Base = d / time.Millisecond * time.Millisecond // Envoy keeps whole milliseconds
			pol.Cap = 10 * pol.Base
			read = append(read, e.line("Envoy's base_interval; its max_interval is 10 × it"))
		case "perTryTimeout":
			ignored = append(ignored, e.line("the longest one try lasts: when your failures are timeouts, set the call duration to it"))
		case "retryOn":
			ignored = append(ignored, e.line("which failures are retried: the calculator retries every failure"))
		case "retryRemoteLocalities", "retryIgnorePreviousHosts":
			ignored = append(ignored, e.line("which host a retry goes to: not modelled"))
		default:
			ignored = append(ignored, e.keyLine("not a field of Istio's HTTPRetry"))
		}
	}
	v, err := policyValues(pol)
	if err != nil {
		return Result{}, false, err
	}
	budget := "no budget (Istio disables the route's timeout unless it is set)"
	if pol.Budget > 0 {
		budget = "budget " + secs(pol.Budget)
	}
	read = append(read, fmt.Sprintf("base %s, factor 2, cap %s, attempts %d, jitter %s (Envoy draws whole milliseconds), %s",
		secs(pol.Base), secs(pol.Cap), pol.Attempts, pol.Jitter, budget))
	return Result{Values: v, Read: read, Ignored: ignored}, true, nil
}
