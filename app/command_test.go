//go:build !js

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRoot returns a -root with the repository's web/ files and
// wasm_exec.js, and a stand-in app.wasm: enough for the server and the
// static generator, which never run the wasm.
func fakeRoot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := copyRepoFiles(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "web", "app.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCommandUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nope"},
		{"serve", "extra"},
		{"serve", "-nope"},
		{"static"},
		{"static", "-out", t.TempDir(), "-prefix", "a/../b"},
		{"static", "-out", t.TempDir(), "-prefix", "a//b"},
		{"static", "-out", t.TempDir(), "-prefix", "/a"},
		{"static", "-out", t.TempDir(), "-prefix", "a/"},
		{"static", "-out", t.TempDir(), "-prefix", "a/.git"},
		{"static", "-out", t.TempDir(), "extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runCommand(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a usage message", args, code, stderr.String())
		}
	}
}

// Nothing a person typed reaches the terminal raw: a file's name in the OS's error and in the
// import's line, an unknown flag in the flag package's message, an address in the listener's.
// Each printed its ESC and BEL as they were before terminalText.
func TestCommandMessagesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "\x1b[31mred\a\u202e.yaml")
	if err := os.WriteFile(name, []byte("retry_policy:\n  num_retries: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"table", "-import", name, "base=1s"},
		{"table", "-import", name + "\x1b[2J", "base=1s"},
		{"table", "-\x1b[31mred\a", "x"},
		{"serve", "-addr", "\x1b[31m:1", "-root", fakeRoot(t)},
	} {
		var out, errOut bytes.Buffer
		runCommand(args, &out, &errOut)
		if s := errOut.String(); strings.ContainsAny(s, "\x1b\a\u202e") || !strings.Contains(s, `\x1b`) {
			t.Errorf("%q: stderr %q: want the ESC, BEL and U+202E escaped", args, s)
		}
	}
}
