//go:build !js

package main

// The screens the browser tests look at the page on, one way for all of them.

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// viewport is a screen the page is checked on.
type viewport struct {
	name          string
	width, height int64
	mobile        bool // a phone: device emulation with a mobile viewport, touch, 3 device pixels a CSS pixel
	dark          bool // prefers-color-scheme: dark
	reducedMotion bool // prefers-reduced-motion: reduce
}

// firstScreens are the screens the first screen must fit: two laptops and a phone.
var firstScreens = []viewport{
	{name: "1366x768", width: 1366, height: 768},
	{name: "1280x720", width: 1280, height: 720},
	{name: "390x844", width: 390, height: 844, mobile: true},
}

// emulate makes the tab's screen, colour scheme and motion preference vp's.
func (tb *tab) emulate(vp viewport) {
	tb.t.Helper()
	screen := chromedp.EmulateViewport(vp.width, vp.height)
	if vp.mobile {
		screen = chromedp.EmulateViewport(vp.width, vp.height, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
	}
	features := []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}
	if vp.dark {
		features[0].Value = "dark"
	}
	if vp.reducedMotion {
		features = append(features, &emulation.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"})
	}
	tb.run(screen, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features})
		return err
	}))
}
