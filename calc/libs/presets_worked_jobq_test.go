package libs

import (
	"math"
	"testing"
	"time"

	"backoffcalc/calc"
)

// The job queues' formulas, written from their sources (Preset.Source) for TestPresetsFollowTheirSource:
// a whole-number draw rand(n) or random.randrange(n) is floor(u × n).
func init() {
	// sidekiq v8.0.0 job_retry.rb: count**4 + 15 + rand(10 * (count + 1)), count = k - 1
	libraryWait["sidekiq"] = func(k int, u float64) float64 {
		c := float64(k - 1)
		return (math.Pow(c, 4) + 15 + math.Floor(u*10*(c+1))) * 1e9
	}
	// sidekiq v7.3.9 job_retry.rb: count**4 + 15 + rand(10) * (count + 1)
	libraryWait["sidekiq7"] = func(k int, u float64) float64 {
		c := float64(k - 1)
		return (math.Pow(c, 4) + 15 + math.Floor(u*10)*(c+1)) * 1e9
	}
	// rails v8.0.5 exceptions.rb: executions**4 + Kernel.rand * executions**4 * 0.15 + 2, executions = k
	libraryWait["activejob-polynomial"] = func(k int, u float64) float64 {
		d := math.Pow(float64(k), 4)
		return (d + u*d*0.15 + 2) * 1e9
	}
	// rails v8.0.5 exceptions.rb: 3 + Kernel.rand * 3 * 0.15
	libraryWait["activejob-default"] = func(k int, u float64) float64 { return (3 + u*3*0.15) * 1e9 }
	// celery v5.6.3 time.py: random.randrange(min(600, 1 * 2**retries) + 1), retries = k - 1
	libraryWait["celery"] = func(k int, u float64) float64 {
		return math.Floor(u*(math.Min(600, math.Pow(2, float64(k-1)))+1)) * 1e9
	}
	// bullmq v6.2.0 backoffs.ts: Math.round(Math.pow(2, attemptsMade - 1) * delay) ms, attemptsMade = k
	libraryWait["bullmq"] = func(k int, u float64) float64 { return math.Round(math.Pow(2, float64(k-1))*1000) * 1e6 }
}

