package limiter

import (
	"math"
	"time"
)

// grpcThrottle is gRFC A6 retryThrottling as grpc-go v1.85.0 implements it (retryThrottler in
// clientconn.go, called from stream.go's shouldRetry and finish): the count starts at maxTokens;
// every failed attempt with a retryable status takes 1, even the last one the policy would not
// retry (throttle runs before the attempts are counted), and never below 0; a retry is refused
// when the count is then at or below maxTokens/2; every successful call adds tokenRatio, never
// above maxTokens. With maxTokens 10 and ratio 0.1, a failing client retries 4 times (10 → 6)
// and is refused from the 5th failure on; 10 successes give one token back.
type grpcThrottle struct {
	max, thresh, ratio, tokens float64
}

func newGRPCThrottle(maxTokens, ratio float64) *grpcThrottle {
	return &grpcThrottle{max: maxTokens, thresh: maxTokens / 2, ratio: ratio, tokens: maxTokens}
}

func (g *grpcThrottle) Begin(time.Duration) {}

func (g *grpcThrottle) Retry(Failure) (bool, int) {
	g.tokens = max(g.tokens-1, 0)
	return g.tokens > g.thresh, 0
}

func (g *grpcThrottle) Succeed(time.Duration, int, int) {
	g.tokens = min(g.tokens+g.ratio, g.max)
}

// GRPCRetriesUnderFailure is how many retries one grpc process admits when every attempt fails:
// the count starts at maxTokens, each failure takes 1 and nothing gives one back (only a success
// adds tokenRatio), and a retry is allowed while the count after the failure is above
// maxTokens/2. Failure k (from 1) leaves maxTokens − k, so the retries are the k ≥ 1 with
// k < maxTokens/2: ⌈maxTokens/2⌉ − 1. With 10 tokens: 4 (9, 8, 7, 6 allowed; 5 refused).
func GRPCRetriesUnderFailure(maxTokens float64) int {
	return max(int(math.Ceil(maxTokens/2))-1, 0)
}
