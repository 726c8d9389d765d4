package importcfg

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/libs"
)

// resilience4j's Spring Boot configuration, as resilience4j-spring-boot3 2.4.0 binds it
// (CommonRetryConfigurationProperties, CommonCircuitBreakerConfigurationProperties):
// resilience4j.retry.instances.NAME.* and resilience4j.circuitbreaker.instances.NAME.*, from
// application.yml (nested or dotted keys) or application.properties, keys in Spring's relaxed
// forms (max-attempts, maxAttempts, max_attempts), durations as Spring writes them (500ms,
// PT0.5S, or a bare number of milliseconds). An instance takes what it leaves unset from its
// base-config, or else from configs.default. The first retry instance is read, and the breaker
// instance of the same name, else the first.
var (
	r4jYAMLFormat       = format{name: "resilience4j application.yml", read: readR4jYAML}
	r4jPropertiesFormat = format{name: "resilience4j application.properties", read: readR4jProperties}
)

// springProp is one property: where it is, its key as written and its value.
type springProp struct {
	v *value // its line, its key as written (path) and its text
	// Its key's segments, at most r4jSegs: resilience4j, retry, instances, NAME and the
	// property, the last with the rest of the key (tags.region).
	seg  []string
	list bool // a list (retry-exceptions): not read
}

// r4jSegs is how many segments of a key the reader tells apart.
const r4jSegs = 5

// relaxed is a property's name in Spring's canonical form: lower case, no - or _.
func relaxed(s string) string {
	return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s))
}

func readR4jYAML(text string) (Result, bool, error) {
	root, ok, err := parseTree(text)
	if !ok || err != nil || root.kind != yaml.MappingNode {
		return Result{}, false, err
	}
	var props []springProp
	flatten(root, nil, &props)
	if !slices.ContainsFunc(props, func(p springProp) bool { return relaxed(p.seg[0]) == "resilience4j" }) {
		return Result{}, false, nil
	}
	res, err := readR4j(props)
	return res, true, err
}

// flatten lists v's scalars and lists as properties with their keys' segments after prefix's,
// following resilience4j's keys only, and only down to a property (r4jSegs): a mapping there is
// one property, as a top key not resilience4j's is, for the reader to name it once. A value's
// dotted key is never written out: a text of long keys nested deep costs its values, not each
// value its whole key.
func flatten(v *value, prefix []string, out *[]springProp) {
	if v.kind != yaml.MappingNode {
		return // a list of values, read whole by its key
	}
	for _, item := range v.items {
		seg := append(prefix[:len(prefix):len(prefix)], strings.SplitN(item.key, ".", r4jSegs-len(prefix))...)
		if item.kind == yaml.MappingNode && len(seg) < r4jSegs && relaxed(seg[0]) == "resilience4j" {
			flatten(item, seg, out)
			continue
		}
		*out = append(*out, springProp{v: item, seg: seg, list: item.kind == yaml.SequenceNode})
	}
}

var propertiesKey = regexp.MustCompile(`^\s*resilience4j\.[^=:\s]*\s*[=:]`)

func readR4jProperties(text string) (Result, bool, error) {
	if !propertiesKey.MatchString(text) && !slices.ContainsFunc(strings.Split(text, "\n"), propertiesKey.MatchString) {
		return Result{}, false, nil
	}
	props, err := parseProperties(text)
	if err != nil {
		return Result{}, true, err
	}
	res, err := readR4j(props)
	return res, true, err
}

// parseProperties reads a .properties text as java.util.Properties does: # and ! comments,
// key = value, key: value or key value, a line ending in \ continued on the next.
func parseProperties(text string) ([]springProp, error) {
	var out []springProp
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		first := i + 1
		t := strings.TrimLeft(lines[i], " \t\f")
		if t == "" || t[0] == '#' || t[0] == '!' {
			continue
		}
		// A line ending in \ goes on at the next, whose leading blanks are dropped.
		var b strings.Builder
		for t = strings.TrimRight(t, "\r"); strings.HasSuffix(t, "\\") && i+1 < len(lines); t = strings.TrimRight(t, "\r") {
			b.WriteString(strings.TrimSuffix(t, "\\"))
			i++
			t = strings.TrimLeft(lines[i], " \t\f")
		}
		b.WriteString(t)
		t = b.String()
		end := strings.IndexAny(t, "=: \t")
		key, val := t, ""
		if end >= 0 {
			key = t[:end]
			val = strings.TrimLeft(t[end:], " \t\f")
			if val != "" && (val[0] == '=' || val[0] == ':') {
				val = strings.TrimLeft(val[1:], " \t\f")
			}
		}
		out = append(out, springProp{v: &value{line: first, key: key, text: val, kind: yaml.ScalarNode}, seg: strings.SplitN(key, ".", r4jSegs)})
	}
	return out, nil
}

