//go:build !js

package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeOverloadExample runs the README's worked example of the overload model through
// table and finds every line of the excerpt the README prints in what table prints, so that the
// README's numbers are the calculator's and stay so.
func TestReadmeOverloadExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(readme), "### A worked example: an outage")
	if !ok {
		t.Fatal("README has no overload worked example")
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
			t.Errorf("table %q does not print the README's line\n%s", query, line)
		}
	}
	if lines < 3 {
		t.Errorf("the README's excerpt has %d lines", lines)
	}
}
