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
		{"static", "-out", t.TempDir(), "-prefix", "a/b"},
		{"static", "-out", t.TempDir(), "extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runCommand(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a usage message", args, code, stderr.String())
		}
	}
}