// r4jInstance is one instance's or config's properties, by relaxed name; the last of a name wins.
type r4jInstance struct {
	line  int
	name  string
	props map[string]*value
}

// r4jModule is resilience4j.retry's or resilience4j.circuitbreaker's instances and configs, in
// the text's order.
type r4jModule struct {
	instances, configs []*r4jInstance
}

func (m *r4jModule) add(kind, name, prop string, p springProp) {
	list := &m.instances
	if kind == "configs" {
		list = &m.configs
	}
	i := slices.IndexFunc(*list, func(in *r4jInstance) bool { return in.name == name })
	if i < 0 {
		*list = append(*list, &r4jInstance{line: p.v.line, name: name, props: map[string]*value{}})
		i = len(*list) - 1
	}
	(*list)[i].props[relaxed(prop)] = p.v
}

// byName is the instance or config of list named name, or nil.
func byName(list []*r4jInstance, name string) *r4jInstance {
	for _, in := range list {
		if in.name == name {
			return in
		}
	}
	return nil
}

// resolve is in's properties with what it leaves unset taken from its base-config, or from
// configs.default, as createRetryConfig and createCircuitBreakerConfig do.
func (m *r4jModule) resolve(r *reading, in *r4jInstance, what string) (map[string]*value, error) {
	props := map[string]*value{}
	var base *r4jInstance
	if b := in.props["baseconfig"]; b != nil {
		if base = byName(m.configs, b.text); base == nil {
			return nil, b.errorf("no %s config of that name: resilience4j refuses it (ConfigurationNotFoundException)", what)
		}
	} else if in.name != "default" {
		base = byName(m.configs, "default")
	}
	if base != nil {
		r.note("line %d: %s configs.%s: what %s leaves unset", base.line, what, base.name, in.name)
		for k, v := range base.props {
			props[k] = v
		}
	}
	for k, v := range in.props {
		props[k] = v
	}
	return props, nil
}

func readR4j(props []springProp) (Result, error) {
	r := newReading()
	var retry, breaker r4jModule
	others := map[string]bool{}
	for _, p := range props {
		seg := p.seg
		module, kind := "", ""
		if len(seg) >= 5 && relaxed(seg[0]) == "resilience4j" {
			module, kind = relaxed(seg[1]), relaxed(seg[2])
		}
		switch {
		case (module == "retry" || module == "circuitbreaker") && (kind == "instances" || kind == "backends" || kind == "configs"):
			if kind == "backends" {
				kind = "instances"
			}
			m := &retry
			if module == "circuitbreaker" {
				m = &breaker
			}
			m.add(kind, seg[3], seg[4], p)
		case len(seg) > 1 && relaxed(seg[0]) == "resilience4j":
			if key := seg[0] + "." + seg[1]; !others[key] {
				others[key] = true
				r.skip("line %d: %s: not modelled (the calculator reads resilience4j's retry and circuitbreaker)", p.v.line, key)
			}
		default:
			if !others[seg[0]] {
				others[seg[0]] = true
				r.skip("line %d: %s: not resilience4j's", p.v.line, seg[0])
			}
		}
	}
	if len(retry.instances) == 0 && len(breaker.instances) == 0 {
		return Result{}, fmt.Errorf("no resilience4j.retry.instances.NAME or resilience4j.circuitbreaker.instances.NAME: nothing to read")
	}
	name := ""
	if len(retry.instances) > 0 {
		in := retry.instances[0]
		name = in.name
		for _, other := range retry.instances[1:] {
			r.skip("line %d: retry instance %s: only the first retry instance is read (%s)", other.line, other.name, in.name)
		}
		ps, err := retry.resolve(r, in, "retry")
		if err != nil {
			return Result{}, err
		}
		r.note("line %d: retry instance %s: the one read", in.line, in.name)
		if err := readR4jRetry(r, ps); err != nil {
			return Result{}, err
		}
	} else {
		pr, _ := libs.PresetByName("resilience4j")
		pol := pr.Params.Policy
		pol.Attempts = 1
		r.setPolicy(pol)
		r.note("no retry instance: 1 attempt")
	}
	if len(breaker.instances) > 0 {
		in := byName(breaker.instances, name)
		if in == nil {
			in = breaker.instances[0]
		}
		for _, other := range breaker.instances {
			if other != in {
				r.skip("line %d: circuitbreaker instance %s: only one breaker is read (%s)", other.line, other.name, in.name)
			}
		}
		ps, err := breaker.resolve(r, in, "circuitbreaker")
		if err != nil {
			return Result{}, err
		}
		r.note("line %d: circuitbreaker instance %s → breaker=resilience4j, breakerat=attempt (Spring's aspects put Retry outside CircuitBreaker: the breaker sees every attempt)", in.line, in.name)
		if err := readR4jBreaker(r, ps); err != nil {
			return Result{}, err
		}
	}
	return r.result()
}

