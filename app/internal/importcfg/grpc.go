package importcfg

import (
	"cmp"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
)

// gRPC's service config, as grpc-go v1.85.0 reads it (service_config.go: parseServiceConfig,
// convertRetryPolicy, isValidRetryPolicy): encoding/json, so keys match whatever their case
// (MaxAttempts as well as maxAttempts) and the last of a key given twice wins; a method config
// without a name is skipped; a retry policy with maxAttempts under 2, a backoff or multiplier
// not above 0, or no retryable status code, makes the whole service config invalid.
var grpcFormat = format{name: "gRPC service config (JSON)", read: readGRPC}

// fold matches a key as encoding/json matches a field's name: exactly or whatever the case.
func fold(name string) func(string) bool {
	return func(k string) bool { return strings.EqualFold(k, name) }
}

func readGRPC(text string) (Result, bool, error) {
	root, ok, err := parseTree(text)
	if !ok || err != nil {
		return Result{}, ok, err
	}
	mcs, throttling := root.get(fold("methodConfig"), true), root.get(fold("retryThrottling"), true)
	alone := mcs == nil && throttling == nil
	if alone && !grpcRetryPolicy(root) && !grpcRetryPolicy(root.get(fold("retryPolicy"), false)) {
		return Result{}, false, nil
	}
	if err := strictJSON(text, "grpc-go refuses the whole service config"); err != nil {
		return Result{}, true, err
	}
	r := newReading()
	c := libs.GRPCRetryPolicy{MaxAttempts: 1}
	switch {
	case !alone:
		err = readMethodConfigs(r, mcs, &c)
	case grpcRetryPolicy(root):
		r.note("line %d: a retry policy on its own: read as a method config's; grpc-go reads one only inside a method config with a name: {\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": …}]}", root.line)
		err = readRetryPolicy(r, root, &c)
	default:
		r.note("line %d: a method config on its own: read as the first of methodConfig; grpc-go reads one only inside the list, with a name: {\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": …}]}", root.line)
		err = readMethodConfig(r, root, &c)
	}
	if err != nil {
		return Result{}, true, err
	}
	if c.MaxAttempts > 1 {
		r.setPolicy(c.Policy())
	} else {
		// No retry policy: one attempt, with the example policy's waits, which none uses.
		pr, _ := libs.PresetByName("grpc-retry")
		pol := pr.Params.Policy
		pol.Attempts, pol.Budget = 1, c.Timeout
		r.setPolicy(pol)
	}
	if err := readThrottling(r, throttling); err != nil {
		return Result{}, true, err
	}
	r.ignored = append(r.ignored, root.ignored(grpcWhy)...)
	res, err := r.result()
	return res, true, err
}

// readMethodConfigs reads the first method config with a name into c.
func readMethodConfigs(r *reading, mcs *value, c *libs.GRPCRetryPolicy) error {
	if mcs == nil || mcs.null {
		r.note("no methodConfig: gRPC makes 1 attempt")
		return nil
	}
	if mcs.kind != yaml.SequenceNode {
		return mcs.errorf("must be a list of method configs")
	}
	var mc *value
	for _, m := range mcs.items {
		switch {
		case m.kind != yaml.MappingNode:
			return m.errorf("must be a method config: { \"name\": …, \"retryPolicy\": … }")
		case m.get(fold("name"), false) == nil:
			r.skip("line %d: %s: it has no name: grpc-go skips it", m.line, m.path())
		case mc != nil:
			r.skip("line %d: %s: only the first method config with a name is read (%s's)", m.line, m.path(), mc.path())
		default:
			mc = m
			continue
		}
		markAll(m)
	}
	if mc == nil {
		r.note("no method config with a name: gRPC makes 1 attempt")
		return nil
	}
	return readMethodConfig(r, mc, c)
}

// grpcRetryFields are the fields of a retryPolicy that are gRPC's alone: Temporal's and
// Envoy's have other names.
var grpcRetryFields = []string{"initialBackoff", "maxBackoff", "backoffMultiplier", "retryableStatusCodes"}