// jobQueuesWorked are the job queues' presets worked out by hand from their library's formula
// and parameters (in the comments), not read from calc: some retries' least, most and mean
// wait, in seconds, and the totals.
var jobQueuesWorked = []struct {
	name     string
	attempts int
	retries  map[int][3]float64 // retry k: min, max, mean
	total    [3]float64
}{
	// Sidekiq 8: retry k (count c = k − 1) waits c⁴ + 15 + r, r one of 0..10k − 1: min c⁴ + 15,
	// max c⁴ + 15 + 10k − 1, mean c⁴ + 15 + (10k − 1)/2. Retry 1: 15..24, mean 19.5; retry 2:
	// 16..35, mean 25.5; retry 3: 16 + 15 = 31..60, mean 45.5; retry 25: 24⁴ = 331776, so
	// 331791..332040, mean 331915.5. Totals over 25 retries: Σc⁴ (c = 0..24) =
	// 24·25·49·(3·24² + 3·24 − 1)/30 = 24·25·49·1799/30 = 1,763,020; plus 25 × 15 = 375 gives the
	// least, 1,763,395; the jitters' most add Σ(10k − 1) = 3250 − 25 = 3225: 1,766,620; the mean
	// adds half, 1612.5: 1,765,007.5.
	{"sidekiq", 26, map[int][3]float64{1: {15, 24, 19.5}, 2: {16, 35, 25.5}, 3: {31, 60, 45.5}, 25: {331791, 332040, 331915.5}},
		[3]float64{1763395, 1766620, 1765007.5}},
	// Sidekiq 7: c⁴ + 15 + k × r, r one of 0..9: max adds 9k, mean 4.5k. Retry 1: 15..24, mean
	// 19.5; retry 2: 16..34, mean 25; retry 3: 31..58, mean 44.5; retry 25: 331791..332016, mean
	// 331903.5. Totals: least 1,763,395 as Sidekiq 8; most + 9 × Σk = 9 × 325 = 2925:
	// 1,766,320; mean + 4.5 × 325 = 1462.5: 1,764,857.5.
	{"sidekiq7", 26, map[int][3]float64{1: {15, 24, 19.5}, 2: {16, 34, 25}, 3: {31, 58, 44.5}, 25: {331791, 332016, 331903.5}},
		[3]float64{1763395, 1766320, 1764857.5}},
	// ActiveJob polynomially_longer, 5 attempts: retry k (executions = k) waits k⁴ + 2 + U·0.15·k⁴.
	// Retry 1: 3..3.15, mean 3.075; retry 2: 18..20.4, mean 19.2; retry 3: 83..95.15, mean
	// 89.075; retry 4: 258..296.4, mean 277.2. Totals: 362, 415.1, 388.55.
	{"activejob-polynomial", 5, map[int][3]float64{1: {3, 3.15, 3.075}, 2: {18, 20.4, 19.2}, 3: {83, 95.15, 89.075}, 4: {258, 296.4, 277.2}},
		[3]float64{362, 415.1, 388.55}},
	// ActiveJob's default wait: every retry 3 + U·0.45: 3..3.45, mean 3.225; 4 retries: 12, 13.8,
	// 12.9.
	{"activejob-default", 5, map[int][3]float64{1: {3, 3.45, 3.225}, 4: {3, 3.45, 3.225}}, [3]float64{12, 13.8, 12.9}},
	// Celery, max_retries 3: retry k draws randrange(d + 1), d = min(600, 2^(k−1)): one of 0..d,
	// mean d/2. Retry 1: 0..1, mean 0.5; retry 2: 0..2, mean 1; retry 3: 0..4, mean 2. Totals 0,
	// 7, 3.5.
	{"celery", 4, map[int][3]float64{1: {0, 1, 0.5}, 2: {0, 2, 1}, 3: {0, 4, 2}}, [3]float64{0, 7, 3.5}},
	// BullMQ attempts 3, exponential delay 1000: retry 1 2^0 × 1000 ms = 1 s, retry 2 2 s; total 3 s.
	{"bullmq", 3, map[int][3]float64{1: {1, 1, 1}, 2: {2, 2, 2}}, [3]float64{3, 3, 3}},
}

func TestJobQueuePresetsWorkedByHand(t *testing.T) {
	secs := func(x float64) float64 { return x * 1e9 }
	for _, c := range jobQueuesWorked {
		pr, ok := PresetByName(c.name)
		if !ok {
			t.Errorf("%s: no such preset", c.name)
			continue
		}
		s := pr.Params.Schedule()
		if len(s.Rows) != c.attempts {
			t.Errorf("%s: %d attempts, worked by hand %d", c.name, len(s.Rows), c.attempts)
			continue
		}
		for k, w := range c.retries {
			// The continuous draws' means are sums of floats: within a nanosecond.
			if r := s.Rows[k]; float64(r.Min) != secs(w[0]) || float64(r.Max) != secs(w[1]) || math.Abs(r.Mean-secs(w[2])) > 1 {
				t.Errorf("%s retry %d: [%v, %v] mean %.0f ns, worked by hand [%vs, %vs] mean %vs", c.name, k, r.Min, r.Max, r.Mean, w[0], w[1], w[2])
			}
		}
		if tt := s.Total; float64(tt.Min) != secs(c.total[0]) || float64(tt.Max) != secs(c.total[1]) || math.Abs(tt.Mean-secs(c.total[2])) > 4 {
			t.Errorf("%s totals: [%v, %v] mean %.0f ns, worked by hand %v s", c.name, tt.Min, tt.Max, tt.Mean, c.total)
		}
	}
}

