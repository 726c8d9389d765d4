//go:build !js

package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestOddUserAgents loads the page with each user agent of testdata/user-agents.txt, on serve
// and on the static site: the calculator must run and show the link's numbers.
func TestOddUserAgents(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/user-agents.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var agents []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			agents = append(agents, line)
		}
	}
	const query = "base=2s&attempts=4&wasm=false"
	for _, site := range []string{"serve", "static"} {
		t.Run(site, func(t *testing.T) {
			srv := startServe(t)
			if site == "static" {
				srv = startStatic(t, "")
			}
			for _, ua := range agents {
				tb := newTab(t, chromedp.WithNewBrowserContext())
				if _, err := chromedp.Call(tb.ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua}); err != nil {
					t.Fatal(err)
				}
				if got := evalJS[string](tb, "navigator.userAgent"); got != ua {
					t.Fatalf("the user agent is %q, want %q", got, ua)
				}
				tb.navigate(srv.URL + "/?" + query)
				tb.waitWasm()
				compareNumbers(t, evalJS[map[string]string](tb, readNumbers), wantNumbers(t, query))
				tb.requireNoConsoleProblems()
			}
		})
	}
}
