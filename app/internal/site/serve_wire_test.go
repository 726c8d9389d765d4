//go:build !js

package site

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
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
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var addr string
	if _, err := fmt.Sscanf(line, "serving http://%s", &addr); err != nil {
		t.Fatalf("serve printed %q: %v", line, err)
	}
	return strings.TrimSuffix(addr, "/")
}

// rawResponse is what serve answered to a request written byte for byte.
type rawResponse struct {
	code   int
	header http.Header
	body   string
}

// sendRaw writes the request line "GET target HTTP/1.1" with host as its Host header (none
// when host is "-": then the request is HTTP/1.0, which may omit it) and the extra header
// lines, and reads the answer: a request exactly as a client other than a browser may send
// it, which Go's client would clean up first.
func sendRaw(t *testing.T, addr, method, target, host string, extra ...string) rawResponse {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	var req strings.Builder
	if host == "-" {
		fmt.Fprintf(&req, "%s %s HTTP/1.0\r\n", method, target)
	} else {
		fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, target, host)
	}
	for _, h := range append(extra, "Connection: close") {
		req.WriteString(h + "\r\n")
	}
	req.WriteString("\r\n")
	go io.Copy(conn, strings.NewReader(req.String())) // a refused request may not be read in full
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %.80s: %v", method, target, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("%s %.80s: reading the body: %v", method, target, err)
	}
	return rawResponse{resp.StatusCode, resp.Header, string(body)}
}
