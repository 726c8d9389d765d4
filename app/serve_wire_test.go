//go:build !js

package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"backoffcalc/internal/served"
)

// startRunServe runs the serve command itself, as `backoffcalc serve -addr 127.0.0.1:0`, for
// root, and returns the address it listens on: these tests check what the command's server
// does with connections, not only its handler. The command has no way to stop, so its listener
// lives until the test binary exits; it holds everything it serves in memory.
func startRunServe(t *testing.T, root string) string {
	t.Helper()
	pr, pw := io.Pipe()
	go func() {
		var stderr bytes.Buffer
		code := runServe([]string{"-addr", "127.0.0.1:0", "-root", root}, pw, &stderr)
		pw.CloseWithError(fmt.Errorf("serve exited with %d: %s", code, stderr.String()))
	}()
	u, err := served.Listening(pr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u, "http://")
}

// sendRaw is served.SendRaw, failing t on an error.
func sendRaw(t *testing.T, addr, method, target, host string, extra ...string) served.Response {
	t.Helper()
	r, err := served.SendRaw(addr, method, target, host, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
