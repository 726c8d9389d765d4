//go:build !js

package site

import "testing"

func TestBrowserQuery(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"base=250ms&jitter=full", "base=250ms&jitter=full"},
		{`q="><b x='1'>`, "q=%22%3E%3Cb%20x=%271%27%3E"},
		{"a=%22&b=+&c=µs", "a=%22&b=+&c=%C2%B5s"},
		{"x=\t\x00\x7f", "x=%09%00%7F"},
	} {
		if got := BrowserQuery(c.in); got != c.want {
			t.Errorf("BrowserQuery(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
