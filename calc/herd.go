package calc

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"
)

// HerdMode is how the clients of a herd wait between attempts: Immediate, or the policy's
// backoff with one of the jitter modes.
type HerdMode uint8

// Immediate retries with no wait at all: only the call separates a client's attempts. It is the
// baseline that shows what backing off changes.
const Immediate HerdMode = 0

// Backoff returns the herd mode that waits as the policy does with jitter j.
func Backoff(j Jitter) HerdMode { return HerdMode(j) + 1 }

// HerdModes lists the modes every herd runs, in order: Immediate, then the backoff of each of
// the five classic jitter modes, in the order of Jitters. Params.HerdModes adds the policy's
// own mode when it is another.
func HerdModes() []HerdMode {
	modes := []HerdMode{Immediate}
	for _, j := range Jitters() {
		modes = append(modes, Backoff(j))
	}
	return modes
}

// HerdModes lists the modes the herd of p runs, in the order Herd runs them: those of the
// package's HerdModes, then the backoff of p's own jitter when it is not one of the classic five
// (a library's mode, as Jitter.Library says), so that the herd always shows
// the policy itself. With jitter=decorrelatedv2 they are immediate, none, full, equal,
// decorrelated, proportional and decorrelatedv2; with jitter=full, the first six.
func (p Params) HerdModes() []HerdMode {
	modes := []HerdMode{Immediate}
	for _, j := range p.comparedJitters() { // the jitter modes the report compares
		modes = append(modes, Backoff(j))
	}
	return modes
}

// Jitter returns the jitter mode of a backoff mode; ok is false for Immediate.
func (m HerdMode) Jitter() (j Jitter, ok bool) {
	if m == Immediate {
		return 0, false
	}
	return Jitter(m - 1), true
}

// exists reports whether m is Immediate or the backoff of a jitter mode.
func (m HerdMode) exists() bool { return int(m) <= len(jitterNames) }

// String is "immediate" or the name of the jitter mode.
func (m HerdMode) String() string {
	if j, ok := m.Jitter(); ok {
		return j.String()
	}
	return "immediate"
}

// HerdRun is what the server sees when Params.Clients clients follow one mode through the
// outage. Every client ends either accepted or out of attempts or budget, so
// Accepted + GaveUp == Params.Clients.
type HerdRun struct {
	Mode     HerdMode
	Attempts int // attempts the server received from all clients, accepted or not
	Accepted int // clients that got an attempt accepted
	GaveUp   int // clients whose attempts or budget ran out first
	// Peak is the most attempts in any window [t, t+Window), sliding; PeakAt is the earliest
	// arrival time t whose window holds Peak attempts.
	Peak   int
	PeakAt time.Duration
	// MeanPerClient is Attempts/Clients; MaxPerClient the most attempts one client made.
	MeanPerClient float64
	MaxPerClient  int
	// LastAccepted is when the last accepted attempt arrived, that is when the last client got
	// through; it is -1 when none did (Accepted == 0).
	LastAccepted time.Duration
	// Arrivals counts the attempts in each fixed window [k*Window, (k+1)*Window), from k = 0 to
	// the window of the last attempt; it has at most MaxHerdWindows entries.
	Arrivals []int
}

// WindowStart is when fixed window k starts: k*Window. Window k of HerdRun.Arrivals covers
// [WindowStart(k), WindowStart(k+1)).
func (p Params) WindowStart(k int) time.Duration { return time.Duration(k) * p.Window }

// HerdAxes returns the axes of the charts of runs: one time axis they share, from 0 to the end
// of the last window any run has arrivals in, or to the end of the outage if that is later; and
// a count axis for each run, from 0 to its most arrivals in one window, stretched to hold the
// capacity when the capacity is at most twice that (further up, a capacity line would only
// flatten the chart). With the defaults: 0 to 4s; immediate 0 to 600, none 0 to 100.
func HerdAxes(p Params, runs []HerdRun) (Axis, []CountAxis) {
	end := p.Outage
	counts := make([]CountAxis, len(runs))
	for i, r := range runs {
		end = max(end, p.WindowStart(len(r.Arrivals)))
		most := 0
		for _, n := range r.Arrivals {
			most = max(most, n)
		}
		if p.Capacity <= 2*most {
			most = max(most, p.Capacity)
		}
		counts[i] = NewCountAxis(most)
	}
	return NewAxis(end), counts
}

