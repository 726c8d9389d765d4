//go:build !js

package site

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"backoffcalc/internal/served"
)

// startRunServe runs Serve, as `backoffcalc serve -addr 127.0.0.1:0` does, for root, and
// returns the address it listens on: these tests check what serve's server does with
// connections, not only its handler. Serve has no way to stop, so its listener lives until the
// test binary exits; it holds everything it serves in memory.
func startRunServe(t *testing.T, root string) string {
	t.Helper()
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(fmt.Errorf("serve exited: %v", Serve(root, "127.0.0.1:0", pw)))
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
