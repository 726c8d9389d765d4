package limiter

import "time"

// awsQuota is the AWS SDKs' standard-mode retry quota: a bucket of 500 tokens; a retry takes its
// cost and is refused when fewer tokens are left than it costs; a request whose first attempt
// succeeds adds 1; a request that succeeds after retrying gives back what its last retry took; a
// failed retry gives nothing back; the bucket never holds more than 500.
//
// The costs come in two versions. awsLegacyCosts (limiter=aws) are botocore's
// retries/quota.py and retries/standard.py (RetryQuotaChecker: _RETRY_COST 5,
// _TIMEOUT_RETRY_REQUEST 10, _NO_RETRY_INCREMENT 1) and aws-sdk-go-v2 before v1.48.0
// (DefaultRetryCost, DefaultRetryTimeoutCost). aws2026Costs (limiter=aws2026) are aws-sdk-go-v2
// v1.48.0's aws/retry/standard.go, where "Retry Behavior 2.1" became the default: 14 per retry,
// 5 after a throttling error, timeouts no longer special. The bucket is aws/ratelimit's
// TokenBucket (token_bucket.go), reached through TokenRateLimit.GetToken and AddTokens.
//
// Under total failure with 3 attempts, legacy costs allow 100 retries (500/5), then refuse;
// the 2026 costs allow 35 (500/14 = 35.7: 10 tokens are left, fewer than 14).
type awsQuota struct {
	costs  awsCosts
	tokens int
}

type awsCosts struct {
	capacity, retry, timeout, throttled, noRetryIncrement int
}

var (
	awsLegacyCosts = awsCosts{capacity: 500, retry: 5, timeout: 10, throttled: 5, noRetryIncrement: 1}
	aws2026Costs   = awsCosts{capacity: 500, retry: 14, timeout: 14, throttled: 5, noRetryIncrement: 1}
)

// cost is what a retry takes after a failure that timed out or was throttled (or neither).
func (c awsCosts) cost(timeout, throttled bool) int {
	switch {
	case throttled:
		return c.throttled
	case timeout:
		return c.timeout
	}
	return c.retry
}

// retriesUnderFailure is how many retries a full quota admits when every attempt fails so: no
// success gives any back.
func (c awsCosts) retriesUnderFailure(timeout, throttled bool) int {
	return c.capacity / c.cost(timeout, throttled)
}

func newAWSQuota(c awsCosts) *awsQuota { return &awsQuota{costs: c, tokens: c.capacity} }

func (q *awsQuota) Begin(time.Duration) {}

// Retry asks for a token only when the policy has an attempt left: the SDKs check max attempts
// before they touch the quota.
func (q *awsQuota) Retry(f Failure) (bool, int) {
	if f.Last {
		return false, 0
	}
	cost := q.costs.cost(f.Timeout, f.Throttled)
	if cost > q.tokens {
		return false, 0
	}
	q.tokens -= cost
	return true, cost
}

func (q *awsQuota) Succeed(_ time.Duration, attempt, held int) {
	back := held
	if attempt == 1 {
		back = q.costs.noRetryIncrement
	}
	q.tokens = min(q.tokens+back, q.costs.capacity)
}

// costsOf are the costs of k's quota; those of aws for a kind without one.
func costsOf(k Kind) awsCosts {
	if q, ok := New(k, Defaults()).(*awsQuota); ok {
		return q.costs
	}
	return awsLegacyCosts
}

// AWSRetriesUnderFailure is how many retries one process's quota admits when every attempt
// fails: the quota starts at 500, each retry takes its cost, nothing is given back without a
// success, and a retry is refused when fewer tokens are left than it costs: ⌊500/cost⌋. The cost
// is 5 for aws (10 after a timeout) and 14 for aws2026 (5 after a "server full" failure): 100, 50,
// 35 and 100.
func AWSRetriesUnderFailure(k Kind, timeout, throttled bool) int {
	return costsOf(k).retriesUnderFailure(timeout, throttled)
}

// AWSErrorBound is the long-run bound of k's quota on the retries per request when each attempt
// fails with probability f: a request whose first attempt succeeds (probability 1 − f) adds 1;
// each retry takes c (5, or 14 for aws2026) and gives it back when it succeeds (each succeeds
// with probability 1 − f, and a successful retry is its request's last): f·c per retry. Once the
// quota is spent, retries are what the additions pay for: R·f·c = 1 − f, R = (1 − f)/(c·f). At
// f = 0.5 and c = 5: 0.2 retries per request. ok is false at f = 0, where nothing is bounded.
func AWSErrorBound(k Kind, f float64) (retries float64, ok bool) {
	if f == 0 {
		return 0, false
	}
	c := costsOf(k)
	return float64(c.noRetryIncrement) * (1 - f) / (float64(c.retry) * f), true
}
