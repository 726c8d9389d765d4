package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

var grpcPresets = []Preset{
	{
		Name: "grpc-retry", Library: "gRPC retry policy (gRFC A6): grpc-go, grpc-java, grpc-node",
		Short: "gRPC retry policy", Basis: "the example policy of gRFC A6: gRPC has no default retry policy",
		Version: "the ±20% jitter of the 2024 revision of gRFC A6: grpc-go (read in v1.85.0), @grpc/grpc-js 1.14.0 (2025-09) and later",
		Source:  "grpc-go stream.go: shouldRetry; grpc-node packages/grpc-js/src/retrying-call.ts: getNextRetryJitter",
		Theirs:  "retryPolicy: maxAttempts = 5 (counts the first call; more than 5 is treated as 5), initialBackoff = 0.1s, maxBackoff = 1s, backoffMultiplier = 2",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio = 100*msec, 2, sec, 5, policy.Proportional, 0.2
		}),
		Notes: []string{
			"gRPC has no default retry policy: these are example values.",
			"Retry k waits min(initialBackoff × multiplier^(k−1), maxBackoff) × U[0.8, 1.2]: the cap comes before the jitter, so a wait can reach 1.2 × maxBackoff.",
			"Before the 2024 revision, and in @grpc/grpc-js up to 1.13.x, the wait was U[0, 1] × the same: full jitter.",
			"grpc-go rejects a whole service config whose retryPolicy has maxAttempts under 2 (NewClient fails: invalid retry policy).",
		},
	},
	{
		Name: "grpc-connect", Library: "gRPC connection backoff (reconnecting a channel)",
		Short: "gRPC reconnect", Basis: "grpc-go's defaults, with 10 attempts: gRPC reconnects without limit",
		Version: "grpc-go (read in v1.85.0)", Source: "grpc-go internal/backoff/backoff.go: Exponential.Backoff; doc/connection-backoff.md",
		Theirs: "BaseDelay = 1 sec, Multiplier = 1.6, Jitter = 0.2, MaxDelay = 120 s; reconnects without limit",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.FirstExact = sec, 1.6, 120*sec, 10, policy.Proportional, 0.2, true
		}),
		Notes: []string{
			"The first reconnect waits exactly 1 s; reconnect k waits min(1.6^(k−1) sec, 120 s) × U[0.8, 1.2].",
			"gRPC reconnects without limit: the preset shows 10 attempts.",
		},
	},
}

// grpcLibrary is the Export panel's entry for the library; exportGRPC fills in the rest.
var grpcLibrary = Library{Lib: "grpc", Title: "gRPC service config: retryPolicy (grpc-go, grpc-java)", Presets: []string{"grpc-retry"}}

func exportGRPC(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "gRPC", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	if p.Attempts < 2 {
		e.Diffs = []string{"With 1 attempt there is nothing to retry: leave retryPolicy out (grpc-go rejects a whole service config whose retryPolicy has maxAttempts under 2: " +
			"NewClient fails with \"invalid retry policy\")."}
		return e
	}
	attempts := min(p.Attempts, grpcLimit)
	c := GRPCRetryPolicy{Timeout: p.Budget, MaxAttempts: attempts, InitialBackoff: p.Base, MaxBackoff: p.Cap, BackoffMultiplier: p.Factor}
	if p.Limiter == limiter.GRPC {
		// The link's limiter is gRPC's own: the same service config says it, and an import of
		// the export reads it back.
		c.Throttling = &GRPCThrottling{MaxTokens: p.Limits.GRPCMaxTokens, TokenRatio: p.Limits.GRPCTokenRatio}
	}
	e.Config = c
	e.Snippets = []Snippet{{"json", c.JSON()}}

	if p.Attempts > grpcLimit {
		e.Diffs = append(e.Diffs, "gRPC clients treat maxAttempts above 5 as 5, so this config says 5: "+attemptsText(grpcLimit)+
			" instead of "+attemptsText(p.Attempts)+". For "+strconv.Itoa(p.Attempts)+" attempts, set maxAttempts to "+strconv.Itoa(p.Attempts)+
			" and raise the client's limit (grpc-go: grpc.WithMaxCallAttempts("+strconv.Itoa(p.Attempts)+")).")
	}
	lib := p
	lib.Attempts, lib.Jitter, lib.Ratio, lib.CapAt, lib.FirstExact = attempts, policy.Proportional, 0.2, policy.CapBefore, false
	why := map[string]string{"jitter": "(gRFC A6 as revised in 2024: grpc-go, grpc-java, and @grpc/grpc-js from 1.14.0.)"}
	if p.Jitter == policy.Full {
		why["jitter"] = "(gRFC A6 as revised in 2024: grpc-go, grpc-java, and @grpc/grpc-js from 1.14.0; @grpc/grpc-js 1.13.x and earlier draw uniformly in [0, d], as the policy does.)"
	}
	e.Diffs = append(e.Diffs, compare(s, "gRPC", lib, why)...)
	e.Diffs = append(e.Diffs, budgetDiffs(s, "gRPC", budgetDeadline, "The method's timeout", lib)...)
	e.Model = lib
	return e
}