// readR4jRetry reads a retry instance's properties as configureRetryIntervalFunction does.
func readR4jRetry(r *reading, ps map[string]*value) error {
	c := libs.Resilience4jRetry{MaxAttempts: 3, InitialInterval: 500 * time.Millisecond, Multiplier: 1}
	get := func(name string) *value {
		v := ps[name]
		if v != nil {
			v.used = true
		}
		return v
	}
	if v := get("maxattempts"); v != nil {
		n, err := whole(v, 0, math.MaxInt32)
		if err != nil {
			return err
		}
		if n > 0 {
			c.MaxAttempts = n
			r.source("attempts", v)
		} else {
			r.note("line %d: %s 0: resilience4j keeps its default, 3", v.line, v.path())
		}
	}
	flag := func(name string) (*value, bool, error) {
		v := get(name)
		if v == nil {
			return nil, false, nil
		}
		b, err := boolean(v)
		return v, b, err
	}
	exp, expOn, err := flag("enableexponentialbackoff")
	if err != nil {
		return err
	}
	rnd, rndOn, err := flag("enablerandomizedwait")
	if err != nil {
		return err
	}
	mult, factor, top := get("exponentialbackoffmultiplier"), get("randomizedwaitfactor"), get("exponentialmaxwaitduration")
	wait := get("waitduration")
	if wait == nil {
		r.note("no wait-duration: resilience4j waits its default, 500ms, between attempts, whatever else is set")
		unusedProps(r, ps)
		return r4jPolicy(r, c)
	}
	d, err := springDuration(wait)
	if err != nil {
		return err
	}
	c.InitialInterval = d / time.Millisecond * time.Millisecond // Duration.toMillis
	r.source("base", wait)
	if expOn {
		r.note("line %d: %s true: the interval grows", exp.line, exp.path())
		c.Multiplier = 1.5
		if mult != nil {
			if c.Multiplier, err = number(mult); err != nil {
				return err
			}
			r.source("factor", mult)
		} else {
			r.note("no exponential-backoff-multiplier: resilience4j's default, 1.5 (and exponential-max-wait-duration is then not read)")
		}
	}
	if rndOn {
		r.note("line %d: %s true: each wait is drawn interval × U[1 − f, 1 + f]", rnd.line, rnd.path())
		c.RandomizationFactor = 0.5
		if factor != nil {
			f, err := number(factor)
			if err != nil {
				return err
			}
			if f < 0 || f > 1 {
				return factor.errorf("must be from 0 to 1")
			}
			c.RandomizationFactor = f
			r.source("ratio", factor)
		} else {
			r.note("no randomized-wait-factor: resilience4j's default, 0.5")
		}
	}
	// The cap is read only with a multiplier, and with a factor too when randomized.
	if top != nil && expOn && mult != nil && (!rndOn || factor != nil) {
		if c.MaxInterval, err = springDuration(top); err != nil {
			return err
		}
		c.MaxInterval = c.MaxInterval / time.Millisecond * time.Millisecond
		r.source("cap", top)
	} else if top != nil {
		r.skip("line %d: %s: resilience4j reads it only with enable-exponential-backoff, its multiplier, and with enable-randomized-wait its factor", top.line, top.path())
	}
	if mult != nil && !expOn {
		r.skip("line %d: %s: not read without enable-exponential-backoff", mult.line, mult.path())
	}
	if factor != nil && !rndOn {
		r.skip("line %d: %s: not read without enable-randomized-wait", factor.line, factor.path())
	}
	unusedProps(r, ps)
	return r4jPolicy(r, c)
}

func r4jPolicy(r *reading, c libs.Resilience4jRetry) error {
	r.setPolicy(c.Policy())
	r.note("resilience4j waits interval × multiplier^(k−1), randomized ±factor, clamped after the draw by exponential-max-wait-duration: capat after; it counts whole milliseconds (the Export panel says when that changes a wait)")
	return nil
}

// r4jBreakerKeys are the circuit breaker's properties and the query keys they set.
var r4jBreakerKeys = []struct{ prop, key string }{
	{"failureratethreshold", "r4jrate"}, {"slowcallratethreshold", "r4jslowrate"}, {"slowcalldurationthreshold", "r4jslowafter"},
	{"slidingwindowsize", "r4jwindow"}, {"minimumnumberofcalls", "r4jmincalls"}, {"waitdurationinopenstate", "r4jopen"},
	{"permittednumberofcallsinhalfopenstate", "r4jhalfopen"},
}

