package sim

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/calc"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

var zeroErrors = regexp.MustCompile(` (?:Errors|InService|MaxInService|Blocked|Breakers|Rejected|Trips|Probes|MaxProbes|Closed|Open|HalfOpen):0\b| (?:Latency|MaxLatency|OpenTime):0s\b| Breaker:none\b`)

// goldenQueries cover every mode, both cap placements, budgets, the grid, the overflow row and
// the herd.
// `make test` runs this test natively and under GOOS=js GOARCH=wasm against the same file, which
// proves the two give the same numbers to the bit.
var goldenQueries = []string{
	"",
	"base=100ms&factor=2&cap=1s&attempts=6&jitter=full&budget=1s",
	"base=100ms&factor=2&cap=1s&attempts=6&jitter=equal&call=25ms",
	"base=100ms&cap=1s&attempts=12&jitter=decorrelated&seed=7",
	"base=1ms&cap=168h&attempts=1000&jitter=decorrelated&samples=1000",
	"base=1s&factor=1.6&cap=120s&attempts=10&jitter=proportional&ratio=0.2",
	"base=1s&factor=1.6&cap=120s&attempts=10&jitter=proportional&ratio=0.2&capat=after",
	"base=0.7&factor=1&cap=0.7&jitter=none&budget=2.1",
	"factor=100&attempts=1000&capat=after&samples=100&layers=10",
	"base=3ns&cap=7ns&factor=1.3&attempts=20&jitter=equal&samples=100&seed=18446744073709551615",
	// The herd: spread starts, a budget, calls; no capacity limit; a tight capacity after the cap.
	"clients=1000&spread=500ms&capacity=50&jitter=equal&budget=3s&call=10ms&seed=5",
	"clients=7&outage=250ms&capacity=0&window=5ms&spread=100ms&samples=100",
	"clients=300&attempts=12&cap=2s&capat=after&jitter=proportional&ratio=0.5&outage=3s&window=250ms&capacity=30&samples=100",
	// Polly's jitter: its defaults; a clamp and a budget; a base and a cap that are not whole
	// ticks; 999 retries saturating at the widest cap; a herd, which runs this mode too.
	"preset=polly-exponential-jitter",
	"jitter=decorrelatedv2&base=100ms&cap=1s&attempts=12&budget=5s&seed=3",
	"jitter=decorrelatedv2&base=150ns&cap=1234567ns&attempts=30&samples=100",
	"jitter=decorrelatedv2&base=1ms&cap=168h&attempts=1000&samples=1000",
	"jitter=decorrelatedv2&clients=500&attempts=10&cap=5s&outage=2s&capacity=40&window=50ms&spread=200ms&samples=100",
	// Open systems, with seeded Poisson arrivals: their gaps come from math/rand/v2's ExpFloat64
	// (see doc.go), so these prove that it gives the same numbers natively and in WebAssembly.
	"rate=1000&run=5s&arrivals=poisson&queue=20&timeout=400ms&outage=1s&limiter=grpc&clients=50&capacity=90&seed=11&samples=100",
	"rate=120&run=2s&arrivals=poisson&queue=5&timeout=300ms&outage=500ms&limiter=finagle&processes=3&clients=20&capacity=10&window=50ms&jitter=equal&seed=4&samples=100",
	// A server that fails 30% of attempts after an outage, with Brooker's adaptive retries.
	"rate=80&run=20s&clients=1&outage=0&attempts=1&capacity=0&window=1s&timeout=3s&latency=1s&slope=10ms",
	"rate=60&run=20s&arrivals=poisson&attempts=3&capacity=0&window=500ms&timeout=3s&latency=1s&slope=10ms&limiter=adaptive&samples=100",
	"rate=200&run=2s&arrivals=poisson&failrate=0.3&queue=10&timeout=300ms&outage=500ms&limiter=adaptive&processes=2&clients=20&capacity=30&seed=3&samples=100",
	// Circuit breakers, every one beside the chosen: gobreaker at each attempt per process, and
	// at the call shared, where sre's rejections draw from their own seeded stream.
	"rate=100&run=3s&arrivals=poisson&failrate=0.2&timeout=300ms&outage=1s&breaker=gobreaker&processes=2&clients=20&capacity=40&window=50ms&seed=5&samples=100",
	"rate=150&run=3s&failrate=0.4&queue=10&timeout=200ms&outage=700ms&breaker=sre&breakerat=call&breakers=shared&limiter=aws&clients=30&capacity=20&window=50ms&seed=9&samples=100",
	// The job queues' whole-second draws, polynomial growths and offset: Sidekiq over 20 days
	// with a herd in hour windows; Sidekiq 7's steps of k seconds with a budget whose sums are
	// sampled; Celery's whole seconds in a herd and in an open system.
	"growth=polynomial0&factor=4&base=1s&cap=168h&attempts=26&jitter=sidekiq&offset=15s&samples=1000&clients=50&outage=1h&window=1h&capacity=10",
	"growth=polynomial&factor=2&base=1s&cap=1h&attempts=12&jitter=sidekiq7&first=exact&offset=2s&budget=10m&samples=1000&window=1s&outage=30s",
	"base=1s&cap=600s&attempts=13&jitter=fullsec&budget=15m&clients=200&window=1s&outage=20s&capacity=30&samples=1000",
	"rate=5&run=60s&jitter=fullsec&base=1s&cap=10s&attempts=4&window=1s&outage=10s&clients=10&capacity=5&timeout=2s&seed=6&samples=100",
}