// grpcLimit is the most attempts gRPC clients make, whatever maxAttempts says, unless the client
// raises it (grpc-go: grpc.WithMaxCallAttempts).
const grpcLimit = 5

// GRPCRetryPolicy is a gRPC method config's timeout and retryPolicy in gRFC A6's own terms.
// JSON writes it as a service config.
type GRPCRetryPolicy struct {
	Timeout           time.Duration // the method's timeout over every attempt; 0: not written
	MaxAttempts       int           // attempts, the first call included; at most 5 unless the client raises its limit
	InitialBackoff    time.Duration
	MaxBackoff        time.Duration
	BackoffMultiplier float64
	Throttling        *GRPCThrottling // the channel's retryThrottling; nil: not written
}

// GRPCThrottling is a service config's retryThrottling (gRFC A6), what limiter=grpc models:
// maxTokens in (0, 1000], tokenRatio above 0.
type GRPCThrottling struct {
	MaxTokens, TokenRatio float64
}

// Policy is what a gRPC client does with c, in calc's terms, as exportGRPC's Model says: at
// most 5 attempts, waits drawn ±20% around the capped delay, the timeout as the budget.
func (c GRPCRetryPolicy) Policy() policy.Policy {
	return policy.Policy{Base: c.InitialBackoff, Factor: c.BackoffMultiplier, Cap: c.MaxBackoff, Attempts: min(c.MaxAttempts, grpcLimit),
		Jitter: policy.Proportional, Ratio: 0.2, CapAt: policy.CapBefore, Budget: c.Timeout}
}

// GRPCMaxAttempts is the most attempts a gRPC client makes unless it raises its limit: a
// maxAttempts above it counts as it.
const GRPCMaxAttempts = grpcLimit

// JSON is c as a service config for one service, retrying UNAVAILABLE, the timeout only when set.
func (c GRPCRetryPolicy) JSON() string {
	timeout := ""
	if c.Timeout > 0 {
		timeout = "      \"timeout\": \"" + protoDuration(c.Timeout) + "\",\n"
	}
	var b strings.Builder
	b.WriteString("{\n  \"methodConfig\": [\n    {\n      \"name\": [{ \"service\": \"your.package.Service\" }],\n" + timeout + "      \"retryPolicy\": {\n")
	for _, f := range [][2]string{
		{"maxAttempts", strconv.Itoa(c.MaxAttempts)},
		{"initialBackoff", "\"" + protoDuration(c.InitialBackoff) + "\""},
		{"maxBackoff", "\"" + protoDuration(c.MaxBackoff) + "\""},
		{"backoffMultiplier", strconv.FormatFloat(c.BackoffMultiplier, 'f', -1, 64)},
	} {
		b.WriteString("        \"" + f[0] + "\": " + f[1] + ",\n")
	}
	b.WriteString("        \"retryableStatusCodes\": [\"UNAVAILABLE\"]\n      }\n    }\n  ]")
	if t := c.Throttling; t != nil {
		b.WriteString(",\n  \"retryThrottling\": {\n    \"maxTokens\": " + strconv.FormatFloat(t.MaxTokens, 'f', -1, 64) +
			",\n    \"tokenRatio\": " + strconv.FormatFloat(t.TokenRatio, 'f', -1, 64) + "\n  }")
	}
	b.WriteString("\n}\n")
	return b.String()
}
