package calc

import (
	"testing"
)

func BenchmarkSchedule1000(b *testing.B) {
	p := mustDecode(b, "attempts=1000")
	for b.Loop() {
		p.Schedule()
	}
}

func BenchmarkScheduleDecorrelated1000(b *testing.B) {
	p := mustDecode(b, "attempts=1000&jitter=decorrelated&base=1ms&cap=168h")
	for b.Loop() {
		p.Schedule()
	}
}

func BenchmarkSample200000(b *testing.B) {
	p := mustDecode(b, "samples=200000")
	for b.Loop() {
		p.Sample()
	}
}

func BenchmarkReportDefault(b *testing.B) {
	p := Default()
	for b.Loop() {
		p.Report()
	}
}

// BenchmarkScheduleDecorrelatedV2x1000 is Polly's jitter over the most attempts and the widest
// cap, where the mean's quadrature runs longest before every wait settles on the cap.
func BenchmarkScheduleDecorrelatedV2x1000(b *testing.B) {
	p := mustDecode(b, "attempts=1000&jitter=decorrelatedv2&base=1ms&cap=168h")
	for b.Loop() {
		p.Schedule()
	}
}

// BenchmarkSampleDecorrelatedV2 draws the default 10000 paths of Polly's jitter, two pure-Go
// exponentials a draw.
func BenchmarkSampleDecorrelatedV2(b *testing.B) {
	p := mustDecode(b, "jitter=decorrelatedv2")
	for b.Loop() {
		p.Sample()
	}
}

// BenchmarkSampleDefault is the page's input path at the defaults: 10000 paths of 6 attempts.
func BenchmarkSampleDefault(b *testing.B) {
	p := Default()
	for b.Loop() {
		p.Sample()
	}
}

// BenchmarkSolutions is the worst-case fit to a budget for every compared mode at the defaults
// with a 30s budget: it runs in ReportBounds, on the input path.
func BenchmarkSolutions(b *testing.B) {
	p := mustDecode(b, "budget=30s")
	for b.Loop() {
		p.Solutions()
	}
}

// BenchmarkSolutions1000 is the same for the most attempts, each retry's wait still within a
// 1h budget, with the cap fixed, where the search splits at every retry's crossing of the cap.
func BenchmarkSolutions1000(b *testing.B) {
	p := mustDecode(b, "budget=1h&attempts=1000&base=1ms&factor=1.01&cap=5s&capat=fixed&jitter=proportional")
	for b.Loop() {
		p.Solutions()
	}
}

// BenchmarkSolveSample is the sampled fit (10000 paths) for every compared mode at the defaults
// with a 30s budget: the page runs it after the paint.
func BenchmarkSolveSample(b *testing.B) {
	r := mustDecode(b, "budget=30s").ReportBounds()
	for b.Loop() {
		r.Params.SolveSample(r.Sample, r.Solutions, nil)
	}
}

// BenchmarkReportBoundsBudget is the page's input path with a budget: the bounds, the within-
// budget totals and the worst-case fit of every compared mode (no sampling).
func BenchmarkReportBoundsBudget(b *testing.B) {
	p := mustDecode(b, "budget=30s")
	for b.Loop() {
		p.ReportBounds()
	}
}
