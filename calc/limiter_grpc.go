package calc

import "time"

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

func (*grpcThrottle) Start(Failure) bool { return true }

func (g *grpcThrottle) Succeed(time.Duration, int, int) {
	g.tokens = min(g.tokens+g.ratio, g.max)
}
