package calc

import "testing"

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
