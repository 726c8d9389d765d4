package report

import (
	"strings"
	"testing"

	"backoffcalc/calc/libs"
)

// The text and Markdown reports of the .NET handler's preset say, under its notes, what .NET's
// start-up validation makes of the inputs, as libs.StartupChecks says it; other presets say
// nothing of the kind.
func TestPresetStartupChecksText(t *testing.T) {
	for _, c := range []struct {
		query string
		want  bool
	}{{"preset=dotnet-standard&timeout=40s", true}, {"preset=polly-exponential-jitter&timeout=40s", false}} {
		p, err := libs.Decode(c.query)
		if err != nil {
			t.Fatal(err)
		}
		res := Results{Report: p.Report()}
		for name, write := range map[string]func(*strings.Builder) error{
			"text":     func(b *strings.Builder) error { return WriteText(b, res) },
			"markdown": func(b *strings.Builder) error { return WriteMarkdown(b, res) },
		} {
			var b strings.Builder
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			has := strings.Contains(out, libs.StartupChecksIntro)
			for _, line := range libs.StartupChecks(p) {
				has = has && strings.Contains(out, "- "+line)
			}
			if has != c.want || strings.Contains(out, "refuses to start") != c.want {
				t.Errorf("%s, %s: the start-up checks shown %v, want %v:\n%s", c.query, name, has, c.want, out)
			}
		}
	}
}
