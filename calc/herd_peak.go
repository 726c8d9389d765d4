package calc

import "time"

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