func readR4jBreaker(r *reading, ps map[string]*value) error {
	r.p.Breaker, r.p.BreakerAt = breaker.Resilience4j, calc.BreakerAtAttempt
	r.also("breaker", "breakerat")
	b := &r.p.BreakerParams
	for _, k := range r4jBreakerKeys {
		r.also(k.key)
		v := ps[k.prop]
		if v == nil {
			continue
		}
		v.used = true
		var err error
		switch k.key {
		case "r4jrate":
			b.R4jFailurePercent, err = number(v)
		case "r4jslowrate":
			b.R4jSlowPercent, err = number(v)
		case "r4jslowafter":
			b.R4jSlowAfter, err = springDuration(v)
		case "r4jwindow":
			b.R4jWindow, err = whole(v, math.MinInt32, math.MaxInt32)
		case "r4jmincalls":
			b.R4jMinCalls, err = whole(v, math.MinInt32, math.MaxInt32)
		case "r4jopen":
			b.R4jWait, err = springDuration(v)
		case "r4jhalfopen":
			b.R4jHalfOpen, err = whole(v, math.MinInt32, math.MaxInt32)
		}
		if err != nil {
			return err
		}
		r.source(k.key, v)
	}
	if v := ps["slidingwindowtype"]; v != nil {
		v.used = true
		if !strings.EqualFold(v.text, "COUNT_BASED") {
			return v.errorf("the calculator models resilience4j's COUNT_BASED window only")
		}
	}
	unusedProps(r, ps)
	return nil
}

// unusedProps lists the properties no reader marked, in the text's order.
func unusedProps(r *reading, ps map[string]*value) {
	var unused []string
	for prop, v := range ps {
		if !v.used && prop != "baseconfig" {
			unused = append(unused, prop)
		}
	}
	slices.SortFunc(unused, func(a, b string) int { return cmp.Or(ps[a].line-ps[b].line, strings.Compare(a, b)) })
	for _, prop := range unused {
		v := ps[prop]
		v.used = true
		r.skip("line %d: %s: %s", v.line, v.path(), r4jWhy(prop))
	}
}

// r4jWhy says why a property of an instance is not read.
func r4jWhy(prop string) string {
	switch prop {
	case "retryexceptions", "ignoreexceptions", "recordexceptions", "retryexceptionpredicate", "resultpredicate", "recordfailurepredicate", "ignoreexceptionpredicate", "recordresultpredicate":
		return "which failures count: the calculator's attempts all fail"
	case "automatictransitionfromopentohalfopenenabled":
		return "not modelled: the breaker here moves to half-open when a call asks after the wait"
	case "maxwaitdurationinhalfopenstate":
		return "not modelled: the half-open state here waits for its permitted calls"
	case "intervalbifunction", "consumeresultbeforeretryattempt":
		return "code the calculator cannot run"
	}
	return "not about the waits or the breaker's thresholds"
}

var (
	springSimple = regexp.MustCompile(`^\+?([0-9]+)([a-zA-Z]{0,2})$`)
	springISO    = regexp.MustCompile(`^\+?[pP](?:([0-9]+)[dD])?(?:[tT](?:([0-9]+)[hH])?(?:([0-9]+)[mM])?(?:([0-9]+)(?:[.,]([0-9]{0,9}))?[sS])?)?$`)
)

// springDuration reads a Duration property as Spring's DurationStyle does: 500ms, 2s, 1m (ns,
// us, ms, s, m, h, d), a bare number of milliseconds, or ISO-8601 (PT0.5S); not negative.
// Beyond time.Duration it saturates, and calc's range refuses it.
func springDuration(v *value) (time.Duration, error) {
	s, err := v.scalar()
	if err != nil {
		return 0, err
	}
	if m := springSimple.FindStringSubmatch(s); m != nil {
		unit, ok := map[string]time.Duration{"": time.Millisecond, "ns": 1, "us": time.Microsecond, "ms": time.Millisecond,
			"s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[strings.ToLower(m[2])]
		if !ok {
			return 0, v.errorf("unknown unit %q: write ns, us, ms, s, m, h or d", m[2])
		}
		return saturate(m[1], unit), nil
	}
	m := springISO.FindStringSubmatch(s)
	if m == nil || s == "P" || strings.EqualFold(s, "PT") {
		return 0, v.errorf("not a duration: write it like 500ms, 2s or PT0.5S")
	}
	var d time.Duration
	for i, unit := range []time.Duration{24 * time.Hour, time.Hour, time.Minute, time.Second} {
		if m[i+1] != "" {
			d = addSat(d, saturate(m[i+1], unit))
		}
	}
	if m[5] != "" {
		ns, _ := strconv.ParseInt(m[5]+"000000000"[len(m[5]):], 10, 64)
		d = addSat(d, time.Duration(ns))
	}
	return d, nil
}

// saturate is digits × unit, at most the largest Duration.
func saturate(digits string, unit time.Duration) time.Duration {
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > math.MaxInt64/int64(unit) {
		return math.MaxInt64
	}
	return time.Duration(n) * unit
}

func addSat(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