// Herd runs the herd for every mode of p.HerdModes, in that order, on the same base, factor,
// cap, attempts, ratio, cap placement, call and budget. It returns the error of ValidateHerd, if any,
// and no runs. The work is at most Clients*Attempts attempts per mode.
//
// With 6 clients, a fixed 50ms wait (jitter none, factor 1), no outage and a capacity of 2 per
// 100ms window, the server accepts clients 0 and 1 at 0 and fails 2..5 at 0 and again at 50ms;
// it accepts 2 and 3 at 100ms, fails 4 and 5 at 150ms and accepts them at 200ms: 18 attempts,
// all 6 clients accepted, the last at 200ms, and a peak of 10 attempts in [0, 100ms).
func (p Params) Herd() ([]HerdRun, error) {
	windows, err := p.herdWindows(Immediate)
	if err != nil {
		return nil, err
	}
	var s herdScratch
	var runs []HerdRun
	for _, m := range p.HerdModes() {
		run, _ := p.herd(m, windows, &s, herdHooks{})
		runs = append(runs, run)
	}
	return runs, nil
}

// HerdMode runs the herd for one mode, so that a caller can run the modes of p.HerdModes one by
// one; Herd runs them all. m can also be the backoff of a jitter mode that p.HerdModes leaves out
// (Backoff(j) for any j of AllJitters). It returns the error of ValidateHerd (for a mode outside
// p.HerdModes, the window must also hold that mode's slowest attempt), or an error for a mode
// that does not exist.
func (p Params) HerdMode(m HerdMode) (HerdRun, error) {
	if !m.exists() {
		return HerdRun{}, fmt.Errorf("calc: no herd mode %d", uint8(m))
	}
	windows, err := p.herdWindows(m)
	if err != nil {
		return HerdRun{}, err
	}
	s := herdScratches.get()
	defer herdScratches.put(s)
	run, _ := p.herd(m, windows, s, herdHooks{})
	return run, nil
}

// PauseEvery is how many attempts HerdModePausing simulates between calls to pause.
const PauseEvery = 1 << 12

// HerdModePausing runs one mode like HerdMode, but calls pause after every PauseEvery
// attempts; when pause returns false the run stops at once and done is false. A page calls it
// off the input path: pause hands the thread back to the browser and says whether the inputs
// are still the ones being run. Pausing does not change the result.
func (p Params) HerdModePausing(m HerdMode, pause func() bool) (run HerdRun, done bool, err error) {
	if !m.exists() {
		return HerdRun{}, false, fmt.Errorf("calc: no herd mode %d", uint8(m))
	}
	windows, err := p.herdWindows(m)
	if err != nil {
		return HerdRun{}, false, err
	}
	s := herdScratches.get()
	defer herdScratches.put(s)
	run, done = p.herd(m, windows, s, herdHooks{pause: pause})
	return run, done, nil
}

// herdScratches keeps herd buffers (tens of megabytes at the work limit) between runs: the
// page runs six or seven modes at every edit, and in wasm collecting them costs more than the runs.
var herdScratches kept[herdScratch]

// herdHooks let callers watch a run: seen is told of every attempt (for tests), pause is
// called every PauseEvery attempts and stops the run when it returns false.
type herdHooks struct {
	seen  func(client, attempt int, at time.Duration, accepted bool)
	pause func() bool
}

// ValidateHerd reports what Validate does and, as a *FieldError on window, a window too short
// for the herd's arrivals series. No attempt of any mode of p.HerdModes arrives after the
// horizon: the last client's start plus the latest start of the last attempt in the slowest of
// those modes (or just before the budget runs out, if sooner). The windows from 0 to the horizon
// must number at most MaxHerdWindows. The policy's own mode counts: additive jitter of a day
// (add=24h) needs far more windows than the five classic modes.
//
// Validate and Decode leave this to ValidateHerd: with the default window, policies that are
// valid on their own (1000 attempts up to a 168h cap) would become invalid, some of them with no
// window up to MaxWindow that fits.
func (p Params) ValidateHerd() error {
	_, err := p.herdWindows(Immediate)
	return err
}

// herdWindows returns the number of windows from 0 to the horizon of p.HerdModes and m (see
// ValidateHerd and herdHorizon).
func (p Params) herdWindows(m HerdMode) (int, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	h := p.herdHorizon(m)
	n := h/p.Window + 1
	if n <= MaxHerdWindows {
		return int(n), nil
	}
	fix := "lower attempts or cap, or set a budget"
	for _, step := range tickSteps {
		if step <= MaxWindow && h/step+1 <= MaxHerdWindows {
			fix = "make the window at least " + FormatDuration(step)
			break
		}
	}
	return 0, &FieldError{Key: "window", Value: FormatDuration(p.Window), Err: fmt.Errorf(
		"the last attempt can come as late as %s: %d windows, over the limit of %d; %s",
		Human(float64(h)), n, MaxHerdWindows, fix)}
}

