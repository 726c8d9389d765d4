package importcfg

import (
	"fmt"
	"time"

	"backoffcalc/calc"

	"go.yaml.in/yaml/v3"
)

// AWS Step Functions' Retry field (Amazon States Language): an array of retriers, as a state, a
// state machine's definition, the array itself or one retrier. A retrier's defaults are the
// stepfunctions preset's (calc/libs/stepfunctions.go): IntervalSeconds 1, BackoffRate 2.0,
// MaxAttempts 3 retries, no MaxDelaySeconds, JitterStrategy NONE.

var stepFunctions = format{"AWS Step Functions Retry (JSON)", readStepFunctions}

// The largest IntervalSeconds and MaxDelaySeconds the calculator shows: Step Functions takes
// up to 99999999 and 31622400.
const (
	sfnMaxInterval = int64(calc.MaxBase / time.Second)
	sfnMaxDelay    = int64(calc.MaxCap / time.Second)
)

func readStepFunctions(text string) (Result, bool, error) {
	roots, err := parseDocs(text, 1)
	if err != nil || len(roots) == 0 {
		if err != nil && mentions(text, "ErrorEquals", "IntervalSeconds", "BackoffRate", "MaxDelaySeconds", "JitterStrategy") {
			return Result{}, false, err
		}
		return Result{}, false, nil
	}
	retry, where, ignored, err := sfnRetriers(roots[0])
	if retry == nil || err != nil {
		return Result{}, false, err
	}
	if retry.Kind == yaml.MappingNode && where == "the retrier" {
		return sfnRetrier(retry, nil, ignored)
	}
	if retry.Kind != yaml.SequenceNode || len(retry.Content) == 0 {
		return Result{}, false, fmt.Errorf("line %d: %s must be an array of retriers, at least one", retry.Line, where)
	}
	for i, other := range retry.Content[1:] {
		ignored = append(ignored, fmt.Sprintf("line %d: Retry[%d]: Step Functions uses the first retrier whose ErrorEquals names the error; the calculator shows the first, Retry[0]", other.Line, i+1))
	}
	return sfnRetrier(retry.Content[0], nil, ignored)
}

// sfnRetriers finds the retriers in root: a state's Retry, the first state with one in a state
// machine's States, a bare array of retriers, or one retrier (a mapping). It returns nil when
// root is none of them.
func sfnRetriers(root *yaml.Node) (retry *yaml.Node, where string, ignored []string, err error) {
	// MaxAttempts alone does not say Step Functions: grpc-go reads it as gRPC's maxAttempts.
	isRetrier := func(n *yaml.Node) bool {
		return hasKey(n, "ErrorEquals", "IntervalSeconds", "BackoffRate", "MaxDelaySeconds", "JitterStrategy")
	}
	switch {
	case root.Kind == yaml.SequenceNode && len(root.Content) > 0 && isRetrier(root.Content[0]):
		return root, "the array", nil, nil
	case isRetrier(root):
		return root, "the retrier", nil, nil
	}
	if e, ok, err := pick(root, "Retry"); err != nil || ok {
		return e.val, "Retry", sfnState(root), err
	}
	states, ok, err := pick(root, "States")
	if err != nil || !ok {
		return nil, "", nil, err
	}
	for _, s := range entries(states.val) {
		e, ok, err := pick(s.val, "Retry")
		if err != nil {
			return nil, "", nil, err
		}
		if !ok {
			continue
		}
		if retry != nil {
			ignored = append(ignored, s.keyLine("this state's Retry: the calculator shows one state's, the first's"))
			continue
		}
		retry, where = e.val, "the Retry of state "+s.key.Value
		ignored = append(ignored, sfnState(s.val)...)
	}
	return retry, where, ignored, nil
}

// sfnState is what the calculator does not read of a state that changes when its retries end.
func sfnState(state *yaml.Node) []string {
	var ignored []string
	for _, e := range entries(state) {
		if e.key.Value == "TimeoutSeconds" || e.key.Value == "TimeoutSecondsPath" {
			ignored = append(ignored, e.line("the state's timeout, which ends its retries: not modelled"))
		}
	}
	return ignored
}

// sfnRetrier maps one retrier onto calc's inputs as the stepfunctions preset does.
func sfnRetrier(m *yaml.Node, read, ignored []string) (Result, bool, error) {
	if m.Kind != yaml.MappingNode {
		return Result{}, false, fmt.Errorf("line %d: a retrier must be an object", m.Line)
	}
	pol := presetPolicy("stepfunctions")
	interval, maxDelay, retries := int64(1), int64(0), int64(pol.Attempts-1)
	for _, e := range entries(m) {
		var err error
		switch e.key.Value {
		case "IntervalSeconds":
			interval, err = e.whole(1, sfnMaxInterval, fmt.Sprintf("must be whole seconds from 1 to %d: the calculator's base is at most %s", sfnMaxInterval, secs(calc.MaxBase)))
		case "BackoffRate":
			pol.Factor, err = e.number(1, calc.MaxFactor, fmt.Sprintf("must be a number from 1.0 to %d: Step Functions refuses less than 1.0, the calculator more than %d", calc.MaxFactor, calc.MaxFactor))
		case "MaxAttempts":
			retries, err = e.whole(0, calc.MaxAttempts-1, fmt.Sprintf("must be a whole number from 0 (never retried) to %d: %s", calc.MaxAttempts-1, attemptsWhy))
		case "MaxDelaySeconds":
			maxDelay, err = e.whole(1, sfnMaxDelay, fmt.Sprintf("must be whole seconds from 1 to %d: the calculator's cap is at most %s", sfnMaxDelay, secs(calc.MaxCap)))
		case "JitterStrategy":
			switch e.val.Value {
			case "FULL":
				pol.Jitter = calc.Full
			case "NONE":
				pol.Jitter = calc.None
			default:
				err = e.bad("must be FULL or NONE")
			}
		case "ErrorEquals":
			ignored = append(ignored, e.keyLine("which errors this retrier retries: the calculator retries every failure"))
			continue
		case "Comment":
			continue
		default:
			ignored = append(ignored, e.keyLine("not a field of a retrier"))
			continue
		}
		if err != nil {
			return Result{}, false, err
		}
		read = append(read, e.line("read"))
	}
	pol.Base = time.Duration(interval) * time.Second
	pol.Cap = calc.MaxCap
	if maxDelay > 0 {
		pol.Cap = time.Duration(maxDelay) * time.Second
	}
	if pol.Cap < pol.Base {
		// Every retry waits MaxDelaySeconds: the same schedule as starting from it.
		read = append(read, "MaxDelaySeconds is under IntervalSeconds: every retry waits MaxDelaySeconds, so base is it too")
		pol.Base = pol.Cap
	}
	pol.Attempts = int(retries) + 1
	v, err := policyValues(pol)
	if err != nil {
		return Result{}, false, err
	}
	capText := secs(pol.Cap)
	if maxDelay == 0 {
		capText += " (no MaxDelaySeconds: the calculator's largest)"
	}
	read = append(read, fmt.Sprintf("base %s, factor %s, cap %s, attempts %d (MaxAttempts counts retries), jitter %s",
		secs(pol.Base), fnum(pol.Factor), capText, pol.Attempts, pol.Jitter))
	return Result{Values: v, Read: read, Ignored: ignored}, true, nil
}
