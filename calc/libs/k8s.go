package libs

import (
	"strconv"
	"strings"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

var k8sPresets = []Preset{
	{
		Name: "k8s-default-retry", Library: "Kubernetes client-go retry.DefaultRetry (with wait.Backoff)",
		Short:   "k8s DefaultRetry",
		Version: "k8s.io/apimachinery and client-go v0.37.2 (2026, read)", Source: "apimachinery pkg/util/wait/backoff.go: Backoff.Step, delay, Jitter, ExponentialBackoff; client-go util/retry/util.go",
		Theirs: "Steps = 5 (counts the first call), Duration = 10 ms, Factor = 1.0, Jitter = 0.1",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Cap, p.Attempts, p.Jitter, p.Ratio = 10*msec, 1, 10*msec, 5, policy.Upward, 0.1
		}),
		Notes: []string{"wait.Jitter only adds: retry k waits d + random() × 0.1 × d, in [d, 1.1 d] (jitter: upward)."},
	},
	{
		Name: "k8s-default-backoff", Library: "Kubernetes client-go retry.DefaultBackoff (with wait.Backoff)",
		Short:   "k8s DefaultBackoff",
		Version: "k8s.io/apimachinery and client-go v0.37.2 (2026, read)", Source: "apimachinery pkg/util/wait/backoff.go: Backoff.Step, delay, Jitter, ExponentialBackoff; client-go util/retry/util.go",
		Theirs: "Steps = 4 (counts the first call), Duration = 10 ms, Factor = 5.0, Jitter = 0.1, no Cap",
		Params: preset(func(p *calc.Params) {
			p.Base, p.Factor, p.Attempts, p.Jitter, p.Ratio = 10*msec, 5, 4, policy.Upward, 0.1
		}),
		Notes: []string{
			"Retry k waits 10 ms × 5^(k−1) + random() × 0.1 × that: 10, 50, 250 ms, each up to 10% more.",
			"With a Cap, wait.Backoff stops after the step whose next delay would pass it (Steps becomes 0), so a delay reaches Cap only if it equals it exactly; " +
				"retry.OnError still sleeps that step's wait, then gives up. With Cap = 5 s and Steps = 10 it makes 4 attempts (delays 10, 50, 250 ms between them), " +
				"then sleeps 1.25 s and gives up, as the next delay, 6.25 s, would pass 5 s: " +
				"not modelled by this preset, which has no Cap; the client-go export says how many attempts a Cap leaves.",
		},
	},
}

// clientGoLibrary is the Export panel's entry for the library; exportClientGo fills in the rest.
var clientGoLibrary = Library{Lib: "client-go", Title: "Kubernetes client-go: wait.Backoff (Go)", Presets: []string{"k8s-default-retry", "k8s-default-backoff"}}

func exportClientGo(s *subject) Export {
	p := s.p
	var e Export
	if why := cannotExpress(p, "wait.Backoff", false); why != "" {
		e.Diffs = []string{why}
		return e
	}
	lib := p
	lib.CapAt, lib.FirstExact = policy.CapBefore, false
	scale, jitter, ok := asUpward(p.Jitter, p.Ratio)
	comment := ""
	switch {
	case ok && p.Jitter == policy.Equal:
		comment = "// Equal jitter: half the delay, plus up to 100% of it.\n"
	case ok && p.Jitter == policy.Proportional && p.Ratio > 0:
		comment = "// ±" + number(p.Ratio*100) + "% jitter: " + number(1-p.Ratio) + " × the delay, plus up to " + number(jitter*100) + "% of that.\n"
	case p.Jitter == policy.Full, p.Jitter == policy.FullMs, p.Jitter == policy.Additive:
		// wait.Jitter only adds: the nearest keeps the delay, without jitter.
		scale, jitter, ok = 1, 0, true
		lib.Jitter = policy.None
	case p.Jitter == policy.Proportional: // ratio 1: [0, 2d]; the nearest keeps the longest wait
		scale, jitter, ok = 1, 1, true
		lib.Jitter, lib.Ratio = policy.Upward, 1
	}
	if !ok {
		e.Diffs = []string{"wait.Backoff cannot express jitter " + p.Jitter.String() + "."}
		return e
	}
	d, c := scaled(p.Base, scale), scaled(p.Cap, scale)
	wb := WaitBackoff{Duration: d, Factor: p.Factor, Jitter: jitter, Steps: p.Attempts}
	var stop []string
	if !capBinds(lib) {
		lib.Cap = capNone
	} else {
		// With a Cap, wait.ExponentialBackoff stops at the first step whose next delay would
		// pass it (Step sets Steps to 0): the waits never reach the cap, the attempts stop.
		wb.Cap = c
		next := d
		for i := 1; i < p.Attempts; i++ {
			next = time.Duration(float64(next) * p.Factor)
			if next > c {
				lib.Attempts = i
				break
			}
		}
		if lib.Attempts < p.Attempts {
			all := lib
			all.Attempts = p.Attempts
			last := all.Schedule().Rows[lib.Attempts]
			stop = append(stop, "wait.ExponentialBackoff stops once the next delay would pass Cap: it makes "+attemptsText(lib.Attempts)+
				", not "+attemptsText(p.Attempts)+", and after the last one still sleeps retry "+strconv.Itoa(lib.Attempts)+"'s wait, "+
				span(last.Min, last.Max, last.Mean, unitFor(last.Max))+", before giving up.")
		}
	}
	e.Config = wb
	e.Snippets = []Snippet{{"go", comment + wb.Go()}}
	e.Diffs = append(stop, compare(s, "wait.Backoff", lib, map[string]string{
		"jitter": "(wait.Jitter only adds: Duration + U × Jitter × Duration.)",
		"capat":  "(Jitter applies to the delay after the cap.)",
		"first":  "(Every step is jittered.)",
	})...)
	e.Diffs = append(e.Diffs, budgetDiffs(s, "wait.Backoff", budgetNone, "", lib)...)
	e.Model = lib
	return e
}

// WaitBackoff is a k8s.io/apimachinery wait.Backoff in the library's own terms (client-go's
// retry.OnError takes it). Go writes it as code.
type WaitBackoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int           // attempts, the first call included
	Cap      time.Duration // 0: none
}

// Go is w as Go code, Cap only when set.
func (w WaitBackoff) Go() string {
	fields := [][2]string{
		{"Duration", goDurationExpr(w.Duration, false)},
		{"Factor", strconv.FormatFloat(w.Factor, 'g', -1, 64)},
		{"Jitter", strconv.FormatFloat(w.Jitter, 'g', -1, 64)},
		{"Steps", strconv.Itoa(w.Steps)},
	}
	if w.Cap > 0 {
		fields = append(fields, [2]string{"Cap", goDurationExpr(w.Cap, false)})
	}
	var b strings.Builder
	b.WriteString("backoff := wait.Backoff{\n")
	goStruct(&b, "\t", fields)
	b.WriteString("}\n// Steps counts attempts, the first call included. Use it with\n// retry.OnError(backoff, retriable, fn) from k8s.io/client-go/util/retry.\n")
	return b.String()
}
