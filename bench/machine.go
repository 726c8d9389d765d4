//go:build !js

package main

// What the figures are measured on, printed first and kept with them.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// loadAverage is the 1, 5 and 15 minute load averages.
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

// machine describes what the figures are measured on.
func machine(cfg *config) [][2]string {
	model, mem := "?", "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
				var kb float64
				fmt.Sscan(f[1], &kb)
				mem = fmt.Sprintf("%.1f GiB", kb/(1<<20))
			}
		}
	}
	out := func(name string, args ...string) string {
		b, err := exec.Command(name, args...).Output() // stdout only: Debian's chromium wrapper chatters on stderr
		if err != nil {
			return "? (" + err.Error() + ")"
		}
		return strings.TrimSpace(string(b))
	}
	rev := out("git", "rev-parse", "--short", "HEAD")
	if st, err := exec.Command("git", "status", "--porcelain", "--", "app", "calc", "web", "go.mod").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += " with uncommitted changes in app/, calc/, web/ or go.mod"
	}
	return [][2]string{
		{"machine", fmt.Sprintf("%d CPUs (nproc), %s, %s memory, %s/%s", runtime.NumCPU(), model, mem, runtime.GOOS, runtime.GOARCH)},
		{"software", fmt.Sprintf("%s; %s; node %s", out(cfg.goCmd, "version"), out(cfg.chromium, "--version"), out("node", "--version"))},
		{"source", rev},
		{"load", fmt.Sprintf("load average %s, CPUs %.0f%% busy over the 2 s before the bench started (other work on the machine skews every figure)", loadAverage(), cpuBusy(2*time.Second))},
		{"browser", "headless Chromium on 127.0.0.1, a fresh profile per cold run; times in-page (performance.now in requestAnimationFrame, PerformanceObserver)"},
		{"started", time.Now().Format(time.RFC3339)},
	}
}
