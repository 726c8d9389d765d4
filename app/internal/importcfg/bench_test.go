package importcfg

import (
	"strings"
	"testing"
)

// BenchmarkReadLargest reads texts of nearly MaxSize, the page's worst case (every format
// parses them before one recognises them or none does), and a text of a usual size.
func BenchmarkReadLargest(b *testing.B) {
	route := "- match: {prefix: /a}\n  route:\n    cluster: a\n    timeout: 1s\n    retry_policy: {num_retries: 2}\n"
	for _, c := range []struct{ name, text string }{
		{"envoy routes, 2 KB", "routes:\n" + strings.Repeat(route, 2048/len(route))},
		{"envoy routes", "routes:\n" + strings.Repeat(route, (MaxSize-10)/len(route))},
		{"JSON list", "[" + strings.Repeat("1,", (MaxSize-10)/2) + "1]"},
		{"prose", strings.Repeat("A sentence that is no configuration. ", (MaxSize-10)/38)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				_, _ = Read(c.text)
			}
		})
	}
}

// BenchmarkReadHostile reads every one of hostileCode, the texts made to hurt a reader: the
// bench's go phase reports it, with a target of under a second for all of them (the slowest
// took about 120 ms on an idle 2-core machine, 300 ms for all).
func BenchmarkReadHostile(b *testing.B) {
	for b.Loop() {
		for _, text := range hostileCode {
			_, _ = Read(text)
		}
	}
}
