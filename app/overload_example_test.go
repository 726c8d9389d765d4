//go:build !js

package main

import (
	"os"
	"strings"
	"testing"
)

// TestOverloadWorkedExample runs docs/overload.md's worked example of the overload model through
// table and finds every line of the excerpt it prints in what table prints, so that the doc's
// numbers are the calculator's and stay so.
func TestOverloadWorkedExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/overload.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## A worked example: an outage")
	if !ok {
		t.Fatal("docs/overload.md has no worked example")
	}
	blocks := strings.Split(sec, "```")
	if len(blocks) < 4 {
		t.Fatal("the worked example has no command and output blocks")
	}
	_, cmd, _ := strings.Cut(blocks[1], "go run ./app table '")
	query, _, ok := strings.Cut(cmd, "'")
	if !ok {
		t.Fatalf("no table command in %q", blocks[1])
	}
	out, errOut, code := runTableOut(t, query)
	if code != 0 {
		t.Fatalf("table %q: exit %d: %s", query, code, errOut)
	}
	lines := 0
	for line := range strings.SplitSeq(strings.Trim(blocks[3], "\n"), "\n") {
		lines++
		if !strings.Contains(out, line) {
			t.Errorf("table %q does not print docs/overload.md's line\n%s", query, line)
		}
	}
	if lines < 3 {
		t.Errorf("docs/overload.md's excerpt has %d lines", lines)
	}
}
