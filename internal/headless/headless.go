//go:build !js

// Package headless starts Chromium the one way the browser tests and the bench use it, and holds
// the page-side steps both need, so that the tests and the measurements see the same browser.
package headless

import (
	"context"
	"fmt"
	"os"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Path is $CHROMIUM, or Debian's /usr/bin/chromium.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// Allocator returns a context that starts the Chromium at path, headless and quiet (no
// sandbox, GPU, QUIC, first-run page or background traffic), with its profile in profile.
//
// Headless Chromium 156 gives every tab a window of its own, and every window loads its address
// bar's popups, two WebUI pages (chrome://omnibox-popup.top-chrome/), in a renderer of their own:
// 0.8 s of CPU a tab on a 2-core machine, about a third of what a page load costs there, for a
// window nobody sees. A person's browser loads them once per window, not per page. The features
// that load them are off (TestTabOpensNoBrowserUI).
func Allocator(path, profile string) (context.Context, context.CancelFunc) {
	return chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-features", OffFeatures),
		chromedp.UserDataDir(profile),
	)
}

// OffFeatures are the Chromium features Allocator turns off: the address bar's popups.
const OffFeatures = "WebUIOmniboxPopup,WebUIOmniboxAimPopup"

// ServiceWorkerActivated is a JavaScript expression whose promise settles on "activated" once
// the page's service worker has precached every file, or on another word after ms
// milliseconds: navigator.serviceWorker.ready never settles when the worker fails to install.
func ServiceWorkerActivated(ms int64) string {
	return fmt.Sprintf(`Promise.race([
		navigator.serviceWorker.ready.then((r) => new Promise((done) => {
			const w = r.active;
			if (w.state === "activated") return done(w.state);
			w.addEventListener("statechange", () => w.state === "activated" && done(w.state));
		})),
		new Promise((done) => setTimeout(() => done("not activated after %[1]dms"), %[1]d)),
	])`, ms)
}

// ClearHTTPCache empties Chromium's HTTP cache, not the service worker's Cache Storage, so that
// an offline load cannot be answered by it.
var ClearHTTPCache = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, network.ClearBrowserCache, cdp.Empty{})
	return err
})
