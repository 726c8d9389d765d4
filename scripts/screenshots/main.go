//go:build !js

// Command screenshots writes the README's screenshots: the first screen of serve's page for a
// representative link, once the wasm is in charge, on a laptop (docs/screenshot.png, 1366x768)
// and on a phone (docs/screenshot-phone.png, 390x844). make screenshots builds and runs it.
//
//	go run ./scripts/screenshots -bin bin/backoffcalc
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"

	"backoffcalc/internal/headless"
	"backoffcalc/internal/served"
)

// link is the README's example: a budget, a call time, layers and a seed, so that every part of
// the first screen has something to show.
const link = "?base=250ms&factor=1.5&cap=3s&attempts=8&jitter=equal&budget=2s&call=10ms&seed=9&samples=2000&layers=3"

// shots are the screens, as the accessibility tests emulate them.
var shots = []struct {
	file          string
	width, height int64
	mobile        bool
}{
	{"docs/screenshot.png", 1366, 768, false},
	{"docs/screenshot-phone.png", 390, 844, true},
}

// rendered is true once the wasm has rendered the page and its sampled numbers (as the browser
// tests' waitWasm) and the herd.
const rendered = `document.querySelector('#app[data-render="wasm"]') !== null &&
	document.querySelector('#tables [data-sampling]') === null &&
	document.querySelector('#herd-results[data-pending]') === null`

func main() {
	bin := flag.String("bin", "bin/backoffcalc", "the built `backoffcalc`, run as serve")
	flag.Parse()
	if err := run(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

func run(bin string) error {
	// serve on a free port of 127.0.0.1, once it listens.
	url, stop, err := served.Start(".", bin, "serve", "-addr", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer stop()

	profile, err := os.MkdirTemp("", "backoffcalc-screenshots-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	actx, acancel := headless.Allocator(headless.Path(), profile)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	if err := chromedp.Do(bctx); err != nil { // starts the browser, without a timeout
		return err
	}
	for _, s := range shots {
		if err := shoot(bctx, url+"/"+link, s.file, s.width, s.height, s.mobile); err != nil {
			return fmt.Errorf("%s: %w", s.file, err)
		}
		fmt.Println("wrote", s.file)
	}
	return nil
}

// shoot opens url in a new tab with a width×height screen, waits for the wasm and writes the
// first screen to file as PNG.
func shoot(bctx context.Context, url, file string, width, height int64, mobile bool) error {
	tctx, tcancel := chromedp.NewContext(bctx)
	defer tcancel()
	ctx, cancel := context.WithTimeout(tctx, time.Minute)
	defer cancel()
	screen := chromedp.EmulateViewport(width, height)
	if mobile {
		screen = chromedp.EmulateViewport(width, height, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
	}
	// serve may still be starting: retry the first load.
	var err error
	for range 50 {
		if err = chromedp.Do(ctx, screen, chromedp.Navigate(url)); err == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	for {
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](rendered))
		if err == nil && done {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the wasm: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, png, 0o644)
}
