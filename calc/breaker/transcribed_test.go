// The transcriptions run on the harness of breaker_real_test.go, natively only.

//go:build !js

package breaker

import (
	"testing"
	"time"
)

// resilience4j and Polly are not Go modules: below, each state machine is transcribed from its
// source in that source's own shape (state objects and a clock read with time.Now, as the Java
// Clock and .NET TimeProvider are), independently of breaker_resilience4j.go and breaker_polly.go,
// and the two are driven with the same calls on the fake clock.

// r4jTranscript is resilience4j v2.4.0, resilience4j-circuitbreaker
// internal/CircuitBreakerStateMachine.java (ClosedState, OpenState, HalfOpenState) and
// internal/CircuitBreakerMetrics.java (checkIfThresholdsExceeded, forClosed, forHalfOpen) on
// core metrics/FixedSizeSlidingWindowMetrics.java and SnapshotImpl.java, with the defaults of
// CircuitBreakerConfig.java.
type r4jTranscript struct {
	stateReference r4jState
}

type r4jState interface {
	tryAcquirePermission(cb *r4jTranscript) bool
	onResult(cb *r4jTranscript, failed bool, duration time.Duration)
	name() State
}

// r4jCountMetrics is CircuitBreakerMetrics over FixedSizeSlidingWindowMetrics: the outcomes of
// the last windowSize calls, kept as measurements in a circular array.
type r4jCountMetrics struct {
	windowSize, minimumNumberOfCalls int
	measurements                     []struct{ failed, slow bool }
}

// r4jResult is CircuitBreakerMetrics.Result, reduced to what the states ask of it.
type r4jResult int

const (
	belowThresholds r4jResult = iota
	belowMinimumCallsThreshold
	aboveThresholds
)

func newR4jCountMetrics(windowSize int) *r4jCountMetrics {
	// "this.minimumNumberOfCalls = Math.min(circuitBreakerConfig.getMinimumNumberOfCalls(), slidingWindowSize)"
	return &r4jCountMetrics{windowSize: windowSize, minimumNumberOfCalls: min(100, windowSize)}
}

func (m *r4jCountMetrics) record(failed bool, duration time.Duration) r4jResult {
	// "if (durationUnit.toNanos(duration) > slowCallDurationThresholdInNanos)": 60 s.
	m.measurements = append(m.measurements, struct{ failed, slow bool }{failed, duration > 60*time.Second})
	if len(m.measurements) > m.windowSize {
		m.measurements = m.measurements[1:]
	}
	total, failures, slow := len(m.measurements), 0, 0
	for _, x := range m.measurements {
		if x.failed {
			failures++
		}
		if x.slow {
			slow++
		}
	}
	if total == 0 || total < m.minimumNumberOfCalls {
		return belowMinimumCallsThreshold
	}
	failureRate := float32(failures) * 100.0 / float32(total) // SnapshotImpl.getFailureRate
	slowCallRate := float32(slow) * 100.0 / float32(total)
	if failureRate >= 50 || slowCallRate >= 100 {
		return aboveThresholds
	}
	return belowThresholds
}

type r4jClosed struct{ metrics *r4jCountMetrics }

func (s *r4jClosed) tryAcquirePermission(*r4jTranscript) bool { return true }
func (s *r4jClosed) onResult(cb *r4jTranscript, failed bool, d time.Duration) {
	if s.metrics.record(failed, d) == aboveThresholds {
		cb.stateReference = newR4jOpen()
	}
}
func (s *r4jClosed) name() State { return Closed }

type r4jOpen struct{ retryAfterWaitDuration time.Time }

func newR4jOpen() *r4jOpen { return &r4jOpen{time.Now().Add(60 * time.Second)} }

func (s *r4jOpen) tryAcquirePermission(cb *r4jTranscript) bool {
	if time.Now().After(s.retryAfterWaitDuration) {
		cb.stateReference = &r4jHalfOpen{metrics: newR4jCountMetrics(10), permittedNumberOfCalls: 10}
		return cb.stateReference.tryAcquirePermission(cb)
	}
	return false
}

// onResult goes to the open state's metrics, which decide nothing and are dropped.
func (s *r4jOpen) onResult(*r4jTranscript, bool, time.Duration) {}
func (s *r4jOpen) name() State                                  { return Open }

type r4jHalfOpen struct {
	metrics                *r4jCountMetrics
	permittedNumberOfCalls int
}

func (s *r4jHalfOpen) tryAcquirePermission(*r4jTranscript) bool {
	// "permittedNumberOfCalls.getAndUpdate(current -> current == 0 ? current : --current) > 0"
	prev := s.permittedNumberOfCalls
	if prev > 0 {
		s.permittedNumberOfCalls--
	}
	return prev > 0
}

