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
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
		io.Copy(io.Discard, out)
	}()
	select {
	case s := <-line:
		u, ok := strings.CutPrefix(strings.TrimSpace(s), "serving ")
		if !ok {
			stop()
			return "", nil, fmt.Errorf("%s: printed %q, want serving http://ADDR/", name, s)
		}
		return strings.TrimSuffix(u, "/"), stop, nil
	case <-time.After(20 * time.Second):
		stop()
		return "", nil, fmt.Errorf("%s: not listening after 20s", name)
	}
}