// grpcRetryPolicy says whether v is a mapping with a field of gRPC's retry policy alone.
func grpcRetryPolicy(v *value) bool {
	for _, f := range grpcRetryFields {
		if v.get(fold(f), false) != nil {
			return true
		}
	}
	return false
}

// readMethodConfig reads one method config into c: its timeout and its retryPolicy.
func readMethodConfig(r *reading, mc *value, c *libs.GRPCRetryPolicy) error {
	if name := mc.get(fold("name"), true); name != nil {
		markAll(name)
		r.note("line %d: %s: the method config read, for %s", mc.line, orTop(mc.path()), grpcNames(name))
	}
	if t := mc.get(fold("timeout"), true); t != nil && !t.null {
		d, err := protoDuration(t)
		if err != nil {
			return err
		}
		c.Timeout = d
		r.source("budget", t)
		r.note("the method's timeout is a deadline over every attempt: the budget")
	}
	rp := mc.get(fold("retryPolicy"), true)
	if rp == nil || rp.null {
		r.note("%s has no retryPolicy: gRPC makes 1 attempt", mc.path())
		return nil
	}
	if rp.kind != yaml.MappingNode {
		return rp.errorf("must be a retry policy: { \"maxAttempts\": …, … }")
	}
	return readRetryPolicy(r, rp, c)
}

// readRetryPolicy reads a retryPolicy as convertRetryPolicy does.
func readRetryPolicy(r *reading, rp *value, c *libs.GRPCRetryPolicy) error {
	fields := []struct {
		name, input string
		read        func(v *value) error
	}{
		{"maxAttempts", "attempts", func(v *value) (err error) {
			c.MaxAttempts, err = jsonInt(v)
			return err
		}},
		{"initialBackoff", "base", func(v *value) (err error) {
			c.InitialBackoff, err = protoDuration(v)
			return err
		}},
		{"maxBackoff", "cap", func(v *value) (err error) {
			c.MaxBackoff, err = protoDuration(v)
			return err
		}},
		{"backoffMultiplier", "factor", func(v *value) (err error) {
			c.BackoffMultiplier, err = jsonNumber(v)
			return err
		}},
	}
	attempts := c.MaxAttempts
	c.MaxAttempts = 0
	for _, f := range fields {
		v := rp.get(fold(f.name), true)
		if v == nil || v.null {
			continue
		}
		if err := f.read(v); err != nil {
			return err
		}
		r.source(f.input, v)
	}
	codes := rp.get(fold("retryableStatusCodes"), true)
	if codes != nil {
		markAll(codes)
	}
	var invalid []string
	switch {
	case c.MaxAttempts < 2:
		invalid = append(invalid, fmt.Sprintf("maxAttempts %d is under 2", c.MaxAttempts))
	case c.InitialBackoff <= 0:
		invalid = append(invalid, "initialBackoff is missing or 0")
	case c.MaxBackoff <= 0:
		invalid = append(invalid, "maxBackoff is missing or 0")
	case !(c.BackoffMultiplier > 0):
		invalid = append(invalid, "backoffMultiplier is missing or 0")
	case codes == nil || codes.kind != yaml.SequenceNode || len(codes.items) == 0:
		invalid = append(invalid, "retryableStatusCodes is missing or empty")
	}
	if len(invalid) > 0 {
		c.MaxAttempts = attempts
		return fmt.Errorf("line %d: %s: %s: grpc-go refuses the whole service config (invalid retry policy)", rp.line, cmp.Or(rp.path(), "the retry policy"), invalid[0])
	}
	r.note("line %d: %s: retried on %s; the calculator's attempts all fail with one of them", codes.line, codes.path(), scalarsText(codes))
	if c.MaxAttempts > libs.GRPCMaxAttempts {
		r.note("maxAttempts %d is %d: gRPC clients make at most %d attempts unless the client raises its limit (grpc-go: grpc.WithMaxCallAttempts)",
			c.MaxAttempts, libs.GRPCMaxAttempts, libs.GRPCMaxAttempts)
	}
	r.note("each wait is drawn ±20%% around min(initialBackoff × backoffMultiplier^(k−1), maxBackoff): jitter proportional, ratio 0.2, the cap before it (gRFC A6 as revised in 2024)")
	return nil
}