// herdHorizon is the latest time any attempt of p.HerdModes, or of m, can arrive. Immediate's
// attempts start no later than any backoff's, so the backoff modes bound it. A mode outside
// p.HerdModes counts only when it is run, so that it cannot make the others' windows invalid.
func (p Params) herdHorizon(m HerdMode) time.Duration {
	modes := p.HerdModes()
	if !slices.Contains(modes, m) {
		modes = append(modes, m)
	}
	var last time.Duration
	for _, mode := range modes {
		j, ok := mode.Jitter()
		if !ok {
			continue // Immediate
		}
		q := p.WithJitter(j)
		var s time.Duration
		for k := 1; k < p.Attempts; k++ {
			s += p.Call + q.maxWait(k)
		}
		last = max(last, s)
	}
	if p.Budget > 0 {
		last = min(last, p.Budget-1)
	}
	return p.clientStart(p.Clients-1) + last
}

// clientStart is when client i (0-based) makes its first attempt: floor(i*Spread/Clients), so
// the clients start evenly over [0, Spread).
func (p Params) clientStart(i int) time.Duration {
	hi, lo := bits.Mul64(uint64(i), uint64(p.Spread))
	q, _ := bits.Div64(hi, lo, uint64(p.Clients)) // hi < Clients because i < Clients
	return time.Duration(q)
}

// The simulation is a calendar queue with one bucket per window. Within a window an attempt is
// the key (at - window start)<<clientBits | client, so that sorting a window's keys orders its
// attempts by time and then by client index. An attempt made while its own window runs (a wait
// shorter than what is left of the window) goes to a small heap merged in. A heap of all clients
// would give the same order, but with every step deep in a large heap it is several times slower.
const (
	clientBits = 17 // MaxClients < 1<<clientBits; MaxWindow < 1<<(64-clientBits) ns
	clientMask = 1<<clientBits - 1
)

// herdClient is one client's state between attempts.
type herdClient struct {
	rng   rand.PCG
	start time.Duration // when its first attempt arrives
	state float64       // what its next wait grows from, as Params.Wait takes it
	made  int32         // attempts made so far
}

// herdScratch is memory the runs of one Herd call share.
type herdScratch struct {
	clients []herdClient
	pending calendar
	keys    []uint64     // of the window being run, sorted
	spare   []uint64     // for sortKeys
	batch   []herdClient // batch[j] is the client of keys[j] while the window runs
	late    []lateKey    // heap of attempts added to the window being run while it runs
	peak    peakWindow
}

// prepare makes the buffers of a window room for n clients, the most a window holds (a client
// has one attempt pending at a time). New memory is touched a slice at a time, with pauses: a
// first run of 100000 clients otherwise spent 30 ms natively, 70 ms in wasm, growing and
// faulting it in within its first window, without a pause. It reports false if told to stop.
func (s *herdScratch) prepare(n int, pause func() bool) bool {
	if cap(s.batch) >= n {
		return true
	}
	s.keys, s.spare = make([]uint64, 0, n), make([]uint64, n)
	s.batch, s.late = make([]herdClient, n), make([]lateKey, 0, n)
	for i := 0; i < n; i += PauseEvery {
		j := min(n, i+PauseEvery)
		clear(s.keys[i:j:n])
		clear(s.spare[i:j])
		clear(s.batch[i:j])
		clear(s.late[i:j:n])
		if pause != nil && !pause() {
			return false
		}
	}
	return true
}

// lateKey is an attempt added to the window being run, and where its client is in the batch.
type lateKey struct {
	key  uint64
	slot int
}

