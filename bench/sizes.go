//go:build !js

package main

// The sizes phase: app.wasm raw, gzip, brotli, over serve's wire and against an empty go-app
// page, and the difference by package and section (package bench/wasmsize).

import (
	"fmt"
	"os"
	"path/filepath"

	"backoffcalc/bench/wasmsize"
)

func measureSizes(cfg *config, res *results, base *baseline, staticDir string) error {
	const sec = "app.wasm size"
	appRaw, err := fileSize("web/app.wasm")
	if err != nil {
		return err
	}
	appGz, how, err := wasmsize.GzipSize("web/app.wasm")
	if err != nil {
		return err
	}
	baseRaw, err := fileSize(base.wasm)
	if err != nil {
		return err
	}
	baseGz, _, err := wasmsize.GzipSize(base.wasm)
	if err != nil {
		return err
	}
	fullRaw, _ := fileSize(base.wasmFull)
	fullGz, _, _ := wasmsize.GzipSize(base.wasmFull)
	pct := func(a, b int64) string { return fmt.Sprintf("%+.1f%% of the baseline", 100*float64(a-b)/float64(b)) }
	limit := float64(baseGz) * 1.10
	res.add(row{section: sec, metric: "app.wasm raw", value: float64(appRaw), unit: "bytes", note: "web/app.wasm as make wasm builds it"})
	res.add(row{section: sec, metric: "app.wasm gzip", value: float64(appGz), unit: "bytes",
		target: fmt.Sprintf("<= %.0f", limit), met: atMost(float64(appGz), limit), note: how + "; target: the baseline's gzip + 10%"})
	// The engine worker's module (app/engine), which the page starts after its first work and
	// which reads imports: not part of the page's start, stated beside it.
	engRaw, err := fileSize("web/engine.wasm")
	if err != nil {
		return err
	}
	engGz, _, err := wasmsize.GzipSize("web/engine.wasm")
	if err != nil {
		return err
	}
	res.add(row{section: sec, metric: "engine.wasm raw", value: float64(engRaw), unit: "bytes", note: "web/engine.wasm, the Web Worker's module (app/engine)"})
	res.add(row{section: sec, metric: "engine.wasm gzip", value: float64(engGz), unit: "bytes", note: how + "; fetched by the worker, not before the page's numbers"})
	res.add(row{section: sec, metric: "baseline raw", value: float64(baseRaw), unit: "bytes", note: "empty go-app v9.8.0 page (bench/baseline), built the same way"})
	res.add(row{section: sec, metric: "baseline gzip", value: float64(baseGz), unit: "bytes", note: how})
	res.add(row{section: sec, metric: "app.wasm − baseline, raw", value: float64(appRaw - baseRaw), unit: "bytes", note: pct(appRaw, baseRaw)})
	res.add(row{section: sec, metric: "app.wasm − baseline, gzip", value: float64(appGz - baseGz), unit: "bytes", note: pct(appGz, baseGz)})
	res.add(row{section: sec, metric: "baseline with its server in the wasm, raw", value: float64(fullRaw), unit: "bytes",
		note: "go-app's one-file getting-started form (-tags singlefile): net/http's server compiled into the wasm"})
	res.add(row{section: sec, metric: "baseline with its server in the wasm, gzip", value: float64(fullGz), unit: "bytes", note: how})

	// What a host that sends precompressed files as they are ships: static writes them with
	// the encoders serve uses (brotli -q 11, compress/gzip level 9).
	for _, c := range []struct{ ext, metric, how string }{
		{".br", "app.wasm brotli", "brotli -q 11 (github.com/andybalholm/brotli)"},
		{".gz", "app.wasm gzip as shipped", "compress/gzip level 9"},
	} {
		n, err := fileSize(filepath.Join(staticDir, "web", "app.wasm"+c.ext))
		if err != nil {
			return fmt.Errorf("the static site's precompressed app.wasm: %w", err)
		}
		res.add(row{section: sec, metric: c.metric, value: float64(n), unit: "bytes",
			note: fmt.Sprintf("web/app.wasm%s of the static site, %s; %+.1f%% against %s", c.ext, c.how, 100*float64(n-appGz)/float64(appGz), how)})
	}

	srv, err := startServe(cfg)
	if err != nil {
		return err
	}
	defer srv.stop()
	enc, n, err := wireEncoding(srv.url + "/web/app.wasm")
	if err != nil {
		return err
	}
	if enc == "" {
		enc = "none"
	}
	res.add(row{section: sec, metric: "app.wasm over serve's wire", value: float64(n), unit: "bytes",
		note: "asked with Accept-Encoding: gzip, deflate, br; Content-Encoding: " + enc})
	return measureSizeAccount(cfg, res, base) // by package and by section
}

// measureSizeAccount adds the accounting of web/app.wasm against the baseline's wasm to res.
func measureSizeAccount(cfg *config, res *results, base *baseline) error {
	const sec = "size: app.wasm − baseline, by package"
	tmp, err := os.MkdirTemp("", "backoffcalc-wasmsize-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	acc, err := wasmsize.Compare(cfg.goCmd, ".", tmp,
		wasmsize.Build{Label: "app.wasm", Pkg: "./app", Main: "backoffcalc/app (main)", Stripped: "web/app.wasm"},
		wasmsize.Build{Label: "baseline", Pkg: "./bench/baseline", Main: "backoffcalc/bench/baseline (main)", Stripped: base.wasm})
	if err != nil {
		return fmt.Errorf("accounting for app.wasm − baseline: %w", err)
	}
	if !acc.Matched {
		fmt.Fprintln(os.Stderr, "bench: web/app.wasm is not what ./app builds now: the accounting by package is of a fresh build (make wasm)")
	}
	for _, r := range acc.Rows() {
		res.add(row{section: sec, metric: r.Metric, value: r.Value, unit: r.Unit, note: r.Note})
	}
	return nil
}
