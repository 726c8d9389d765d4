package importcfg

import "testing"

var awsCases = []readCase{
	{name: "default profile", text: "[profile dev]\nmax_attempts = 9\n[default]\nregion = eu-west-1\nretry_mode = standard\nmax_attempts = 5\n",
		values: "attempts=5&base=1s&cap=20s&factor=2&jitter=full&limiter=aws&budget=0", read: "preset aws-botocore", ignored: "line 1: [profile dev]: only one profile is read ([default])"},
	{name: "the first profile", text: "[sso-session s]\nsso_region = x\n[profile dev]\nretry_mode = adaptive\nmax_attempts = 4\n[profile prod]\n",
		values: "attempts=4", read: "the file has no [default]: its first profile"},
	{name: "adaptive", text: "[default]\nretry_mode = adaptive\n", values: "attempts=3", read: "rate limiter on throttling errors is not modelled"},
	{name: "the SDK from the comment", text: "# aws-sdk-go-v2 v1.48.0 and later (Retry Behavior 2.1)\n[default]\nmax_attempts = 4\n",
		values: "attempts=4&base=50ms&limiter=aws2026", read: "names the SDK: preset aws-go-v2-2026"},
	{name: "nested settings", text: "[default]\ns3 =\n  max_attempts = 99\nretry_mode = standard\n", values: "attempts=3", ignored: "line 2: s3: not about retries"},
	{name: "upper case mode", text: "[default]\nretry_mode = Standard\n", values: "attempts=3"},
	{name: "a key given twice", text: "[default]\nretry_mode = standard\nmax_attempts = 3\nmax_attempts = 7\n", values: "attempts=7",
		read: "line 4: max_attempts given again (also line 3): the last is read; botocore refuses"},
	{name: "a profile given twice", text: "[default]\nretry_mode = standard\nmax_attempts = 2\n\n[profile dev]\nmax_attempts = 9\n[default]\nmax_attempts = 7\n",
		values: "attempts=7", read: "line 7: [default] again (also line 1): its keys are read as the same profile's, as aws-sdk-go-v2 does; botocore refuses",
		ignored: "line 5: [profile dev]: only one profile is read ([default])"},
	{name: "its key given again", text: "[default]\nretry_mode = standard\nmax_attempts = 2\n[default]\nmax_attempts = 7\n",
		values: "attempts=7", read: "line 5: max_attempts given again (also line 3): the last is read"},

	{name: "legacy", text: "[default]\nretry_mode = legacy\n", err: `the legacy mode's waits are not modelled here: set retry_mode = standard (line 2, retry_mode "legacy")`},
	{name: "botocore's default mode", text: "[default]\nmax_attempts = 3\n", err: "no retry_mode: aws-botocore's default is legacy"},
	{name: "unknown mode", text: "[default]\nretry_mode = fast\n", err: `must be standard, adaptive or legacy (line 2, retry_mode "fast")`},
	{name: "attempts with a comment", text: "[default]\nretry_mode = standard\nmax_attempts = 3 # three\n", err: `not a whole number (line 3, max_attempts "3 # three")`},
	{name: "zero attempts", text: "[default]\nretry_mode = standard\nmax_attempts = 0\n", err: "must be between 1 and"},
	{name: "too many attempts", text: "[default]\nretry_mode = standard\nmax_attempts = 1001\n", err: `must be between 1 and 1000 (line 3, max_attempts "1001" → attempts=1001)`},
	{name: "a stray line", text: "[default]\nretry_mode standard\n", err: `not a key = value line (line 2, "retry_mode standard")`},
	{name: "no profile", text: "[services x]\na = b\n", err: "no profile"},
}

func TestReadAWS(t *testing.T) { checkReads(t, awsFormat.name, awsCases) }