// herd simulates one mode over windows windows (from herdWindows). seen, if not nil, is told of
// every attempt in the order the server sees them; tests use it to check each client's times.
func (p Params) herd(m HerdMode, windows int, s *herdScratch, hooks herdHooks) (HerdRun, bool) {
	var waits retryWaits
	first := 0.0 // the state before the first retry
	if j, ok := m.Jitter(); ok {
		q := p.WithJitter(j)
		waits, first = q.waits(), q.FirstState()
	} else {
		// The zero law waits 0 for any u, and no retry draws.
		waits = retryWaits{laws: make([]law, p.Attempts), draws: make([]bool, p.Attempts), fixed: make([]time.Duration, p.Attempts)}
	}
	// schedule files client i's attempt at at under its window.
	schedule := func(i int, at time.Duration) {
		b := at / p.Window
		s.pending.add(int(b), uint64(at-b*p.Window)<<clientBits|uint64(i))
	}
	s.pending.reset(windows)
	s.clients = grow(s.clients, p.Clients)
	for i := range s.clients {
		c := &s.clients[i]
		c.rng.Seed(p.Seed, uint64(i))
		c.start, c.state, c.made = p.clientStart(i), first, 0
		schedule(i, c.start)
		// Starting 100000 clients takes as long as running thousands of attempts.
		if hooks.pause != nil && i%PauseEvery == PauseEvery-1 && !hooks.pause() {
			return HerdRun{Mode: m}, false
		}
	}
	if !s.prepare(p.Clients, hooks.pause) {
		return HerdRun{Mode: m}, false
	}
	run := HerdRun{Mode: m, LastAccepted: -1}
	s.peak.reset(p.Window)
	for b := range windows {
		keys := s.pending.take(b, s.keys[:0])
		if len(keys) == 0 {
			continue
		}
		s.spare = sortKeys(keys, s.spare)
		// Copying the window's clients out and back in turns one cache miss after another into
		// misses the processor can overlap.
		batch := grow(s.batch, len(keys))
		for j, key := range keys {
			batch[j] = s.clients[key&clientMask]
		}
		from := time.Duration(b) * p.Window
		late := s.late[:0]
		made, taken := run.Attempts, 0 // attempts before this window, and those it accepted
		for j := 0; j < len(keys) || len(late) > 0; {
			var key uint64
			var slot int
			if len(late) > 0 && (j == len(keys) || late[0].key < keys[j]) {
				key, slot = late[0].key, late[0].slot
				late = popLate(late)
			} else {
				key, slot = keys[j], j
				j++
			}
			i, at := int(key&clientMask), from+time.Duration(key>>clientBits)
			c := &batch[slot]
			c.made++
			run.Attempts++
			if hooks.pause != nil && run.Attempts%PauseEvery == 0 && !hooks.pause() {
				return run, false
			}
			s.peak.add(at)
			accepted := at >= p.Outage && (p.Capacity == 0 || taken < p.Capacity)
			taken += b2i(accepted)
			if hooks.seen != nil {
				hooks.seen(i, int(c.made), at, accepted)
			}
			if !accepted && int(c.made) < p.Attempts {
				// A wait without a draw is looked up: Immediate's and none's runs are mostly that.
				k, w, state := int(c.made), time.Duration(0), c.state
				if waits.fixed != nil && !waits.draws[k] {
					w = waits.fixed[k]
				} else {
					w, state = waits.next(k, &c.rng, c.state)
				}
				if start := at - c.start + p.Call + w; p.Budget == 0 || start < p.Budget {
					c.state = state
					if next := c.start + start; next-from < p.Window {
						late = pushLate(late, lateKey{uint64(next-from)<<clientBits | uint64(i), slot})
					} else {
						schedule(i, next)
					}
					continue
				}
			}
			// The client is done: through, or out of attempts or budget.
			if accepted {
				run.Accepted++
				run.LastAccepted = at
			} else {
				run.GaveUp++
			}
			run.MaxPerClient = max(run.MaxPerClient, int(c.made))
		}
		for len(run.Arrivals) < b {
			run.Arrivals = append(run.Arrivals, 0)
		}
		run.Arrivals = append(run.Arrivals, run.Attempts-made)
		for j, key := range keys {
			s.clients[key&clientMask] = batch[j]
		}
		s.keys, s.batch, s.late = keys, batch, late
	}
	run.Peak, run.PeakAt = s.peak.finish()
	run.MeanPerClient = float64(run.Attempts) / float64(p.Clients)
	return run, true
}

// calendar holds pending keys by window in chunks of chunkKeys. Each window's chunks form a
// list, newest first, so memory is the live keys plus at most one part-filled chunk per window,
// and taking a window reads its keys in runs rather than one by one.
type calendar struct {
	keys []uint64 // chunk c is keys[c*chunkKeys : (c+1)*chunkKeys]
	next []int32  // by chunk: the next older chunk of its window, or -1
	free []int32  // chunks not in use
	head []int32  // by window: its newest chunk, or -1
	fill []int32  // by window: keys in its newest chunk
}

const chunkKeys = 64

func (cal *calendar) reset(windows int) {
	cal.head, cal.fill = grow(cal.head, windows), grow(cal.fill, windows)
	for b := range cal.head {
		cal.head[b], cal.fill[b] = -1, 0
	}
	cal.free = cal.free[:0]
	for c := len(cal.next) - 1; c >= 0; c-- {
		cal.free = append(cal.free, int32(c))
	}
}