// enumerated are the least, most and mean of a whole-number draw's waits, worked out from every
// value the library's rand can return (each as likely), and whether calc's Wait gives each value
// at a draw u inside its share of [0, 1).
func enumerated(t *testing.T, p calc.Params, k, n int, wait func(r int) time.Duration) (lo, hi time.Duration, mean float64) {
	t.Helper()
	lo, hi = time.Duration(math.MaxInt64), 0
	var sum float64
	for r := range n {
		w := wait(r)
		lo, hi, sum = min(lo, w), max(hi, w), sum+float64(w)
		if got, _ := p.Wait(k, (float64(r)+0.5)/float64(n), p.FirstState()); got != w {
			t.Errorf("%s retry %d, rand = %d: calc waits %v, the library %v", p.Jitter, k, r, got, w)
		}
	}
	return lo, hi, sum / float64(n)
}

// TestSidekiqTranscribed transcribes sidekiq's lib/sidekiq/job_retry.rb at v8.0.0 and v7.3.9:
// process_retry counts retry_count from 0 and stops once count >= 25 (DEFAULT_MAX_RETRY_ATTEMPTS);
// delay_for returns count**4 + 15 without sidekiq_retry_in; the retry is at delay + jitter, with
// jitter = rand(10 * (count + 1)) in v8.0.0 (PR #6513) and rand(10) * (count + 1) before. Every
// value of rand must be a wait of calc's, and the schedule's bounds and mean those of the values.
func TestSidekiqTranscribed(t *testing.T) {
	for _, c := range []struct {
		preset string
		n      func(count int) int              // rand's argument
		jitter func(count, r int) time.Duration // the jitter for rand's value r
	}{
		{"sidekiq", func(count int) int { return 10 * (count + 1) }, func(count, r int) time.Duration { return time.Duration(r) * sec }},
		{"sidekiq7", func(int) int { return 10 }, func(count, r int) time.Duration { return time.Duration(r*(count+1)) * sec }},
	} {
		pr, _ := PresetByName(c.preset)
		p := pr.Params
		rows := p.Schedule().Rows
		retries := 0
		for count := 0; count < 25; count++ { // retries_exhausted once count >= 25
			retries++
			k := count + 1
			delay := time.Duration(count*count*count*count+15) * sec
			lo, hi, mean := enumerated(t, p, k, c.n(count), func(r int) time.Duration { return delay + c.jitter(count, r) })
			if r := rows[k]; r.Min != lo || r.Max != hi || math.Abs(r.Mean-mean) > 1e-6*mean {
				t.Errorf("%s retry %d: [%v, %v] mean %.0f, the library [%v, %v] mean %.0f", c.preset, k, r.Min, r.Max, r.Mean, lo, hi, mean)
			}
		}
		if retries != p.Attempts-1 {
			t.Errorf("%s: %d retries, the library %d", c.preset, p.Attempts-1, retries)
		}
	}
}

// TestActiveJobTranscribed transcribes rails' activejob/lib/active_job/exceptions.rb at v8.0.5:
// retry_on retries while executions < attempts (5), executions counting from 1; determine_delay
// returns executions**4 + Kernel.rand * executions**4 * jitter + 2 for :polynomially_longer
// and 3 + Kernel.rand * 3 * jitter for the default 3.seconds, jitter = retry_jitter = 0.15.
func TestActiveJobTranscribed(t *testing.T) {
	for _, c := range []struct {
		preset string
		delay  func(executions int, rand float64) float64 // seconds
	}{
		{"activejob-polynomial", func(e int, rand float64) float64 {
			d := math.Pow(float64(e), 4)
			return d + rand*d*0.15 + 2
		}},
		{"activejob-default", func(e int, rand float64) float64 { return 3 + rand*3*0.15 }},
	} {
		pr, _ := PresetByName(c.preset)
		p := pr.Params
		retries := 0
		for executions := 1; executions < 5; executions++ {
			retries++
			for _, u := range []float64{0, 0.2, 0.5, 0.9, 0.999999} {
				got, _ := p.Wait(executions, u, p.FirstState())
				if want := c.delay(executions, u) * 1e9; math.Abs(float64(got)-want) > 1 {
					t.Errorf("%s retry %d, rand %v: calc %v, the library %.0f ns", c.preset, executions, u, got, want)
				}
			}
		}
		if retries != p.Attempts-1 {
			t.Errorf("%s: %d retries, the library %d", c.preset, p.Attempts-1, retries)
		}
	}
}

