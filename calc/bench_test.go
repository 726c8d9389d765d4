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

// BenchmarkHerd100000x20 runs all six modes for the largest herd of 20 attempts, the defaults
// otherwise: 100000 clients through a 1s outage, 20 attempts per 100ms after it.
func BenchmarkHerd100000x20(b *testing.B) {
	p := mustDecode(b, "clients=100000&attempts=20")
	for b.Loop() {
		if _, err := p.Herd(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHerd100000x20Mode runs one mode at a time, as the page does.
func BenchmarkHerd100000x20Mode(b *testing.B) {
	p := mustDecode(b, "clients=100000&attempts=20")
	for _, m := range HerdModes() {
		b.Run(m.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := p.HerdMode(m); err != nil {
					b.Fatal(err)
				}
			}
		})
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

// BenchmarkContention100 is the contention table as the page shows it by default: 100 clients,
// 100 runs, the simulator's five modes and the policy's (target: under 1s in Chromium).
func BenchmarkContention100(b *testing.B) {
	p := mustDecode(b, "base=5ms&cap=2s")
	for b.Loop() {
		if _, err := p.Contention(p.Contenders, p.Runs, p.ContentionModes()...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContentionSweep is the sweep over 10..200 clients, 100 runs, every mode of the
// table (target: under 10s in Chromium).
func BenchmarkContentionSweep(b *testing.B) {
	p := mustDecode(b, "base=5ms&cap=2s")
	for b.Loop() {
		if _, _, err := p.ContentionSweep(p.Runs, p.ContentionModes(), nil); err != nil {
			b.Fatal(err)
		}
	}
}
