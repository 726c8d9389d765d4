package libs

import (
	"strconv"
	"strings"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// The AWS SDKs' retry quota, before and after 2026's retry behaviour: it can refuse a retry,
// which a schedule does not model.
const (
	awsQuota     = "Its retry quota (500 tokens shared by the client; a retry costs 5, 10 after a timeout) can refuse a retry: not modelled here."
	awsQuota2026 = "Its retry quota (500 tokens shared by the client; a retry costs 14, 5 after a throttling error) can refuse a retry: not modelled here."
)

var awsPresets = []Preset{
	{
		Name: "aws-botocore", Library: "AWS SDK for Python (botocore), standard retry mode, without AWS_NEW_RETRIES_2026",
		Short:   "botocore, pre-2026",
		Version: "botocore 1.15.0 (2020) and later without AWS_NEW_RETRIES_2026=true (read in 1.43.67, 2026)",
		Source:  "botocore/retries/standard.py: ExponentialBackoff.delay_amount, the branch without NEW_RETRIES_ENABLED",
		Theirs:  "max_attempts = 3 (counts the first call), base = 1 sec, growth factor 2, MAX_BACKOFF = 20 s",
		Params:  preset(func(p *calc.Params) { p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 20*sec, 3, policy.Full }),
		Notes: []string{
			"Retry k waits random() × min(1 s × 2^(k−1), 20 s): full jitter, capped before it.",
			awsQuota,
			"With AWS_NEW_RETRIES_2026=true (botocore 1.43.3 and later) it waits as aws-botocore-2026.",
		},
	},
	{
		Name: "aws-botocore-2026", Library: "AWS SDK for Python (botocore), standard retry mode with AWS_NEW_RETRIES_2026=true",
		Short:   "botocore, 2026",
		Version: "botocore 1.43.3 (2026-05) and later with AWS_NEW_RETRIES_2026=true (read in 1.43.67, 2026)",
		Source:  "botocore/retries/standard.py: ExponentialBackoff.delay_amount; botocore/configprovider.py: _resolve_new_retries",
		Theirs:  "max_attempts = 3 (counts the first call; 4 for DynamoDB), base = 50 ms (1 s for throttling errors, 25 ms for DynamoDB), growth factor 2, MAX_BACKOFF = 20 s",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 50*msec, 2, 20*sec, 3, policy.Full
		}),
		Notes: []string{
			"Retry k waits random() × min(0.05 s × 2^(k−1), 20 s): full jitter, capped before it. After a throttling error the base is 1 s, and an x-amz-retry-after header raises the wait to at most 5 s more.",
			awsQuota2026,
			"The switch also makes standard the default retry mode (legacy without it).",
		},
	},
	{
		Name: "aws-go-v2", Library: "AWS SDK for Go v2, standard retryer before Retry Behavior 2.1",
		Short:   "AWS Go, pre-2026",
		Version: "aws-sdk-go-v2 v1.0.0 to v1.47.x without AWS_NEW_RETRIES_2026=true (read in v1.47.8; v1.48.0 keeps it in NewExponentialJitterBackoff)",
		Source:  "aws/retry/jitter_backoff.go: ExponentialJitterBackoff.backoffDelayLegacy",
		Theirs:  "MaxAttempts = 3 (counts the first call), MaxBackoff = 20 s",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.CapAt = 2*sec, 2, 20*sec, 3, policy.Full, policy.CapFixed
		}),
		Notes: []string{
			"Retry k waits random() × 2^k s while 2^k s is at most 20 s (k ≤ 4), then exactly 20 s with no jitter (cap applies: fixed).",
			"So its first retry waits up to 2 sec, where botocore's waits up to 1 s.",
			awsQuota,
			"From v1.48.0 on, NewStandard waits as aws-go-v2-2026: this preset keeps its old meaning, so links to it show the same numbers.",
		},
	},
	{
		Name: "aws-go-v2-2026", Library: "AWS SDK for Go v2, standard retryer with Retry Behavior 2.1 (the default from v1.48.0)",
		Short:   "AWS Go, 2026",
		Version: "aws-sdk-go-v2 v1.48.0 (2026-11-10) and later (read in v1.48.0)",
		Source:  "aws/retry/jitter_backoff.go: ExponentialJitterBackoff.backoffDelay2026; aws/retry/standard.go: NewStandard",
		Theirs:  "MaxAttempts = 3 (counts the first call; 4 for DynamoDB), BaseDelay = 50 ms (1 s for throttling errors, 25 ms for DynamoDB), MaxBackoff = 20 s",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = 50*msec, 2, 20*sec, 3, policy.Full
		}),
		Notes: []string{
			"Retry k waits random() × min(50 ms × 2^(k−1), 20 s): full jitter, capped before it. After a throttling error the base is 1 s, and an x-amz-retry-after header can lengthen the wait.",
			awsQuota2026,
			"v1.42.0 to v1.47.x had it as a preview behind AWS_NEW_RETRIES_2026=true, but drew from min(50 ms × 2^k, 20 s), twice as long (read in v1.47.8): not this preset.",
		},
	},
}

