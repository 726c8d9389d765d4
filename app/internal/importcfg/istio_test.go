package importcfg

import "testing"

const istioFormat = "Istio VirtualService retries (YAML)"

var istioCases = []importCase{
	{name: "a virtual service", format: istioFormat,
		text: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: ratings
spec:
  hosts: [ratings]
  http:
  - route:
    - destination: {host: ratings}
    timeout: 10s
    retries:
      attempts: 3
      perTryTimeout: 2s
      retryOn: gateway-error,connect-failure
      retryRemoteLocalities: true
      retryIgnorePreviousHosts: false
      hedge: 1
  - route:
    - destination: {host: other}
`,
		want:    "base=25ms&factor=2&cap=250ms&attempts=4&jitter=fullms&budget=10s&capat=before&first=jittered",
		ignored: []string{"line 18: http[1]", "line 13: spec.http[0].retries.perTryTimeout 2s", "line 14: spec.http[0].retries.retryOn", "line 15: spec.http[0].retries.retryRemoteLocalities", "line 16: spec.http[0].retries.retryIgnorePreviousHosts", "line 17: spec.http[0].retries.hedge: not a field"}},
	{name: "no retries is Istio's default", format: istioFormat,
		text: "kind: VirtualService\nspec:\n  http:\n  - route: []\n", want: "attempts=3&budget=0&base=25ms"},
	{name: "attempts 0 disables retrying", format: istioFormat,
		text: "kind: VirtualService\nspec:\n  http:\n  - retries:\n      attempts: 0\n", want: "attempts=1"},
	{name: "backoff sets Envoy's base interval", format: istioFormat,
		text: "kind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 2, backoff: 100ms}\n    timeout: 0s\n", want: "base=100ms&cap=1s&attempts=3&budget=0"},
	{name: "several documents", format: istioFormat,
		text:    "kind: DestinationRule\nspec: {}\n---\nkind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 5}\n---\nkind: VirtualService\nspec: {}\n",
		want:    "attempts=6",
		ignored: []string{"line 1: document 1, kind DestinationRule", "line 9: document 3"}},
	{name: "an anchor and an alias", format: istioFormat,
		text: "kind: VirtualService\nspec:\n  http:\n  - retries: &r {attempts: 4, backoff: 50ms}\n    timeout: 2s\n  - retries: *r\n",
		want: "attempts=5&base=50ms&cap=500ms&budget=2s", ignored: []string{"line 6: http[1]"}},
	{name: "empty documents", format: istioFormat,
		text: "---\n---\nkind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 1}\n---\n", want: "attempts=2"},
	{name: "one route on its own", format: istioFormat,
		text: "retries:\n  attempts: 1\ntimeout: 3s\n", want: "attempts=2&budget=3s"},
}

func TestIstio(t *testing.T) { checkImports(t, istioCases) }

func TestIstioRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"negative attempts", "kind: VirtualService\nspec:\n  http:\n  - retries:\n      attempts: -1\n", []string{"line 5", "attempts", `"-1"`}},
		{"attempts past the table", "kind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 1000}\n", []string{"line 4", "attempts", `"1000"`, "at most 1000 attempts"}},
		{"bad timeout", "kind: VirtualService\nspec:\n  http:\n  - timeout: soon\n", []string{"line 4", "timeout", `"soon"`}},
		{"bad backoff", "kind: VirtualService\nspec:\n  http:\n  - retries: {backoff: 0.5ms}\n", []string{"line 4", "backoff", `"0.5ms"`, "from 1ms"}},
		{"retries a list", "kind: VirtualService\nspec:\n  http:\n  - retries: [1]\n", []string{"line 4", "retries", "must be a mapping"}},
		{"http not a list", "kind: VirtualService\nspec:\n  http: {}\n", []string{"line 3", "http", "list of HTTP routes"}},
		{"no http", "kind: VirtualService\nspec:\n  tcp: []\n", []string{"line 1", "no spec.http"}},
		{"given twice", "kind: VirtualService\nspec:\n  http:\n  - retries: {attempts: 1}\n    retries: {attempts: 2}\n", []string{"line 5", "given twice (also line 4): give it once (line 5, spec.http[0].retries)"}},
		{"broken yaml", "kind: VirtualService\nspec:\n  http:\n  - retries:\n    attempts: 1\n   perTryTimeout: 1s\n", []string{"line"}},
	})
}
