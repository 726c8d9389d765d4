package importcfg

import (
	"strings"
	"testing"
)

const r4jYAML = `spring:
  application:
    name: shop
resilience4j:
  retry:
    configs:
      default:
        maxAttempts: 5
        retryExceptions:
        - java.io.IOException
    instances:
      backend:
        waitDuration: 200ms
        enableExponentialBackoff: true
        exponentialBackoffMultiplier: 2
        enable-randomized-wait: true
        randomized_wait_factor: 0.25
        exponentialMaxWaitDuration: PT2S
      other:
        maxAttempts: 9
  circuitbreaker:
    instances:
      backend:
        failureRateThreshold: 30
        slidingWindowSize: 20
        minimumNumberOfCalls: 10
        waitDurationInOpenState: 10s
        registerHealthIndicator: true
  bulkhead:
    instances:
      backend:
        maxConcurrentCalls: 10
`

const r4jProperties = `# the first retry instance
resilience4j.retry.instances.backend.max-attempts=4
resilience4j.retry.instances.backend.wait-duration=1s
resilience4j.retry.instances.backend.enable-exponential-backoff=true
resilience4j.retry.instances.backend.exponential-backoff-multiplier=3.0
resilience4j.circuitbreaker.instances.backend.permitted-number-of-calls-in-half-open-state: 3
management.endpoints.web.exposure.include=*
`

var r4jCases = []readCase{
	{name: "yaml", text: r4jYAML,
		values: "attempts=5&base=200ms&factor=2&jitter=proportional&ratio=0.25&cap=2s&capat=after&breaker=resilience4j&breakerat=attempt&r4jrate=30&r4jwindow=20&r4jmincalls=10&r4jopen=10s&r4jhalfopen=10",
		read:   "configs.default: what backend leaves unset", ignored: "registerHealthIndicator: not about"},
	{name: "yaml, the other instances", text: r4jYAML, ignored: "retry instance other: only the first retry instance is read (backend)"},
	{name: "yaml, other modules", text: r4jYAML, ignored: "resilience4j.bulkhead: not modelled"},
	{name: "yaml, not resilience4j's", text: r4jYAML, ignored: "spring: not resilience4j's"},
	{name: "dotted yaml", text: "resilience4j.retry.instances.a.max-attempts: 2\n", values: "attempts=2&base=500ms&factor=1&jitter=none"},
	{name: "properties", text: r4jProperties,
		values: "attempts=4&base=1s&factor=3&jitter=none&cap=168h&breaker=resilience4j&r4jhalfopen=3&r4jrate=50", ignored: "management: not resilience4j's"},
	{name: "randomized only", text: "resilience4j.retry.instances.a.wait-duration=100\nresilience4j.retry.instances.a.enable-randomized-wait=true\n",
		values: "base=100ms&factor=1&jitter=proportional&ratio=0.5"},
	{name: "a cap without a multiplier", text: "resilience4j.retry.instances.a.wait-duration=1s\nresilience4j.retry.instances.a.enable-exponential-backoff=true\nresilience4j.retry.instances.a.exponential-max-wait-duration=2s\n",
		values: "factor=1.5&cap=168h", ignored: "exponential-max-wait-duration: resilience4j reads it only with"},
	{name: "no wait-duration", text: "resilience4j.retry.instances.a.enable-exponential-backoff=true\n", values: "base=500ms&factor=1", read: "no wait-duration"},
	{name: "a base config", text: "resilience4j.retry.configs.slow.wait-duration=3s\nresilience4j.retry.instances.a.base-config=slow\n", values: "base=3s"},
	{name: "whole milliseconds", text: "resilience4j.retry.instances.a.wait-duration=PT0.0015S\n", values: "base=1ms"},
	{name: "continued line", text: "resilience4j.retry.instances.a.max-attempts=\\\n  7\n", values: "attempts=7"},
	{name: "breaker only", text: "resilience4j.circuitbreaker.instances.a.sliding-window-type=COUNT_BASED\n", values: "attempts=1&breaker=resilience4j"},

	{name: "unknown base config", text: "resilience4j.retry.instances.a.base-config=slow\n", err: `no retry config of that name: resilience4j refuses it (ConfigurationNotFoundException) (line 1, resilience4j.retry.instances.a.base-config "slow")`},
	{name: "negative attempts", text: "resilience4j.retry.instances.a.max-attempts=-1\n", err: "must be between 0 and"},
	{name: "bad duration", text: "resilience4j.retry.instances.a.wait-duration=1 second\n", err: `not a duration: write it like 500ms, 2s or PT0.5S (line 1, resilience4j.retry.instances.a.wait-duration "1 second")`},
	{name: "bad unit", text: "resilience4j.retry.instances.a.wait-duration=5y\n", err: `unknown unit "y"`},
	{name: "bad flag", text: "resilience4j.retry.instances.a.enable-randomized-wait=yes\n", err: "must be true or false"},
	{name: "factor over 1", text: "resilience4j.retry.instances.a.wait-duration=1s\nresilience4j.retry.instances.a.enable-randomized-wait=true\nresilience4j.retry.instances.a.randomized-wait-factor=1.5\n", err: "must be from 0 to 1"},
	{name: "multiplier under 1", text: "resilience4j.retry.instances.a.wait-duration=1s\nresilience4j.retry.instances.a.enable-exponential-backoff=true\nresilience4j.retry.instances.a.exponential-backoff-multiplier=0.5\n", err: "must be between 1 and 100 (line 3, resilience4j.retry.instances.a.exponential-backoff-multiplier \"0.5\" → factor=0.5)"},
	{name: "time-based window", text: "resilience4j.circuitbreaker.instances.a.sliding-window-type=TIME_BASED\n", err: "COUNT_BASED window only"},
	{name: "window of 0", text: "resilience4j.circuitbreaker.instances.a.sliding-window-size=0\n", err: `must be between 1 and 1000000 (line 1, resilience4j.circuitbreaker.instances.a.sliding-window-size "0" → r4jwindow=0)`},
	{name: "huge duration", text: "resilience4j.retry.instances.a.wait-duration=" + strings.Repeat("9", 30) + "d\n", err: "→ base="},
}

func TestReadResilience4j(t *testing.T) {
	var yml, props []readCase
	for _, c := range r4jCases {
		if strings.HasPrefix(c.name, "yaml") || strings.HasPrefix(c.name, "dotted") {
			yml = append(yml, c)
		} else {
			props = append(props, c)
		}
	}
	checkReads(t, r4jYAMLFormat.name, yml)
	checkReads(t, r4jPropertiesFormat.name, props)
}
