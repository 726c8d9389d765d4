package importcfg

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc/policy"
)

// Istio's VirtualService: the first HTTP route's retries and timeout. Istio hands them to Envoy
// (istio/istio pilot/pkg/networking/core/route/retry/retry.go, ConvertPolicy, read on main in
// 2026-12): no retries key is Istio's default of 2 retries, attempts 0 disables retrying, and
// Envoy backs off as the envoy preset does (calc/libs/envoy.go): 25 ms doubling to 250 ms, a
// whole number of milliseconds under it. The retries' backoff (Istio 1.26 and later) sets the
// 25 ms, and Envoy's cap is 10 × it. The route's timeout covers every attempt: the budget.

var istio = format{"Istio VirtualService retries (YAML)", readIstio}

// istioKey is a key of Istio's route that says the text is one, though not YAML: retries, not
// Envoy's num_retries.
var istioKey = regexp.MustCompile(`(?m)(^|[\s{,])(retries|perTryTimeout)\s*:`)

// istioDefaultRetries is the retries of a route that says none (retry.go, DefaultPolicy).
const istioDefaultRetries = 2

func readIstio(text string) (Result, bool, error) {
	docs, err := parseDocs(text)
	if err != nil {
		if strings.Contains(text, "VirtualService") || istioKey.MatchString(text) {
			return Result{}, false, err
		}
		return Result{}, false, nil
	}
	var route *value
	var read, ignored []string
	for i, root := range docs {
		if root == nil {
			continue // an empty document, or a lone value
		}
		kind, http := root.at("kind"), root.at("spec").at("http")
		switch {
		case route != nil:
			ignored = append(ignored, fmt.Sprintf("line %d: document %d: the calculator shows one route, the first VirtualService's first", root.line, i+1))
			continue
		case kind != nil && kind.text != "VirtualService":
			ignored = append(ignored, fmt.Sprintf("line %d: document %d, kind %s: not a VirtualService", root.line, i+1, shorten(kind.text)))
			continue
		case http == nil && root.at("retries") != nil && kind == nil:
			route = root // an HTTP route on its own
			continue
		case http == nil:
			if kind != nil {
				return Result{}, false, fmt.Errorf("line %d: the VirtualService has no spec.http routes", root.line)
			}
			continue
		}
		if http.kind != yaml.SequenceNode || len(http.items) == 0 {
			return Result{}, false, http.errorf("must be a list of HTTP routes, at least one")
		}
		route = http.items[0]
		read = append(read, fmt.Sprintf("line %d: http[0]: the first HTTP route", route.line))
		for j, other := range http.items[1:] {
			ignored = append(ignored, fmt.Sprintf("line %d: http[%d]: its own retries and timeout; the calculator shows the first route's", other.line, j+1))
		}
	}
	if route == nil {
		return Result{}, false, nil
	}
	for _, doc := range docs {
		if err := doc.twice(); err != nil {
			return Result{}, false, err
		}
	}
	return istioRoute(route, read, ignored)
}

// istioRoute maps a route's retries and timeout onto calc's inputs.
func istioRoute(route *value, read, ignored []string) (Result, bool, error) {
	pol := presetPolicy("envoy")
	pol.Attempts = istioDefaultRetries + 1
	if timeout := route.at("timeout"); timeout != nil {
		l, err := timeout.literal()
		if err == nil {
			pol.Budget, err = l.duration(0, policy.MaxBudget, "must be a duration such as 10s, at most "+secs(policy.MaxBudget)+" (0s: none)")
		}
		if err != nil {
			return Result{}, false, err
		}
		read = append(read, l.valueLine("the route's timeout, over every attempt: the budget"))
	}
	retries := route.at("retries")
	switch {
	case retries == nil:
		read = append(read, fmt.Sprintf("no retries: Istio's default, %d retries", istioDefaultRetries))
	case retries.kind != yaml.MappingNode:
		return Result{}, false, retries.errorf("must be a mapping (attempts, perTryTimeout, retryOn)")
	}
	var fields []*value
	if retries != nil {
		fields = retries.items
	}
	for _, e := range fields {
		l, err := e.literal()
		if err != nil && (e.key == "attempts" || e.key == "backoff") {
			return Result{}, false, err
		}
		switch e.key {
		case "attempts":
			n, err := l.whole(0, policy.MaxAttempts-1, fmt.Sprintf("must be a whole number from 0 (no retries) to %d: %s", policy.MaxAttempts-1, attemptsWhy))
			if err != nil {
				return Result{}, false, err
			}
			pol.Attempts = int(n) + 1
			read = append(read, l.valueLine("retries after the first call"))
		case "backoff":
			d, err := l.duration(time.Millisecond, policy.MaxCap/10, "must be a duration such as 25ms, from 1ms to "+secs(policy.MaxCap/10))
			if err != nil {
				return Result{}, false, err
			}
			pol.Base = d / time.Millisecond * time.Millisecond // Envoy keeps whole milliseconds
			pol.Cap = 10 * pol.Base
			read = append(read, l.valueLine("Envoy's base_interval; its max_interval is 10 × it"))
		case "perTryTimeout":
			ignored = append(ignored, e.valueLine("the longest one try lasts: when your failures are timeouts, set the call duration to it"))
		case "retryOn":
			ignored = append(ignored, e.valueLine("which failures are retried: the calculator retries every failure"))
		case "retryRemoteLocalities", "retryIgnorePreviousHosts":
			ignored = append(ignored, e.valueLine("which host a retry goes to: not modelled"))
		default:
			ignored = append(ignored, e.keyLine("not a field of Istio's HTTPRetry"))
		}
	}
	res, err := policyOnly(pol)
	if err != nil {
		return Result{}, false, err
	}
	budget := "no budget (Istio disables the route's timeout unless it is set)"
	if pol.Budget > 0 {
		budget = "budget " + secs(pol.Budget)
	}
	read = append(read, fmt.Sprintf("base %s, factor 2, cap %s, attempts %d, jitter %s (Envoy draws whole milliseconds), %s",
		secs(pol.Base), secs(pol.Cap), pol.Attempts, pol.Jitter, budget))
	res.Read, res.Ignored = read, ignored
	return res, true, nil
}
