//go:build !js

package libs

import (
	"testing"
	"time"
)

// The typed configurations each exporter builds, checked against values worked by hand from
// the library's documentation: the text written from them is checked by the golden files.

// exportConfig is the Config of lib's export of the policy in query.
func exportConfig(t *testing.T, query, lib string) any {
	t.Helper()
	for _, e := range Exports(snippetParams(t, query)) {
		if e.Lib == lib {
			return e.Config
		}
	}
	t.Fatalf("no export %q", lib)
	return nil
}

func TestEnvoyConfig(t *testing.T) {
	// Envoy counts retries after the first call and keeps its intervals in whole milliseconds:
	// 4 attempts are 3 retries, 2.7 ms is 2 ms; the budget is the route's timeout.
	got := exportConfig(t, "base=2.7ms&cap=1s&attempts=4&budget=3s&jitter=fullms", "envoy")
	want := EnvoyRetryPolicy{Timeout: 3 * time.Second, NumRetries: 3, BaseInterval: 2 * time.Millisecond, MaxInterval: time.Second}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestGRPCConfig(t *testing.T) {
	// gRFC A6: maxAttempts counts the first call and clients treat more than 5 as 5; the
	// backoffs are the policy's base and cap, the multiplier its factor; the budget is the
	// method's timeout.
	got := exportConfig(t, "base=100ms&factor=1.5&cap=2s&attempts=8&budget=10s&jitter=proportional&ratio=0.2", "grpc")
	want := GRPCRetryPolicy{Timeout: 10 * time.Second, MaxAttempts: 5, InitialBackoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second, BackoffMultiplier: 1.5}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
