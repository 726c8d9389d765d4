package eventq

import "time"

// PeakWindow finds the most arrivals in a window [t, t+w), fed arrival times in order. A window
// holding the most can slide right until it starts at an arrival, so only windows starting at an
// arrival are counted, each when the first arrival at or past its end comes (or at the finish).
type PeakWindow struct {
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

// Reset starts over with windows w long, keeping the memory.
func (pw *PeakWindow) Reset(w time.Duration) {
	*pw = PeakWindow{w: w, runs: pw.runs[:0]}
}

// Add counts an arrival at t, at or after the last one added.
func (pw *PeakWindow) Add(t time.Duration) {
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
func (pw *PeakWindow) close() {
	r := pw.runs[pw.head]
	if pw.in > pw.peak {
		pw.peak, pw.at = pw.in, r.at
	}
	pw.in -= r.n
	pw.head++
}

// Finish returns the peak and its start. Of the windows still open the oldest holds the most.
func (pw *PeakWindow) Finish() (int, time.Duration) {
	if pw.head < len(pw.runs) {
		pw.close()
	}
	return pw.peak, pw.at
}
