//go:build !js

package served

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Response is what a server answered to a request written byte for byte.
type Response struct {
	Code   int
	Header http.Header
	Body   string
}

// SendRaw writes the request line "METHOD target HTTP/1.1" with host as its Host header (none
// when host is "-": then the request is HTTP/1.0, which may omit it) and the extra header
// lines, and reads the answer: a request exactly as a client other than a browser may send
// it, which Go's client would clean up first.
func SendRaw(addr, method, target, host string, extra ...string) (Response, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return Response{}, err
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
		return Response{}, fmt.Errorf("%s %.80s: %w", method, target, err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return Response{}, fmt.Errorf("%s %.80s: reading the body: %w", method, target, err)
	}
	return Response{resp.StatusCode, resp.Header, string(body)}, nil
}