func (cal *calendar) add(b int, key uint64) {
	if cal.head[b] < 0 || cal.fill[b] == chunkKeys {
		var c int32
		if n := len(cal.free); n > 0 {
			c, cal.free = cal.free[n-1], cal.free[:n-1]
		} else {
			c = int32(len(cal.next))
			cal.next = append(cal.next, 0)
			cal.keys = append(cal.keys, make([]uint64, chunkKeys)...)
		}
		cal.next[c], cal.head[b], cal.fill[b] = cal.head[b], c, 0
	}
	cal.keys[int(cal.head[b])*chunkKeys+int(cal.fill[b])] = key
	cal.fill[b]++
}

// take appends the keys of window b to dst, in no particular order, and empties the window.
func (cal *calendar) take(b int, dst []uint64) []uint64 {
	n := int(cal.fill[b])
	for c := cal.head[b]; c >= 0; c = cal.next[c] {
		dst = append(dst, cal.keys[int(c)*chunkKeys:][:n]...)
		cal.free = append(cal.free, c)
		n = chunkKeys
	}
	cal.head[b], cal.fill[b] = -1, 0
	return dst
}

// grow returns a with length n, reusing its memory if it can.
func grow[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	return a[:n]
}

// sortKeys sorts keys and returns spare, grown if it was needed, for the next call: a radix sort,
// least significant byte first, that skips the bytes every key shares. Windows hold thousands of
// keys, which it sorts several times faster than a comparison sort.
func sortKeys(keys, spare []uint64) []uint64 {
	if len(keys) < 512 {
		slices.Sort(keys)
		return spare
	}
	some, all := uint64(0), ^uint64(0)
	for _, k := range keys {
		some, all = some|k, all&k
	}
	spare = grow(spare, len(keys))
	src, dst := keys, spare
	var at [1 << radixBits]int
	for shift := 0; shift < 64; shift += radixBits {
		if (some^all)>>shift&radixMask == 0 {
			continue
		}
		clear(at[:])
		for _, k := range src {
			at[k>>shift&radixMask]++
		}
		sum := 0
		for d, n := range at {
			at[d], sum = sum, sum+n
		}
		for _, k := range src {
			d := k >> shift & radixMask
			dst[at[d]] = k
			at[d]++
		}
		src, dst = dst, src
	}
	copy(keys, src) // a no-op when src is keys
	return spare
}

const (
	radixBits = 11
	radixMask = 1<<radixBits - 1
)

// pushLate adds k to the min-heap h.
func pushLate(h []lateKey, k lateKey) []lateKey {
	h = append(h, k)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].key <= k.key {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = k
	return h
}

// popLate removes the least key, h[0], from the min-heap h.
func popLate(h []lateKey) []lateKey {
	n := len(h) - 1
	k := h[n]
	h = h[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].key < h[c].key {
			c++
		}
		if k.key <= h[c].key {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = k
	}
	return h
}

// peakWindow finds the most arrivals in a window [t, t+w), fed arrival times in order. A window
// holding the most can slide right until it starts at an arrival, so only windows starting at an
// arrival are counted, each when the first arrival at or past its end comes (or at the finish).
type peakWindow struct {
	w    time.Duration
	runs []arrivalRun // the distinct times from the oldest open window's start on
	head int          // runs[:head] are closed
	in   int          // arrivals in runs[head:]
	peak int
	at   time.Duration
}

// arrivalRun is n arrivals at one time.
type arrivalRun struct {
	at time.Duration
	n  int
}

func (pw *peakWindow) reset(w time.Duration) {
	*pw = peakWindow{w: w, runs: pw.runs[:0]}
}

func (pw *peakWindow) add(t time.Duration) {
	for pw.head < len(pw.runs) && pw.runs[pw.head].at+pw.w <= t {
		pw.close()
	}
	pw.in++
	if last := len(pw.runs) - 1; last >= pw.head && pw.runs[last].at == t {
		pw.runs[last].n++
		return
	}
	if pw.head >= 1024 && 2*pw.head >= len(pw.runs) { // drop closed runs, amortized O(1)
		pw.runs = pw.runs[:copy(pw.runs, pw.runs[pw.head:])]
		pw.head = 0
	}
	pw.runs = append(pw.runs, arrivalRun{at: t, n: 1})
}

// close counts the window starting at the oldest open run; earlier starts win ties.
func (pw *peakWindow) close() {
	r := pw.runs[pw.head]
	if pw.in > pw.peak {
		pw.peak, pw.at = pw.in, r.at
	}
	pw.in -= r.n
	pw.head++
}

// finish returns the peak and its start. Of the windows still open the oldest holds the most.
func (pw *peakWindow) finish() (int, time.Duration) {
	if pw.head < len(pw.runs) {
		pw.close()
	}
	return pw.peak, pw.at
}