// awsExports is each AWS export: the preset it models, whose waits the SDK fixes (the shared config
// file sets only the retry mode and the attempts), the words for it, and the version it targets.
var awsExports = map[string]struct{ who, title, header string }{
	"aws-botocore": {"botocore", "AWS SDK for Python (botocore 1.15.0 and later) and AWS CLI: shared config file",
		"# botocore 1.15.0 and later, without AWS_NEW_RETRIES_2026=true\n"},
	"aws-botocore-2026": {"botocore with AWS_NEW_RETRIES_2026", "AWS SDK for Python (botocore 1.43.3 and later) with AWS_NEW_RETRIES_2026=true: shared config file",
		"# botocore 1.43.3 and later, with AWS_NEW_RETRIES_2026=true in the environment\n"},
	"aws-go-v2": {"aws-sdk-go-v2 before v1.48.0", "AWS SDK for Go v2 before v1.48.0: shared config file",
		"# aws-sdk-go-v2 v1.47.x and earlier, without AWS_NEW_RETRIES_2026=true\n"},
	"aws-go-v2-2026": {"aws-sdk-go-v2 v1.48.0+", "AWS SDK for Go v2 v1.48.0 and later (Retry Behavior 2.1): shared config file",
		"# aws-sdk-go-v2 v1.48.0 and later (Retry Behavior 2.1)\n"},
}

// awsLibrary is the Export panel's entry for the AWS behaviour of a preset, which has a block of
// its own.
func awsLibrary(preset string) Library {
	return Library{Lib: preset, Title: awsExports[preset].title, Presets: []string{preset}}
}

// awsExporter is exportAWS for one behaviour.
func awsExporter(preset string) func(*subject) Export {
	return func(s *subject) Export { return exportAWS(s, preset) }
}

func exportAWS(s *subject, preset string) Export {
	p := s.p
	pr, _ := PresetByName(preset)
	a := awsExports[preset]
	var e Export
	c := AWSRetryConfig{RetryMode: "standard", MaxAttempts: p.Attempts}
	e.Config = c
	e.Snippets = []Snippet{{"ini", a.header + c.INI()}}
	lib := p.WithPreset(pr.Named())
	lib.Attempts, lib.Budget = p.Attempts, p.Budget
	const fixed = "(Fixed in the SDK: the config sets only max_attempts.)"
	e.Diffs = compare(s, a.who, lib, map[string]string{"base": fixed, "factor": fixed, "cap": fixed, "jitter": fixed, "capat": fixed, "growth": fixed, "first": fixed})
	e.Diffs = append(e.Diffs, budgetDiffs(s, a.who, budgetNone, "", lib)...)
	e.Model = lib
	return e
}

// AWSRetryConfig is the retry settings of an AWS shared config file, in its own terms: all the
// file can set, as the SDK fixes the waits. INI writes it as the file's default profile.
type AWSRetryConfig struct {
	RetryMode   string // retry_mode: standard
	MaxAttempts int    // max_attempts: attempts, the first call included
}

// Policy is what the SDK of the AWS preset named preset does with c, in calc's terms, as
// exportAWS's Model says: the preset's waits, c's attempts, no deadline. ok is false for a preset
// that is not one of the AWS SDKs'.
func (c AWSRetryConfig) Policy(preset string) (pol policy.Policy, ok bool) {
	pr, found := PresetByName(preset)
	if _, aws := awsExports[preset]; !aws || !found {
		return policy.Policy{}, false
	}
	pol = pr.Params.Policy
	pol.Attempts, pol.Budget = c.MaxAttempts, 0
	return pol, true
}

// AWSConfigPresets are the AWS presets, each with the first line the Export panel writes in its
// shared config file, which names the SDK and version whose waits it means: the file itself
// cannot say which SDK reads it.
func AWSConfigPresets() (presets, headers []string) {
	for _, name := range []string{"aws-botocore", "aws-botocore-2026", "aws-go-v2", "aws-go-v2-2026"} {
		presets = append(presets, name)
		headers = append(headers, strings.TrimSuffix(awsExports[name].header, "\n"))
	}
	return presets, headers
}

// INI is c as the [default] profile of ~/.aws/config.
func (c AWSRetryConfig) INI() string {
	return "# ~/.aws/config, or AWS_RETRY_MODE and AWS_MAX_ATTEMPTS in the environment\n[default]\nretry_mode = " + c.RetryMode + "\n" +
		"# attempts, the first call included\nmax_attempts = " + strconv.Itoa(c.MaxAttempts) + "\n"
}