func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// goldenText writes every number of a report, floats in their shortest exact form.
func goldenText(r calc.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "query %s\n", r.Params.Encode())
	for i, row := range r.Schedule.Rows {
		s := r.Sample.Starts[i]
		fmt.Fprintf(&b, "%d %d %d %d %s %d %s %d %d %s %d %d %d %d\n", row.Attempt, row.Retry, row.Nominal, row.Min,
			fmtF(row.Mean), row.Max, fmtF(row.AtCap), row.Earliest, row.Latest, row.Budget, s.Reached, s.Start.P50, s.Start.P90, s.Start.P99)
	}
	s := r.Schedule
	fmt.Fprintf(&b, "total %d %s %d %v %d %d %+v\n", s.Total.Min, fmtF(s.Total.Mean), s.Total.Max, s.ExceedsCap, s.Always, s.AtMost, r.Sample.Total)
	for _, m := range r.Modes {
		fmt.Fprintf(&b, "mode %s %d %s %d %+v\n", m.Jitter, m.Total.Min, fmtF(m.Total.Mean), m.Total.Max, m.Sample)
	}
	fmt.Fprintf(&b, "layers %s\n", r.WorstCaseAttempts)
	return b.String()
}

// goldenHerd writes every number of the herd of p, or its error.
func goldenHerd(p calc.Params) string {
	runs, err := Herd(p)
	if err != nil {
		return fmt.Sprintf("herd error %v\n", err)
	}
	var b strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&b, "herd %s %d %d %d %d %d %s %d %d %v down %d %d back %d %d\n", r.Mode, r.Attempts, r.Accepted, r.GaveUp, r.Peak, r.PeakAt,
			fmtF(r.MeanPerClient), r.MaxPerClient, r.LastAccepted, r.Arrivals, r.PeakDown, r.PeakDownAt, r.PeakBack, r.PeakBackAt)
	}
	return b.String()
}

// goldenOverload writes every number of every run of p's overload view, when p is an open
// system, or the run's error.
func goldenOverload(p calc.Params) string {
	if !p.Open() {
		return ""
	}
	var b strings.Builder
	for _, c := range p.OverloadCases() {
		r, err := Overload(p, c)
		if err != nil {
			fmt.Fprintf(&b, "overload %s %s error %v\n", c.Mode, c.Limiter, err)
			continue
		}
		fmt.Fprintf(&b, "overload %s %s %+v\n", c.Mode, c.Limiter, r)
	}
	// The error rate's, the load-dependent latency's and the breakers' figures are left out at 0,
	// so that the lines of the runs without them stay as they were written before them.
	return zeroErrors.ReplaceAllString(b.String(), "")
}

func TestGolden(t *testing.T) {
	var b strings.Builder
	for _, q := range goldenQueries {
		p := mustDecode(t, q)
		b.WriteString(goldenText(p.Report()))
		b.WriteString(goldenHerd(p))
		b.WriteString(goldenOverload(p))
	}
	const file = "testdata/golden.txt"
	if *update {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}
