package report

import (
	"strings"
	"testing"
)

func TestAligned(t *testing.T) {
	got := aligned(reportTable{cols: make([][2]string, 3), rows: [][]string{
		{"1", "~64.5", "none"}, {"2.25", "0", ""}, {"-3", "1.000001", "any"}}})
	want := [][]string{{"1.00", "~64.500000", "none"}, {"2.25", "0.000000", ""}, {"-3.00", "1.000001", "any"}}
	for i := range want {
		if strings.Join(got[i], ",") != strings.Join(want[i], ",") {
			t.Errorf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
	if millionths(1.0044444444444445) != "1.004444" || millionths(3) != "3" || millionths(0.0000001) != "0" || millionths(2.5) != "2.5" {
		t.Errorf("millionths: %s %s %s %s", millionths(1.0044444444444445), millionths(3), millionths(0.0000001), millionths(2.5))
	}
	if msMean(16123660194.1714) != "16123.660194" || msMean(188302269) != "188.302269" || msMean(-0.4) != "0" {
		t.Errorf("msMean: %s %s %s", msMean(16123660194.1714), msMean(188302269), msMean(-0.4))
	}
}

// A "|" in a cell stays in its cell.
func TestMarkdownCellPipe(t *testing.T) {
	var b strings.Builder
	mdTable(&b, []string{"policy", "query"}, 1, func(int) []string { return []string{"b", "base=1s|2s"} })
	if want := "| policy | query |\n| ---: | ---: |\n| b | base=1s\\|2s |\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