// TestCeleryTranscribed transcribes celery v5.6.3: autoretry.py passes factor =
// int(max(1.0, retry_backoff)) = 1, retries = task.request.retries (0 for the first retry),
// maximum = retry_backoff_max = 600 and full_jitter = retry_jitter = True to time.py's
// get_exponential_backoff_interval, which returns random.randrange(min(maximum, factor *
// 2 ** retries) + 1). Task.max_retries = 3 makes 3 retries; with max_retries 12 the delay
// reaches 600 s at the 11th.
func TestCeleryTranscribed(t *testing.T) {
	pr, _ := PresetByName("celery")
	longer := pr.Params
	longer.Attempts = 13
	for _, p := range []calc.Params{pr.Params, longer} {
		rows := p.Schedule().Rows
		for retries := 0; retries < p.Attempts-1; retries++ {
			k := retries + 1
			countdown := min(600, 1*(1<<retries))
			lo, hi, mean := enumerated(t, p, k, countdown+1, func(r int) time.Duration { return time.Duration(r) * sec })
			if r := rows[k]; r.Min != lo || r.Max != hi || r.Mean != mean || r.Nominal != time.Duration(countdown)*sec {
				t.Errorf("celery retry %d: [%v, %v] mean %.0f, nominal %v; the library [%v, %v] mean %.0f, countdown %d s", k, r.Min, r.Max, r.Mean, r.Nominal, lo, hi, mean, countdown)
			}
		}
	}
}

// TestBullMQTranscribed transcribes bullmq v6.2.0: job.ts's shouldRetryJob retries while
// attemptsMade + 1 < attempts and passes attemptsMade + 1 to backoffs.ts's exponential
// strategy, which without jitter returns Math.round(Math.pow(2, attemptsMade - 1) * delay) ms.
func TestBullMQTranscribed(t *testing.T) {
	pr, _ := PresetByName("bullmq")
	const attempts, delay = 3, 1000
	var waits []time.Duration
	for attemptsMade := 0; attemptsMade+1 < attempts; attemptsMade++ {
		waits = append(waits, time.Duration(math.Round(math.Pow(2, float64(attemptsMade+1-1))*delay))*msec)
	}
	rows := pr.Params.Schedule().Rows
	if len(rows)-1 != len(waits) {
		t.Fatalf("bullmq: %d retries, the library %d", len(rows)-1, len(waits))
	}
	for i, w := range waits {
		if r := rows[i+1]; r.Min != w || r.Max != w {
			t.Errorf("bullmq retry %d: [%v, %v], the library %v", i+1, r.Min, r.Max, w)
		}
	}
}

// The job queues' growths, offset and jitters are beyond every exporter: each says so, and
// writes nothing.
func TestJobQueuesBeyondExports(t *testing.T) {
	for _, name := range []string{"sidekiq", "sidekiq7", "activejob-polynomial", "celery"} {
		pr, _ := PresetByName(name)
		for _, e := range Exports(pr.Params) {
			if len(e.Snippets) != 0 || len(e.Diffs) != 1 || e.Config != nil {
				t.Errorf("%s, %s: %d snippets, diffs %q", name, e.Lib, len(e.Snippets), e.Diffs)
			}
		}
	}
}