// readThrottling reads retryThrottling, which grpc-go refuses outside maxTokens in (0, 1000]
// and tokenRatio above 0.
func readThrottling(r *reading, t *value) error {
	if t == nil || t.null {
		return nil
	}
	if t.kind != yaml.MappingNode {
		return t.errorf("must be { \"maxTokens\": …, \"tokenRatio\": … }")
	}
	r.p.Limiter = limiter.GRPC
	r.also("limiter")
	r.note("line %d: %s → limiter=grpc (its tokens only come back with successes)", t.line, t.path())
	for _, f := range []struct {
		name, key string
		field     *float64
	}{{"maxTokens", "maxtokens", &r.p.Limits.GRPCMaxTokens}, {"tokenRatio", "tokenratio", &r.p.Limits.GRPCTokenRatio}} {
		v := t.get(fold(f.name), true)
		if v == nil || v.null {
			return fmt.Errorf("line %d: %s: no %s: grpc-go refuses the whole service config", t.line, t.path(), f.name)
		}
		x, err := jsonNumber(v)
		if err != nil {
			return err
		}
		if !(x > 0) {
			return v.errorf("must be more than 0: grpc-go refuses the whole service config")
		}
		*f.field = x
		r.source(f.key, v)
		r.also(f.key)
	}
	return nil
}

// jsonInt reads v as encoding/json reads a JSON number into an int: digits, no point, no
// exponent, not a string.
func jsonInt(v *value) (int, error) {
	if v.quoted {
		return 0, v.errorf("must be a number, not a string")
	}
	return whole(v, -1<<31, 1<<31-1)
}

// jsonNumber reads v as encoding/json reads a JSON number into a float64.
func jsonNumber(v *value) (float64, error) {
	if v.quoted {
		return 0, v.errorf("must be a number, not a string")
	}
	return number(v)
}

// grpcNames writes a method config's names: service/method, or every method of a service.
func grpcNames(name *value) string {
	var out []string
	items := name.items
	if name.kind == yaml.MappingNode {
		items = []*value{name}
	}
	for _, n := range items {
		s, m := n.get(fold("service"), false), n.get(fold("method"), false)
		switch {
		case s == nil || s.text == "":
			out = append(out, "every service")
		case m == nil || m.text == "":
			out = append(out, s.text)
		default:
			out = append(out, s.text+"/"+m.text)
		}
	}
	if len(out) == 0 {
		return "no method"
	}
	return strings.Join(out, ", ")
}

// grpcWhy says why a key of a service config is not read.
func grpcWhy(v *value) string {
	switch strings.ToLower(v.key) {
	case "hedgingpolicy":
		return "hedging sends copies of a call side by side: the calculator models retries, one after another"
	case "waitforready":
		return "waiting for the channel to be ready is not modelled"
	case "maxrequestmessagebytes", "maxresponsemessagebytes":
		return "message sizes: not about retries"
	case "loadbalancingconfig", "loadbalancingpolicy":
		return "load balancing: not about retries"
	case "healthcheckconfig":
		return "health checking: not about retries"
	}
	return "not a key grpc-go reads: it ignores it too"
}

// markAll marks v and everything under it read.
func markAll(v *value) {
	v.used = true
	for _, item := range v.items {
		markAll(item)
	}
}

// scalarsText writes a list of scalars: UNAVAILABLE, DEADLINE_EXCEEDED.
func scalarsText(v *value) string {
	var out []string
	for _, item := range v.items {
		out = append(out, quoteShort(item.text))
	}
	return strings.Join(out, ", ")
}
