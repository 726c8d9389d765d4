package limiter

import "time"

// finagleBudget is Finagle's RetryBudget.apply(ttl, minRetriesPerSec, percentCanRetry)
// (twitter/finagle finagle-core/.../service/RetryBudget.scala) on twitter/util's
// TokenBucket.newLeakyBucket and WindowedAdder (util-core/.../util/TokenBucket.scala and
// WindowedAdder.scala, as of util commit 1bdeab5). To stay in whole numbers a request deposits
// 1000 tokens and a retry withdraws int(1000/percentCanRetry) (5000 at 0.2); a retry is allowed
// when the bucket holds at least that. The bucket is a reserve of
// minRetriesPerSec × whole seconds of ttl × withdrawal (500 000 by default: 100 retries) plus
// the deposits and withdrawals of roughly the last ttl: they sit in 10 slices of ttl/10 that
// expire one by one, and a new slice starts at the first use after the previous one ended, so
// how long an entry lives depends on when the bucket is used (WindowedAdder's expired(),
// transcribed below): untouched, deposits at 0 count until 9.999 s; with one use at 1.5 s they
// count until 10.499 s. Time is read in whole milliseconds, as nowMillis gives it.
//
// With the defaults and every request failing at one instant, N requests admit
// 100 + N/5 retries (rounded down). tower's TpsBudget follows the same design but deposits 1 and
// withdraws int(1/percent) for a percent up to 1 (0.3 then allows a third, not 30%); docs/overload.md
// says so, and only Finagle's rounding is modelled here.
type finagleBudget struct {
	deposit, withdrawal, reserve int64
	adder                        windowedAdder
}

func newFinagleBudget(ttl time.Duration, minRetries int, percent float64) *finagleBudget {
	b := &finagleBudget{deposit: 1000, withdrawal: int64(1000 / percent)}
	if percent == 0 { // only the reserve: every retry costs 1 and requests earn nothing
		b.deposit, b.withdrawal = 0, 1
	}
	b.reserve = int64(minRetries) * int64(ttl/time.Second) * b.withdrawal
	b.adder = windowedAdder{window: ttl.Milliseconds() / 10, buf: make([]int64, 9)}
	return b
}

func (b *finagleBudget) Begin(now time.Duration) { b.adder.add(now.Milliseconds(), b.deposit) }

func (b *finagleBudget) Retry(f Failure) (bool, int) {
	if f.Last || b.deposit == 0 && b.reserve == 0 { // RetryBudget.Empty refuses every retry
		return false, 0
	}
	ms := f.Now.Milliseconds()
	if b.adder.sum(ms)+b.reserve < b.withdrawal {
		return false, 0
	}
	b.adder.add(ms, -b.withdrawal)
	return true, 0
}

func (b *finagleBudget) Succeed(time.Duration, int, int) {}

// windowedAdder is twitter/util's WindowedAdder(range, slices = 10, now): a writer slice and
// N = 9 older slices of window milliseconds each, in a ring.
type windowedAdder struct {
	window, old, writer int64
	buf                 []int64
	i                   int
}

func (w *windowedAdder) expire(now int64) {
	if now-w.old < w.window {
		return
	}
	n := len(w.buf)
	w.buf[w.i] = w.writer
	w.writer = 0
	w.i = (w.i + 1) % n
	if skip := min((now-w.old)/w.window-1, int64(n)); skip > 0 {
		for k := range skip {
			w.buf[(w.i+int(k))%n] = 0
		}
		w.i = (w.i + int(skip)) % n
	}
	w.old = now
}

func (w *windowedAdder) add(now, x int64) {
	w.expire(now)
	w.writer += x
}

func (w *windowedAdder) sum(now int64) int64 {
	w.expire(now)
	s := w.writer
	for _, v := range w.buf {
		s += v
	}
	return s
}
