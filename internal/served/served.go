//go:build !js

// Package served starts a program that serves a page and says where: `backoffcalc serve`, the
// bench's baseline. The bench and the screenshots script wait for it the same way.
package served

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Start runs name in dir and returns once it prints "serving http://ADDR/", that is once it
// listens: its URL without the trailing slash, and stop, which ends it.
func Start(dir, name string, args ...string) (url string, stop func(), err error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	type listening struct {
		url string
		err error
	}
	line := make(chan listening, 1)
	go func() {
		u, err := Listening(out)
		line <- listening{u, err}
		io.Copy(io.Discard, out)
	}()
	select {
	case l := <-line:
		if l.err != nil {
			stop()
			return "", nil, fmt.Errorf("%s: %w", name, l.err)
		}
		return l.url, stop, nil
	case <-time.After(20 * time.Second):
		stop()
		return "", nil, fmt.Errorf("%s: not listening after 20s", name)
	}
}

// Listening reads the first line a server prints, "serving http://ADDR/", and returns its URL
// without the trailing slash.
func Listening(r io.Reader) (string, error) {
	s, err := bufio.NewReader(r).ReadString('\n')
	u, ok := strings.CutPrefix(strings.TrimSpace(s), "serving ")
	if !ok {
		return "", fmt.Errorf("printed %q (%v), want serving http://ADDR/", s, err)
	}
	return strings.TrimSuffix(u, "/"), nil
}
