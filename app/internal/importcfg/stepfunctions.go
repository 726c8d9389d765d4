package importcfg

import (
	"cmp"
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"

	"backoffcalc/calc/policy"
)

// AWS Step Functions' Retry field (Amazon States Language): an array of retriers, as a state, a
// state machine's definition, the array itself or one retrier. A retrier's defaults are the
// stepfunctions preset's (calc/libs/stepfunctions.go): IntervalSeconds 1, BackoffRate 2.0,
// MaxAttempts 3 retries, no MaxDelaySeconds, JitterStrategy NONE.

var stepFunctions = format{"AWS Step Functions Retry (JSON)", readStepFunctions}

// The largest IntervalSeconds and MaxDelaySeconds the calculator shows: Step Functions takes
// up to 99999999 and 31622400.
const (
	sfnMaxInterval = int64(policy.MaxBase / time.Second)
	sfnMaxDelay    = int64(policy.MaxCap / time.Second)
)

// sfnKeys say a retrier: MaxAttempts alone does not, as grpc-go reads it as gRPC's maxAttempts.
var sfnKeys = []string{"ErrorEquals", "IntervalSeconds", "BackoffRate", "MaxDelaySeconds", "JitterStrategy"}

func readStepFunctions(text string) (Result, bool, error) {
	root, ok, err := parseTree(text)
	if !ok || err != nil {
		return Result{}, false, cmp.Or(err, notYAML(text, sfnKeys...))
	}
	retry, where, ignored := sfnRetriers(root)
	if retry == nil {
		return Result{}, false, nil
	}
	if err := strictJSON(text, "Step Functions refuses the state machine"); err != nil {
		return Result{}, false, err
	}
	if err := root.twice(); err != nil {
		return Result{}, false, err
	}
	if retry.kind == yaml.MappingNode && where == "the retrier" {
		return sfnRetrier(retry, nil, ignored)
	}
	if retry.kind != yaml.SequenceNode || len(retry.items) == 0 {
		return Result{}, false, fmt.Errorf("line %d: %s must be an array of retriers, at least one", retry.line, where)
	}
	for i, other := range retry.items[1:] {
		ignored = append(ignored, fmt.Sprintf("line %d: Retry[%d]: Step Functions uses the first retrier whose ErrorEquals names the error; the calculator shows the first, Retry[0]", other.line, i+1))
	}
	return sfnRetrier(retry.items[0], nil, ignored)
}

// sfnRetriers finds the retriers in root: a state's Retry, the first state with one in a state
// machine's States, a bare array of retriers, or one retrier (a mapping). It returns nil when
// root is none of them.
func sfnRetriers(root *value) (retry *value, where string, ignored []string) {
	switch {
	case root.kind == yaml.SequenceNode && len(root.items) > 0 && root.items[0].at(sfnKeys...) != nil:
		return root, "the array", nil
	case root.at(sfnKeys...) != nil:
		return root, "the retrier", nil
	case root.at("Retry") != nil && !isStandard(root):
		// A Retry mapping of Polly's keys is the .NET standard handler's section (dotnet.go).
		return root.at("Retry"), "Retry", sfnState(root)
	}
	states := root.at("States")
	if states == nil || states.kind != yaml.MappingNode {
		return nil, "", nil
	}
	for _, s := range states.items {
		r := s.at("Retry")
		switch {
		case r == nil:
		case retry != nil:
			ignored = append(ignored, s.keyLine("this state's Retry: the calculator shows one state's, the first's"))
		default:
			retry, where = r, "the Retry of state "+s.key
			ignored = append(ignored, sfnState(s)...)
		}
	}
	return retry, where, ignored
}

// sfnState is what the calculator does not read of a state that changes when its retries end.
func sfnState(state *value) []string {
	var ignored []string
	for _, e := range state.items {
		if e.key == "TimeoutSeconds" || e.key == "TimeoutSecondsPath" {
			ignored = append(ignored, e.valueLine("the state's timeout, which ends its retries: not modelled"))
		}
	}
	return ignored
}

// sfnRetrier maps one retrier onto calc's inputs as the stepfunctions preset does.
func sfnRetrier(m *value, read, ignored []string) (Result, bool, error) {
	if m.kind != yaml.MappingNode {
		return Result{}, false, fmt.Errorf("line %d: a retrier must be an object", m.line)
	}
	pol := presetPolicy("stepfunctions")
	interval, maxDelay, retries := int64(1), int64(0), int64(pol.Attempts-1)
	for _, v := range m.items {
		switch v.key {
		case "ErrorEquals":
			ignored = append(ignored, v.keyLine("which errors this retrier retries: the calculator retries every failure"))
			continue
		case "Comment":
			continue
		case "IntervalSeconds", "BackoffRate", "MaxAttempts", "MaxDelaySeconds", "JitterStrategy":
		default:
			ignored = append(ignored, v.keyLine("not a field of a retrier"))
			continue
		}
		e, err := v.literal()
		if err != nil {
			return Result{}, false, err
		}
		switch v.key {
		case "IntervalSeconds":
			interval, err = e.whole(1, sfnMaxInterval, fmt.Sprintf("must be whole seconds from 1 to %d: the calculator's base is at most %s", sfnMaxInterval, secs(policy.MaxBase)))
		case "BackoffRate":
			pol.Factor, err = e.number(1, policy.MaxFactor, fmt.Sprintf("must be a number from 1.0 to %d: Step Functions refuses less than 1.0, the calculator more than %d", policy.MaxFactor, policy.MaxFactor))
		case "MaxAttempts":
			retries, err = e.whole(0, policy.MaxAttempts-1, fmt.Sprintf("must be a whole number from 0 (never retried) to %d: %s", policy.MaxAttempts-1, attemptsWhy))
		case "MaxDelaySeconds":
			maxDelay, err = e.whole(1, sfnMaxDelay, fmt.Sprintf("must be whole seconds from 1 to %d: the calculator's cap is at most %s", sfnMaxDelay, secs(policy.MaxCap)))
		case "JitterStrategy":
			switch e.text {
			case "FULL":
				pol.Jitter = policy.Full
			case "NONE":
				pol.Jitter = policy.None
			default:
				err = e.bad("must be FULL or NONE")
			}
		}
		if err != nil {
			return Result{}, false, err
		}
		read = append(read, e.valueLine("read"))
	}
	pol.Base = time.Duration(interval) * time.Second
	pol.Cap = policy.MaxCap
	if maxDelay > 0 {
		pol.Cap = time.Duration(maxDelay) * time.Second
	}
	if pol.Cap < pol.Base {
		// Every retry waits MaxDelaySeconds: the same schedule as starting from it.
		read = append(read, "MaxDelaySeconds is under IntervalSeconds: every retry waits MaxDelaySeconds, so base is it too")
		pol.Base = pol.Cap
	}
	pol.Attempts = int(retries) + 1
	res, err := policyOnly(pol)
	if err != nil {
		return Result{}, false, err
	}
	capText := secs(pol.Cap)
	if maxDelay == 0 {
		capText += " (no MaxDelaySeconds: the calculator's largest)"
	}
	read = append(read, fmt.Sprintf("base %s, factor %s, cap %s, attempts %d (MaxAttempts counts retries), jitter %s",
		secs(pol.Base), fnum(pol.Factor), capText, pol.Attempts, pol.Jitter))
	res.Read, res.Ignored = read, ignored
	return res, true, nil
}
