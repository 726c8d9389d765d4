package limiter

import "time"

// envoyBudget is Envoy's cluster retry budget (envoy source/common/upstream/resource_manager_impl.h,
// RetryBudgetImpl::max, with budget_interval unset): a retry may start only while the retries in
// flight are fewer than max(budget_percent/100 × (active + pending requests), min_retry_concurrency),
// the product truncated to a whole number as C++ converts a double to uint64_t. It caps how many
// retries run at once, not how many happen: with the defaults (20%, 3) and 10 requests in flight,
// 3 retries may run at once; with 100, 20.
type envoyBudget struct {
	percent float64
	min     int
}

func (envoyBudget) Begin(time.Duration) {}

func (e envoyBudget) Retry(f Failure) (bool, int) {
	if f.Last {
		return false, 0
	}
	return f.Retries < e.max(f.Active), 0
}

func (envoyBudget) Succeed(time.Duration, int, int) {}

// max is the number of retries that may be in flight with active requests in flight or pending.
func (e envoyBudget) max(active int) int {
	return max(int(e.percent/100*float64(active)), e.min)
}
