package libs

import (
	"strings"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// The job queues retry a failed job hours or days later, in whole seconds or polynomially: their
// presets use calc's polynomial growth, its offset and its whole-second draws. None has an
// exporter.

var jobQueuePresets = []Preset{
	{
		Name: "sidekiq", Library: "Sidekiq (Ruby) job retries, the default retry delay",
		Short:   "Sidekiq",
		Version: "sidekiq v8.0.0 (the jitter of PR #6513, the same through v8.0.10)",
		Source:  "lib/sidekiq/job_retry.rb: delay_for and process_retry",
		Theirs:  "retry: true (DEFAULT_MAX_RETRY_ATTEMPTS = 25), no sidekiq_retry_in: delay = count**4 + 15, jitter = rand(10 * (count + 1)) seconds, count = 0 for the first retry",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Growth, p.Cap, p.Attempts, p.Jitter, p.Offset = sec, 4, policy.Polynomial0, policy.MaxCap, 26, policy.Sidekiq, 15*sec
		}),
		Notes: []string{
			"Retry k (Sidekiq's count = k − 1) waits count⁴ + 15 s plus rand(10 × (count + 1)): a whole number of seconds from 0 to 10k − 1, each as likely. The calculator's growth polynomial0 (base 1 s, factor 4), offset 15 s and jitter sidekiq.",
			"25 retries (26 attempts) over about 20 days: the last waits 331,791 to 332,040 s (about 92 h).",
			"Sidekiq has no cap; the preset's cap is the calculator's largest, 168 h, above every wait.",
			"A job's sidekiq_retry_in block, which replaces the delay (the jitter is still added), retry: N, and the scheduler's poll of the retry set (every few seconds): not modelled.",
			"The Export panel has no exporter for Sidekiq.",
		},
	},
	{
		Name: "sidekiq7", Library: "Sidekiq 7 (Ruby) job retries, the default retry delay",
		Short:   "Sidekiq 7",
		Version: "sidekiq v7.3.9 (the last 7.x; the jitter changed in v8.0.0, PR #6513)",
		Source:  "lib/sidekiq/job_retry.rb: delay_for and process_retry",
		Theirs:  "retry: true (DEFAULT_MAX_RETRY_ATTEMPTS = 25), no sidekiq_retry_in: delay = count**4 + 15, jitter = rand(10) * (count + 1) seconds, count = 0 for the first retry",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Growth, p.Cap, p.Attempts, p.Jitter, p.Offset = sec, 4, policy.Polynomial0, policy.MaxCap, 26, policy.Sidekiq7, 15*sec
		}),
		Notes: []string{
			"Retry k (count = k − 1) waits count⁴ + 15 s plus rand(10) × (count + 1): one of 0, k, 2k, …, 9k seconds, each as likely. The calculator's growth polynomial0 (base 1 s, factor 4), offset 15 s and jitter sidekiq7.",
			"Sidekiq 8 draws every whole second below 10k instead (preset sidekiq): the same range but for its top, and no gaps.",
			"Sidekiq has no cap; the preset's cap is the calculator's largest, 168 h, above every wait.",
			"A job's sidekiq_retry_in block, which replaces the delay (the jitter is still added), retry: N, and the scheduler's poll of the retry set: not modelled.",
			"The Export panel has no exporter for Sidekiq.",
		},
	},
	{
		Name: "activejob-polynomial", Library: "Rails ActiveJob retry_on with the wait polynomially_longer",
		Short:   "ActiveJob k⁴ + 2 s",
		Basis:   "retry_on with the wait polynomially_longer, and retry_on's other defaults (attempts: 5) and retry_jitter 0.15, the default of applications made with Rails 6.1 or later (load_defaults); retry_on's own default wait is 3 s (preset activejob-default)",
		Version: "rails v8.0.5 (the same formula since v7.1.0, which named it polynomially_longer)",
		Source:  "activejob/lib/active_job/exceptions.rb: retry_on, determine_delay and determine_jitter_for_delay",
		Theirs:  "retry_on SomeError, wait: the symbol polynomially_longer, attempts: 5, jitter: retry_jitter = 0.15",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Growth, p.Cap, p.Attempts, p.Jitter, p.Ratio, p.Offset = sec, 4, policy.Polynomial, policy.MaxCap, 5, policy.Upward, 0.15, 2*sec
		}),
		Notes: []string{
			"Retry k (executions = k: the first retry follows the first execution) waits executions⁴ + Kernel.rand × executions⁴ × 0.15 + 2 seconds: the calculator's growth polynomial (base 1 s, factor 4), upward jitter with ratio 0.15 and offset 2 s.",
			"4 retries: 3 to 3.15 s, 18 to 20.4 s, 83 to 95.15 s and 258 to 296.4 s.",
			"retry_jitter is 0.0 in an application upgraded without load_defaults 6.1: set the ratio to 0. ActiveJob has no cap; the preset's is the calculator's largest, 168 h.",
			"The queue adapter's own retries and its scheduling delay (a job runs when a worker polls after scheduled_at), and several retry_on blocks counting their own executions: not modelled.",
			"The Export panel has no exporter for ActiveJob.",
		},
	},
	{
		Name: "activejob-default", Library: "Rails ActiveJob retry_on with its default wait",
		Short:   "ActiveJob retry_on",
		Basis:   "retry_on's defaults (wait: 3.seconds, attempts: 5) and retry_jitter 0.15, the default of applications made with Rails 6.1 or later (load_defaults)",
		Version: "rails v8.0.5 (the same since v6.1.0, when retry_jitter came)",
		Source:  "activejob/lib/active_job/exceptions.rb: retry_on, determine_delay and determine_jitter_for_delay",
		Theirs:  "retry_on SomeError (wait: 3.seconds, attempts: 5, jitter: retry_jitter = 0.15)",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio = 3*sec, 1, policy.MaxCap, 5, policy.Upward, 0.15
		}),
		Notes: []string{
			"Every retry waits 3 s + Kernel.rand × 3 s × 0.15: 3 to 3.45 s, the calculator's factor 1 with upward jitter, ratio 0.15.",
			"retry_jitter is 0.0 in an application upgraded without load_defaults 6.1: set the ratio to 0.",
			"The queue adapter's own retries and its scheduling delay: not modelled.",
			"The Export panel has no exporter for ActiveJob.",
		},
	},
	{
		Name: "celery", Library: "Celery (Python) task autoretry with retry_backoff",
		Short:   "Celery",
		Basis:   "autoretry_for with retry_backoff=True, whose defaults are retry_backoff_max=600 and retry_jitter=True, and Task.max_retries = 3: Celery retries after a fixed 3 min without retry_backoff",
		Version: "celery v5.6.3",
		Source:  "celery/app/autoretry.py: add_autoretry_behaviour; celery/utils/time.py: get_exponential_backoff_interval",
		Theirs:  "autoretry_for=(...), retry_backoff=True (factor 1), retry_backoff_max=600, retry_jitter=True, max_retries=3",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, 600*sec, 4, policy.FullSec
		}),
		Notes: []string{
			"Retry k (task.request.retries = k − 1) waits random.randrange(min(600, factor × 2^(k−1)) + 1) seconds: a whole number from 0 up to and including the delay, each as likely. The calculator's jitter fullsec with base = factor × 1 s.",
			"3 retries: 0 to 1 s, 0 to 2 s, 0 to 4 s; with more retries the delay stops at 600 s from the 11th.",
			"retry_backoff=N sets the factor (the base, N s); retry_jitter=False waits the delay itself (jitter none).",
			"The broker's delivery of a countdown (an ETA message) and the worker's prefetch of it: not modelled.",
			"The Export panel has no exporter for Celery.",
		},
	},
	{
		Name: "bullmq", Library: "BullMQ (Node.js) job attempts with exponential backoff",
		Short:   "BullMQ",
		Basis:   "the example of BullMQ's guide (Retrying failing jobs): attempts: 3, backoff { type: 'exponential', delay: 1000 }; by default a job has 1 attempt and no backoff",
		Version: "bullmq v6.2.0 (git tag; package.json says 6.1.2)",
		Source:  "src/classes/backoffs.ts: Backoffs.builtinStrategies.exponential; src/classes/job.ts: shouldRetryJob",
		Theirs:  "attempts: 3, backoff: { type: 'exponential', delay: 1000 } (jitter unset, 0)",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter = sec, 2, policy.MaxCap, 3, policy.None
		}),
		Notes: []string{
			"Retry k waits Math.round(2^(attemptsMade − 1) × delay) ms with attemptsMade = k (shouldRetryJob passes attemptsMade + 1), without a cap: 1 s and 2 s. The guide says \"1 second, 2 seconds, and 4 seconds\", but attempts: 3 makes 2 retries.",
			"BullMQ has no cap; the preset's is the calculator's largest, 168 h.",
			"The jitter option waits Math.floor(Math.random() × d × jitter + d × (1 − jitter)) ms, a whole millisecond below d: not modelled.",
			"A custom backoffStrategy, UnrecoverableError and a worker's delay before it picks a delayed job up: not modelled.",
			"The Export panel has no exporter for BullMQ.",
		},
	},
}

// beyondExports says why no exporter can write p, or "": a polynomial growth, an offset and the
// job queues' whole-second jitters are the job queues' own, which none of the exported
// libraries has (and the job queues have no exporter). who names the library.
func beyondExports(p calc.Params, who string) string {
	var why []string
	switch p.Growth {
	case policy.Polynomial, policy.Polynomial0:
		why = append(why, "growth "+p.Growth.String()+" (its delays do not grow as a power of the retry's number)")
	}
	if p.Offset != 0 {
		why = append(why, "an offset of "+dur(p.Offset)+" added to every wait")
	}
	switch p.Jitter {
	case policy.Sidekiq, policy.Sidekiq7, policy.FullSec:
		why = append(why, "jitter "+p.Jitter.String()+" ("+p.Jitter.Title()+")")
	}
	if len(why) == 0 {
		return ""
	}
	return who + " cannot express " + strings.Join(why, ", nor ") + "."
}