func (s *r4jHalfOpen) onResult(cb *r4jTranscript, failed bool, d time.Duration) {
	switch s.metrics.record(failed, d) {
	case aboveThresholds:
		cb.stateReference = newR4jOpen()
	case belowThresholds:
		cb.stateReference = &r4jClosed{newR4jCountMetrics(100)}
	}
}
func (s *r4jHalfOpen) name() State { return HalfOpen }

func (cb *r4jTranscript) allow() (bool, func(bool)) {
	if !cb.stateReference.tryAcquirePermission(cb) {
		return false, nil
	}
	start := time.Now()
	return true, func(failed bool) { cb.stateReference.onResult(cb, failed, time.Since(start)) }
}

func (cb *r4jTranscript) state() State { return cb.stateReference.name() }

// pollyTranscript is Polly v8 (Polly.Core at commit 008b952), CircuitBreaker/Controller/
// CircuitStateController.cs (OnActionPreExecuteAsync, OnActionSuccessAsync,
// OnActionFailureAsync, PermitHalfOpenCircuitTest_NeedsLock) with AdvancedCircuitBehavior.cs and
// Health/RollingHealthMetrics.cs, and the defaults of CircuitBreakerConstants.cs.
type pollyTranscript struct {
	circuitState State
	blockedUntil time.Time
	// RollingHealthMetrics
	successes, failures int
	windows             []*pollyHealthWindow
	currentWindow       *pollyHealthWindow
}

type pollyHealthWindow struct {
	successes, failures int
	startedAt           time.Time
}

const (
	pollySamplingDuration = 30 * time.Second
	pollyWindowDuration   = pollySamplingDuration / 10
	pollyBreakDuration    = 5 * time.Second
)

func (c *pollyTranscript) updateCurrentWindow() *pollyHealthWindow {
	now := time.Now()
	if c.currentWindow == nil || now.Sub(c.currentWindow.startedAt) >= pollyWindowDuration {
		c.currentWindow = &pollyHealthWindow{startedAt: now}
		c.windows = append(c.windows, c.currentWindow)
	}
	for now.Sub(c.windows[0].startedAt) >= pollySamplingDuration {
		w := c.windows[0]
		c.windows = c.windows[1:]
		c.successes -= w.successes
		c.failures -= w.failures
	}
	return c.currentWindow
}

func (c *pollyTranscript) incrementSuccess() { c.successes++; c.updateCurrentWindow().successes++ }
func (c *pollyTranscript) incrementFailure() { c.failures++; c.updateCurrentWindow().failures++ }
func (c *pollyTranscript) reset() {
	c.successes, c.failures, c.currentWindow, c.windows = 0, 0, nil, nil
}

func (c *pollyTranscript) allow() (bool, func(bool)) {
	isHalfOpen := false
	if c.circuitState == Open {
		if now := time.Now(); !now.Before(c.blockedUntil) {
			c.blockedUntil = now.Add(pollyBreakDuration)
			c.circuitState, isHalfOpen = HalfOpen, true
		}
	}
	if c.circuitState == Open || (c.circuitState == HalfOpen && !isHalfOpen) {
		return false, nil // BrokenCircuitException
	}
	return true, func(failed bool) {
		if !failed {
			c.incrementSuccess() // AdvancedCircuitBehavior.OnActionSuccess, in every state
			if c.circuitState == HalfOpen {
				c.blockedUntil = time.Time{}
				c.circuitState = Closed
				c.reset() // OnCircuitClosed
			}
			return
		}
		shouldBreak := false
		switch c.circuitState {
		case Closed:
			c.incrementFailure()
			c.updateCurrentWindow()
			throughput := c.successes + c.failures
			failureRate := 0.0
			if throughput > 0 {
				failureRate = float64(c.failures) / float64(throughput)
			}
			shouldBreak = throughput >= 100 && failureRate >= 0.1
		case Open:
			c.incrementFailure()
		}
		if c.circuitState == HalfOpen || (c.circuitState == Closed && shouldBreak) {
			c.blockedUntil = time.Now().Add(pollyBreakDuration)
			c.circuitState = Open
		}
	}
}

func (c *pollyTranscript) state() State { return c.circuitState }

func TestResilience4jAgainstTranscript(t *testing.T) {
	for _, s := range realScripts {
		for seed := range int64(4) {
			compareReal(t, s, seed,
				func() realBreaker { return &r4jTranscript{stateReference: &r4jClosed{newR4jCountMetrics(100)}} },
				func() Breaker { return New(Resilience4j, Defaults(), nil) })
		}
	}
}

func TestPollyAgainstTranscript(t *testing.T) {
	// Polly needs 100 calls in 30 s: the scripts left out have fewer.
	for _, s := range scriptsBut("gobreaker-like", "slow calls", "sparse", "very slow") {
		for seed := range int64(4) {
			compareReal(t, s, seed,
				func() realBreaker { return &pollyTranscript{} },
				func() Breaker { return New(Polly, Defaults(), nil) })
		}
	}
}
